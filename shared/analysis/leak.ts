// Leak detection: process memory that keeps growing per generated token beyond what the KV cache
// explains.
//
// Where the cache should be flat — reserved mode (llama.cpp allocated n_ctx cells up front) and
// window mode once the window is full — any sustained per-token growth is a leak candidate.
// Where it grows (growth mode, window mode before it fills), the expected slope is the theory
// bytes/token times an allowed overhead; growth beyond that is flagged.
//
// "Sustained" means: seen over at least LEAK_MIN_TOKENS generated tokens AND in at least 3 of
// the 4 quarters of that span. A single step (glibc growing an arena, a compute buffer resized
// once, a lazily faulted page range) lifts one quarter, not three, so it is not a leak.
import type { KvMode, LeakSummary } from '../api/schemas';
import { theilSen } from './fit';

// Thresholds, each with its reason.
/** Over fewer tokens a single allocator step (glibc grows heaps by ≥ 128 KiB, mmap threshold 128 KiB) looks like a slope. */
export const LEAK_MIN_TOKENS = 256;
/** One 4 KiB page per token is the finest growth RSS can show reliably; anything below is allocator noise. */
export const LEAK_MIN_BYTES_PER_TOKEN = 4096;
/** Relative floor: growth under 5% of the KV bytes/token is within what sampler jitter and page rounding produce on real boards. */
export const LEAK_RELATIVE_FRACTION = 0.05;
/** Growth mode: measured slope may exceed theory × overhead by 10% (allocator padding, page rounding) before it counts. */
export const GROWTH_LEAK_TOLERANCE = 0.1;
/** Quarters of the span that must each show the growth for it to count as sustained. */
const QUARTERS_REQUIRED = 3;

export interface LeakPoint {
  /** Generated tokens at the sample. */
  tokens: number;
  /** Memory at the sample (anonymous RSS when sampled). */
  bytes: number;
}

export interface LeakInput {
  /** Decode-phase memory against tokens. */
  points: readonly LeakPoint[];
  mode: KvMode;
  theoryBytesPerToken: number | null;
  /** Window mode: tokens at which the cache became full (flat expected from there on). */
  windowTokens?: number | null;
  /** Growth mode: overhead factor considered normal for this engine (default 1 = exactly the theory). */
  expectedOverhead?: number;
  minTokens?: number;
  tolerance?: number;
}

function tokenRange(points: readonly LeakPoint[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const p of points) {
    if (p.tokens < min) min = p.tokens;
    if (p.tokens > max) max = p.tokens;
  }
  return { min, max };
}

interface SegmentVerdict {
  slope: number | null;
  span: number;
  quartersAbove: number;
  quartersUsable: number;
}

/** Slope of the whole segment and how many of its quarters grow faster than `threshold`. */
function judgeSegment(points: readonly LeakPoint[], threshold: number): SegmentVerdict {
  if (points.length < 4) return { slope: null, span: 0, quartersAbove: 0, quartersUsable: 0 };
  const { min: minT, max: maxT } = tokenRange(points);
  const span = maxT - minT;
  const fit = theilSen(
    points.map((p) => p.tokens),
    points.map((p) => p.bytes),
  );
  let quartersAbove = 0;
  let quartersUsable = 0;
  for (let q = 0; q < 4; q++) {
    const lo = minT + (span * q) / 4;
    const hi = minT + (span * (q + 1)) / 4;
    const part = points.filter((p) => p.tokens >= lo && (q === 3 ? p.tokens <= hi : p.tokens < hi));
    if (part.length < 2) continue;
    const f = theilSen(
      part.map((p) => p.tokens),
      part.map((p) => p.bytes),
    );
    if (!f) continue;
    quartersUsable++;
    if (f.slope > threshold) quartersAbove++;
  }
  return { slope: fit ? fit.slope : null, span, quartersAbove, quartersUsable };
}

/** Confidence in a verdict: agreement of the quarters with it, scaled by how long the span is. */
function confidenceOf(v: SegmentVerdict, leaking: boolean, minTokens: number): number {
  if (v.quartersUsable === 0) return 0;
  const agreeing = leaking ? v.quartersAbove : v.quartersUsable - v.quartersAbove;
  const lengthFactor = Math.min(1, v.span / (4 * minTokens));
  return Math.round((agreeing / 4) * lengthFactor * 100) / 100;
}

