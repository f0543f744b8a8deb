// Pure sweep analysis (shared/analysis/sweep.ts) on hand-made points; expected values by hand.
import { describe, expect, it } from 'vitest';
import { analyzeSweep, weightedTheilSen, type SweepPoint } from '../../../../shared/analysis/sweep';

const MIB = 1024 * 1024;

function point(ctx: number, anonBytes: number, extra: Partial<SweepPoint> = {}): SweepPoint {
  // Total RSS = anonymous + 50 MiB of file-backed pages.
  return {
    ctx,
    peakRssBytes: anonBytes + 50 * MIB,
    peakAnonRssBytes: anonBytes,
    exitCode: 0,
    oomKilled: false,
    ok: true,
    ...extra,
  };
}

describe('weightedTheilSen', () => {
  it('an exact line comes back exactly', () => {
    // y = 3x + 7
    expect(weightedTheilSen([1, 2, 4, 8], [10, 13, 19, 31])).toEqual({ slope: 3, intercept: 7, n: 4 });
  });

  it('far-apart pairs outweigh near pairs', () => {
    // x 0, 1, 100: pair slopes (0,1) = 50 weight 1, (0,100) = 1 weight 100, (1,100) = (100 − 50)/99 ≈ 0.505 weight 99.
    // Sorted: 0.505 (99), 1 (100), 50 (1); total 200, half 100: 99 < 100, 99 + 100 > 100 → slope 1.
    // The plain median of the three slopes would also be 1; move the near pair's slope to the middle:
    // x 0, 1, 100, y 0, 0.8, 100 → (0,1) 0.8 w1, (0,100) 1 w100, (1,100) 99.2/99 ≈ 1.00202 w99:
    // sorted 0.8 (1), 1 (100), 1.00202 (99): cumulative 1, 101 > 100 → 1; plain median also 1.
    expect(weightedTheilSen([0, 1, 100], [0, 50, 100])?.slope).toBe(1);
    // Four points where the plain median is pulled by near pairs: x 0, 1, 2, 100 with y 0, 5, 10, 100.
    // Slopes: (0,1) 5 w1, (0,2) 5 w2, (1,2) 5 w1, (0,100) 1 w100, (1,100) 95/99 w99, (2,100) 90/98 w98.
    // Plain median of [0.918, 0.960, 1, 5, 5, 5] = (1 + 5)/2 = 3; weighted: total 301, half 150.5:
    // 0.918 (98) → 98, 0.960 (99) → 197 > 150.5 → 95/99.
    expect(weightedTheilSen([0, 1, 2, 100], [0, 5, 10, 100])?.slope).toBeCloseTo(95 / 99, 12);
  });

  it('needs two distinct x', () => {
    expect(weightedTheilSen([5, 5], [1, 2])).toBeNull();
  });
});

describe('analyzeSweep', () => {
  // A reserving engine: 40 MiB baseline + 700 B per cell; theory 640 B/token.
  const reserving = [512, 4096, 16384, 65536].map((c) =>
    point(c, 40 * MIB + 700 * c, { theoryReservedBytes: 640 * c, engineKvBytes: 640 * c }),
  );

  it('measures bytes per context token, overhead against theory, reserved mode', () => {
    const a = analyzeSweep(reserving, { bytesPerToken: 640 }, null);
    expect(a.rssMetric).toBe('peakAnonRssBytes');
    expect(a.measuredBytesPerToken).toBe(700);
    expect(a.overheadFactor).toBeCloseTo(700 / 640, 12);
    expect(a.baselineBytes).toBe(40 * MIB);
    expect(a.engineReportedBytesPerToken).toBe(640);
    expect(a.mode).toBe('reserved');
    expect(a.fitR2).toBe(1);
    expect(a.fittedPoints).toBe(4);
  });

  it('the largest context within a budget, from total RSS, rounded down to the engine padding', () => {
    // Total RSS = 90 MiB + 700 B × cells; budget 256 MiB → (256 − 90) MiB / 700 = 174,063,616 / 700
    // = 248,662.3 cells → 248,662 → multiple of 256 below: 971 × 256 = 248,576.
    const a = analyzeSweep(reserving, 640, 256 * MIB, { ctxPad: 256 });
    expect(a.maxContextForBudget).toBe(248576);
    expect(analyzeSweep(reserving, 640, 256 * MIB).maxContextForBudget).toBe(248662);
  });

  it('memory that does not follow the context is not reserved mode', () => {
    const flat = [512, 4096, 16384, 65536].map((c) => point(c, 80 * MIB + 3 * c));
    expect(analyzeSweep(flat, 640, null).mode).toBe('growth');
  });

  it('an OOM-killed step is kept as a point but not fitted', () => {
    const withOom = [...reserving, point(262144, 10 * MIB, { ok: false, oomKilled: true, exitCode: null })];
    const a = analyzeSweep(withOom, 640, null);
    expect(a.points).toHaveLength(5);
    expect(a.fittedPoints).toBe(4);
    expect(a.measuredBytesPerToken).toBe(700);
  });

  it('without anonymous RSS on every point the fit uses total RSS', () => {
    const mixed = reserving.map((p, i) => (i === 0 ? { ...p, peakAnonRssBytes: null } : p));
    const a = analyzeSweep(mixed, 640, null);
    expect(a.rssMetric).toBe('peakRssBytes');
    expect(a.measuredBytesPerToken).toBe(700);
    expect(a.baselineBytes).toBe(90 * MIB);
  });
});
