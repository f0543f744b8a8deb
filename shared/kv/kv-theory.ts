// KV-cache theory: how many bytes a model's K/V cache holds per token and at a given context,
// for the three residency modes of docs/DESIGN.md ("The physics the product is about").
//
// The numbers follow llama.cpp, the engine most edge boards run, and each rule below says which
// llama.cpp behaviour it mirrors:
// - row sizes: ggml's block layouts (q8_0 = 32 values in 34 bytes: 32 int8 + one f16 scale, …);
//   a quantized type whose block does not divide the head dimension is refused, exactly as
//   llama.cpp refuses it ("K cache type q8_0 with block size 32 does not divide n_embd_head_k=8");
// - per-layer shapes (llama_hparams::n_embd_k_gqa(il) = n_embd_head_k × n_head_kv(il)): KV-head
//   counts may differ per layer, some layers may hold no cache of their own (shared-KV layers);
// - sliding-window attention (SWA): layers marked SWA keep at most W tokens while global layers
//   grow with the context (Gemma 2 alternates 1:1, Gemma 3 has 5 SWA layers per global one);
// - MLA (DeepSeek-V2/V3, GLM-4.7-Flash): the cache holds the compressed latent c_kv
//   (kv_lora_rank values) plus the shared RoPE key (qk_rope_head_dim values) per layer and token,
//   as a single "head". llama.cpp history, which changes the size by almost 2×:
//     * before ggml-org/llama.cpp#12801 (April 2025) and for GGUFs converted before it, DeepSeek
//       was run as plain MHA: K = n_head × 192, V = n_head × 128 per layer (no MLA saving);
//     * #12801 "DeepSeek V2/V3 MLA implementation" (merged April 2025) re-converted the model with
//       head_count_kv = 1, key_length = kv_lora_rank + rope (576), value_length = kv_lora_rank
//       (512), and cached K (576) and V (512) rows per layer;
//     * #19067 "kv-cache : support V-less cache" (merged January 2026) stopped allocating V for
//       MLA models: "we store combined latent data represented by the K cache. Results in almost
//       x2 less memory for the KV cache" — only the 576-value K row per layer remains.
//   `mla.storesV` selects the 2025 behaviour; the default is current llama.cpp (K only).
// - reserved mode (llama.cpp allocates and clears n_ctx cells at context creation): n_ctx is
//   padded up to a multiple of 256 — src/llama-context.cpp `cparams.n_ctx = GGML_PAD(cparams.n_ctx,
//   256)` since ggml-org/llama.cpp#17046 (November 2025); before that the padding was
//   llama_kv_cache::get_padding() = 32 (256 with flash attention). Non-unified caches with several
//   sequences pad each sequence's share (n_ctx_seq) the same way. The SWA part of an iSWA cache
//   holds min(n_ctx_seq, n_swa × (unified ? n_seq : 1) + n_ubatch) cells, padded to 256
//   (src/llama-kv-cache-iswa.cpp, "the SWA cache is always padded to 256 for performance",
//   ggml-org/llama.cpp#17037), unless --swa-full makes it as large as the base cache.
import {
  KvComputeInputSchema,
  type KvComputeInput,
  type KvComputeResult,
  type KvMode,
  type KvType,
} from '../api/schemas';
import { MODEL_LIMITS } from './model-limits';

export type { KvMode, KvType };

/** ggml block layout of each KV element type: `blockBytes` bytes hold `blockValues` values. */
export const KV_TYPE_LAYOUT: Readonly<Record<KvType, { blockValues: number; blockBytes: number }>> = {
  f32: { blockValues: 1, blockBytes: 4 },
  f16: { blockValues: 1, blockBytes: 2 },
  bf16: { blockValues: 1, blockBytes: 2 },
  // 32 int8 quants + one f16 scale.
  q8_0: { blockValues: 32, blockBytes: 34 },
  // 16 bytes of 4-bit quants + f16 scale.
  q4_0: { blockValues: 32, blockBytes: 18 },
  // 16 bytes of 4-bit quants + f16 scale + f16 min.
  q4_1: { blockValues: 32, blockBytes: 20 },
  // 16 bytes of low nibbles + 4 bytes of 5th bits + f16 scale.
  q5_0: { blockValues: 32, blockBytes: 22 },
  // as q5_0 + f16 min.
  q5_1: { blockValues: 32, blockBytes: 24 },
};