export function detectLeak(input: LeakInput): LeakSummary {
  const minTokens = input.minTokens ?? LEAK_MIN_TOKENS;
  const theory = input.theoryBytesPerToken !== null && input.theoryBytesPerToken > 0 ? input.theoryBytesPerToken : null;
  const points = input.points.filter((p) => Number.isFinite(p.tokens) && Number.isFinite(p.bytes));
  const range = tokenRange(points);
  const tokensObserved = points.length ? range.max - range.min : 0;
  const flatThreshold = Math.max(LEAK_MIN_BYTES_PER_TOKEN, theory === null ? 0 : LEAK_RELATIVE_FRACTION * theory);

  const flat = (segment: readonly LeakPoint[], where: string): LeakSummary => {
    const v = judgeSegment(segment, flatThreshold);
    if (v.slope === null || v.span < minTokens) {
      return {
        leaking: false,
        bytesPerToken: v.slope,
        thresholdBytesPerToken: flatThreshold,
        tokensObserved: v.span,
        confidence: 0,
        reason: `${where}: fewer than ${minTokens} tokens observed, no verdict yet`,
      };
    }
    const leaking = v.slope > flatThreshold && v.quartersAbove >= QUARTERS_REQUIRED;
    const reason = leaking
      ? `${where}: RSS grows ${Math.round(v.slope)} B/token where the KV cache should be flat (threshold ${Math.round(flatThreshold)} B/token, ${v.quartersAbove}/4 quarters)`
      : v.slope > flatThreshold
        ? `${where}: growth of ${Math.round(v.slope)} B/token is not sustained (${v.quartersAbove}/4 quarters): a step, not a leak`
        : `${where}: RSS flat within ${Math.round(flatThreshold)} B/token`;
    return {
      leaking,
      bytesPerToken: v.slope,
      thresholdBytesPerToken: flatThreshold,
      tokensObserved: v.span,
      confidence: confidenceOf(v, leaking, minTokens),
      reason,
    };
  };

  const growing = (segment: readonly LeakPoint[], where: string): LeakSummary => {
    if (theory === null) {
      return {
        leaking: false,
        bytesPerToken: null,
        thresholdBytesPerToken: null,
        tokensObserved,
        confidence: 0,
        reason: `${where}: no theoretical bytes/token to compare with`,
      };
    }
    const expected = theory * (input.expectedOverhead ?? 1);
    const allowance = Math.max(
      LEAK_MIN_BYTES_PER_TOKEN,
      LEAK_RELATIVE_FRACTION * theory,
      (input.tolerance ?? GROWTH_LEAK_TOLERANCE) * expected,
    );
    const threshold = expected + allowance;
    const v = judgeSegment(segment, threshold);
    if (v.slope === null || v.span < minTokens) {
      return {
        leaking: false,
        bytesPerToken: null,
        thresholdBytesPerToken: allowance,
        tokensObserved: v.span,
        confidence: 0,
        reason: `${where}: fewer than ${minTokens} tokens observed, no verdict yet`,
      };
    }
    const excess = v.slope - expected;
    const leaking = v.slope > threshold && v.quartersAbove >= QUARTERS_REQUIRED;
    const reason = leaking
      ? `${where}: RSS grows ${Math.round(v.slope)} B/token, ${Math.round(excess)} B/token more than the KV cache explains (${Math.round(expected)} expected, ${Math.round(allowance)} allowed)`
      : `${where}: RSS slope ${Math.round(v.slope)} B/token is within ${Math.round(allowance)} B/token of the expected ${Math.round(expected)}`;
    return {
      leaking,
      bytesPerToken: excess,
      thresholdBytesPerToken: allowance,
      tokensObserved: v.span,
      confidence: confidenceOf(v, leaking, minTokens),
      reason,
    };
  };

  switch (input.mode) {
    case 'reserved':
      return flat(points, 'reserved cache');
    case 'window': {
      const w = input.windowTokens ?? null;
      if (w === null) return growing(points, 'window not yet full');
      const after = points.filter((p) => p.tokens >= w);
      const afterRange = tokenRange(after);
      const afterSpan = after.length ? afterRange.max - afterRange.min : 0;
      if (afterSpan >= minTokens) return flat(after, 'full window');
      return growing(
        points.filter((p) => p.tokens < w),
        'filling window',
      );
    }
    default:
      return growing(points, 'growing cache');
  }
}
