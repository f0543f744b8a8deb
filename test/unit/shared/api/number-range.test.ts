// A number field's limits read from its zod schema, and said in a form's words.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allowedNumberText, numberRangeOf } from '../../../../shared/api/number-range';

describe('numberRangeOf', () => {
  it('reads the bounds through .default() and .optional()', () => {
    expect(numberRangeOf(z.number().int().min(1).max(512).default(16))).toEqual({ min: 1, max: 512, integer: true });
    expect(numberRangeOf(z.number().min(0.1).max(100_000).optional())).toEqual({
      min: 0.1,
      max: 100_000,
      integer: false,
    });
  });

  it("reads .int()'s safe-integer bounds as no limit, and a positive whole number as from 1", () => {
    expect(numberRangeOf(z.number().int())).toEqual({ min: null, max: null, integer: true });
    expect(numberRangeOf(z.number().int().positive())).toEqual({ min: 1, max: null, integer: true });
  });

  it('keeps an exclusive lower bound of a number that need not be whole', () => {
    expect(numberRangeOf(z.number().positive().max(10))).toEqual({
      min: 0,
      max: 10,
      integer: false,
      minExclusive: true,
    });
  });
});

describe('allowedNumberText', () => {
  it.each([
    [{ min: 20, max: 60_000, integer: true }, { unit: 'ms' }, 'a whole number from 20 to 60,000 ms'],
    [{ min: 0.1, max: 100_000, integer: false }, { unit: 'tokens/s' }, 'a number from 0.1 to 100,000 tokens/s'],
    [{ min: 1, max: 512, integer: true }, {}, 'a whole number from 1 to 512'],
    [{ min: 1, max: 65535, integer: true }, { grouping: false }, 'a whole number from 1 to 65535'],
    [{ min: 1, max: null, integer: true }, { unit: 'tokens' }, 'a whole number of tokens, 1 or more'],
    [{ min: 1, max: null, integer: true }, {}, 'a whole number, 1 or more'],
    [{ min: 0, max: null, integer: false, minExclusive: true }, { unit: 's' }, 'a number above 0 s'],
    [{ min: 0, max: 10, integer: false, minExclusive: true }, {}, 'a number above 0, at most 10'],
    [{ min: null, max: 3600, integer: true }, { unit: 'seconds' }, 'a whole number of seconds, at most 3,600'],
  ] as const)('%j %j → %s', (range, options, text) => {
    expect(allowedNumberText(range, options)).toBe(text);
  });
});
