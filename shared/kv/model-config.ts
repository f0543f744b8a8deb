// From GGUF metadata (the key/value header of a llama.cpp model file) to the ModelShape the KV
// theory needs, following how llama.cpp itself reads those keys (src/llama-model.cpp,
// load_hparams / llama_model::load_arch_hparams, and src/llama-hparams.cpp):
// - head_count_kv may be one number or an array with one entry per layer (0 = no attention);
//   when absent it equals head_count;
// - head dimensions: `<arch>.attention.key_length` / `value_length` when present, otherwise
//   embedding_length / head_count (of layer 0);
// - sliding windows: `<arch>.attention.sliding_window` gives W; which layers use it comes from
//   `<arch>.attention.sliding_window_pattern` (a period, or one flag per layer: 1/true = SWA),
//   or, for architectures whose period llama.cpp hard-codes, from ARCH_SWA_DEFAULTS below;
// - MLA: GGUFs converted after ggml-org/llama.cpp#12801 carry `key_length_mla` and cache the
//   latent (kv_lora_rank + rope dim, one "head"); older DeepSeek GGUFs (no key_length_mla) run
//   as plain MHA with their head_count_kv heads of key_length/value_length;
// - `<arch>.attention.shared_kv_layers` (Gemma 3n/4): the last N layers reuse earlier KV and hold
//   no cache of their own (llama_hparams::has_kv).
// Pure: the caller reads the header (electron/node/model/gguf-reader.ts) and passes the metadata.
//
// The metadata is untrusted: every number the shape is built from is checked against
// shared/kv/model-limits.ts MODEL_LIMITS before any per-layer list is made, and text from the
// file appears in messages only through quoteUntrusted (one line, no control characters).
import type { KvType } from '../api/schemas';
import { swaPatternLayers, type ModelShape } from './kv-theory';
import { MODEL_LIMITS, quoteUntrusted } from './model-limits';

/** How the GGUF reader reports an array it counted but did not materialise (vocabularies, merges). */
export interface GgufArraySummary {
  kind: 'gguf-array';
  elementType: string;
  length: number;
}

export function isGgufArraySummary(v: unknown): v is GgufArraySummary {
  return typeof v === 'object' && v !== null && (v as GgufArraySummary).kind === 'gguf-array';
}

export class ModelConfigError extends Error {
  override name = 'ModelConfigError';
}

/**
 * Architectures whose SWA layer pattern llama.cpp hard-codes (the period passed to
 * set_swa_pattern, where layer il is SWA when il % period < period − 1) and, where llama.cpp
 * also hard-codes it, the window used when the GGUF has no sliding_window key.
 */
export const ARCH_SWA_DEFAULTS: Readonly<Record<string, { period: number; window?: number; note: string }>> = {
  // LLM_ARCH_GEMMA2: `n_swa = 4096; // default value of gemma 2`, set_swa_pattern(2).
  gemma2: { period: 2, window: 4096, note: 'Gemma 2 alternates SWA and global layers' },
  // LLM_ARCH_GEMMA3: set_swa_pattern(6) when sliding_window is present.
  gemma3: { period: 6, note: 'Gemma 3: 5 SWA layers per global layer' },
  // LLM_ARCH_COHERE2: set_swa_pattern(4).
  cohere2: { period: 4, note: 'Command R7B: 3 SWA layers per global layer' },
  // LLM_ARCH_LLAMA4: chunked attention, n_swa = 8192, set_swa_pattern(4) ("3 chunked - 1 full").
  llama4: { period: 4, window: 8192, note: 'Llama 4: 3 chunked-attention layers (8192) per global layer' },
  // LLM_ARCH_OPENAI_MOE: set_swa_pattern(2), the window (128) comes from the GGUF.
  'gpt-oss': { period: 2, note: 'gpt-oss alternates banded (windowed) and dense layers' },
};

/** llama.cpp's LLAMA_FTYPE values (general.file_type), as llama.cpp prints them. */
export const GGUF_FILE_TYPE_NAMES: Readonly<Record<number, string>> = {
  0: 'F32',
  1: 'F16',
  2: 'Q4_0',
  3: 'Q4_1',
  4: 'Q4_1_SOME_F16',
  7: 'Q8_0',
  8: 'Q5_0',
  9: 'Q5_1',
  10: 'Q2_K',
  11: 'Q3_K_S',
  12: 'Q3_K_M',
  13: 'Q3_K_L',
  14: 'Q4_K_S',
  15: 'Q4_K_M',
  16: 'Q5_K_S',
  17: 'Q5_K_M',
  18: 'Q6_K',
  19: 'IQ2_XXS',
  20: 'IQ2_XS',
  21: 'Q2_K_S',
  22: 'IQ3_XS',
  23: 'IQ3_XXS',
  24: 'IQ1_S',
  25: 'IQ4_NL',
  26: 'IQ3_S',
  27: 'IQ3_M',
  28: 'IQ2_S',
  29: 'IQ2_M',
  30: 'IQ4_XS',
  31: 'IQ1_M',
  32: 'BF16',
  33: 'Q4_0_4_4',
  34: 'Q4_0_4_8',
  35: 'Q4_0_8_8',
  36: 'TQ1_0',
  37: 'TQ2_0',
  38: 'MXFP4_MOE',
};

