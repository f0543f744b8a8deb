// From the KV calculator's form to its numbers and chart. Every byte count comes from
// shared/kv/kv-theory.ts (the same functions as `kvscope kv` and the runs' theory line); this
// file only reads the form, picks the shape and asks kv-theory.
import { KvTypeSchema, type KvType } from '../../../../shared/api/schemas';
import { DEVICE_PRESETS } from '../../../../shared/analysis/presets';
import {
  kvBytes,
  kvBytesPerToken,
  layerKv,
  maxTokensForBudget,
  type KvBytesOptions,
  type ModelShape,
} from '../../../../shared/kv/kv-theory';
import type { KvForm, KvFormField, KvHeaderState } from '../../state/kv-slice';
import { parseByteSize } from '../../../../shared/format/byte-size';
import { formatCount, formatTokens } from '../../../../shared/format/units';
import { MODEL_LIMITS } from '../../../../shared/kv/model-limits';
import { readContextSize } from '../../../../shared/run/sweep-sizes';

/** Points per curve of the chart: smooth enough for a step at the window, light to draw. */
export const KV_CHART_POINTS = 64;
/** The chart runs to this multiple of the chosen context, so the choice sits inside the curve. */
export const KV_CHART_CTX_FACTOR = 2;

export interface KvCurve {
  kvType: KvType;
  bytesPerToken: number;
  points: Array<{ ctx: number; bytes: number }>;
}

export interface KvCalculation {
  shape: ModelShape;
  ctx: number;
  nSeq: number;
  window: number | null;
  budgetBytes: number | null;
  bytesPerToken: number;
  totalBytes: number;
  /**
   * The model file's size, counted against the budget before the cache: the weights are resident
   * too, so a 4 GB model on a 4 GiB board leaves no room for any context. Null when unknown (a
   * typed shape, or a GGUF read on a board, whose size the header read does not give).
   */
  weightsBytes: number | null;
  /** What the budget leaves for the cache once the weights are in (the budget when they are unknown). */
  cacheBudgetBytes: number | null;
  /** Longest context whose cache fits the budget left for it; null without a budget. */
  maxContext: number | null;
  /** The cache never outgrows the budget (a window caps it below). */
  maxContextUnbounded: boolean;
  /**
   * The context the model was trained on (GGUF `<arch>.context_length`, llama.cpp's n_ctx_train);
   * null for a typed shape or a header that does not say.
   */
  trainedContext: number | null;
  curves: KvCurve[];
  /** KV types this model cannot use, and why (e.g. head dim 8 is not a multiple of q8_0's block of 32). */
  impossible: Array<{ kvType: KvType; reason: string }>;
}

export type KvCalculationResult =
  { ok: true; calc: KvCalculation } | { ok: false; errors: Partial<Record<KvFormField, string>>; needsModel?: boolean };

function positiveInt(text: string): number | null {
  return /^\s*\d+\s*$/.test(text) && Number(text) > 0 ? Number(text) : null;
}

