import { describe, expect, it } from 'vitest';
import { maxOfPresent, minOfPresent } from '../../../../shared/util/nullable-extremes';

describe('extremes of readings that may be missing', () => {
  it('takes the present one when the other is missing, null when both are', () => {
    expect(maxOfPresent(null, 3)).toBe(3);
    expect(maxOfPresent(3, null)).toBe(3);
    expect(maxOfPresent(null, null)).toBeNull();
    expect(minOfPresent(null, -2)).toBe(-2);
    expect(minOfPresent(-2, null)).toBe(-2);
    expect(minOfPresent(null, null)).toBeNull();
  });

  it('compares two present readings, zero and negatives included (0 is a reading, not a missing one)', () => {
    expect(maxOfPresent(0, -5)).toBe(0);
    expect(maxOfPresent(-5, 0)).toBe(0);
    expect(minOfPresent(0, 5)).toBe(0);
    expect(minOfPresent(0.25, 0.5)).toBe(0.25);
  });
});
