// What a failing llama.cpp says: out-of-memory and other errors, as the reason of a diagnostic (the
// line is kept and counted, never read into a number). Part of the llama.cpp log parser
// (llama-log-parser.ts), which asks here only about a line that no reader took. Pure.
//
// Lines by era (printed texts summarised, not copied):
// - CUDA: `CUDA error 2 at ggml-cuda.cu:…: out of memory` (2023), `CUDA error: out of memory` (2024+),
//   `ggml_backend_cuda_buffer_type_alloc_buffer: allocating … MiB on device 0: cudaMalloc failed: out of memory`;
//   Vulkan: `ggml_vulkan: Device memory allocation of size … failed.`, `ErrorOutOfDeviceMemory`;
//   ggml: `ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size …`,
//   `ggml_new_object: not enough space in the context's memory pool` (2023);
//   llama: `llama_kv_cache_init: failed to allocate buffer for kv cache`,
//   `llama_model_load: error loading model: …`, `llama_init_from_model: failed to initialize the context`,
//   `main: error: unable to load model`, `srv    load_model: failed to load model, '…'`;
//   C++/the shell: `terminate called after throwing an instance of 'std::bad_alloc'`, `GGML_ASSERT(…) failed`,
//   `Killed` (the kernel's OOM killer, as bash reports it), `Segmentation fault (core dumped)`;
//   ollama: `msg="model request too large for system"`, `error="model requires more system memory …"`.
// Generated text can say "error" too: only a line led by a llama.cpp function name (snake_case, or
// `main:` / `error:` / `warning:`, or a server `srv  name:` / `slot name:` or common `cmn  name:` tag) counts, apart from the
// few messages above that no prose prints.