/** The shape the form describes with both K and V of `kvType`, or why not. */
function baseShape(
  form: KvForm,
  header: KvHeaderState,
  errors: Partial<Record<KvFormField, string>>,
): ModelShape | null {
  if (form.source === 'gguf') {
    if (header.status !== 'ready') return null;
    return { ...header.header.shape, typeK: form.kvType, typeV: form.kvType };
  }
  const layers = positiveInt(form.layers);
  const kvHeads = positiveInt(form.kvHeads);
  const headDimK = positiveInt(form.headDimK);
  const headDimV = form.headDimV.trim() === '' ? headDimK : positiveInt(form.headDimV);
  if (layers === null) errors.layers = 'a whole number above 0';
  if (kvHeads === null) errors.kvHeads = 'a whole number above 0';
  if (headDimK === null) errors.headDimK = 'a whole number above 0';
  if (headDimV === null && form.headDimV.trim() !== '') errors.headDimV = 'a whole number above 0, or empty';
  // KVScope's limits on the field that breaks them (kv-theory would throw them for the whole shape,
  // which this form shows under the KV type: the place of its own, per-type refusals).
  const beyond = (value: number | null, limit: number) => value !== null && value > limit;
  if (beyond(layers, MODEL_LIMITS.layers)) errors.layers = `at most ${MODEL_LIMITS.layers}`;
  if (beyond(kvHeads, MODEL_LIMITS.heads)) errors.kvHeads = `at most ${MODEL_LIMITS.heads}`;
  if (beyond(headDimK, MODEL_LIMITS.headDim)) errors.headDimK = `at most ${MODEL_LIMITS.headDim}`;
  if (form.headDimV.trim() !== '' && beyond(headDimV, MODEL_LIMITS.headDim))
    errors.headDimV = `at most ${MODEL_LIMITS.headDim}, or empty`;
  if (layers === null || kvHeads === null || headDimK === null || headDimV === null) return null;
  if (errors.layers || errors.kvHeads || errors.headDimK || errors.headDimV) return null;
  return { layers, kvHeads, headDimK, headDimV, typeK: form.kvType, typeV: form.kvType };
}

/** Parallel sequences a llama.cpp context can hold (its LLAMA_MAX_SEQ: 256 today, 64 before 2025). */
export const MAX_PARALLEL_SEQUENCES = 256;

export function calculateKv(form: KvForm, header: KvHeaderState): KvCalculationResult {
  const errors: Partial<Record<KvFormField, string>> = {};
  const shape = baseShape(form, header, errors);
  const ctx = readContextSize(form.ctx);
  if (ctx === null) errors.ctx = 'a whole number of tokens above 0 (4k = 4096)';
  else if (ctx > MODEL_LIMITS.contextTokens) errors.ctx = `at most ${MODEL_LIMITS.contextTokens} tokens`;
  const nSeq = positiveInt(form.nSeq);
  if (nSeq === null) errors.nSeq = 'a whole number above 0';
  else if (nSeq > MAX_PARALLEL_SEQUENCES) errors.nSeq = `at most ${MAX_PARALLEL_SEQUENCES}`;
  const window = form.window.trim() === '' ? null : readContextSize(form.window);
  if (form.window.trim() !== '' && window === null) errors.window = 'a whole number of tokens (4k = 4096), or empty';
  else if (window !== null && window > MODEL_LIMITS.contextTokens)
    errors.window = `at most ${MODEL_LIMITS.contextTokens} tokens, or empty`;
  let budgetBytes: number | null = null;
  const preset = DEVICE_PRESETS.find((p) => p.id === form.presetId);
  if (preset) budgetBytes = preset.ramBytes;
  else if (form.budget.trim() !== '') {
    const parsed = parseByteSize(form.budget);
    if (parsed.ok) budgetBytes = parsed.bytes;
    else errors.budget = parsed.error;
  }
  if (!shape || ctx === null || nSeq === null || Object.keys(errors).length > 0)
    return { ok: false, errors, needsModel: !shape && form.source === 'gguf' };

  const options: KvBytesOptions = window === null ? { nSeq } : { nSeq, mode: 'window', window };
  let bytesPerToken: number;
  try {
    layerKv(shape);
    bytesPerToken = kvBytesPerToken(shape);
  } catch (error) {
    return { ok: false, errors: { kvType: (error as Error).message } };
  }
  const totalBytes = kvBytes(shape, ctx, options);
  const weightsBytes = form.source === 'gguf' && header.status === 'ready' ? header.header.fileBytes : null;
  const trainedContext = form.source === 'gguf' && header.status === 'ready' ? header.header.summary.nCtxTrain : null;
  const cacheBudgetBytes = budgetBytes === null ? null : Math.max(0, budgetBytes - (weightsBytes ?? 0));
  let maxContext: number | null = null;
  let maxContextUnbounded = false;
  if (cacheBudgetBytes !== null) {
    // Below its window a windowed cache grows as an unwindowed one: the growth answer holds there.
    const growth = maxTokensForBudget(shape, cacheBudgetBytes, { nSeq });
    const capped = window !== null && kvBytes(shape, window, options) <= cacheBudgetBytes;
    maxContextUnbounded = growth === null || capped;
    maxContext = maxContextUnbounded ? null : growth;
  }

  const xMax = ctx * KV_CHART_CTX_FACTOR;
  const xs = Array.from({ length: KV_CHART_POINTS + 1 }, (_, i) => Math.round((xMax * i) / KV_CHART_POINTS));
  const curves: KvCurve[] = [];
  const impossible: KvCalculation['impossible'] = [];
  for (const kvType of KvTypeSchema.options) {
    const typed: ModelShape = { ...shape, typeK: kvType, typeV: kvType };
    try {
      layerKv(typed);
    } catch (error) {
      impossible.push({ kvType, reason: (error as Error).message });
      continue;
    }
    curves.push({
      kvType,
      bytesPerToken: kvBytesPerToken(typed),
      points: xs.map((x) => ({ ctx: x, bytes: kvBytes(typed, x, options) })),
    });
  }
  return {
    ok: true,
    calc: {
      shape,
      ctx,
      nSeq,
      window,
      budgetBytes,
      bytesPerToken,
      totalBytes,
      weightsBytes,
      cacheBudgetBytes,
      maxContext,
      maxContextUnbounded,
      trainedContext,
      curves,
      impossible,
    },
  };
}

