// llama.cpp's model and context lines (`print_info: n_layer = 16`, `llm_load_print_meta`, the GGUF
// loader's `- kv 12: llama.block_count u32 = 16`, `llama_context: n_ctx = 4096`) into a ModelRecord. Part
// of the llama.cpp log parser (llama-log-parser.ts), which decides which lines come here. Pure.
import { diagnostic, type Diagnostic, type ModelRecord } from './records';

const MIB = 1024 * 1024;
const SIZE_UNITS: Record<string, number> = {
  B: 1,
  KiB: 1024,
  KB: 1024,
  MiB: MIB,
  MB: MIB,
  GiB: 1024 * MIB,
  GB: 1024 * MIB,
};

/**
 * A figure as printf wrote it, in the C locale (`12.50`) or one with a decimal comma (`12,50`: a tool
 * that set the user's LC_NUMERIC); NaN for anything else.
 */
export function decimal(text: string | undefined): number {
  return Number(/^\d+,\d+$/.test(text ?? '') ? (text ?? '').replace(',', '.') : text);
}

/** A size as llama.cpp prints it (`12.50 MiB`, `1 GB`, `12,50 MiB`), in bytes. */
export function bytesOf(value: string | undefined, unit: string | undefined): number | null {
  const u = SIZE_UNITS[unit ?? ''];
  const v = decimal(value);
  return u === undefined || !Number.isFinite(v) ? null : Math.round(v * u);
}

/**
 * Functions whose `key = value` lines describe the model, its weights' buffers or the context, by
 * group: a block of lines (one ModelRecord) ends where the group changes, so the loader's facts,
 * the weights' buffers and the context's settings stay three records even when no other line
 * separates them.
 */
const MODEL_FUNC_GROUPS: Record<string, 'model' | 'tensors' | 'context' | 'ollama' | 'metal'> = {
  print_info: 'model',
  llm_load_print_meta: 'model',
  llama_model_load: 'model',
  llama_model_load_internal: 'model',
  llama_model_loader: 'model',
  // The weights' buffers: `llm_load_tensors:` (late 2023–2024), `load_tensors:` (2025+).
  llm_load_tensors: 'tensors',
  load_tensors: 'tensors',
  llama_new_context_with_model: 'context',
  // January–May 2025 (between llama_new_context_with_model and llama_context).
  llama_init_from_model: 'context',
  llama_context: 'context',
  // llama.cpp from late 2025 prints the compute buffers under this name, no longer llama_context's.
  sched_reserve: 'context',
  // The table llama-cli and llama-server print at exit (late 2025+), one row per device.
  llama_memory_breakdown_print: 'context',
  common_memory_breakdown_print: 'context',
  // ollama's own memory lines, rewritten as `ollama: CUDA0 model weights = 4.1 GiB` (llama-log-server.ts).
  ollama: 'ollama',
  // Apple Metal builds of mid 2023 – early 2024: each buffer mapped for the GPU (readMetalBuffer).
  ggml_metal_add_buffer: 'metal',
};
export const MODEL_FUNCS = new Set(Object.keys(MODEL_FUNC_GROUPS));

/** The block group of a MODEL_FUNCS function (see MODEL_FUNC_GROUPS). */
export function modelGroup(func: string): string {
  return Object.hasOwn(MODEL_FUNC_GROUPS, func) ? (MODEL_FUNC_GROUPS[func] ?? func) : func;
}

/**
 * Keys whose value is a memory reading (so a block of them alone is a record): backend buffers
 * (`CUDA0 compute buffer size`, `CPU_Mapped model buffer size`, `CPU buffer size`, `CPU output buffer
 * size`, 2023's `compute buffer total size`), 2023's `mem required` and the CUDA offload summaries
 * (`VRAM used`, `total VRAM used`, `VRAM scratch buffer`), the offloaded layer count, ollama's
 * `<device> model weights`, `<device> compute graph` and `total memory`.
 */
const MEMORY_KEY_RE =
  /\bbuffer (?:total )?size$|^mem required$|VRAM|^offloaded layers$|model weights$|compute graph$|^total memory$/;

export function isMemoryKey(key: string): boolean {
  return MEMORY_KEY_RE.test(key);
}

/**
 * Model-block lines that are readings without `key = value`: `offloaded 33/33 layers to GPU`
 * (2023+), `VRAM used: 3577.55 MB`, `total VRAM used: 4383.49 MB (model: …, context: …)`, `VRAM scratch
 * buffer: 70.50 MB` (mid/late 2023, CUDA builds). As a [key, value] pair; null for another line.
 */