const OOM_RE =
  /\bout of memory\b|ErrorOutOf(?:Device|Host)Memory|OUT_OF_(?:DEVICE|HOST)_MEMORY|std::bad_alloc|\bfailed to allocate\b|\bunable to allocate\b|not enough space in the (?:context's|scratch) memory pool|Device memory allocation of size \d+ failed/i;
/** Whole lines that only a dying process prints (bash's job report, the C++ runtime, ggml's asserts). */
const FATAL_LINE_RE =
  /^(?:Killed|(?:Segmentation fault|Aborted|Bus error|Illegal instruction)(?: \(core dumped\))?)$|^terminate called after throwing|\bGGML_ASSERT\b|\bGGML_ABORT\b|^CUDA error\b/;
/**
 * A llama.cpp function-name lead: `llama_model_load:`, `main:`, `error:`, `srv    load_model:`, `slot update_slots:`,
 * and common's own tag (common.h, 2026: `COM_ERR` prints `cmn  %12.*s: `, `cmn  common_init_: failed to load model`).
 */
const LEAD_RE = /^(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|main|error|warning)\s*:|^(?:srv|slot|que|res|cmn)\s+\w+:/;
const ERROR_WORD_RE = /\b(?:error|errors|failed|failure|cannot|unable to|abort(?:ed|ing)?)\b/i;
/**
 * Refusals that say no error word, for logs without the common log's level prefix:
 * - the context's `LLAMA_LOG_ERROR("%s: V cache quantization requires flash_attn")` (llama_new_context_with_model,
 *   llama_init_from_model; 2024+), after which no context is created. The lines that follow say only that the
 *   context failed; this one says why;
 * - llama-cli's `LOG_ERR("%s: prompt is too long (%d tokens, max %d)")` and `LOG_ERR("%s: no CPU backend found")`
 *   (main, late 2024+; 2023's fprintf said `main: error: prompt is too long …`), after which it exits with 1.
 */
const REFUSAL_RE =
  /\bV cache quantization requires flash_attn\b|^main: (?:prompt is too long \(|no CPU backend found$)|^srv\s+update_slots: Context size has been exceeded\b/;

/**
 * The KV cache without free cells for a batch: llama_decode's return 1 ("could not find a KV slot for the batch",
 * llama.h). The server halves the batch and tries again, and only when a batch of one does not fit fails its
 * requests (`srv  update_slots: Context size has been exceeded.`, above); llama-cli stops (`main : failed to eval`).
 * Many slots sharing one unified cache hit it under load. Counted apart from errors: the run can go on, and it is
 * the KV cache this tool watches. By era:
 * - the server's retry: `update_slots : failed to find free space in the KV cache, retrying with smaller n_batch = 256`
 *   (LOG_TEE, 2023), `WARN [update_slots] failed to find free space in the KV cache, retrying with smaller batch
 *   size - try increasing it via the context size or enable defragmentation | …` (LOG_WARNING, 2024; also as JSON
 *   with --log-format json), `srv  update_slots: failed to find free space in the KV cache, retrying with smaller
 *   batch size, i = 0, n_batch = 256, ret = 1` (SRV_WRN, 2025+);
 * - the decode's own warning: `llama_decode_internal: failed to find KV cache slot for ubatch of size 512` (2024),
 *   `decode: failed to find a memory slot for batch of size 512` (2025+), and `llama_decode: failed to decode, ret = 1`.
 */
const KV_FULL_RE =
  /\bfailed to find (?:free space in the KV cache\b|KV cache slot for u?batch of size \d|a memory slot for batch of size \d)|^llama_decode: failed to decode, ret = 1$/;
/**
 * The memory fit giving up, a warning after which the load goes on with the parameters as given
 * (`LLAMA_LOG_WARN` in llama_params_fit, late 2025; `LOG_WRN` in common_fit_params, 2026):
 * `…: failed to fit params to free device memory: n_gpu_layers already set by user to 999, abort`.
 */
const FIT_GAVE_UP_RE = /^\w*fit\w*: failed to fit params to free device memory\b/;

/**
 * Lines with a failure word that every healthy start prints: the dynamic-backend loader probing
 * each library for its entry point (`load_backend: failed to find ggml_backend_init in …`) and
 * each CPU variant in turn (`ggml_backend_load_best: failed to load …`), builds from late 2024 on.
 */
const BENIGN_RE = /^(?:load_backend: failed to find ggml_backend_init\b|ggml_backend_load_best: failed to load\b)/;

/**
 * ollama's scheduler refusing a model that does not fit in memory (its logfmt, 2024+): `level=WARN
 * source=server.go:1044 msg="model request too large for system" requested="338.1 GiB" available=…`,
 * then `msg="Load failed" … error="model requires more system memory (615.4 MiB) than is available
 * (415.9 MiB)"`. The runner never starts, so no llama.cpp line reports it.
 */
const OLLAMA_OOM_RE = /\bmsg="model request too large for system"|\berror="[^"]*\bmodel requires more system memory\b/;

/** The reason of a line that says the KV cache had no room for a batch (KV_FULL_RE). */
export const KV_FULL_REASON = 'KV cache full';

/**
 * The level llama.cpp's common log (common/log.cpp, late 2024+) printed before a line with --log-prefix:
 * `E ` for LOG_ERR and the library's LLAMA_LOG_ERROR, `W `, `I `, `D `; `stamped` when its
 * --log-timestamps time (`0.00.032.820 E `) or llama-box's date came with it.
 */
export interface CommonLogLevel {
  letter: string;
  stamped: boolean;
}

/**
 * The diagnostic reason for a line that reports a failure; null for any other line. On the prefix-stripped, trimmed
 * line, with the common log's level where its prefix gave one: a line it logged as an error is an engine error even
 * without an error word (`main: prompt is too long (2100 tokens, max 2044)`, `main: no CPU backend found`, `input is
 * empty`: LOG_ERR since late 2024, where 2023's fprintf said `error:`). A bare `E ` could start generated text, so
 * then only a led line counts; with its timestamp, any line with a word. A failure it marks as a warning (`W `) is
 * an engine warning: the engine goes on.
 */
export function engineErrorReason(trimmed: string, level: CommonLogLevel | null = null): string | null {
  if (trimmed.includes('msg="') && OLLAMA_OOM_RE.test(trimmed)) return 'engine out of memory';
  if (KV_FULL_RE.test(trimmed)) return KV_FULL_REASON;
  // The GGUF metadata dump prints the model's own strings (chat templates say `raise_exception`, `error`).
  if (trimmed.startsWith('llama_model_loader: - kv') || BENIGN_RE.test(trimmed)) return null;
  const led = LEAD_RE.test(trimmed);
  const fatal = FATAL_LINE_RE.test(trimmed);
  const loggedAsError = level?.letter === 'E' && (led || (level.stamped && /[a-z]/i.test(trimmed)));
  if (!led && !fatal && !loggedAsError) return null;
  if (OOM_RE.test(trimmed) || trimmed === 'Killed') return 'engine out of memory';
  // `warning: failed to mlock …` and the like: the run goes on, so not an error.
  if (!fatal && trimmed.startsWith('warning:')) return ERROR_WORD_RE.test(trimmed) ? 'engine warning' : null;
  if (FIT_GAVE_UP_RE.test(trimmed)) return 'engine warning';
  if (fatal || loggedAsError) return 'engine error';
  // A failure the common log marks as a warning (`W `): the engine goes on (`failed to …, falling back to …`).
  if (ERROR_WORD_RE.test(trimmed) || REFUSAL_RE.test(trimmed))
    return level?.letter === 'W' ? 'engine warning' : 'engine error';
  return null;
}
