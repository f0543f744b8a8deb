// What to change, and what it buys: the tuning report's "Recommendations" list, computed from one
// run's analysis and samples (never hand-written). Each recommendation names the number it changes
// (before → after) and the evidence it stands on; the list is ranked by effect:
//   1. changes that keep the engine from being OOM-killed (`prevents: 'oom'`), then
//   2. the rest by `effectFraction`, the share by which the number it changes improves
//      (+88 % of context, +12 % tokens/s, 30 % of the budget freed…), largest first.
// The words are the report's (shared/report/finding-text.ts, wordRecommendation). How the engine
// and the board were set up (window, parallel sequences, compute buffers, THP, swap, governor) is
// in ./recommendations-setup.ts.
import type { Sample } from '../api/schemas';
import { KV_TYPE_LAYOUT } from '../kv/kv-theory';
import { budgetFindings, kvTypeFitsModel, reservedFinding, type FindingInput } from './findings';
import { MMAP_SHARE_WORTH_SAYING, SWAP_SHARE_WORTH_SAYING, THROTTLE_GAIN_WORTH_SAYING } from './thresholds';
import {
  detectThrottleIntervals,
  throttlePointsFromSamples,
  throughputInsideOutside,
  type ClockCeilings,
} from './throttle';
import { tokenEventsFromSamples } from './throughput';
import type { EngineLog } from '../run/run-record';
import type { TargetFacts } from '../run/target-facts';
import { setupRecommendations, type SetupRecommendation } from './recommendations-setup';

type SmallerKvType = 'q8_0' | 'q4_0';

export type Recommendation = {
  /** The share by which the number it changes improves (0.88 = +88 %): the ranking key after `prevents`. */
  effectFraction: number;
  /** The change keeps the engine from being killed: ranked before every gain. */
  prevents: 'oom' | null;
} & (
  | {
      kind: 'kv-type';
      fromType: string;
      toType: SmallerKvType;
      bytesPerTokenBefore: number;
      bytesPerTokenAfter: number;
      /** Max context at the run's budget in each type (null without a budget). */
      maxContextBefore: number | null;
      maxContextAfter: number | null;
      budgetBytes: number | null;
      /** The next smaller type, for when the first is not enough (q4_0 costs some quality). */
      alternative: { toType: SmallerKvType; bytesPerToken: number; maxContext: number | null } | null;
    }
  | {
      kind: 'context-cap';
      /** The context the run was configured with (null when unknown). */
      ctx: number | null;
      capTokens: number;
      /** Where the budget runs out: the OOM horizon (growth) or the max safe context (reserved). */
      limitTokens: number;
      budgetBytes: number;
      perTokenBytes: number | null;
    }
  | {
      kind: 'reserved-ctx';
      ctx: number;
      usedTokens: number;
      suggestedCtx: number;
      freedBytes: number;
      /** What the freed bytes are a share of: the budget, else the peak RSS. */
      ofBytes: number;
    }
  | { kind: 'mmap'; fileBackedBytes: number; peakRssBytes: number }
  | { kind: 'swap'; swapBytes: number; peakRssBytes: number }
  | {
      kind: 'throttle';
      insideMs: number;
      outsideMs: number;
      insideTokensPerSecond: number;
      outsideTokensPerSecond: number;
      /** Tokens/s over the whole decode, and without throttling (the outside rate). */
      overallTokensPerSecond: number;
    }
  | SetupRecommendation
);

export interface RecommendationInput extends FindingInput {
  /** The run's samples (FindingInput's `samples` is their count). */
  series: readonly Sample[];
  /** Trip point for the throttle detection (°C), when the board's facts name one. */
  tripC?: number | null;
  /** The clocks' hardware maxima from the board's facts (throttle.ts clockCeilingsOf). */
  clockCeilings?: ClockCeilings;
  /** The engine's own log records (llama.cpp): KV sub-caches, n_seq_max, n_ubatch, compute buffers. */
  engineLog?: EngineLog | null;
  /** The target's probe facts (THP, swap/zram, CPU governors). */
  target?: TargetFacts | null;
}

function bytesPerValue(type: string): number | null {
  const layout = (KV_TYPE_LAYOUT as Readonly<Record<string, { blockValues: number; blockBytes: number } | undefined>>)[
    type
  ];
  return layout ? layout.blockBytes / layout.blockValues : null;
}

/**
 * A smaller KV cache type. Its cost per token is the KV math (shared/kv/kv-theory.ts's block
 * layouts: bytes per value) applied to the theory's bytes/token when the run knows the model's
 * shape, else to the measured slope. At a fixed budget the room the cache has — budget − baseline
 * − file-backed RSS, which the analysis's max safe context spends at its own bytes/token — holds
 * room ÷ that cost tokens.
 */