export function colonReading(body: string): [string, string] | null {
  const t = body.trim();
  const off = /^offloaded (\d+)\/(\d+) layers to GPU$/.exec(t);
  if (off) return ['offloaded layers', `${off[1]}/${off[2]}`];
  // May–June 2023 tagged these with the backend: `[cublas] total VRAM used: 12353 MB` (`[opencl]` for CLBlast).
  const vram = /^(?:\[\w+\]\s+)?((?:total )?VRAM used|VRAM scratch buffer):\s*(\S.*)$/.exec(t);
  return vram ? [vram[1] ?? '', vram[2] ?? ''] : null;
}

/**
 * A row of the memory breakdown table (late 2025+, values in MiB) as [key, value] pairs:
 * `|   - CUDA0 (RTX 4090)   | 24080 = 1245 + (22285 = 17200 +    4608 +     476) +         550 |`
 * (total = free + (self = model + context + compute) + unaccounted) and
 * `|   - Host               |                  1066 =   1000 +       0 +      66                |`
 * (self = model + context + compute). [] for the header row; null for a row that cannot be read.
 * `unaccounted` is total − free − self in a signed int64 (llama_memory_breakdown_print): negative when the device's
 * free memory was measured with this process's own buffers already counted out of it (`+      -15681 |`).
 */
export function breakdownRow(body: string): Array<[string, string]> | null {
  const t = body.trim();
  if (/^\|\s*memory breakdown \[MiB\]\s*\|/.test(t)) return [];
  // `| - <device> | <figures> |`: split at the bars (a device name has none).
  const cells = t.split('|').map((c) => c.trim());
  if (cells.length !== 4 || cells[0] !== '' || cells[3] !== '' || !cells[1]?.startsWith('-')) return null;
  const dev = cells[1].slice(1).trim();
  const n = String.raw`(\d+)`;
  const gpu = new RegExp(
    String.raw`^${n}\s*=\s*${n}\s*\+\s*\(\s*${n}\s*=\s*${n}\s*\+\s*${n}\s*\+\s*${n}\s*\)\s*\+\s*(-?\d+)$`,
  ).exec(cells[2] ?? '');
  const names = gpu
    ? ['total', 'free', 'self', 'model', 'context', 'compute', 'unaccounted']
    : ['self', 'model', 'context', 'compute'];
  const m = gpu ?? new RegExp(String.raw`^${n}\s*=\s*${n}\s*\+\s*${n}\s*\+\s*${n}$`).exec(cells[2] ?? '');
  if (!m) return null;
  return names.map((name, i) => [
    `${dev} ${name}`,
    `${name === 'unaccounted' ? unwrapUnaccounted(m[i + 1] ?? '') : (m[i + 1] ?? '')} MiB`,
  ]);
}

/** 2^64 bytes in MiB: where a negative size_t, printed in MiB, wraps to. */
const SIZE_T_WRAP_MIB = 2 ** 44;

/**
 * Earlier breakdown builds kept `unaccounted` in a size_t (`total - self - free` in llama-context.cpp, before the
 * int64 of later ones), so a negative one was printed wrapped, 2^44 MiB less its size: `+ 17592186030401 |` on an Arc
 * A770 is -14015 MiB. No device holds 2^43 MiB (8 EiB): a figure above that is such a wrap, read back (to the MiB).
 */
function unwrapUnaccounted(printed: string): string {
  const v = Number(printed);
  return v > SIZE_T_WRAP_MIB / 2 && v <= SIZE_T_WRAP_MIB ? String(v - SIZE_T_WRAP_MIB) : printed;
}
/**
 * A print_info / llm_load_print_meta key (`n_head_kv`, `model type`, `rope scaling`, `f_norm_eps`…),
 * or a buffer key led by a device whose name holds an address: an RPC worker, `RPC[10.0.2.242:50052]
 * model buffer size` (2024–2025), `RPC0[127.0.0.1:9555] compute buffer size` (late 2025+).
 */
const MODEL_KEY_RE = /^(?:[a-z_]\w*\[[^\s\]=]+\]\s+)?[a-z_][\w .()-]*$/i;
/** On the trimmed body: `- kv  12: llama.block_count u32 = 32`. */
export const LOADER_KV_RE = /^- kv\s+[^\s:]+:\s+(\S+)\s+(\S+)\s+=(?:\s+(\S.*))?$/;

