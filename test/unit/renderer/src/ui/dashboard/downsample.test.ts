// Min/max per pixel: at most two points per column, spikes kept, neighbours outside the window kept.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  indexAtOrBefore,
  lowerBound,
  minMaxPerPixel,
  type PlotPoints,
} from '../../../../../../renderer/src/ui/dashboard/downsample';

/** minMaxPerPixel as it was (a division per point), verbatim: the reference the faster one must equal. */
function minMaxPerPixelByDivision(
  t: ArrayLike<number>,
  v: ArrayLike<number>,
  n: number,
  t0: number,
  t1: number,
  widthPx: number,
): PlotPoints {
  const columns = Math.max(1, Math.floor(widthPx));
  const start = Math.max(0, lowerBound(t, n, t0) - 1);
  const end = Math.min(n, lowerBound(t, n, t1 + 1e-9) + 1);
  const visible = Math.max(0, end - start);
  if (visible <= 2 * columns + 2) {
    const xs = new Float64Array(visible);
    const ys = new Float64Array(visible);
    for (let i = 0; i < visible; i++) {
      xs[i] = t[start + i] ?? 0;
      ys[i] = v[start + i] ?? 0;
    }
    return { xs, ys, count: visible };
  }
  const xs = new Float64Array(2 * columns + 2);
  const ys = new Float64Array(2 * columns + 2);
  let count = 0;
  const put = (i: number) => {
    xs[count] = t[i] ?? 0;
    ys[count] = v[i] ?? 0;
    count += 1;
  };
  const span = t1 - t0 || 1;
  let i = start;
  // The point before the window (when there is one) stays as it is.
  if ((t[i] ?? 0) < t0) put(i++);
  const last = end - 1;
  const inner = (t[last] ?? 0) > t1 ? last : end;
  while (i < inner) {
    const column = Math.min(columns - 1, Math.floor((((t[i] ?? 0) - t0) / span) * columns));
    let iMin = i;
    let iMax = i;
    let j = i + 1;
    for (; j < inner; j++) {
      const c = Math.min(columns - 1, Math.floor((((t[j] ?? 0) - t0) / span) * columns));
      if (c !== column) break;
      if ((v[j] ?? 0) < (v[iMin] ?? 0)) iMin = j;
      if ((v[j] ?? 0) > (v[iMax] ?? 0)) iMax = j;
    }
    if (iMin === iMax) put(iMin);
    else if (iMin < iMax) {
      put(iMin);
      put(iMax);
    } else {
      put(iMax);
      put(iMin);
    }
    i = j;
  }
  if (inner === last) put(last);
  return { xs, ys, count };
}

describe('minMaxPerPixel', () => {
  it('returns the visible points unchanged when there are few, with one neighbour each side', () => {
    const t = [0, 10, 20, 30, 40];
    const v = [5, 6, 7, 8, 9];
    const p = minMaxPerPixel(t, v, 5, 15, 25, 100);
    expect([...p.xs.subarray(0, p.count)]).toEqual([10, 20, 30]);
    expect([...p.ys.subarray(0, p.count)]).toEqual([6, 7, 8]);
  });

  it('keeps the minimum and maximum of each column, in time order, and a one-sample spike', () => {
    // 1000 points over [0, 999] ms on 10 columns: 100 points per column. Values 0 except a spike
    // of 50 at t = 555 (column 5) and a dip of -7 at t = 120 (column 1).
    const n = 1000;
    const t = Float64Array.from({ length: n }, (_, i) => i);
    const v = new Float64Array(n);
    v[555] = 50;
    v[120] = -7;
    const p = minMaxPerPixel(t, v, n, 0, 999, 10);
    expect(p.count).toBeLessThanOrEqual(2 * 10 + 2);
    const pts = Array.from({ length: p.count }, (_, i) => [p.xs[i], p.ys[i]]);
    expect(pts).toContainEqual([555, 50]);
    expect(pts).toContainEqual([120, -7]);
    // Column 1 holds points 100..199: its maximum is the first 0 (t = 100), its minimum -7 (t = 120);
    // both are kept in time order.
    const i100 = pts.findIndex((q) => q[0] === 100);
    const i120 = pts.findIndex((q) => q[0] === 120);
    expect(i100).toBeGreaterThanOrEqual(0);
    expect(i100).toBeLessThan(i120);
    for (let i = 1; i < p.count; i++) expect(p.xs[i] ?? 0).toBeGreaterThan(p.xs[i - 1] ?? 0);
  });

  it('puts every point in the column floor((t − t0) / span × columns) says, as a division per point does', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e12, max: 1e12, noNaN: true }),
        fc.double({ min: 1e-3, max: 1e9, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 50, maxLength: 400 }),
        fc.integer({ min: 1, max: 20 }),
        (t0, span, fractions, columns) => {
          // Sorted times inside [t0, t1], some on the column edges themselves.
          const t1 = t0 + span;
          const edges = Array.from({ length: columns }, (_, c) => t0 + (c / columns) * span);
          const t = [...fractions.map((f) => t0 + f * span), ...edges].sort((a, b) => a - b);
          fc.pre(t.length > 2 * columns + 2 && t.every((x) => x >= t0 && x <= t1));
          const v = t.map((x, k) => Math.sin(x + k));
          const p = minMaxPerPixel(t, v, t.length, t0, t1, columns);
          const q = minMaxPerPixelByDivision(t, v, t.length, t0, t1, columns);
          expect(Array.from(p.xs.subarray(0, p.count))).toEqual(Array.from(q.xs.subarray(0, q.count)));
          expect(Array.from(p.ys.subarray(0, p.count))).toEqual(Array.from(q.ys.subarray(0, q.count)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds the point at or before a time', () => {
    expect(indexAtOrBefore([0, 10, 20], 3, 15)).toBe(1);
    expect(indexAtOrBefore([0, 10, 20], 3, 20)).toBe(2);
    expect(indexAtOrBefore([0, 10, 20], 3, -1)).toBe(-1);
  });
});
