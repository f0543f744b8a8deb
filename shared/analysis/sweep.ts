// A context sweep (docs/DESIGN.md `profile --sweep 512,2048,8192,…`): one run per context size, and
// the KV curve they draw together. Engines that reserve (llama.cpp allocates and zero-fills
// n_ctx cells when the context is created) show their cache in RSS as a function of the
// *context size*, not of the tokens generated — a single run cannot measure it, a sweep can.
//
// Method, and why:
// - x = the cells the engine reserves for each step (llama.cpp: n_ctx padded to 256; else the
//   context asked for), y = the process's memory at that step: the peak anonymous RSS when every
//   usable run sampled it (the KV cache is anonymous memory; mmap'd weights are file-backed and
//   would only add noise), else the peak total RSS. Peaks, not "RSS at load end": a run of a
//   tiny model may create its context and finish between two sampler ticks, while the peak is
//   seen as long as one tick lands after the context exists.
// - Slope = weighted Theil–Sen (Sievers–Scholz): the median of the pairwise slopes, each pair
//   weighted by its distance in cells. Every run carries the same memory noise whatever its
//   context (a runtime's heap after start-up differs by ±1–2 MiB between runs), so the slope
//   between contexts 64K apart is 16× less noisy than one between contexts 4K apart; the plain
//   median gives both the same say (measured on 8 sweeps 512…65536 of llama.cpp on a 2-core
//   VM: plain 592–780 B/cell, weighted 665–715, for a true 696). Still a median: one run whose
//   peak was missed or inflated does not move it.
// - Baseline = median of (memory − slope × cells): memory at zero context.
// - Theory slope = the same fit of what the engine should reserve at each step (padding and
//   SWA caps included) when known, else the theoretical bytes/token; overhead = measured ÷
//   theory. The overhead is real memory: llama.cpp keeps 56 bytes of bookkeeping per cell next
//   to the K/V rows (llama_kv_cells: pos, ext, shift, a 256-bit sequence set).
// - Mode: 'reserved' when memory follows the context — slope ≥ GROWING_FRACTION of theory (or,
//   without theory, r² ≥ SWEEP_MIN_R2 and a positive slope); otherwise the engine does not
//   reserve per context ('growth': its cache grows with tokens, which a single run measures).
// - The largest context for a budget comes from the fit of peak *total* RSS (what the budget is
//   compared with): (budget − intercept) ÷ slope, rounded down to the engine's context padding.
// - Runs killed by the OOM killer or failed are kept as points (they are part of the answer: the
//   context that did not fit), but not fitted.
import type { KvMode } from '../api/schemas';
import { median, rSquared, type LineFit } from './fit';
import { GROWING_FRACTION } from './run-analysis';

/** Without theory, a sweep whose memory explains less of its variance than this does not "follow" the context. */
export const SWEEP_MIN_R2 = 0.9;
/** Fewer usable steps than this give no slope (two points are a line through anything). */
export const SWEEP_MIN_POINTS = 2;

export interface SweepPoint {
  /** Context size asked for (`{ctx}`). */
  ctx: number;
  /** Cells the engine reserves for it (llama.cpp: ctx padded to 256), when known; else ctx. */
  cells?: number | null;
  /** What the engine should reserve at this size in theory (bytes), when known. */
  theoryReservedBytes?: number | null;
  peakRssBytes: number | null;
  peakAnonRssBytes?: number | null;
  /** Anonymous RSS of the last sample before the first token (context created, decode not begun). */
  anonRssAtLoadBytes?: number | null;
  /** KV size the engine logged (llama.cpp `llama_kv_cache: size = …`). */
  engineKvBytes?: number | null;
  exitCode: number | null;
  signal?: string | null;
  oomKilled: boolean;
  /** The run ended as it should (exit 0, or stopped by the profiler). */
  ok: boolean;
  error?: string;
  tokens?: number;
  decodeTokensPerSecond?: number | null;
  samples?: number;
  durationMs?: number;
}