/** `key = value` split at the first `=`, both trimmed; null when there is no `=` or the key is not a key. */
export function modelKeyValue(body: string): [string, string] | null {
  const eq = body.indexOf('=');
  if (eq < 0) return null;
  const key = body.slice(0, eq).trim();
  return MODEL_KEY_RE.test(key) ? [key, body.slice(eq + 1).trim()] : null;
}

type ModelFields = Omit<ModelRecord, 'kind' | 'line' | 'source' | 'extra'>;
type NumericKey = {
  [K in keyof ModelFields]-?: NonNullable<ModelFields[K]> extends number ? K : never;
}[keyof ModelFields];

const PRINT_META_INTS: Record<string, NumericKey> = {
  n_vocab: 'nVocab',
  n_ctx_train: 'nCtxTrain',
  n_ctx: 'nCtx',
  n_ctx_per_seq: 'nCtxPerSeq',
  // llama_context of late 2026 (node-llama-cpp 3.21 bundles it) prints the same figure under this name.
  n_ctx_seq: 'nCtxPerSeq',
  n_seq_max: 'nSeqMax',
  n_batch: 'nBatch',
  n_ubatch: 'nUbatch',
  n_embd: 'nEmbd',
  n_layer: 'nLayer',
  n_rot: 'nRot',
  n_swa: 'slidingWindow',
  n_embd_head_k: 'headDimK',
  n_embd_head_v: 'headDimV',
  n_expert: 'nExpert',
  n_expert_used: 'nExpertUsed',
};

type TextKey = 'arch' | 'modelName' | 'modelType' | 'fileType' | 'flashAttn';

/** print_info / llama_context lines whose value is kept as printed. */
const PRINT_META_TEXTS: Record<string, TextKey> = {
  arch: 'arch',
  'general.name': 'modelName',
  'model type': 'modelType',
  'model ftype': 'fileType',
  'file type': 'fileType',
  ftype: 'fileType',
  flash_attn: 'flashAttn',
};

/** GGUF keys kept as printed (whole keys: they have no `<arch>.` prefix). */
const GGUF_TEXTS: Record<string, TextKey> = {
  'general.architecture': 'arch',
  'general.name': 'modelName',
  'general.file_type': 'fileType',
};

/** GGUF keys (`<arch>.` prefix removed) of llama_model_loader's kv dump. */
const GGUF_KEYS: Record<string, NumericKey | 'nHead' | 'nHeadKv' | 'nFf'> = {
  context_length: 'nCtxTrain',
  embedding_length: 'nEmbd',
  block_count: 'nLayer',
  'attention.head_count': 'nHead',
  'attention.head_count_kv': 'nHeadKv',
  'attention.key_length': 'headDimK',
  'attention.value_length': 'headDimV',
  'attention.sliding_window': 'slidingWindow',
  feed_forward_length: 'nFf',
  expert_count: 'nExpert',
  expert_used_count: 'nExpertUsed',
  vocab_size: 'nVocab',
};

/** A table entry by a key from the log (`constructor` and other Object.prototype names are not entries). */
function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

const PARAM_SCALE: Record<string, number> = { K: 1e3, M: 1e6, B: 1e9, T: 1e12 };

export interface ModelBlock {
  record: ModelRecord;
  mapped: number;
  /** How many times each buffer key was printed in this block (numberedBufferKey). */
  printed?: Map<string, number>;
}

/**
 * The key a buffer reading of a block is kept under: its own the first time; when the block prints
 * it again, the device numbered in print order (`RPC#2 buffer size`). Each print is another buffer:
 * the RPC servers of 2024 are all named `RPC` (`llm_load_tensors: RPC buffer size = …` once per
 * server, and one compute buffer each), a split GGUF maps one `CPU_Mapped` buffer per file.
 */
export function numberedBufferKey(block: ModelBlock, key: string): string {
  block.printed ??= new Map();
  const n = (block.printed.get(key) ?? 0) + 1;
  block.printed.set(key, n);
  if (n === 1) return key;
  const sp = key.indexOf(' ');
  return sp < 0 ? `${key}#${n}` : `${key.slice(0, sp)}#${n}${key.slice(sp)}`;
}

interface PerLayer {
  scalar: number | null;
  list: number[] | null;
}

