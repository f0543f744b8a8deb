// The one number formatter (shared/format/units.ts). Every expected string is worked out by hand
// in the comment beside it, from the conventions in the file header.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deltaFraction,
  formatBytes,
  formatBytesExact,
  formatBytesPerToken,
  formatCount,
  formatDeltaPercent,
  formatFactor,
  formatFreqHz,
  formatFreqKHz,
  formatFreqMHz,
  formatMs,
  formatPercent,
  formatPowerMw,
  formatRunTimeMs,
  formatSeconds,
  formatSignedPercent,
  formatTempC,
  formatTokens,
  formatTokensPerSecond,
  MISSING,
} from '../../../../shared/format/units';

const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const PiB = 1024 ** 5;
const EiB = 1024 ** 6;

describe('bytes: IEC units, 3 significant digits with trailing zeros', () => {
  it('whole bytes below 1 KiB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(0.4)).toBe('0 B');
  });

  it('3 significant digits from 1 KiB up', () => {
    expect(formatBytes(1024)).toBe('1.00 KiB');
    expect(formatBytes(32768)).toBe('32.0 KiB'); // 32768 / 1024 = 32
    expect(formatBytes(17408)).toBe('17.0 KiB'); // 17408 / 1024 = 17
    expect(formatBytes(33110)).toBe('32.3 KiB'); // 33110 / 1024 = 32.334
    expect(formatBytes(128 * MiB)).toBe('128 MiB');
    expect(formatBytes(1.25 * GiB)).toBe('1.25 GiB');
    expect(formatBytes(2 * GiB)).toBe('2.00 GiB');
    expect(formatBytes(PiB)).toBe('1.00 PiB');
    expect(formatBytes(1.5 * PiB)).toBe('1.50 PiB');
    expect(formatBytes(EiB)).toBe('1.00 EiB');
    // Beyond the last unit: whole EiB, grouped (2^70 B = 1024 EiB).
    expect(formatBytes(1024 * EiB)).toBe('1,024 EiB');
  });

  it('a value that rounds up into the next decade or unit is printed there (the rounding fix)', () => {
    expect(formatBytes(1023.6)).toBe('1.00 KiB'); // rounds to 1024 B
    expect(formatBytes(1048575)).toBe('1.00 MiB'); // 1023.999 KiB would print "1024 KiB"
    expect(formatBytes(10239)).toBe('10.0 KiB'); // 9.999 KiB would print "10.00 KiB"
    expect(formatBytes(102350)).toBe('100 KiB'); // 99.951 KiB would print "100.0 KiB"
    expect(formatBytes(GiB - 1)).toBe('1.00 GiB');
  });

  it('negative sizes with an ASCII minus; missing, NaN and ±Infinity print MISSING', () => {
    expect(formatBytes(-2048)).toBe('-2.00 KiB');
    expect(formatBytes(-4096)).toBe('-4.00 KiB');
    expect(formatBytes(-0.3)).toBe('0 B');
    expect(formatBytes(-0)).toBe('0 B');
    for (const v of [null, undefined, NaN, Infinity, -Infinity]) expect(formatBytes(v)).toBe(MISSING);
    expect(MISSING).toBe('–');
  });

  it('exact sizes and sizes per token', () => {
    expect(formatBytesExact(33110)).toBe('32.3 KiB (33,110 B)');
    expect(formatBytesExact(812)).toBe('812 B');
    expect(formatBytesExact(-32768)).toBe('-32.0 KiB (-32,768 B)');
    expect(formatBytesExact(null)).toBe(MISSING);
    expect(formatBytesPerToken(32768)).toBe('32.0 KiB/token');
    expect(formatBytesPerToken(undefined)).toBe(MISSING);
  });

  // The printed text, read back: value × unit, and half a unit of the last printed digit.
  const UNIT_BYTES: Record<string, number> = { B: 1, KiB, MiB, GiB, TiB: 1024 ** 4, PiB, EiB };
  function readBack(text: string): { bytes: number; precision: number; digits: number; number: number } {
    const m = /^(-?)([\d,]+)(?:\.(\d+))? ([KMGTPE]?i?B)$/.exec(text);
    if (!m) throw new Error(`not a size: ${text}`);
    const unit = UNIT_BYTES[m[4] ?? ''];
    if (unit === undefined) throw new Error(`unknown unit in ${text}`);
    const decimals = m[3] ?? '';
    const number = Number(`${(m[2] ?? '').replace(/,/g, '')}.${decimals || '0'}`);
    const digits = `${(m[2] ?? '').replace(/,/g, '')}${decimals}`.replace(/^0+/, '').length;
    return {
      bytes: (m[1] ? -1 : 1) * number * unit,
      precision: 0.5 * 10 ** -decimals.length * unit,
      digits,
      number,
    };
  }
  const sizes = fc.oneof(
    fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
    fc.double({ min: -(2 ** 72), max: 2 ** 72, noNaN: true, noDefaultInfinity: true }),
  );

  it('property: the printed size read back is within its printed precision', () => {
    fc.assert(
      fc.property(sizes, (x) => {
        const back = readBack(formatBytes(x));
        // 1e-9 relative slack for the floating-point division by 1024^k.
        expect(Math.abs(back.bytes - x)).toBeLessThanOrEqual(back.precision * (1 + 1e-9));
      }),
      { numRuns: 2000 },
    );
  });

  it('from 999.5 to 1023.5 of a unit: the whole number, not the next unit below 1', () => {
    expect(formatBytes(999.5 * GiB)).toBe('1,000 GiB');
    expect(formatBytes(1023.4 * MiB)).toBe('1,023 MiB');
    expect(formatBytes(1023.5 * MiB)).toBe('1.00 GiB');
  });

  it('property: from 1 KiB to 1023 EiB, 3 significant digits (the whole number from 1,000) below 1024', () => {
    fc.assert(
      fc.property(fc.double({ min: 1024, max: 1023 * EiB, noNaN: true }), fc.boolean(), (x, negative) => {
        const back = readBack(formatBytes(negative ? -x : x));
        if (back.number >= 1000) expect(Number.isInteger(back.number)).toBe(true);
        else expect(back.digits).toBe(3);
        expect(back.number).toBeLessThan(1024);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('counts, tokens, rates', () => {
  it('comma thousands, fixed decimals, ASCII minus, no "-0"', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(41000)).toBe('41,000');
    expect(formatCount(999.5)).toBe('1,000');
    expect(formatCount(1234567.891, 2)).toBe('1,234,567.89');
    expect(formatCount(-5)).toBe('-5');
    expect(formatCount(-0.4)).toBe('0');
    expect(formatCount(-1234.56, 1)).toBe('-1,234.6');
    // toFixed gives "1e+21" from here on: still digits.
    expect(formatCount(1e21)).toBe('1,000,000,000,000,000,000,000');
    for (const v of [null, undefined, NaN, -Infinity]) expect(formatCount(v)).toBe(MISSING);
  });

  it('tokens, singular for one', () => {
    expect(formatTokens(41000)).toBe('41,000 tokens');
    expect(formatTokens(1)).toBe('1 token');
    expect(formatTokens(0)).toBe('0 tokens');
    expect(formatTokens(null)).toBe(MISSING);
  });

  it('tokens per second: one decimal below 100, whole above, carried at 99.95', () => {
    expect(formatTokensPerSecond(15.24)).toBe('15.2 tok/s');
    expect(formatTokensPerSecond(16)).toBe('16.0 tok/s');
    expect(formatTokensPerSecond(99.94)).toBe('99.9 tok/s');
    expect(formatTokensPerSecond(99.96)).toBe('100 tok/s');
    expect(formatTokensPerSecond(980.4)).toBe('980 tok/s');
    expect(formatTokensPerSecond(1432.25)).toBe('1,432 tok/s');
    expect(formatTokensPerSecond(0)).toBe('0.0 tok/s');
    expect(formatTokensPerSecond(NaN)).toBe(MISSING);
  });
});

describe('durations and times', () => {
  it('ms below 1 s, 3 significant digits below 1 min, then two whole units', () => {
    expect(formatMs(0)).toBe('0 ms');
    expect(formatMs(180)).toBe('180 ms');
    expect(formatMs(999.4)).toBe('999 ms');
    expect(formatMs(999.6)).toBe('1.00 s'); // would be "1000 ms"
    expect(formatMs(2310)).toBe('2.31 s');
    expect(formatMs(3480)).toBe('3.48 s');
    expect(formatMs(12_300)).toBe('12.3 s');
    expect(formatMs(59_970)).toBe('1 min 0 s'); // 59.97 s would print "60.0 s"
    expect(formatMs(119_600)).toBe('2 min 0 s'); // never "1 min 60 s"
    expect(formatMs(125_000)).toBe('2 min 5 s');
    expect(formatMs(3_900_000)).toBe('1 h 5 min'); // 3900 s = 65 min
    expect(formatMs(273_600_000)).toBe('3 d 4 h'); // 273600 s = 76 h
    expect(formatMs(-1500)).toBe('-1.50 s');
    expect(formatMs(Infinity)).toBe(MISSING);
  });

  it('seconds (uptime) and the time since the run started', () => {
    expect(formatSeconds(90)).toBe('1 min 30 s');
    expect(formatSeconds(18_720)).toBe('5 h 12 min'); // 5.2 h
    expect(formatSeconds(null)).toBe(MISSING);
    expect(formatRunTimeMs(0)).toBe('0.0 s');
    expect(formatRunTimeMs(12_345)).toBe('12.3 s');
    expect(formatRunTimeMs(1_234_500)).toBe('1,234.5 s');
    expect(formatRunTimeMs(undefined)).toBe(MISSING);
  });
});

describe('temperatures, frequencies, power', () => {
  it('°C with one decimal', () => {
    expect(formatTempC(45.26)).toBe('45.3 °C');
    expect(formatTempC(85)).toBe('85.0 °C');
    expect(formatTempC(-5)).toBe('-5.0 °C');
    expect(formatTempC(-0.04)).toBe('0.0 °C');
    expect(formatTempC(null)).toBe(MISSING);
  });

  it('whole MHz below 1 GHz, 3 significant digits in GHz above', () => {
    expect(formatFreqMHz(600)).toBe('600 MHz');
    expect(formatFreqMHz(999.7)).toBe('1.00 GHz'); // would be "1000 MHz"
    expect(formatFreqKHz(600_000)).toBe('600 MHz');
    expect(formatFreqKHz(1_800_000)).toBe('1.80 GHz');
    expect(formatFreqKHz(2_035_200)).toBe('2.04 GHz'); // 2.0352 GHz
    expect(formatFreqHz(1.3e9)).toBe('1.30 GHz');
    expect(formatFreqHz(624e6)).toBe('624 MHz');
    expect(formatFreqHz(undefined)).toBe(MISSING);
  });

  it('whole mW below 1 W, 3 significant digits in W above', () => {
    expect(formatPowerMw(850)).toBe('850 mW');
    expect(formatPowerMw(999.6)).toBe('1.00 W');
    expect(formatPowerMw(5200)).toBe('5.20 W');
    expect(formatPowerMw(12_345)).toBe('12.3 W');
    expect(formatPowerMw(-850)).toBe('-850 mW');
    expect(formatPowerMw(NaN)).toBe(MISSING);
  });
});

describe('percentages and factors', () => {
  it('a fraction in, percent out', () => {
    expect(formatPercent(0.471)).toBe('47 %');
    expect(formatPercent(0.4712, 1)).toBe('47.1 %');
    expect(formatPercent(1)).toBe('100 %');
    expect(formatPercent(null)).toBe(MISSING);
  });

  it('signed changes; a change that prints as zero has no sign', () => {
    expect(formatSignedPercent(0.125)).toBe('+12.5 %');
    expect(formatSignedPercent(-0.47)).toBe('-47.0 %');
    expect(formatSignedPercent(0.00001)).toBe('0.0 %');
    expect(formatSignedPercent(-0.00001)).toBe('0.0 %');
    expect(formatSignedPercent(-0.469, 0)).toBe('-47 %');
    // (17408 − 32768) / 32768 = −0.46875 → −46.875 % → "-46.9 %".
    expect(formatDeltaPercent(32768, 17408)).toBe('-46.9 %');
    // (16 − 15.2) / 15.2 = 0.0526 → "+5.3 %".
    expect(formatDeltaPercent(15.2, 16)).toBe('+5.3 %');
    expect(formatDeltaPercent(0, 5)).toBe(MISSING);
    expect(formatDeltaPercent(5, null)).toBe(MISSING);
    expect(deltaFraction(-4, -2)).toBe(0.5);
  });

  it('factors with two decimals', () => {
    expect(formatFactor(1.0123)).toBe('1.01×');
    expect(formatFactor(1)).toBe('1.00×');
    expect(formatFactor(12.345)).toBe('12.35×'); // 12.345 is 12.3450000000000006 in binary
    expect(formatFactor(null)).toBe(MISSING);
  });
});