/** llama.cpp pads n_ctx to this many cells (src/llama-context.cpp, since #17046). */
export const LLAMA_CPP_CTX_PAD = 256;
/** llama.cpp's padding before #17046 without flash attention (get_padding() = 32). */
export const LLAMA_CPP_LEGACY_CTX_PAD = 32;
/** llama.cpp's default n_ubatch, which the SWA cache adds to n_swa (common/common.h). */
export const LLAMA_CPP_DEFAULT_UBATCH = 512;

/** A model shape llama.cpp would refuse, or that makes no sense. */
export class KvShapeError extends Error {
  override name = 'KvShapeError';
}

function isPositiveInt(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n > 0;
}

/** The reason `dim` values of `type` cannot form a cache row, or null when they can. */
export function rowError(dim: number, type: KvType, what = 'head dimension'): string | null {
  const layout = KV_TYPE_LAYOUT[type];
  if (!layout) return `unknown KV type "${String(type)}"`;
  if (!isPositiveInt(dim)) return `${what} must be a positive integer, got ${String(dim)}`;
  if (dim > MODEL_LIMITS.headDim) return `${what} ${dim} is beyond KVScope's limit of ${MODEL_LIMITS.headDim}`;
  if (dim % layout.blockValues !== 0) {
    return `${type} with block size ${layout.blockValues} does not divide ${what} ${dim} (llama.cpp refuses this KV type for this model)`;
  }
  return null;
}

/** Bytes of one cache row of `dim` values stored as `type`. Throws KvShapeError when impossible. */
export function rowBytes(dim: number, type: KvType): number {
  const error = rowError(dim, type);
  if (error) throw new KvShapeError(error);
  const { blockValues, blockBytes } = KV_TYPE_LAYOUT[type];
  return (dim / blockValues) * blockBytes;
}

/** Multi-head latent attention (DeepSeek-V2/V3 and relatives), as llama.cpp caches it. */
export interface MlaShape {
  /** `kv_lora_rank`: size of the compressed latent c_kv. */
  kvLoraRank: number;
  /** `qk_rope_head_dim` (GGUF `rope.dimension_count`): the decoupled RoPE key part. */
  ropeDim: number;
  /** true = llama.cpp between #12801 (Apr 2025) and #19067 (Jan 2026), which also kept a V row of kvLoraRank. */
  storesV?: boolean;
}

export interface ModelShape {
  layers: number;
  /** KV heads of every layer, unless kvHeadsPerLayer says otherwise. */
  kvHeads: number;
  headDimK: number;
  headDimV: number;
  typeK: KvType;
  typeV: KvType;
  /** KV heads per layer when they differ between layers (GGUF `head_count_kv` as an array). */
  kvHeadsPerLayer?: readonly number[];
  /** Sliding-window size in tokens for the layers marked in swaLayers. */
  slidingWindow?: number;
  /** true for each layer that uses the sliding window (the others are global). */
  swaLayers?: readonly boolean[];
  /** Head dimensions of SWA layers when they differ from the global ones (GGUF key_length_swa). */
  headDimKSwa?: number;
  headDimVSwa?: number;
  /** false for layers without a cache of their own (they reuse an earlier layer's KV). */
  kvLayers?: readonly boolean[];
  mla?: MlaShape;
}

export interface LayerKv {
  index: number;
  swa: boolean;
  kBytesPerToken: number;
  vBytesPerToken: number;
}