export interface GgufModelSummary {
  architecture: string;
  name: string | null;
  nLayer: number;
  nHead: number;
  /** One number, or one per layer when the model varies it. */
  nHeadKv: number | number[];
  nEmbd: number | null;
  headDimK: number;
  headDimV: number;
  nCtxTrain: number | null;
  slidingWindow: number | null;
  swaLayers: number;
  globalLayers: number;
  layersWithKv: number;
  mla: boolean;
  kvLoraRank: number | null;
  ropeDim: number | null;
  fileType: number | null;
  fileTypeName: string | null;
  vocabSize: number | null;
  /** Assumptions made while reading (missing keys, old formats). */
  notes: string[];
}

export interface ModelShapeOptions {
  typeK?: KvType;
  typeV?: KvType;
  /** MLA caches as llama.cpp did between April 2025 and January 2026 (K and V rows). */
  mlaStoresV?: boolean;
}

function num(meta: Record<string, unknown>, key: string): number | undefined {
  const v = meta[key];
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

/** A whole number in [min, max], or a ModelConfigError that names the key and the limit. */
function bounded(value: number, key: string, max: number, min = 1): number {
  if (!Number.isInteger(value) || value < min)
    throw new ModelConfigError(`${key} must be a whole number ≥ ${min}, got ${value}`);
  if (value > max)
    throw new ModelConfigError(`${key} is ${value}, beyond KVScope's limit of ${max}: damaged model file`);
  return value;
}

/** One count, or one per layer; each entry a whole number in [0, max]. */
function countOrArray(meta: Record<string, unknown>, key: string, max: number): number | number[] | undefined {
  const v = meta[key];
  if (Array.isArray(v)) {
    if (v.length > MODEL_LIMITS.layers)
      throw new ModelConfigError(
        `${key} has ${v.length} entries, beyond KVScope's limit of ${MODEL_LIMITS.layers} layers`,
      );
    if (!v.every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw new ModelConfigError(`${key}: expected numbers, got ${quoteUntrusted(JSON.stringify(v))}`);
    return (v as number[]).map((x) => bounded(x, key, max, 0));
  }
  if (isGgufArraySummary(v))
    throw new ModelConfigError(`${key}: array of ${v.length} entries was not read in full (raise maxArrayElements)`);
  const n = num(meta, key);
  return n === undefined ? undefined : bounded(n, key, max, 0);
}

/** Architecture names as llama.cpp spells them (llama, gemma3, gpt-oss, deepseek2, …). */
const ARCH_NAME = /^[a-z\d][\w.-]{0,63}$/i;

function str(meta: Record<string, unknown>, key: string): string | undefined {
  const v = meta[key];
  return typeof v === 'string' ? v : undefined;
}

function positiveInt(value: number | undefined, key: string, max: number): number {
  if (value === undefined) throw new ModelConfigError(`GGUF metadata lacks ${key}`);
  if (!Number.isInteger(value) || value <= 0)
    throw new ModelConfigError(`${key} must be a positive integer, got ${value}`);
  return bounded(value, key, max);
}

/** An optional count: undefined when absent, else bounded like any other. */
function optionalCount(meta: Record<string, unknown>, key: string, max: number, min = 1): number | undefined {
  const n = num(meta, key);
  return n === undefined ? undefined : bounded(n, key, max, min);
}

/**
 * Model shape (for kv-theory) and a readable summary from GGUF key/value metadata.
 * Throws ModelConfigError when a key the KV size depends on is missing or malformed.
 */
export function modelShapeFromGguf(
  metadata: Record<string, unknown>,
  options: ModelShapeOptions = {},
): { shape: ModelShape; summary: GgufModelSummary } {
  const arch = str(metadata, 'general.architecture');
  if (!arch) throw new ModelConfigError('GGUF metadata lacks general.architecture');
  if (!ARCH_NAME.test(arch))
    throw new ModelConfigError(`general.architecture ${quoteUntrusted(arch)} is not an architecture name`);
  const key = (k: string) => `${arch}.${k}`;
  const notes: string[] = [];

  const nLayer = positiveInt(num(metadata, key('block_count')), key('block_count'), MODEL_LIMITS.layers);
  const headCount = countOrArray(metadata, key('attention.head_count'), MODEL_LIMITS.heads);
  if (headCount === undefined) throw new ModelConfigError(`GGUF metadata lacks ${key('attention.head_count')}`);
  // Per-layer head counts (hybrid models put 0 on recurrent layers): the first attention layer's count.
  const nHead = Array.isArray(headCount) ? (headCount.find((h) => h > 0) ?? 0) : headCount;
  positiveInt(nHead, key('attention.head_count'), MODEL_LIMITS.heads);

  let headCountKv = countOrArray(metadata, key('attention.head_count_kv'), MODEL_LIMITS.heads);
  if (headCountKv === undefined) {
    headCountKv = headCount;
    notes.push('no head_count_kv: assuming as many KV heads as attention heads (llama.cpp default)');
  }
  if (Array.isArray(headCountKv) && headCountKv.length !== nLayer) {
    throw new ModelConfigError(
      `${key('attention.head_count_kv')} has ${headCountKv.length} entries for ${nLayer} layers`,
    );
  }
  const nEmbd = optionalCount(metadata, key('embedding_length'), MODEL_LIMITS.embeddingLength) ?? null;
  let headDimK = optionalCount(metadata, key('attention.key_length'), MODEL_LIMITS.headDim);
  let headDimV = optionalCount(metadata, key('attention.value_length'), MODEL_LIMITS.headDim);
  if (headDimK === undefined || headDimV === undefined) {
    if (nEmbd === null)
      throw new ModelConfigError(`GGUF metadata lacks ${key('embedding_length')} and ${key('attention.key_length')}`);
    const derived = nEmbd / nHead;
    if (!Number.isInteger(derived))
      throw new ModelConfigError(`embedding_length ${nEmbd} is not a multiple of head_count ${nHead}`);
    headDimK ??= derived;
    headDimV ??= derived;
  }
  positiveInt(headDimK, key('attention.key_length'), MODEL_LIMITS.headDim);
  positiveInt(headDimV, key('attention.value_length'), MODEL_LIMITS.headDim);

  const typeK = options.typeK ?? 'f16';
  const typeV = options.typeV ?? typeK;
  const kvHeadsArray = Array.isArray(headCountKv) ? headCountKv : undefined;
  // countOrArray has checked every entry (whole numbers within MODEL_LIMITS.heads).
  const kvHeads = kvHeadsArray ? kvHeadsArray.reduce((a, b) => Math.max(a, b), 0) : (headCountKv as number);

  const shape: ModelShape = { layers: nLayer, kvHeads, headDimK, headDimV, typeK, typeV };
  if (kvHeadsArray && kvHeadsArray.some((h) => h !== kvHeads)) shape.kvHeadsPerLayer = kvHeadsArray;

  // MLA (DeepSeek-V2/V3 family).
  const kvLoraRank = optionalCount(metadata, key('attention.kv_lora_rank'), MODEL_LIMITS.headDim, 0) ?? null;
  const ropeDim = optionalCount(metadata, key('rope.dimension_count'), MODEL_LIMITS.headDim, 0) ?? null;
  const keyLengthMla = num(metadata, key('attention.key_length_mla'));
  let mla = false;
  if (kvLoraRank !== null && kvLoraRank > 0) {
    if (keyLengthMla !== undefined) {
      if (ropeDim === null) throw new ModelConfigError(`MLA model without ${key('rope.dimension_count')}`);
      shape.mla = { kvLoraRank, ropeDim, storesV: options.mlaStoresV ?? false };
      mla = true;
      if (headDimK !== kvLoraRank + ropeDim)
        notes.push(
          `key_length ${headDimK} ≠ kv_lora_rank + rope dim ${kvLoraRank + ropeDim}: using the latter, as llama.cpp caches it`,
        );
      notes.push(
        options.mlaStoresV
          ? 'MLA: K (kv_lora_rank + rope dim) and V (kv_lora_rank) rows per layer, as llama.cpp from #12801 (Apr 2025) until #19067 (Jan 2026)'
          : 'MLA: one K row (kv_lora_rank + rope dim) per layer and no V, as current llama.cpp (#19067, Jan 2026)',
      );
    } else {
      notes.push(
        'MLA model converted before llama.cpp #12801 (no key_length_mla): llama.cpp runs it as plain MHA, caching full K/V heads',
      );
    }
  }

  // Sliding windows.
  const swaDefaults = Object.hasOwn(ARCH_SWA_DEFAULTS, arch) ? ARCH_SWA_DEFAULTS[arch] : undefined;
  const windowKey = optionalCount(metadata, key('attention.sliding_window'), MODEL_LIMITS.contextTokens, 0);
  const window = windowKey ?? swaDefaults?.window;
  const patternValue = metadata[key('attention.sliding_window_pattern')];
  let swaLayers: boolean[] | undefined;
  if (window !== undefined && window > 0) {
    if (Array.isArray(patternValue)) {
      if (patternValue.length !== nLayer)
        throw new ModelConfigError(
          `${key('attention.sliding_window_pattern')} has ${patternValue.length} entries for ${nLayer} layers`,
        );
      swaLayers = patternValue.map((v) => Boolean(v));
    } else if (typeof patternValue === 'number') {
      const period = bounded(patternValue, key('attention.sliding_window_pattern'), MODEL_LIMITS.layers, 0);
      swaLayers = swaPatternLayers(nLayer, period);
    } else if (swaDefaults) {
      swaLayers = swaPatternLayers(nLayer, swaDefaults.period);
      notes.push(`${swaDefaults.note} (pattern as llama.cpp hard-codes it for ${arch})`);
      if (windowKey === undefined && swaDefaults.window)
        notes.push(`no sliding_window key: using llama.cpp's default of ${swaDefaults.window} for ${arch}`);
    } else {
      notes.push(
        `sliding_window ${window} present but llama.cpp's layer pattern for "${arch}" is unknown here: counting every layer as global (an upper bound)`,
      );
    }
  }
  if (swaLayers && swaLayers.some(Boolean)) {
    shape.swaLayers = swaLayers;
    shape.slidingWindow = window;
    const kSwa = optionalCount(metadata, key('attention.key_length_swa'), MODEL_LIMITS.headDim);
    const vSwa = optionalCount(metadata, key('attention.value_length_swa'), MODEL_LIMITS.headDim);
    if (kSwa !== undefined) shape.headDimKSwa = kSwa;
    if (vSwa !== undefined) shape.headDimVSwa = vSwa;
  }

  const sharedKv = optionalCount(metadata, key('attention.shared_kv_layers'), MODEL_LIMITS.layers, 0);
  if (sharedKv !== undefined && sharedKv > 0) {
    if (sharedKv >= nLayer) throw new ModelConfigError(`shared_kv_layers ${sharedKv} ≥ block_count ${nLayer}`);
    shape.kvLayers = Array.from({ length: nLayer }, (_, il) => il < nLayer - sharedKv);
    notes.push(`the last ${sharedKv} layers reuse earlier layers' KV and hold no cache`);
  }

  const fileType = num(metadata, 'general.file_type') ?? null;
  const tokens = metadata['tokenizer.ggml.tokens'];
  const vocabSize =
    optionalCount(metadata, key('vocab_size'), MODEL_LIMITS.vocabulary, 0) ??
    (isGgufArraySummary(tokens) || Array.isArray(tokens)
      ? bounded(tokens.length, 'tokenizer.ggml.tokens', MODEL_LIMITS.vocabulary, 0)
      : null);
  // The training context is only reported (and used as -c 0's context): an implausible one is dropped, not fatal.
  const ctxTrain = num(metadata, key('context_length'));
  const nCtxTrain =
    ctxTrain !== undefined && Number.isInteger(ctxTrain) && ctxTrain > 0 && ctxTrain <= MODEL_LIMITS.contextTokens
      ? ctxTrain
      : null;
  if (ctxTrain !== undefined && nCtxTrain === null)
    notes.push(`${key('context_length')} ${ctxTrain} is not a plausible context: ignored`);
  const swaCount = shape.swaLayers?.filter(Boolean).length ?? 0;
  const layersWithKv = shape.kvLayers ? shape.kvLayers.filter(Boolean).length : nLayer;

  const summary: GgufModelSummary = {
    architecture: arch,
    name: str(metadata, 'general.name') ?? null,
    nLayer,
    nHead,
    nHeadKv: kvHeadsArray ?? kvHeads,
    nEmbd,
    headDimK,
    headDimV,
    nCtxTrain,
    slidingWindow: shape.slidingWindow ?? null,
    swaLayers: swaCount,
    globalLayers: nLayer - swaCount,
    layersWithKv,
    mla,
    kvLoraRank,
    ropeDim,
    fileType,
    fileTypeName: fileType === null ? null : (GGUF_FILE_TYPE_NAMES[fileType] ?? `unknown (${fileType})`),
    vocabSize,
    notes,
  };
  return { shape, summary };
}