export interface SweepTheory {
  /** KV bytes per token (GGUF or shape), null when unknown. */
  bytesPerToken: number | null;
}

export interface SweepOptions {
  /** The engine pads contexts to this many cells (llama.cpp: 256): the max context is rounded down to it. */
  ctxPad?: number;
}

export interface SweepAnalysis {
  points: SweepPoint[];
  /** Which memory series the fit used. */
  rssMetric: 'peakAnonRssBytes' | 'peakRssBytes' | null;
  measuredBytesPerToken: number | null;
  theoryBytesPerToken: number | null;
  overheadFactor: number | null;
  mode: KvMode | null;
  /** Memory at zero context (weights resident, runtime, buffers that do not scale). */
  baselineBytes: number | null;
  fitR2: number | null;
  /** Slope of the KV size the engine itself logged, per cell (llama.cpp prints it rounded to 0.01 MiB). */
  engineReportedBytesPerToken: number | null;
  budgetBytes: number | null;
  /** Largest context whose peak RSS stays within the budget, from the fit; null without a budget or a slope. */
  maxContextForBudget: number | null;
  /** Steps used by the fit. */
  fittedPoints: number;
}

function fin(v: number | null | undefined): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

const xOf = (p: SweepPoint) => (fin(p.cells) && p.cells > 0 ? p.cells : p.ctx);

/**
 * Weighted Theil–Sen line: slope = weighted median of the pairwise slopes, weight |xj − xi|;
 * intercept = median of y − slope·x. Null with fewer than two distinct x. Sweeps have a handful
 * of points, so all pairs are used.
 */
export function weightedTheilSen(xs: readonly number[], ys: readonly number[]): LineFit | null {
  const pairs: Array<{ slope: number; weight: number }> = [];
  const n = Math.min(xs.length, ys.length);
  const points = xs.slice(0, n).map((x, i) => ({ x, y: ys.at(i) ?? NaN }));
  for (const [i, p] of points.entries()) {
    for (const q of points.slice(i + 1)) {
      const dx = q.x - p.x;
      if (dx === 0 || !fin(p.x) || !fin(q.x) || !fin(p.y) || !fin(q.y)) continue;
      pairs.push({ slope: (q.y - p.y) / dx, weight: Math.abs(dx) });
    }
  }
  pairs.sort((a, b) => a.slope - b.slope);
  const last = pairs.at(-1);
  if (!last) return null;
  const total = pairs.reduce((t, p) => t + p.weight, 0);
  // Weighted median: the slope where the cumulative weight reaches half; on an exact tie, the mean of the two.
  let acc = 0;
  let slope = last.slope;
  for (const [k, pair] of pairs.entries()) {
    acc += pair.weight;
    const next = pairs.at(k + 1);
    if (acc === total / 2 && next) {
      slope = (pair.slope + next.slope) / 2;
      break;
    }
    if (acc > total / 2) {
      slope = pair.slope;
      break;
    }
  }
  const residuals: number[] = [];
  for (const p of points) if (fin(p.x) && fin(p.y)) residuals.push(p.y - slope * p.x);
  return { slope: slope + 0, intercept: (median(residuals) as number) + 0, n: residuals.length };
}

/** `y` against the context size over the points that have it, when SWEEP_MIN_POINTS distinct sizes do; else null. */
function fitAgainstSize(points: readonly SweepPoint[], y: (p: SweepPoint) => number | null | undefined) {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const p of points) {
    const v = y(p);
    if (!fin(v)) continue;
    xs.push(xOf(p));
    ys.push(v);
  }
  return xs.length >= SWEEP_MIN_POINTS && new Set(xs).size >= SWEEP_MIN_POINTS ? weightedTheilSen(xs, ys) : null;
}

