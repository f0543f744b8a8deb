import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { naturalOrder } from '../../../../shared/util/natural-order';

describe('naturalOrder', () => {
  it('puts numbered names in the order people count them', () => {
    const keys = ['tegra.cpu.10.loadPct', 'tegra.cpu.2.loadPct', 'tegra.cpu.1.loadPct', 'tegra.cpu.11.loadPct'];
    expect([...keys].sort(naturalOrder)).toEqual([
      'tegra.cpu.1.loadPct',
      'tegra.cpu.2.loadPct',
      'tegra.cpu.10.loadPct',
      'tegra.cpu.11.loadPct',
    ]);
    expect(['thermal_zone10', 'thermal_zone9', 'thermal_zone'].sort(naturalOrder)).toEqual([
      'thermal_zone',
      'thermal_zone9',
      'thermal_zone10',
    ]);
  });

  it('compares long digit runs exactly and tells leading zeros apart', () => {
    expect(naturalOrder('x99999999999999999999', 'x100000000000000000000')).toBeLessThan(0);
    expect(naturalOrder('x7', 'x07')).toBeLessThan(0);
    expect(naturalOrder('x07', 'x8')).toBeLessThan(0);
    expect(naturalOrder('a', 'a')).toBe(0);
  });

  it('is a total order: antisymmetric, zero only for equal strings, transitive', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (a, b, c) => {
        expect(Math.sign(naturalOrder(a, b)) + Math.sign(naturalOrder(b, a))).toBe(0);
        expect(naturalOrder(a, b) === 0).toBe(a === b);
        if (naturalOrder(a, b) < 0 && naturalOrder(b, c) < 0) expect(naturalOrder(a, c)).toBeLessThan(0);
      }),
      { numRuns: 2000 },
    );
  });
});