export function kvTypeRecommendation(input: RecommendationInput): Recommendation | null {
  const a = input.analysis;
  const from = input.kvType;
  const positive = (v: number | null | undefined) => (typeof v === 'number' && v > 0 ? v : null);
  // The bytes/token the analysis's max safe context was computed with (run-analysis.ts: measured, else theory).
  const spentPerToken = positive(a.kv.measuredBytesPerToken) ?? positive(a.kv.theoryBytesPerToken);
  const perToken = positive(a.kv.theoryBytesPerToken) ?? spentPerToken;
  if (!from || perToken === null || spentPerToken === null) return null;
  const fromBpv = bytesPerValue(from);
  if (fromBpv === null) return null;
  const choices = (['q8_0', 'q4_0'] as const).filter(
    (t) => (bytesPerValue(t) ?? Infinity) < fromBpv && kvTypeFitsModel(t, input.model),
  );
  const maxSafe = a.budgetBytes !== null ? a.maxSafeContextTokens : null;
  const room = maxSafe !== null ? maxSafe * spentPerToken : null;
  const option = (t: SmallerKvType) => {
    const bytesPerToken = (perToken * (bytesPerValue(t) ?? fromBpv)) / fromBpv;
    return { toType: t, bytesPerToken, maxContext: room !== null ? Math.floor(room / bytesPerToken) : null };
  };
  const [first, second] = choices.map(option);
  if (!first) return null;
  return {
    kind: 'kv-type',
    prevents: null,
    // At a fixed budget the context grows by the ratio of the costs (the same ratio without a budget).
    effectFraction:
      maxSafe !== null && maxSafe > 0 && first.maxContext !== null
        ? first.maxContext / maxSafe - 1
        : perToken / first.bytesPerToken - 1,
    fromType: from,
    toType: first.toType,
    bytesPerTokenBefore: perToken,
    bytesPerTokenAfter: first.bytesPerToken,
    maxContextBefore: maxSafe,
    maxContextAfter: first.maxContext,
    budgetBytes: a.budgetBytes,
    alternative: second ?? null,
  };
}

/** A context cap (growth: below the OOM horizon; reserved: within the budget) and a smaller reserved context. */
export function contextRecommendations(input: RecommendationInput): Recommendation[] {
  const out: Recommendation[] = [];
  const a = input.analysis;
  for (const f of budgetFindings(input)) {
    if (f.kind === 'horizon' && f.ctxTooLarge && f.ctx !== null)
      out.push({
        kind: 'context-cap',
        prevents: 'oom',
        effectFraction: (f.ctx - f.capTokens) / f.ctx,
        ctx: f.ctx,
        capTokens: f.capTokens,
        limitTokens: f.horizonTokens,
        budgetBytes: f.budgetBytes,
        perTokenBytes: f.slopeBytesPerToken,
      });
    if (f.kind === 'reserved-too-large')
      out.push({
        kind: 'context-cap',
        prevents: 'oom',
        effectFraction: (f.ctx - f.suggestedCtx) / f.ctx,
        ctx: f.ctx,
        capTokens: f.suggestedCtx,
        limitTokens: f.maxSafeContextTokens,
        budgetBytes: f.budgetBytes,
        perTokenBytes: a.kv.measuredBytesPerToken ?? a.kv.theoryBytesPerToken,
      });
  }
  const reserved = reservedFinding(input);
  const of = a.budgetBytes ?? a.peakRssBytes;
  if (reserved?.kind !== 'reserved') return out;
  const { underused, ctx } = reserved;
  if (underused && ctx !== null && underused.freedBytes !== null && of !== null && of > 0)
    out.push({
      kind: 'reserved-ctx',
      prevents: null,
      effectFraction: underused.freedBytes / of,
      ctx,
      usedTokens: underused.usedTokens,
      suggestedCtx: underused.suggestedCtx,
      freedBytes: underused.freedBytes,
      ofBytes: of,
    });
  return out;
}

/** The largest value of one key over the memory samples, with the peak RSS. */
function peakOf(samples: readonly Sample[], key: string): { value: number; peakRssBytes: number } | null {
  let value: number | null = null;
  let peak: number | null = null;
  for (const s of samples) {
    const v = s.values[key];
    const rss = s.values.rssBytes;
    if (typeof v === 'number' && Number.isFinite(v)) value = value === null ? v : Math.max(value, v);
    if (typeof rss === 'number' && Number.isFinite(rss)) peak = peak === null ? rss : Math.max(peak, rss);
  }
  return value !== null && peak !== null && peak > 0 ? { value, peakRssBytes: peak } : null;
}

