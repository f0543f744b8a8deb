// Failures llama.cpp and its process print, by era: kept as counted diagnostics (the run's reason
// of death), never silence. Lines as those versions print them (printing function in the comment).
import { describe, expect, it } from 'vitest';
import { engineErrorReason } from '../../../../shared/parsers/llama-log-errors';
import { diagnostics, parse, parseFixture } from '../../../helpers/parser-test-kit';

const OOM = 'engine out of memory';
const ERROR = 'engine error';

describe('llama.cpp failures become diagnostics', () => {
  it.each([
    // ggml-cuda (2024+): the allocation that failed, then the buffer it was for
    [
      'ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4096.00 MiB on device 0: cudaMalloc failed: out of memory',
      OOM,
    ],
    ['ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 4563402752', OOM],
    ['llama_kv_cache_init: failed to allocate buffer for kv cache', OOM],
    ['llama_new_context_with_model: failed to allocate compute buffers', OOM],
    // ggml-cuda 2023 (`CUDA error 2 at …: out of memory`) and 2024+ (`CUDA error: out of memory`)
    ['CUDA error 2 at /home/nvidia/llama.cpp/ggml-cuda.cu:7201: out of memory', OOM],
    ['CUDA error: out of memory', OOM],
    // ggml-vulkan (Raspberry Pi 5, Adreno and Mali boards)
    ['ggml_vulkan: Device memory allocation of size 2147483648 failed.', OOM],
    ['ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory', OOM],
    // ggml 2023: the fixed context pool ran out
    ["ggml_new_object: not enough space in the context's memory pool (needed 1638880, available 1638400)", OOM],
    // C++ runtime and the shell: a process killed by the kernel's OOM killer shows as bash's `Killed`
    ["terminate called after throwing an instance of 'std::bad_alloc'", OOM],
    ['Killed', OOM],
    ['Segmentation fault (core dumped)', ERROR],
    ['/home/pi/llama.cpp/ggml/src/ggml.c:1588: GGML_ASSERT(view_src == NULL || data_size == 0) failed', ERROR],
    // loading and context creation, every era's function names
    ["llama_model_load: error loading model: tensor 'blk.0.attn_q.weight' data is not within the file bounds", ERROR],
    ['llama_load_model_from_file: failed to load model', ERROR],
    ['llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache', OOM],
    ['main: error: unable to load model', ERROR],
    ["srv    load_model: failed to load model, '/models/qwen3-4b.gguf'", ERROR],
    // The run goes on after a warning: counted, but not as an error.
    [
      'warning: failed to mlock 1417216-byte buffer (after previously locking 0 bytes): Cannot allocate memory',
      'engine warning',
    ],
  ])('%s', (line, reason) => {
    expect(engineErrorReason(line)).toBe(reason);
    // Through the parser too, with the common log's error prefix and colour in front.
    const all = parse('llama-log', `\u001b[31mE ${line}\u001b[0m`);
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([[1, reason]]);
  });

  it('generated text and ordinary chatter are not failures', () => {
    const text = [
      'Error handling matters: wrap the call in try/catch.',
      'Answer: the build failed because the linker was missing.',
      'The process was Killed by the user.',
      'note: this failed before',
      'llama_context: n_ctx_per_seq (4096) < n_ctx_train (32768) -- the full capacity of the model will not be utilized',
      "llama_model_loader: - kv  30:                    tokenizer.chat_template str              = {% if error %}{{ raise_exception('failed') }}{% endif %}",
      'common_init_from_params: warming up the model with an empty run - please wait ... (--no-warmup to disable)',
      // Every healthy start of a dynamic-backend build (late 2024 on) probes its libraries like this.
      'load_backend: failed to find ggml_backend_init in /usr/local/lib/libggml-vulkan.so',
      'ggml_backend_load_best: failed to load /usr/local/lib/libggml-cpu-sapphirerapids.so',
      'warning: no usable GPU found, --gpu-layers option will be ignored',
    ];
    for (const line of text) expect(engineErrorReason(line), line).toBeNull();
    expect(diagnostics(parse('llama-log', text.join('\n')))).toEqual([]);
  });

  // Audit: lines 1 and 6 were dropped without a word. llama-cli of mid 2026 on a Vulkan iGPU that ran out of
  // memory, verbatim (https://github.com/moonpiedumplings/moonpiedumplings.github.io/blob/b04ea3f640f45ebc4d9b3b3325c984bcb2a4dc69/playground/local-llm/index.md):
  // line 1 is the first log line glued to llama-cli's `Loading model... ` spinner; line 6 is common's own
  // tagged form (common.h: `COM_ERR` prints `cmn  %12.*s: `, the function name cut to 12 characters).
  it("a failure behind llama-cli's loading spinner, and common's `cmn  name:` lines, are counted", () => {
    const path =
      '/home/moonpie/.cache/huggingface/hub/models--unsloth--Qwen3.6-35B-A3B-GGUF/snapshots/a483e9e6cbd595906af30beda3187c2663a1118c/Qwen3.6-35B-A3B-UD-Q4_K_M.gguf';
    const log = [
      'Loading model... -ggml_vulkan: Device memory allocation of size 1056622080 failed.',
      'ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory',
      '0.22.480.740 E alloc_tensor_range: failed to allocate Vulkan0 buffer of size 1056622080',
      '/0.22.832.396 E llama_model_load: error loading model: unable to allocate Vulkan0 buffer',
      '0.22.832.401 E llama_model_load_from_file_impl: failed to load model',
      `0.22.832.435 E cmn  common_init_: failed to load model '${path}'`,
      `-0.22.835.534 E srv    load_model: failed to load model, '${path}'`,
    ];
    expect(diagnostics(parse('llama-log', log.join('\n'))).map((d) => [d.line, d.reason])).toEqual([
      [1, OOM],
      [2, OOM],
      [3, OOM],
      [4, OOM],
      [5, ERROR],
      [6, ERROR],
      [7, ERROR],
    ]);
  });

  // Audit: the context's refusal of a quantized V cache without flash attention (LLAMA_LOG_ERROR, then the context
  // is not created) was dropped without a word: the lines after it say only that the context failed, not why.
  // Line 1 https://github.com/ggml-org/llama.cpp/issues/10378 (November 2024); line 2 under journald,
  // https://github.com/ollama/ollama/issues/15043 (March 2026); line 3, flash attention forced off and the run going
  // on, stays chatter (https://github.com/ollama/ollama/pull/6279 , August 2024).
  it('a context refused for a quantized V cache without flash attention is an engine error', () => {
    const log = [
      'llama_new_context_with_model: V cache quantization requires flash_attn',
      'Mar 24 21:17:29 jarvis ollama[2742822]: llama_init_from_model: V cache quantization requires flash_attn',
      'llama_new_context_with_model: flash_attn requires n_embd_head_k == n_embd_head_v - forcing off',
    ];
    expect(diagnostics(parse('llama-log', log.join('\n'))).map((d) => [d.line, d.reason])).toEqual([
      [1, ERROR],
      [2, ERROR],
    ]);
  });

  // Since late 2024 llama-cli's refusals are LOG_ERR without the word `error:` its 2023 fprintf printed (tools/main/
  // main.cpp: `%s: prompt is too long (%d tokens, max %d)`, `%s: no CPU backend found`, `input is empty`), and with
  // --log-prefix the common log marks each line's level (common/log.cpp: `%d.%02d.%03d.%03d ` with --log-timestamps,
  // in blue, then `E ` in red, the colour reset after the message). Lines written from those format strings.
  it('a line the common log marks as an error is an engine error, without an error word', () => {
    const log = [
      '\u001b[34m0.01.733.114\u001b[0m \u001b[31mE main: prompt is too long (2100 tokens, max 2044)',
      '\u001b[0mE main: prompt is too long (2100 tokens, max 2044)',
      'main: prompt is too long (2100 tokens, max 2044)',
      '0.00.512.004 E input is empty',
      '[2025-06-14 23:20:30.830830] E main: no CPU backend found',
      'main: no CPU backend found',
      // Not errors: other levels; a bare `E ` before text that no llama.cpp function leads (generated text can
      // start so); an error-level line of stars (llama-cli frames its embedding refusal with them).
      '0.00.010.002 I main: llama backend init',
      '0.00.700.100 W llama_context: n_ctx_per_seq (4096) < n_ctx_train (32768) -- the full capacity of the model will not be utilized',
      'E input is empty',
      'E is for elephant, F is for fish.',
      '0.00.001.000 E ************',
      'main: the prompt is too long for a haiku',
    ];
    expect(diagnostics(parse('llama-log', log.join('\n'))).map((d) => [d.line, d.reason])).toEqual([
      [1, ERROR],
      [2, ERROR],
      [3, ERROR],
      [4, ERROR],
      [5, ERROR],
      [6, ERROR],
    ]);
  });

  // LOG_WRN's `%s: failed to …, falling back to …` (a server's optional embedding model): the engine goes on.
  it('a failure the common log marks as a warning is an engine warning; without the mark, an engine error', () => {
    const line = 'load_model: failed to load dedicated embedding model, falling back to the main model when possible';
    const log = [`0.12.345.678 W ${line}`, `W ${line}`, line, `0.12.345.679 I ${line}`];
    expect(diagnostics(parse('llama-log', log.join('\n'))).map((d) => [d.line, d.reason])).toEqual([
      [1, 'engine warning'],
      [2, 'engine warning'],
      [3, ERROR],
      [4, ERROR],
    ]);
  });

  // llama_decode returning 1 (no KV cells free for the batch), by era, written from the printing code's format
  // strings: 2023 server LOG_TEE, 2024 server LOG_WARNING in its text and JSON forms, 2025+ SRV_WRN, the decode's
  // own LLAMA_LOG_WARN of 2024 and 2025+. The batch of 920 is one a user's notes quote from a vision model's run.
  it('a KV cache with no room for a batch is counted as that, not as an engine error; requests failing for it are', () => {
    const log = [
      'update_slots : failed to find free space in the KV cache, retrying with smaller n_batch = 256',
      'WARN [update_slots] failed to find free space in the KV cache, retrying with smaller batch size - try increasing it via the context size or enable defragmentation | tid="139943256522752" timestamp=1718090000 i=0 n_batch=256 ret=1',
      '{"tid":"139943256522752","timestamp":1718090000,"level":"WARN","function":"update_slots","line":2216,"msg":"failed to find free space in the KV cache, retrying with smaller batch size - try increasing it via the context size or enable defragmentation","i":0,"n_batch":256,"ret":1}',
      '0.41.002.118 W srv  update_slots: failed to find free space in the KV cache, retrying with smaller batch size, i = 0, n_batch = 256, ret = 1',
      'llama_decode_internal: failed to find KV cache slot for ubatch of size 512',
      'decode: failed to find a memory slot for batch of size 920',
      'llama_decode: failed to decode, ret = 1',
      // A batch of one did not fit: the server fails its requests (SRV_ERR, no error word).
      'srv  update_slots: Context size has been exceeded., i = 0, n_batch = 1, ret = 1',
      // Other returns of llama_decode are errors.
      'llama_decode: failed to decode, ret = -3',
    ];
    expect(diagnostics(parse('llama-log', log.join('\n'))).map((d) => [d.line, d.reason])).toEqual([
      [1, 'KV cache full'],
      [2, 'KV cache full'],
      [3, 'KV cache full'],
      [4, 'KV cache full'],
      [5, 'KV cache full'],
      [6, 'KV cache full'],
      [7, 'KV cache full'],
      [8, ERROR],
      [9, ERROR],
    ]);
  });

  it('servers of 2023–2025 whose KV cache was full (real logs): each retry counted as that, each failed request as an error', () => {
    // test/fixtures/llama-cpp/server-kv-full-2023-2025/SOURCE: (A) under docker compose, (B) llamafile's `[time] `
    // prefix, 256 down to 1 and the request failing in each; (C) 2025's decode and retry lines, four of each.
    const found = diagnostics(parseFixture('llama-log', 'llama-cpp/server-kv-full-2023-2025/server-kv-full.txt'));
    const lines = (reason: string) => found.filter((d) => d.reason === reason).map((d) => d.line);
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    expect(lines('KV cache full')).toEqual([...range(6, 14), ...range(17, 25), ...range(28, 35)]);
    expect(lines(ERROR)).toEqual([15, 26]);
    expect(found).toHaveLength(28);
  });

  // Audit: the fit giving up (`LOG_WRN("%s: failed to fit params to free device memory: %s")`, common since 2026,
  // llama_params_fit's LLAMA_LOG_WARN before) was counted as an engine error: the load goes on with the parameters as
  // given. Verbatim from a comment's log in https://github.com/ggml-org/llama.cpp/pull/24682 (June 2026).
  it('the memory fit giving up is a warning, not an engine error', () => {
    const line =
      '[54387] 183.19.333.556 W common_fit_params: failed to fit params to free device memory: n_gpu_layers already set by user to 999, abort';
    expect(diagnostics(parse('llama-log', line)).map((d) => [d.line, d.reason])).toEqual([[1, 'engine warning']]);
  });
});
