import { describe, expect, it } from 'vitest';
import { numAt } from '../../../../shared/util/num-at';

describe('numAt', () => {
  it('the value in range, NaN outside', () => {
    const a = Float64Array.from([1.5, -2]);
    expect(numAt(a, 0)).toBe(1.5);
    expect(numAt([3, 4], 1)).toBe(4);
    expect(numAt(a, 2)).toBeNaN();
    expect(numAt(a, -1)).toBeNaN();
  });
});