/** `8` → 8; `[8, 8, 0]` → per-layer list (scalar null unless all equal). */
function perLayer(value: string): PerLayer | null {
  if (/^\d+$/.test(value)) return { scalar: Number(value), list: null };
  const arr = /^\[([\d,\s]*)\]$/.exec(value);
  if (!arr) return null;
  const list = (arr[1] ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map(Number);
  if (list.length === 0) return null;
  const first = list[0] ?? null;
  return { scalar: list.every((x) => x === first) ? first : null, list };
}

/**
 * Head counts and feed-forward width: the scalar (the value of every layer, or null when they
 * differ) and, for head counts, the per-layer list when the model has one.
 */
function setPerLayerField(r: ModelRecord, field: 'nHead' | 'nHeadKv' | 'nFf', v: PerLayer): void {
  if (field === 'nHead') {
    r.nHead = v.scalar;
    if (v.list) r.nHeadPerLayer = v.list;
  } else if (field === 'nHeadKv') {
    r.nHeadKv = v.scalar;
    if (v.list) r.nHeadKvPerLayer = v.list;
  } else r.nFf = v.scalar;
}

export function setModelField(r: ModelRecord, key: string, value: string): boolean {
  const k = key.replace(/\s+/g, ' ').trim();
  const int = own(PRINT_META_INTS, k);
  if (int) {
    if (!/^\d+$/.test(value)) return false;
    r[int] = Number(value);
    return true;
  }
  const text = own(PRINT_META_TEXTS, k);
  if (text) {
    r[text] = value;
    return true;
  }
  switch (k) {
    case 'model params': {
      const m = /^(\d+(?:[.,]\d+)?)\s*([KMBT])$/.exec(value);
      if (!m) return false;
      r.nParams = Math.round(decimal(m[1]) * (PARAM_SCALE[m[2] ?? ''] ?? NaN));
      return true;
    }
    case 'model size':
    case 'file size': {
      // `3.56 GiB (4.54 BPW)`, `762.49 MiB (6.40 BPW)`, 2023: `4017.27 MB / num tensors = 291`
      const m = /^(\d+(?:[.,]\d+)?)\s*(KiB|MiB|GiB|MB|GB)\b(?:\s*\((\d+(?:[.,]\d+)?)\s*BPW\))?/.exec(value);
      // mid 2023 (`llama_model_load_internal: model size = 7B`): the model type, not a size
      if (!m && k === 'model size' && /^\d+(?:\.\d+)?[KMBT]$/.test(value)) {
        r.modelType = value;
        return true;
      }
      // August–September 2023 (GGUF's first weeks): the parameter count, `model size = 6.74 B`.
      const params = !m && k === 'model size' ? /^(\d+(?:[.,]\d+)?) ([KMBT])$/.exec(value) : null;
      if (params) {
        r.nParams = Math.round(decimal(params[1]) * (PARAM_SCALE[params[2] ?? ''] ?? NaN));
        return true;
      }
      if (!m) return false;
      // A BPW that is there and cannot be read (`(. BPW)`, a cut line) makes the line unreadable, not silent.
      if (m[3] === undefined && /BPW/.test(value)) return false;
      const b = bytesOf(m[1], m[2]);
      if (b === null) return false;
      r.modelSizeBytes = b;
      if (m[3] !== undefined) r.bitsPerWeight = decimal(m[3]);
      return true;
    }
    case 'n_head':
    case 'n_head_kv':
    case 'n_ff': {
      const v = perLayer(value);
      if (!v) return false;
      setPerLayerField(r, k === 'n_head' ? 'nHead' : k === 'n_head_kv' ? 'nHeadKv' : 'nFf', v);
      return true;
    }
    default:
      return false;
  }
}

/** Keys setModelField reads: a line with one of them whose value it cannot read is a diagnostic, not chatter. */
const MODEL_SWITCH_KEYS = new Set(['model params', 'model size', 'file size', 'n_head', 'n_head_kv', 'n_ff']);

/**
 * The key is one setModelField (`print_info` …) or setGgufField (`llama_model_loader: - kv`) reads,
 * and the value is not a list (the loader cuts long lists short with `...`, which stays unread on purpose).
 */
export function isReadingKey(key: string, value: string, gguf: boolean): boolean {
  if (value.trim().startsWith('[')) return false;
  if (gguf) {
    const dot = key.indexOf('.');
    return own(GGUF_TEXTS, key) !== undefined || (dot > 0 && own(GGUF_KEYS, key.slice(dot + 1)) !== undefined);
  }
  const k = key.replace(/\s+/g, ' ').trim();
  return own(PRINT_META_INTS, k) !== undefined || own(PRINT_META_TEXTS, k) !== undefined || MODEL_SWITCH_KEYS.has(k);
}

export function setGgufField(r: ModelRecord, key: string, _type: string, value: string): boolean {
  const text = own(GGUF_TEXTS, key);
  if (text) {
    r[text] = value;
    return true;
  }
  const dot = key.indexOf('.');
  const field = dot > 0 ? own(GGUF_KEYS, key.slice(dot + 1)) : undefined;
  if (!field) return false;
  const v = perLayer(value);
  if (!v) return false;
  if (field === 'nHead' || field === 'nHeadKv' || field === 'nFf') setPerLayerField(r, field, v);
  else if (v.scalar !== null) r[field] = v.scalar;
  else return false;
  return true;
}

/**
 * llama-cpp-python's `Model metadata: {'general.name': 'tinyllama', 'llama.context_length': '2048', …}`
 * (its Llama() constructor, verbose, since 0.2.x): the GGUF metadata as a Python dict of strings, one
 * line, printed after llama.cpp's own lines. It carries what the loader's kv dump does (context length,
 * layers, heads, KV heads), which a log that kept only Python's output has nowhere else. Values are
 * read as setGgufField reads the kv dump; a quoted value holding a quote (the chat template, printed
 * with double quotes) is skipped whole. Null for another line; a diagnostic when no key can be read.
 */
export function readPythonMetadata(trimmed: string, line: number, raw: string): ModelRecord | Diagnostic | null {
  if (!trimmed.startsWith('Model metadata: {')) return null;
  const r: ModelRecord = { kind: 'model', line, source: 'llama-cpp-python' };
  let mapped = 0;
  for (const m of trimmed.matchAll(/'([\w.-]+)': '([^'\\]*)'/g)) {
    if (setGgufField(r, m[1] ?? '', '', m[2] ?? '')) mapped++;
  }
  return mapped > 0 ? r : diagnostic(line, 'unreadable model metadata line', raw);
}

