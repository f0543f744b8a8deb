// Largest-Triangle-Three-Buckets downsampling (Steinarsson, "Downsampling Time Series for Visual
// Representation", 2013): keeps the first and last points and, from each of threshold − 2 equal
// buckets in between, the point that makes the largest triangle with the previously kept point
// and the average of the next bucket — so the chart keeps the series' visual shape with at most
// `threshold` points (recharts slows down past a few thousand points per series).
//
// One addition for a memory profiler: the global maximum and minimum are always kept (each
// replaces its bucket's pick; with threshold ≥ 4), so the peak RSS on a chart is the real peak.

import { numAt } from '../util/num-at';

/** Indices (ascending) of the points LTTB keeps; all indices when n ≤ threshold. */
export function lttbIndices(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  threshold: number,
  options: { keepExtremes?: boolean } = {},
): number[] {
  const n = Math.min(xs.length, ys.length);
  if (!Number.isInteger(threshold) || threshold < 0)
    throw new Error(`threshold must be a whole number ≥ 0, got ${threshold}`);
  if (threshold >= n) return Array.from({ length: n }, (_, i) => i);
  if (threshold === 0) return [];
  if (threshold === 1) return [0];
  if (threshold === 2) return [0, n - 1];

  // Every index below is within [0, n) by the bucket arithmetic.
  const out: number[] = [0];
  // Bucket b (0-based) of the n − 2 inner points spans [floor(b·every) + 1, floor((b+1)·every) + 1).
  const buckets = threshold - 2;
  const every = (n - 2) / buckets;
  const bucketStart = (b: number) => Math.floor(b * every) + 1;
  let a = 0;
  for (let b = 0; b < buckets; b++) {
    const start = bucketStart(b);
    const end = bucketStart(b + 1);
    // Average of the next bucket (the last point for the final bucket).
    const nStart = end;
    const nEnd = b + 1 < buckets ? bucketStart(b + 2) : n;
    let avgX = 0;
    let avgY = 0;
    for (let i = nStart; i < nEnd; i++) {
      avgX += numAt(xs, i);
      avgY += numAt(ys, i);
    }
    const count = nEnd - nStart;
    avgX /= count;
    avgY /= count;
    let best = start;
    let bestArea = -1;
    const ax = numAt(xs, a);
    const ay = numAt(ys, a);
    for (let i = start; i < end; i++) {
      const area = Math.abs((ax - avgX) * (numAt(ys, i) - ay) - (ax - numAt(xs, i)) * (avgY - ay));
      if (area > bestArea) {
        bestArea = area;
        best = i;
      }
    }
    out.push(best);
    a = best;
  }
  out.push(n - 1);

  if (options.keepExtremes ?? true) {
    let iMax = 0;
    let iMin = 0;
    for (let i = 1; i < n; i++) {
      if (numAt(ys, i) > numAt(ys, iMax)) iMax = i;
      if (numAt(ys, i) < numAt(ys, iMin)) iMin = i;
    }
    const isExtreme = (i: number) => i === iMax || i === iMin;
    for (const e of [iMax, iMin]) {
      if (out.includes(e)) continue;
      // The bucket that contains e; its pick (slot b + 1) gives way to e.
      let b = Math.min(buckets - 1, Math.max(0, Math.floor((e - 1) / every)));
      while (b + 1 < buckets && bucketStart(b + 1) <= e) b++;
      while (b > 0 && bucketStart(b) > e) b--;
      let slot = b + 1;
      // Both extremes in one bucket: the other one takes a neighbouring bucket's slot.
      if (isExtreme(numAt(out, slot)))
        slot = slot + 1 <= out.length - 2 && !isExtreme(numAt(out, slot + 1)) ? slot + 1 : slot - 1;
      if (slot >= 1 && slot <= out.length - 2 && !isExtreme(numAt(out, slot))) out[slot] = e;
    }
    out.sort((p, q) => p - q);
  }
  return out;
}

/** Downsample objects to at most `threshold` of them, keeping order, first, last and extremes. */
export function lttb<T>(
  data: readonly T[],
  threshold: number,
  x: (d: T) => number,
  y: (d: T) => number,
  options?: { keepExtremes?: boolean },
): T[] {
  const xs = data.map(x);
  const ys = data.map(y);
  const out: T[] = [];
  for (const i of lttbIndices(xs, ys, threshold, options)) {
    const d = data[i];
    if (d !== undefined) out.push(d);
  }
  return out;
}
