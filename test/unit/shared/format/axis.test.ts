// Chart axes (shared/format/axis.ts): round steps and short labels, expectations by hand.
import { describe, expect, it } from 'vitest';
import {
  formatBytesShort,
  formatTokensShort,
  niceByteTicks,
  niceLinearTicks,
  niceStep,
} from '../../../../shared/format/axis';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

describe('chart axes', () => {
  it('1-2-2.5-5 steps for about five ticks', () => {
    expect(niceStep(10)).toBe(2);
    expect(niceStep(1000)).toBe(200);
    expect(niceStep(41000)).toBe(10000);
    expect(niceStep(12)).toBe(2.5);
    expect(niceStep(0)).toBe(1);
    expect(niceStep(NaN)).toBe(1);
  });

  it('byte ticks on round numbers of the unit, up to at least the maximum', () => {
    // 146 MiB / 5 = 29.2 → step 50 MiB; 150 covers 146.
    expect(niceByteTicks(146 * MiB).ticks).toEqual([0, 50, 100, 150].map((m) => m * MiB));
    // 2.2 GiB / 5 = 0.44 → step 0.5 GiB; 2.5 covers 2.2.
    expect(niceByteTicks(2.2 * GiB).ticks).toEqual([0, 0.5, 1, 1.5, 2, 2.5].map((g) => g * GiB));
    // 600 MiB / 5 = 120 → step 200 MiB; exactly 600 is the top.
    expect(niceByteTicks(600 * MiB)).toEqual({ ticks: [0, 200, 400, 600].map((m) => m * MiB), top: 600 * MiB });
    expect(niceByteTicks(0)).toEqual({ ticks: [0], top: 1 });
    expect(niceByteTicks(-5)).toEqual({ ticks: [0], top: 1 });
    // The KV calculator's largest shapes: counted and written in PiB/EiB, not as 13-digit TiB.
    const EiB = 1024 ** 6;
    const huge = niceByteTicks(9155 * EiB);
    expect(huge.ticks.map(formatBytesShort)).toEqual([
      '0',
      '2000 EiB',
      '4000 EiB',
      '6000 EiB',
      '8000 EiB',
      '10000 EiB',
    ]);
    expect(formatBytesShort(3 * 1024 ** 5)).toBe('3 PiB');
  });

  it('plain ticks (seconds, tokens) on 1-2-2.5-5 steps, up to at least the maximum', () => {
    // 9.3 s of data: steps of 2 (9.3 / 5 = 1.86 → 2), the top at 10, not at 9.3.
    expect(niceLinearTicks(9.3)).toEqual({ ticks: [0, 2, 4, 6, 8, 10], top: 10 });
    // 41,000 tokens: steps of 10,000 (8,200 → 10,000).
    expect(niceLinearTicks(41_000)).toEqual({ ticks: [0, 10_000, 20_000, 30_000, 40_000, 50_000], top: 50_000 });
    expect(niceLinearTicks(40_000)).toEqual({ ticks: [0, 10_000, 20_000, 30_000, 40_000], top: 40_000 });
    expect(niceLinearTicks(0)).toEqual({ ticks: [0], top: 1 });
  });

  it('whole-number ticks for counts: no 2.5 tokens, no fraction of one', () => {
    // 12 tokens: 12 / 5 = 2.4 → a step of 2.5 for a plain axis, 3 for a count.
    expect(niceLinearTicks(12).ticks).toEqual([0, 2.5, 5, 7.5, 10, 12.5]);
    expect(niceLinearTicks(12, 5, true)).toEqual({ ticks: [0, 3, 6, 9, 12], top: 12 });
    expect(niceLinearTicks(2, 5, true)).toEqual({ ticks: [0, 1, 2], top: 2 });
    expect(niceLinearTicks(41_000, 5, true)).toEqual(niceLinearTicks(41_000));
  });

  it('short labels', () => {
    expect(formatBytesShort(0)).toBe('0');
    expect(formatBytesShort(50 * MiB)).toBe('50 MiB');
    expect(formatBytesShort(1.5 * GiB)).toBe('1.5 GiB');
    expect(formatBytesShort(-2 * MiB)).toBe('-2 MiB');
    expect(formatTokensShort(500)).toBe('500');
    expect(formatTokensShort(1500)).toBe('1.5k');
    expect(formatTokensShort(12000)).toBe('12k');
    expect(formatTokensShort(1_200_000)).toBe('1.2M');
    // Round ticks of a 2.5 step read as themselves (they were "13k" and "1.3k").
    expect(formatTokensShort(12_500)).toBe('12.5k');
    expect(formatTokensShort(1_250)).toBe('1.25k');
    expect(formatTokensShort(5_000)).toBe('5k');
    // Rounding up to the next unit: 999,600 is "1M", not "1000k".
    expect(formatTokensShort(999_600)).toBe('1M');
    expect(formatTokensShort(0)).toBe('0');
    expect(formatTokensShort(-2_500)).toBe('-2.5k');
    expect(formatTokensShort(NaN)).toBe('');
  });
});
