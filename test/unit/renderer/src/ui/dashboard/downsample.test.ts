// Min/max per pixel: at most two points per column, spikes kept, neighbours outside the window kept.
import { describe, expect, it } from 'vitest';
import { indexAtOrBefore, minMaxPerPixel } from '../../../../../../renderer/src/ui/dashboard/downsample';

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

  it('finds the point at or before a time', () => {
    expect(indexAtOrBefore([0, 10, 20], 3, 15)).toBe(1);
    expect(indexAtOrBefore([0, 10, 20], 3, 20)).toBe(2);
    expect(indexAtOrBefore([0, 10, 20], 3, -1)).toBe(-1);
  });
});