/** What a context past the trained one means: llama.cpp's own warning, and the quality it costs. */
const PAST_TRAINED_CONTEXT =
  'llama.cpp warns of a possible training context overflow, and answers degrade past it unless RoPE scaling (e.g. --rope-scaling yarn) stretches the model to that length';

/** The asked context beyond the model's trained one: computed all the same, and said so. Null when within it (or unknown). */
export function contextBeyondTrainingNote(calc: KvCalculation): string | null {
  const trained = calc.trainedContext;
  if (trained === null || calc.ctx <= trained) return null;
  return `The context of ${formatTokens(calc.ctx)} exceeds the model's trained context (n_ctx_train) of ${formatTokens(trained)}: the cache is computed as asked, but ${PAST_TRAINED_CONTEXT}.`;
}

/** The budget holds more context than the model was trained on: the number is memory's, not what the model can use well. */
function maxContextBeyondTraining(calc: KvCalculation): boolean {
  const trained = calc.trainedContext;
  if (trained === null || calc.budgetBytes === null || calc.cacheBudgetBytes === 0) return false;
  return calc.maxContextUnbounded || (calc.maxContext !== null && calc.maxContext > trained);
}

/** "Max context for the budget" as shown: the memory's answer, marked when it is past the trained context. */
export function maxContextText(calc: KvCalculation): string {
  if (calc.budgetBytes === null) return 'no budget';
  if (calc.cacheBudgetBytes === 0) return 'none';
  const text = calc.maxContextUnbounded ? 'unlimited (window)' : formatTokens(calc.maxContext);
  return maxContextBeyondTraining(calc) && calc.trainedContext !== null
    ? `${text}, beyond the trained ${formatCount(calc.trainedContext)}`
    : text;
}

/** Why a max context past the trained one is not all usable; null when it is not past it (or unknown). */
export function maxContextBeyondTrainingNote(calc: KvCalculation): string | null {
  if (!maxContextBeyondTraining(calc) || calc.trainedContext === null) return null;
  const trained = formatTokens(calc.trainedContext);
  return `The budget holds more context than the model was trained on (n_ctx_train, ${trained}): that is what memory allows, not what the model is made for. Past ${trained}, ${PAST_TRAINED_CONTEXT}.`;
}
