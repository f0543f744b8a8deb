import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lttb, lttbIndices } from '../../../../shared/analysis/lttb';

describe('LTTB', () => {
  const xs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const ys = [0, 0, 0, 10, 0, 0, 0, 0, -5, 0];

  it('hand example: the largest triangles, then the extremes', () => {
    // 2 buckets over points 1..8: [1,5) and [5,9). Bucket 0, against (0,0) and the next bucket's
    // mean (6.5, −1.25): (3,10) spans 68.75, the others ≤ 1.25 → 3. Bucket 1, against (3,10) and
    // (9,0): (5,0) and (8,−5) both span 40, the first wins → 5.
    expect(lttbIndices(xs, ys, 4, { keepExtremes: false })).toEqual([0, 3, 5, 9]);
    // keeping extremes: the minimum (8, −5) replaces its bucket's pick
    expect(lttbIndices(xs, ys, 4)).toEqual([0, 3, 8, 9]);
  });

  it('small inputs and thresholds', () => {
    expect(lttbIndices(xs, ys, 20)).toEqual(xs);
    expect(lttbIndices(xs, ys, 2)).toEqual([0, 9]);
    expect(lttbIndices(xs, ys, 0)).toEqual([]);
    expect(() => lttbIndices(xs, ys, -1)).toThrow();
    expect(
      lttb(
        [
          { t: 0, v: 1 },
          { t: 1, v: 2 },
        ],
        5,
        (d) => d.t,
        (d) => d.v,
      ),
    ).toEqual([
      { t: 0, v: 1 },
      { t: 1, v: 2 },
    ]);
  });

  it('keeps first, last, maximum and minimum, in order, within the budget (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e9, max: 1e9, noNaN: true }), { minLength: 5, maxLength: 3000 }),
        fc.integer({ min: 4, max: 400 }),
        (values, threshold) => {
          const x = values.map((_, i) => i * 200);
          const idx = lttbIndices(x, values, threshold);
          expect(idx.length).toBe(Math.min(values.length, threshold));
          for (let i = 1; i < idx.length; i++) expect(idx[i]).toBeGreaterThan(idx[i - 1] ?? NaN);
          expect(idx[0]).toBe(0);
          expect(idx[idx.length - 1]).toBe(values.length - 1);
          const kept = idx.map((i) => values[i] ?? NaN);
          expect(Math.max(...kept)).toBe(Math.max(...values));
          expect(Math.min(...kept)).toBe(Math.min(...values));
        },
      ),
    );
  });

  it('downsamples 50k points to 1000 keeping the peak', () => {
    const n = 50_000;
    const data = Array.from({ length: n }, (_, i) => ({ t: i * 200, rss: 1e8 + i * 32768 + (i === 31_337 ? 5e8 : 0) }));
    const out = lttb(
      data,
      1000,
      (d) => d.t,
      (d) => d.rss,
    );
    expect(out).toHaveLength(1000);
    expect(out).toContain(data[31_337]);
  });
});