export function analyzeSweep(
  points: readonly SweepPoint[],
  theory: SweepTheory | number | null,
  budgetBytes: number | null,
  options: SweepOptions = {},
): SweepAnalysis {
  const theoryPerToken = typeof theory === 'number' ? theory : (theory?.bytesPerToken ?? null);
  const bytesPerToken = fin(theoryPerToken) && theoryPerToken > 0 ? theoryPerToken : null;
  const budget = fin(budgetBytes) && budgetBytes > 0 ? budgetBytes : null;
  const sorted = [...points].sort((a, b) => a.ctx - b.ctx);
  const usable = sorted.filter((p) => p.ok && !p.oomKilled && fin(p.peakRssBytes));
  const anonAll = usable.length > 0 && usable.every((p) => fin(p.peakAnonRssBytes));
  const rssMetric: SweepAnalysis['rssMetric'] =
    usable.length === 0 ? null : anonAll ? 'peakAnonRssBytes' : 'peakRssBytes';

  const xs = usable.map(xOf);
  const distinctX = new Set(xs).size;
  const canFit = usable.length >= SWEEP_MIN_POINTS && distinctX >= SWEEP_MIN_POINTS;
  const ys = usable.map((p) => (rssMetric ? (p[rssMetric] as number) : NaN));
  const fit = canFit ? weightedTheilSen(xs, ys) : null;
  const r2 = fit ? rSquared(xs, ys, fit.slope, fit.intercept) : null;

  // The theory's own slope over the same steps (llama.cpp padding, SWA caps), else bytes/token.
  const theoryFit = fitAgainstSize(usable, (p) => p.theoryReservedBytes);
  const theorySlope = theoryFit && theoryFit.slope > 0 ? theoryFit.slope : bytesPerToken;

  const engineFit = fitAgainstSize(sorted, (p) => p.engineKvBytes);

  const measured = fit ? fit.slope : null;
  let mode: KvMode | null = null;
  if (measured !== null) {
    if (theorySlope !== null) mode = measured >= GROWING_FRACTION * theorySlope ? 'reserved' : 'growth';
    else mode = measured > 0 && r2 !== null && r2 >= SWEEP_MIN_R2 ? 'reserved' : 'growth';
  }

  // Budget: total RSS is what runs out.
  let maxContext: number | null = null;
  if (budget !== null && usable.length >= SWEEP_MIN_POINTS && distinctX >= SWEEP_MIN_POINTS) {
    const rssFit = weightedTheilSen(
      xs,
      usable.map((p) => p.peakRssBytes as number),
    );
    if (rssFit && rssFit.slope > 0) {
      const cells = Math.floor((budget - rssFit.intercept) / rssFit.slope);
      const pad = options.ctxPad && options.ctxPad > 1 ? options.ctxPad : 1;
      maxContext = Math.max(0, Math.floor(cells / pad) * pad);
    }
  }

  return {
    points: sorted,
    rssMetric,
    measuredBytesPerToken: measured,
    theoryBytesPerToken: bytesPerToken,
    overheadFactor: measured !== null && theorySlope !== null ? measured / theorySlope : null,
    mode,
    baselineBytes: fit ? fit.intercept : null,
    fitR2: r2,
    engineReportedBytesPerToken: engineFit ? engineFit.slope : null,
    budgetBytes: budget,
    maxContextForBudget: maxContext,
    fittedPoints: canFit ? usable.length : 0,
  };
}

/** `sweep` in the summary: the KV curve over context sizes. */
export interface SweepSummary {
  points: SweepPoint[];
  measuredBytesPerToken: number | null;
  theoryBytesPerToken: number | null;
  overheadFactor: number | null;
  mode: SweepAnalysis['mode'];
  maxContextForBudget: number | null;
  baselineBytes: number | null;
  fitR2: number | null;
  rssMetric: SweepAnalysis['rssMetric'];
  engineReportedBytesPerToken: number | null;
  budgetBytes: number | null;
  /** Why the sweep ended before its last size, or null. */
  stoppedEarly: string | null;
}
