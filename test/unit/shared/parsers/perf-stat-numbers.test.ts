import { describe, expect, it } from 'vitest';
import { isNotANumber, parsePerfDecimal, parsePerfNumber } from '../../../../shared/parsers/perf-stat-numbers';

describe('parsePerfNumber: the human counter column, grouped by the locale', () => {
  it.each([
    ['8,013.48', 8013.48],
    ['8.013,48', 8013.48],
    ['1,234', 1234],
    ['1.234', 1234], // de_DE count: the column never has 3 decimals
    ['0.912345', 0.912345], // perf 3.x task-clock, 6 decimals
    ['12.34', 12.34],
    ['0,5', 0.5],
    ['12,34,567', 1234567],
    ['1\u202f234\u202f567', 1234567],
    ['1\u00a0234,56', 1234.56],
    ['1\u2019234', 1234],
    ['1 234 567', 1234567],
    ['18,446,744,073,709,551,615', 2 ** 64],
  ])('%s → %d', (text, value) => {
    expect(parsePerfNumber(text)).toBe(value);
  });

  it.each([['<not counted>'], ['1.2.3,4,5'], ['1,2,3'], ['abc'], [''], ['9'.repeat(400)], ['-nan']])(
    '%s → null',
    (text) => {
      expect(parsePerfNumber(text)).toBeNull();
    },
  );
});

describe('parsePerfDecimal: every ungrouped number perf prints', () => {
  it.each([
    ['3,998', 3.998],
    ['3.998', 3.998],
    ['100.00', 100],
    ['8013483384', 8013483384],
    ['-0.5', -0.5],
  ])('%s → %d', (text, value) => {
    expect(parsePerfDecimal(text)).toBe(value);
  });

  it.each([['1,234.5'], ['1.234.567'], ['nan'], ['inf'], ['']])('%s → null', (text) => {
    expect(parsePerfDecimal(text)).toBeNull();
  });

  it('knows printf’s nan and inf', () => {
    expect(['nan', '-nan', 'inf', '-inf', 'NaN'].map(isNotANumber)).toEqual([true, true, true, true, true]);
    expect(['1', 'n', 'info'].map(isNotANumber)).toEqual([false, false, false]);
  });
});
