import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatBytesPerToken,
  formatBytesShort,
  formatFactor,
  formatMs,
  formatTokens,
  formatTokensPerSecond,
  formatTokensShort,
  MISSING,
  niceByteTicks,
  parseByteSize,
} from '../../../../renderer/src/format';

describe('formatting for people', () => {
  it('formats bytes in binary units with 3 significant digits', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(32768)).toBe('32.0 KiB');
    expect(formatBytes(17408)).toBe('17.0 KiB');
    expect(formatBytes(128 * 1024 * 1024)).toBe('128 MiB');
    expect(formatBytes(1.25 * 1024 ** 3)).toBe('1.25 GiB');
    expect(formatBytes(-2048)).toBe('-2.00 KiB');
    expect(formatBytes(null)).toBe(MISSING);
    expect(formatBytes(NaN)).toBe(MISSING);
  });

  it('formats per-token sizes, token counts, rates, times and factors', () => {
    expect(formatBytesPerToken(32768)).toBe('32.0 KiB/token');
    expect(formatBytesPerToken(undefined)).toBe(MISSING);
    expect(formatTokens(41000)).toBe('41,000 tokens');
    expect(formatTokensPerSecond(15.24)).toBe('15.2 tokens/s');
    expect(formatTokensPerSecond(980.4)).toBe('980 tokens/s');
    expect(formatMs(180)).toBe('180 ms');
    expect(formatMs(2310)).toBe('2.31 s');
    expect(formatMs(125_000)).toBe('2 min 5 s');
    expect(formatFactor(1.0123)).toBe('1.01×');
    expect(formatFactor(null)).toBe(MISSING);
  });

  it('keeps axis labels short', () => {
    expect(formatBytesShort(0)).toBe('0');
    expect(formatBytesShort(50 * 1024 ** 2)).toBe('50 MiB');
    expect(formatBytesShort(1.5 * 1024 ** 3)).toBe('1.5 GiB');
    expect(formatTokensShort(500)).toBe('500');
    expect(formatTokensShort(1500)).toBe('1.5k');
    expect(formatTokensShort(12000)).toBe('12k');
    expect(formatTokensShort(1_200_000)).toBe('1.2M');
  });

  it('puts byte ticks on round numbers of the label unit', () => {
    expect(niceByteTicks(146 * 1024 ** 2).ticks).toEqual([0, 50, 100, 150].map((m) => m * 1024 ** 2));
    expect(niceByteTicks(2.2 * 1024 ** 3).ticks).toEqual([0, 0.5, 1, 1.5, 2, 2.5].map((g) => g * 1024 ** 3));
    const ticks = niceByteTicks(600 * 1024 ** 2);
    expect(ticks.top).toBeGreaterThanOrEqual(600 * 1024 ** 2);
    expect(niceByteTicks(0)).toEqual({ ticks: [0], top: 1 });
  });
});

describe('parseByteSize', () => {
  it('reads binary and SI units, with or without a space', () => {
    expect(parseByteSize('2 GiB')).toEqual({ ok: true, bytes: 2 * 1024 ** 3 });
    expect(parseByteSize('512MiB')).toEqual({ ok: true, bytes: 512 * 1024 ** 2 });
    expect(parseByteSize('1.5 GB')).toEqual({ ok: true, bytes: 1_500_000_000 });
    expect(parseByteSize(' 4000000000 ')).toEqual({ ok: true, bytes: 4_000_000_000 });
    expect(parseByteSize('8g')).toEqual({ ok: true, bytes: 8e9 });
  });

  it('explains what it cannot read', () => {
    const bad = parseByteSize('two gigs');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain('2 GiB');
    expect(parseByteSize('0 MiB').ok).toBe(false);
    expect(parseByteSize('-1 GiB').ok).toBe(false);
    expect(parseByteSize('2 GiBs').ok).toBe(false);
  });
});