/** Check a shape and return the per-layer cache bytes per token. Throws KvShapeError. */
export function layerKv(shape: ModelShape): LayerKv[] {
  if (!isPositiveInt(shape.layers))
    throw new KvShapeError(`layers must be a positive integer, got ${String(shape.layers)}`);
  // One entry per layer follows: a shape from a hostile file must not decide how many (shared/kv/model-limits.ts).
  if (shape.layers > MODEL_LIMITS.layers)
    throw new KvShapeError(`${shape.layers} layers is beyond KVScope's limit of ${MODEL_LIMITS.layers}`);
  for (const [name, list] of [
    ['kvHeadsPerLayer', shape.kvHeadsPerLayer],
    ['swaLayers', shape.swaLayers],
    ['kvLayers', shape.kvLayers],
  ] as const) {
    if (list && list.length !== shape.layers) {
      throw new KvShapeError(`${name} has ${list.length} entries for ${shape.layers} layers`);
    }
  }
  const anySwa = shape.swaLayers?.some(Boolean) ?? false;
  if (anySwa && !isPositiveInt(shape.slidingWindow)) {
    throw new KvShapeError('swaLayers marks sliding-window layers but slidingWindow is not a positive integer');
  }
  const out: LayerKv[] = [];
  for (let il = 0; il < shape.layers; il++) {
    if (shape.kvLayers && !shape.kvLayers[il]) continue;
    const swa = shape.swaLayers?.[il] ?? false;
    if (shape.mla) {
      const { kvLoraRank, ropeDim } = shape.mla;
      const kErr = rowError(kvLoraRank + ropeDim, shape.typeK, 'MLA K row (kv_lora_rank + rope dim)');
      if (kErr) throw new KvShapeError(`K cache: ${kErr}`);
      const k = rowBytes(kvLoraRank + ropeDim, shape.typeK);
      let v = 0;
      if (shape.mla.storesV) {
        const vErr = rowError(kvLoraRank, shape.typeV, 'MLA V row (kv_lora_rank)');
        if (vErr) throw new KvShapeError(`V cache: ${vErr}`);
        v = rowBytes(kvLoraRank, shape.typeV);
      }
      out.push({ index: il, swa, kBytesPerToken: k, vBytesPerToken: v });
      continue;
    }
    const heads = shape.kvHeadsPerLayer?.[il] ?? shape.kvHeads;
    if (!Number.isInteger(heads) || heads < 0)
      throw new KvShapeError(`layer ${il}: KV heads must be a whole number, got ${heads}`);
    if (heads > MODEL_LIMITS.heads)
      throw new KvShapeError(`layer ${il}: ${heads} KV heads is beyond KVScope's limit of ${MODEL_LIMITS.heads}`);
    if (heads === 0) continue; // e.g. layers without attention in hybrid models
    const dk = swa ? (shape.headDimKSwa ?? shape.headDimK) : shape.headDimK;
    const dv = swa ? (shape.headDimVSwa ?? shape.headDimV) : shape.headDimV;
    const kErr = rowError(dk, shape.typeK, 'n_embd_head_k');
    if (kErr) throw new KvShapeError(`K cache: ${kErr}`);
    const vErr = rowError(dv, shape.typeV, 'n_embd_head_v');
    if (vErr) throw new KvShapeError(`V cache: ${vErr}`);
    out.push({
      index: il,
      swa,
      kBytesPerToken: heads * rowBytes(dk, shape.typeK),
      vBytesPerToken: heads * rowBytes(dv, shape.typeV),
    });
  }
  return out;
}

export interface KvPerToken {
  /** Every layer's K+V per token: the slope while nothing is capped by a window. */
  bytesPerToken: number;
  /** Layers that grow with the whole context. */
  globalBytesPerToken: number;
  /** Sliding-window layers (capped at slidingWindow tokens). */
  swaBytesPerToken: number;
  kBytesPerToken: number;
  vBytesPerToken: number;
  layersWithKv: number;
  swaLayerCount: number;
}

export function kvPerToken(shape: ModelShape): KvPerToken {
  const layers = layerKv(shape);
  let global = 0;
  let swa = 0;
  let k = 0;
  let v = 0;
  for (const l of layers) {
    const b = l.kBytesPerToken + l.vBytesPerToken;
    if (l.swa) swa += b;
    else global += b;
    k += l.kBytesPerToken;
    v += l.vBytesPerToken;
  }
  return {
    bytesPerToken: global + swa,
    globalBytesPerToken: global,
    swaBytesPerToken: swa,
    kBytesPerToken: k,
    vBytesPerToken: v,
    layersWithKv: layers.length,
    swaLayerCount: layers.filter((l) => l.swa).length,
  };
}

/** Bytes one token adds to the cache while no window caps it (docs/DESIGN.md kv_bytes_per_token). */
export function kvBytesPerToken(shape: ModelShape): number {
  return kvPerToken(shape).bytesPerToken;
}

export interface KvBytesOptions {
  /** growth (default): the cache grows with tokens; reserved: n_ctx cells up front; window: capped at W. */
  mode?: KvMode;
  /** reserved mode: the context size the engine reserves (llama.cpp -c). */
  ctx?: number;
  /** growth/window: allocation granule in tokens (paged allocators hand out blocks, e.g. 16). */
  block?: number;
  /** window mode: the engine's window W (defaults to the model's slidingWindow). */
  window?: number;
  /** Parallel sequences. growth/window: each holds nTokens. reserved: they share ctx, as llama.cpp -c with -np. */
  nSeq?: number;
  /** reserved: pad n_ctx up to a multiple of this (llama.cpp: 256; 32 before Nov 2025; 1 = engine without padding). */
  ctxPad?: number;
  /** reserved: llama.cpp n_ubatch, added to the SWA cache size. */
  ubatch?: number;
  /** reserved with nSeq > 1: one shared cache (llama.cpp --kv-unified) instead of one stream per sequence (library default). */
  unified?: boolean;
  /** reserved: llama.cpp --swa-full (SWA layers get the full context). */
  swaFull?: boolean;
}

