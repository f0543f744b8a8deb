// From the ring buffer and the run's analysis to what the memory chart draws: per-series point
// lists over x = tokens generated, each downsampled with LTTB (shared/analysis/lttb.ts), plus the
// theoretical KV line.
// Pure (no React, no store) so it is tested directly.
import { lttbIndices } from '../../../shared/analysis/lttb';
import type { KvMode, RunAnalysis } from '../../../shared/api/schemas';
import type { MemoryRing } from './ring-buffer';

export interface ChartPoint {
  x: number;
  y: number;
}

export interface ChartSeries {
  rss: ChartPoint[];
  anon: ChartPoint[];
  file: ChartPoint[];
  /** baseline + kv_bytes(tokens) from the analysis' theory bytes/token; empty until analysis arrives. */
  theory: ChartPoint[];
  /** Samples held in the ring and drawn (before downsampling) / overwritten because the ring was full. */
  samples: number;
  dropped: number;
  xMax: number;
  /** Largest y of any measured or theory point (0 when empty). */
  yMax: number;
}

export const EMPTY_CHART: ChartSeries = {
  rss: [],
  anon: [],
  file: [],
  theory: [],
  samples: 0,
  dropped: 0,
  xMax: 0,
  yMax: 0,
};

export interface TheoryInput {
  analysis: RunAnalysis | null;
  /** Fallback for theory bytes/token before the first analysis (getRun's theory). */
  theoryBytesPerToken?: number | null;
  /** Context size the engine reserves (reserved mode) when the analysis does not say. */
  ctx?: number | null;
  /** Sliding window W (window mode): the cache stops growing at W tokens. */
  windowTokens?: number | null;
}

/**
 * The theoretical RSS over [xMin, xMax] tokens: docs/DESIGN.md's RSS(n) ≈ baseline + kv_bytes(n), with
 * kv_bytes(n) = n × bytes/token (growth), min(n, W) × bytes/token (window), or the reservation
 * made at start (reserved). Baseline comes from the measured fit; without it there is no line.
 */
export function theoryLine(input: TheoryInput, xMin: number, xMax: number): ChartPoint[] {
  const kv = input.analysis?.kv;
  const bytesPerToken = kv?.theoryBytesPerToken ?? input.theoryBytesPerToken ?? null;
  const baseline = kv?.baselineBytes ?? null;
  if (bytesPerToken === null || baseline === null || !(xMax >= xMin)) return [];
  const mode: KvMode = kv?.mode ?? 'growth';
  if (mode === 'reserved') {
    const reserved = kv?.theoryReservedBytes ?? (input.ctx ? input.ctx * bytesPerToken : null);
    if (reserved === null || reserved === undefined) return [];
    return [
      { x: xMin, y: baseline + reserved },
      { x: xMax, y: baseline + reserved },
    ];
  }
  const at = (n: number) => ({ x: n, y: baseline + n * bytesPerToken });
  const window = mode === 'window' ? (input.windowTokens ?? null) : null;
  if (window !== null && window > xMin && window < xMax)
    return [at(xMin), at(window), { x: xMax, y: baseline + window * bytesPerToken }];
  if (window !== null && window <= xMin)
    return [
      { x: xMin, y: baseline + window * bytesPerToken },
      { x: xMax, y: baseline + window * bytesPerToken },
    ];
  return [at(xMin), at(xMax)];
}

/** The finite points of one series, downsampled with LTTB (which keeps first, last, peak and trough). */
function downsample(xs: Float64Array, ys: Float64Array, maxPoints: number): ChartPoint[] {
  // Plain indexed loops: a long run is up to RING_CAPACITY (2^18) rows per series, every look.
  let firstGap = 0;
  while (firstGap < ys.length && Number.isFinite(ys[firstGap])) firstGap += 1;
  let fx = xs;
  let fy = ys;
  // Only a series with a gap (a reading missed, a sample of another kind) is copied without it.
  if (firstGap < ys.length) {
    const keepX = new Float64Array(xs.length);
    const keepY = new Float64Array(xs.length);
    keepX.set(xs.subarray(0, firstGap));
    keepY.set(ys.subarray(0, firstGap));
    let n = firstGap;
    for (let i = firstGap + 1; i < xs.length; i++) {
      const y = ys[i] as number;
      if (!Number.isFinite(y)) continue;
      keepX[n] = xs[i] as number;
      keepY[n] = y;
      n += 1;
    }
    fx = keepX.subarray(0, n);
    fy = keepY.subarray(0, n);
  }
  return lttbIndices(fx, fy, maxPoints).map((i) => ({ x: fx[i] ?? NaN, y: fy[i] ?? NaN }));
}

export function buildChartSeries(ring: MemoryRing, theory: TheoryInput, maxPointsPerSeries: number): ChartSeries {
  if (ring.size === 0) return EMPTY_CHART;
  // x = tokens; a sample taken before the first token counts as 0, one without a count carries the last.
  const rawTokens = ring.column('tokens');
  const xs = new Float64Array(rawTokens.length);
  let lastTokens = 0;
  for (let i = 0; i < rawTokens.length; i++) {
    const tokens = rawTokens[i] ?? NaN;
    if (Number.isFinite(tokens)) lastTokens = tokens;
    xs[i] = lastTokens;
  }
  const rss = downsample(xs, ring.column('rssBytes'), maxPointsPerSeries);
  const anon = downsample(xs, ring.column('rssAnonBytes'), maxPointsPerSeries);
  const file = downsample(xs, ring.column('rssFileBytes'), maxPointsPerSeries);
  const xMin = xs.at(0) ?? 0;
  const xMax = xs.at(-1) ?? 0;
  const line = theoryLine(theory, xMin, xMax);
  let yMax = 0;
  for (const series of [rss, anon, file, line]) for (const p of series) if (p.y > yMax) yMax = p.y;
  return { rss, anon, file, theory: line, samples: ring.size, dropped: ring.dropped, xMax, yMax };
}
