// Line fits for memory-vs-tokens and tokens-vs-time series.
//
// Theil–Sen (median of pairwise slopes, intercept = median residual) is the default because
// RSS series are not Gaussian: allocator arenas grow in steps, page-cache and mmap'd weights
// fault in in bursts, and a sampler tick can land mid-allocation. Theil–Sen ignores up to ~29%
// of wild points (its breakdown point), where least squares is dragged by a single one.
// Least squares and r² are kept for goodness-of-fit figures and for comparison.
//
// Cost: all n(n−1)/2 pairs while that is at most THEIL_SEN_MAX_PAIRS, otherwise that many pairs
// drawn by a fixed-seed generator — deterministic (same input, same answer, testable) and fast for
// 50k-point series, with the same robustness in expectation as the full estimator.

import { numAt } from '../util/num-at';

export interface LineFit {
  slope: number;
  intercept: number;
  /** Points used (finite x and y). */
  n: number;
}

export interface LineFitWithR2 extends LineFit {
  /** Coefficient of determination of this line on the points; null when y is constant. */
  r2: number | null;
}

/** Pairs used by theilSen before it samples: 100k slopes take ≈ 20 ms to collect and sort on a 2-core x86 VM. */
export const THEIL_SEN_MAX_PAIRS = 100_000;

/** Median of the finite values, or null when there are none. Does not modify the input. */
export function median(values: ArrayLike<number>): number | null {
  const a: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== undefined && Number.isFinite(v)) a.push(v);
  }
  if (a.length === 0) return null;
  return medianInPlace(Float64Array.from(a));
}

function medianInPlace(a: Float64Array): number {
  a.sort();
  const mid = a.length >> 1;
  return a.length % 2 ? numAt(a, mid) : (numAt(a, mid - 1) + numAt(a, mid)) / 2;
}

/** q-quantile (0..1) of the finite values by linear interpolation, or null when empty. */
export function quantile(values: ArrayLike<number>, q: number): number | null {
  const a: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== undefined && Number.isFinite(v)) a.push(v);
  }
  if (a.length === 0) return null;
  const s = Float64Array.from(a).sort();
  const pos = Math.min(Math.max(q, 0), 1) * (s.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return numAt(s, lo) + (numAt(s, hi) - numAt(s, lo)) * (pos - lo);
}

function finitePairs(xs: ArrayLike<number>, ys: ArrayLike<number>): { x: Float64Array; y: Float64Array } {
  const n = Math.min(xs.length, ys.length);
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const xi = xs[i];
    const yi = ys[i];
    if (xi !== undefined && yi !== undefined && Number.isFinite(xi) && Number.isFinite(yi)) {
      x.push(xi);
      y.push(yi);
    }
  }
  return { x: Float64Array.from(x), y: Float64Array.from(y) };
}

/** mulberry32: a tiny, well-mixed 32-bit generator; a fixed seed makes sampling reproducible. */
function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Theil–Sen line through the points: slope = median of (yj − yi)/(xj − xi) over pairs with
 * xi ≠ xj, intercept = median of y − slope·x. Null with fewer than two distinct x values.
 */
export function theilSen(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  options: { maxPairs?: number; seed?: number } = {},
): LineFit | null {
  const { x, y } = finitePairs(xs, ys);
  const n = x.length;
  if (n < 2) return null;
  const maxPairs = options.maxPairs ?? THEIL_SEN_MAX_PAIRS;
  const totalPairs = (n * (n - 1)) / 2;
  let slopes: Float64Array;
  let count = 0;
  if (totalPairs <= maxPairs) {
    slopes = new Float64Array(totalPairs);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const dx = numAt(x, j) - numAt(x, i);
        if (dx !== 0) slopes[count++] = (numAt(y, j) - numAt(y, i)) / dx;
      }
    }
  } else {
    slopes = new Float64Array(maxPairs);
    const rand = mulberry32(options.seed ?? 0x5eed);
    // Draw up to 4× the target to get past pairs that share an x (e.g. samples between tokens).
    for (let draws = 0; draws < maxPairs * 4 && count < maxPairs; draws++) {
      const i = Math.floor(rand() * n);
      const j = Math.floor(rand() * n);
      const dx = numAt(x, j) - numAt(x, i);
      if (dx !== 0) slopes[count++] = (numAt(y, j) - numAt(y, i)) / dx;
    }
  }
  if (count === 0) return null;
  // `+ 0` turns −0 (a flat line through points with x decreasing) into 0.
  const slope = medianInPlace(slopes.subarray(0, count)) + 0;
  const residuals = new Float64Array(n);
  for (let i = 0; i < n; i++) residuals[i] = numAt(y, i) - slope * numAt(x, i);
  const intercept = medianInPlace(residuals) + 0;
  return { slope, intercept, n };
}

/** Ordinary least squares line, or null with fewer than two distinct x values. */
export function ols(xs: ArrayLike<number>, ys: ArrayLike<number>): LineFitWithR2 | null {
  const { x, y } = finitePairs(xs, ys);
  const n = x.length;
  if (n < 2) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += numAt(x, i);
    my += numAt(y, i);
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = numAt(x, i) - mx;
    sxx += dx * dx;
    sxy += dx * (numAt(y, i) - my);
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  return { slope, intercept, n, r2: rSquared(x, y, slope, intercept) };
}

/** 1 − SS_res/SS_tot of a given line on the points; null when y is constant or there are no points. */
export function rSquared(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  slope: number,
  intercept: number,
): number | null {
  const { x, y } = finitePairs(xs, ys);
  const n = x.length;
  if (n === 0) return null;
  let my = 0;
  for (let i = 0; i < n; i++) my += numAt(y, i);
  my /= n;
  let ssTot = 0;
  let ssRes = 0;
  for (let i = 0; i < n; i++) {
    ssTot += (numAt(y, i) - my) ** 2;
    ssRes += (numAt(y, i) - (slope * numAt(x, i) + intercept)) ** 2;
  }
  if (ssTot === 0) return null;
  return 1 - ssRes / ssTot;
}

/** Theil–Sen line with its r² on the points. */
export function robustFit(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  options?: { maxPairs?: number; seed?: number },
): LineFitWithR2 | null {
  const fit = theilSen(xs, ys, options);
  if (!fit) return null;
  return { ...fit, r2: rSquared(xs, ys, fit.slope, fit.intercept) };
}