export interface KvBytesBreakdown {
  totalBytes: number;
  globalBytes: number;
  swaBytes: number;
  /** Cells held by each global layer, summed over sequences/streams. */
  globalCells: number;
  /** Cells held by each SWA layer, summed over sequences/streams. */
  swaCells: number;
}

function roundUp(n: number, multiple: number): number {
  return Math.ceil(n / multiple) * multiple;
}

function checkCount(n: number | undefined, what: string, min: number): number | undefined {
  if (n === undefined) return undefined;
  if (!Number.isInteger(n) || n < min) throw new KvShapeError(`${what} must be a whole number ≥ ${min}, got ${n}`);
  return n;
}

/** KV bytes resident after nTokens tokens (per sequence), with where they sit. */
export function kvBytesDetailed(shape: ModelShape, nTokens: number, options: KvBytesOptions = {}): KvBytesBreakdown {
  const per = kvPerToken(shape);
  const mode = options.mode ?? 'growth';
  const nSeq = checkCount(options.nSeq, 'nSeq', 1) ?? 1;
  const block = checkCount(options.block, 'block', 1) ?? 1;
  if (!(nTokens >= 0) || !Number.isFinite(nTokens)) throw new KvShapeError(`token count must be ≥ 0, got ${nTokens}`);
  const n = Math.floor(nTokens);
  let globalCells: number;
  let swaCells: number;
  if (mode === 'reserved') {
    const ctx = checkCount(options.ctx, 'ctx', 1);
    if (ctx === undefined) throw new KvShapeError('reserved mode needs ctx (the context the engine reserves)');
    const pad = checkCount(options.ctxPad, 'ctxPad', 1) ?? LLAMA_CPP_CTX_PAD;
    const ubatch = checkCount(options.ubatch, 'ubatch', 0) ?? LLAMA_CPP_DEFAULT_UBATCH;
    const unified = options.unified ?? false;
    const padded = roundUp(ctx, pad);
    const streams = unified ? 1 : nSeq;
    const perStream = unified || nSeq === 1 ? padded : roundUp(Math.floor(padded / nSeq), pad);
    globalCells = perStream * streams;
    const w = shape.slidingWindow ?? 0;
    const swaPerStream =
      options.swaFull || per.swaLayerCount === 0
        ? perStream
        : roundUp(Math.min(perStream, w * (unified ? nSeq : 1) + ubatch), pad);
    swaCells = swaPerStream * streams;
  } else {
    const cells = roundUp(n, block);
    if (mode === 'window') {
      const w = checkCount(options.window ?? shape.slidingWindow, 'window', 1);
      if (w === undefined)
        throw new KvShapeError('window mode needs a window size (options.window or the model slidingWindow)');
      const capped = Math.min(cells, roundUp(w, block));
      const swaCap = shape.slidingWindow ? Math.min(capped, roundUp(shape.slidingWindow, block)) : capped;
      globalCells = capped * nSeq;
      swaCells = swaCap * nSeq;
    } else {
      globalCells = cells * nSeq;
      swaCells = (shape.slidingWindow ? Math.min(cells, roundUp(shape.slidingWindow, block)) : cells) * nSeq;
    }
  }
  const globalBytes = globalCells * per.globalBytesPerToken;
  const swaBytes = swaCells * per.swaBytesPerToken;
  return { totalBytes: globalBytes + swaBytes, globalBytes, swaBytes, globalCells, swaCells };
}

/** KV bytes resident after nTokens tokens (per sequence) in the given mode. */
export function kvBytes(shape: ModelShape, nTokens: number, options: KvBytesOptions = {}): number {
  return kvBytesDetailed(shape, nTokens, options).totalBytes;
}