/** File-backed weights (mmap) the kernel may drop under pressure and read again: a stall the budget math does not see. */
export function mmapRecommendation(input: RecommendationInput): Recommendation | null {
  let best: { fileBackedBytes: number; peakRssBytes: number } | null = null;
  for (const s of input.series) {
    const rss = s.values.rssBytes;
    const anon = s.values.rssAnonBytes;
    if (typeof rss !== 'number' || typeof anon !== 'number') continue;
    const file = s.values.rssFileBytes ?? rss - anon;
    if (typeof file !== 'number' || !Number.isFinite(file)) continue;
    if (best === null || rss > best.peakRssBytes) best = { fileBackedBytes: Math.max(0, file), peakRssBytes: rss };
  }
  if (!best || best.fileBackedBytes / best.peakRssBytes < MMAP_SHARE_WORTH_SAYING) return null;
  return {
    kind: 'mmap',
    prevents: null,
    effectFraction: best.fileBackedBytes / best.peakRssBytes,
    ...best,
  };
}

/** The engine's own pages in swap: every access to them waits for the swap device (or zram's CPU). */
export function swapRecommendation(input: RecommendationInput): Recommendation | null {
  const peak = peakOf(input.series, 'swapBytes');
  if (!peak || peak.value / peak.peakRssBytes < SWAP_SHARE_WORTH_SAYING) return null;
  return {
    kind: 'swap',
    prevents: null,
    effectFraction: peak.value / peak.peakRssBytes,
    swapBytes: peak.value,
    peakRssBytes: peak.peakRssBytes,
  };
}

/** What throttling cost in tokens/s (shared/analysis/throttle.ts): the decode rate without it, against the whole run's. */
export function throttleRecommendation(input: RecommendationInput): Recommendation | null {
  const points = throttlePointsFromSamples(input.series, input.clockCeilings);
  const intervals = detectThrottleIntervals(points, { tripC: input.tripC ?? null });
  if (intervals.length === 0) return null;
  const cost = throughputInsideOutside(intervals, tokenEventsFromSamples(input.series));
  const inside = cost.insideTokensPerSecond;
  const outside = cost.outsideTokensPerSecond;
  const totalMs = cost.insideMs + cost.outsideMs;
  if (inside === null || outside === null || totalMs <= 0) return null;
  const overall = (inside * cost.insideMs + outside * cost.outsideMs) / totalMs;
  if (!(overall > 0)) return null;
  const gain = outside / overall - 1;
  if (gain < THROTTLE_GAIN_WORTH_SAYING) return null;
  return {
    kind: 'throttle',
    prevents: null,
    effectFraction: gain,
    insideMs: cost.insideMs,
    outsideMs: cost.outsideMs,
    insideTokensPerSecond: inside,
    outsideTokensPerSecond: outside,
    overallTokensPerSecond: overall,
  };
}

/** Ranking: what prevents a kill first, then the larger effect (a stable sort keeps ties in the order above). */
export function compareEffect(a: Recommendation, b: Recommendation): number {
  const pa = a.prevents ? 0 : 1;
  const pb = b.prevents ? 0 : 1;
  return pa !== pb ? pa - pb : b.effectFraction - a.effectFraction;
}

/** The run came near or past its budget: a horizon inside the context, over the budget, or an OOM kill. */
function memoryTight(input: RecommendationInput): boolean {
  if (input.events.some((e) => e.kind === 'oom')) return true;
  return budgetFindings(input).some(
    (f) => (f.kind === 'horizon' && f.ctxTooLarge) || f.kind === 'over-budget' || f.kind === 'reserved-too-large',
  );
}

/** Every recommendation for one run, ranked by effect. */
export function runRecommendations(input: RecommendationInput): Recommendation[] {
  const a = input.analysis;
  const out: Recommendation[] = [
    ...contextRecommendations(input),
    ...setupRecommendations({
      engine: input.engine,
      ctx: input.ctx,
      series: input.series,
      budgetBytes: a.budgetBytes,
      peakRssBytes: a.peakRssBytes,
      decodeTokensPerSecond: a.throughput.decodeTokensPerSecond,
      memoryTight: memoryTight(input),
      engineLog: input.engineLog,
      model: input.model,
      target: input.target,
    }),
  ];
  for (const r of [
    kvTypeRecommendation(input),
    mmapRecommendation(input),
    swapRecommendation(input),
    throttleRecommendation(input),
  ])
    if (r) out.push(r);
  return out.sort(compareEffect);
}