/**
 * llama_params_fit (src/llama.cpp, late 2025; common's `common_params_fit_impl` since 2026), on by default
 * (`-fit on`): before loading it projects each device's use (`%s:   - %s: %6d total, %6d used, %6d free vs. target
 * of %6d`, or `… deficit`) and the sum (`projected to use %d MiB of device memory vs. …`), then shrinks the
 * context or moves layers. Estimates, not what was allocated (the load's own lines say that): each sized line is a
 * diagnostic that says so; its headers and verdicts without a figure are chatter.
 */
export const FIT_PROJECTION_REASON =
  "llama.cpp's memory fit projection (estimates before loading, not what was allocated): not read";
const FIT_FUNC_RE = /^(?:llama|common)_params_fit(?:_impl)?$/;
const FIT_SIZED_RE = /\d\s*MiB\b|\d total,\s*-?\d+ used\b/;

/** A fit projection line (the function and the body after `func: `) that carries a figure. */
export function isFitProjection(func: string, body: string): boolean {
  return FIT_FUNC_RE.test(func) && FIT_SIZED_RE.test(body);
}

/**
 * Metal's buffer lines (ggml-metal.m, mid 2023 – early 2024): `ggml_metal_add_buffer: allocated '%-16s' buffer, size =
 * %8.2f MB` (MiB from late 2023), then `, offs = %12ld` (one view of a split buffer) or `, (%8.2f / %8.2f)` (allocated
 * so far / the device's recommended working set); the 2024 backend's `ggml_backend_metal_log_allocated_size: allocated
 * buffer, size = …` names no buffer. On the body, trimmed: the buffer's name (null for the 2024 form), size and unit.
 */
const METAL_BUFFER_RE = /^allocated (?:'\s*([^'\s]+)\s*' )?buffer, size =\s*([\d.]+)\s*(MiB|MB)\b/;

export function readMetalBuffer(body: string): { name: string | null; size: string; unit: string } | null {
  const m = METAL_BUFFER_RE.exec(body);
  return m ? { name: m[1] ?? null, size: m[2] ?? '', unit: m[3] ?? '' } : null;
}

/** Printed by both on the same line when the allocations pass the device's recommended working set. */
export const METAL_OVERCOMMIT_RE =
  /\bwarning: current allocated size is greater than the recommended max working set size/;
export const METAL_ALLOC_LOG_REASON =
  "Metal's allocation log (the buffer lines of the load and the context report these sizes): not read";