/** Largest token count whose cache fits the budget in growth mode, or null when no count is too large (every layer windowed). */
export function maxTokensForBudget(
  shape: ModelShape,
  budgetBytes: number,
  options: Pick<KvBytesOptions, 'nSeq' | 'block'> = {},
): number | null {
  if (!(budgetBytes >= 0)) throw new KvShapeError(`budget must be ≥ 0 bytes, got ${budgetBytes}`);
  const per = kvPerToken(shape);
  const nSeq = options.nSeq ?? 1;
  const block = options.block ?? 1;
  if (per.bytesPerToken === 0) return null;
  if (per.swaBytesPerToken === 0 && block === 1) return Math.floor(budgetBytes / (per.bytesPerToken * nSeq));
  const fits = (n: number) => kvBytes(shape, n, { nSeq, block }) <= budgetBytes;
  // kvBytes is non-decreasing in n, so binary search finds the last n that fits.
  const ceiling = 2 ** 42;
  if (fits(ceiling)) return null;
  let lo = 0;
  let hi = ceiling;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** A uniform shape (every layer alike) from the API's KvComputeInput. */
export function shapeFromComputeInput(input: KvComputeInput): ModelShape {
  const parsed = KvComputeInputSchema.parse(input);
  return {
    layers: parsed.layers,
    kvHeads: parsed.kvHeads,
    headDimK: parsed.headDimK,
    headDimV: parsed.headDimV ?? parsed.headDimK,
    typeK: parsed.typeK,
    typeV: parsed.typeV ?? parsed.typeK,
  };
}

/**
 * The KV calculator behind the API's computeKv and the `kv` command:
 * bytesPerToken = n_layer × n_head_kv × (row_bytes(d_k, type_k) + row_bytes(d_v, type_v)),
 * totalBytes = bytesPerToken × ctx, maxContextForBudget = floor(budget / bytesPerToken).
 * Throws KvShapeError for a shape llama.cpp would refuse (e.g. q8_0 with head_dim 8).
 */
export function computeKv(input: KvComputeInput): KvComputeResult {
  const parsed = KvComputeInputSchema.parse(input);
  return computeKvForShape(shapeFromComputeInput(parsed), { ctx: parsed.ctx, budgetBytes: parsed.budgetBytes });
}

export interface KvComputeForShapeOptions {
  ctx: number;
  budgetBytes?: number | null;
  nSeq?: number;
}

export interface KvComputeDetails extends KvComputeResult {
  globalBytesPerToken: number;
  swaBytesPerToken: number;
  slidingWindow: number | null;
  nSeq: number;
  /** What llama.cpp reserves for -c ctx (n_ctx padded to 256, SWA layers at n_swa + n_ubatch). */
  llamaCppReservedBytes: number;
  llamaCppCells: number;
}

/**
 * computeKv for any shape (SWA, MLA, per-layer heads): totalBytes is the cache after ctx tokens
 * per sequence (SWA layers capped at their window), maxContextForBudget the longest context
 * whose cache fits the budget (null without a budget, or when every layer is windowed).
 */
export function computeKvForShape(shape: ModelShape, options: KvComputeForShapeOptions): KvComputeDetails {
  const nSeq = checkCount(options.nSeq, 'nSeq', 1) ?? 1;
  const ctx = checkCount(options.ctx, 'ctx', 1) as number;
  const per = kvPerToken(shape);
  const totalBytes = kvBytes(shape, ctx, { nSeq });
  const budget = options.budgetBytes ?? null;
  const reserved = kvBytesDetailed(shape, ctx, { mode: 'reserved', ctx: ctx * nSeq, nSeq });
  return {
    bytesPerToken: per.bytesPerToken,
    totalBytes,
    ctx,
    maxContextForBudget: budget === null ? null : maxTokensForBudget(shape, budget, { nSeq }),
    globalBytesPerToken: per.globalBytesPerToken,
    swaBytesPerToken: per.swaBytesPerToken,
    slidingWindow: per.swaLayerCount > 0 ? (shape.slidingWindow ?? null) : null,
    nSeq,
    llamaCppReservedBytes: reserved.totalBytes,
    llamaCppCells: reserved.globalCells,
  };
}

/** Which layers are SWA for llama.cpp's set_swa_pattern(period, dense_first) (src/llama-hparams.cpp). */
export function swaPatternLayers(layers: number, period: number, denseFirst = false): boolean[] {
  if (!Number.isInteger(layers) || layers < 0 || layers > MODEL_LIMITS.layers)
    throw new KvShapeError(`layers must be a whole number ≤ ${MODEL_LIMITS.layers}, got ${layers}`);
  const out: boolean[] = [];
  for (let il = 0; il < layers; il++) {
    if (period === 0) out.push(true);
    else out.push(denseFirst ? il % period !== 0 : il % period < period - 1);
  }
  return out;
}
