import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { median, ols, quantile, robustFit, rSquared, theilSen } from '../../../../shared/analysis/fit';

describe('median and quantile', () => {
  it('odd, even, empty, non-finite values ignored', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
    expect(median([NaN, 5, Infinity])).toBe(5);
    expect(quantile([0, 10, 20, 30, 40], 0.25)).toBe(10);
    expect(quantile([0, 10], 0.5)).toBe(5);
  });
});

describe('theilSen', () => {
  it('hand example: the outlier does not move it', () => {
    // y = 2x + 1 at x = 0..4, except y(2) = 100: pairwise slopes without the outlier are all 2.
    const fit = theilSen([0, 1, 2, 3, 4], [1, 3, 100, 7, 9]);
    expect(fit).toEqual({ slope: 2, intercept: 1, n: 5 });
    // least squares is dragged: slope 2, intercept 1 + 95/5 = 20 (the outlier sits at the mean x)
    expect(ols([0, 1, 2, 3, 4], [1, 3, 100, 7, 9])).toMatchObject({ slope: 2, intercept: 20 });
  });

  it('needs two distinct x values', () => {
    expect(theilSen([1], [1])).toBeNull();
    expect(theilSen([2, 2, 2], [1, 2, 3])).toBeNull();
    expect(theilSen([0, NaN, 1], [0, 5, 1])).toEqual({ slope: 1, intercept: 0, n: 2 });
  });

  it('is exact on noiseless integer lines (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: -100_000, max: 100_000 }), { minLength: 2, maxLength: 60 }),
        fc.integer({ min: -40_000, max: 40_000 }),
        fc.integer({ min: -1e9, max: 1e9 }),
        (xs, slope, intercept) => {
          const fit = theilSen(
            xs,
            xs.map((x) => intercept + slope * x),
          );
          expect(fit?.slope).toBe(slope);
          expect(fit?.intercept).toBe(intercept);
        },
      ),
    );
  });

  it('ignores 20% arbitrary outliers exactly (property)', () => {
    // With 80% of points exactly on the line, more than half of all pairs are good-good pairs whose
    // slope is exactly the line's, so the median pairwise slope (and the median residual) is exact.
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 10, maxLength: 80 }),
        fc.integer({ min: -5000, max: 5000 }),
        fc.integer({ min: -1e6, max: 1e6 }),
        fc.array(fc.integer({ min: -1e12, max: 1e12 }), { minLength: 80, maxLength: 80 }),
        (xs, slope, intercept, junk) => {
          const outliers = Math.floor(xs.length * 0.2);
          const ys = xs.map((x, i) => (i < outliers ? (junk[i] ?? NaN) : intercept + slope * x));
          const fit = theilSen(xs, ys);
          expect(fit?.slope).toBe(slope);
          expect(fit?.intercept).toBe(intercept);
        },
      ),
    );
  });

  it('samples pairs deterministically for large n and stays accurate', () => {
    // 50,000 points on y = 32768·x + 1e8 with ±65536 jitter from a fixed generator.
    let s = 7;
    const jitter = () => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return (s / 4294967296) * 2 - 1;
    };
    const xs = Array.from({ length: 50_000 }, (_, i) => i / 10);
    const ys = xs.map((x) => 1e8 + 32768 * x + 65536 * jitter());
    const a = theilSen(xs, ys);
    const b = theilSen(xs, ys);
    expect(a).toEqual(b); // same input, same answer
    expect(Math.abs((a?.slope as number) - 32768)).toBeLessThan(32768 * 0.001);
    expect(Math.abs((a?.intercept as number) - 1e8)).toBeLessThan(65536);
    expect(a?.n).toBe(50_000);
  });
});

describe('ols and r²', () => {
  it('hand example', () => {
    // x = 1..4, y = 2, 4, 5, 8: mean x 2.5, mean y 4.75; Sxy = 9.5, Sxx = 5 → slope 1.9, intercept 4.75 − 4.75 = 0
    const fit = ols([1, 2, 3, 4], [2, 4, 5, 8]);
    expect(fit?.slope).toBeCloseTo(1.9, 12);
    expect(fit?.intercept).toBeCloseTo(0, 12);
    // residuals 0.1, 0.2, −0.7, 0.4 → SS_res 0.7; SS_tot 18.75 → r² = 1 − 0.7/18.75 = 0.962666…
    expect(fit?.r2).toBeCloseTo(0.9626666667, 9);
  });

  it('r² is 1 on a perfect line, null on constant y', () => {
    expect(rSquared([0, 1, 2], [1, 3, 5], 2, 1)).toBe(1);
    expect(rSquared([0, 1, 2], [4, 4, 4], 0, 4)).toBeNull();
    expect(ols([1, 1], [1, 2])).toBeNull();
  });

  it('robustFit carries r²', () => {
    expect(robustFit([0, 1, 2, 3], [0, 2, 4, 6])).toEqual({ slope: 2, intercept: 0, n: 4, r2: 1 });
  });
});
