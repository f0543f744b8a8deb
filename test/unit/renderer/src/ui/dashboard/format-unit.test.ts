// The time panels' axis ticks (renderer/src/ui/dashboard/format-unit.ts): round numbers in the
// unit the labels are written in.
import { describe, expect, it } from 'vitest';
import { byteScaleOf, formatTick, niceTicks } from '../../../../../../renderer/src/ui/dashboard/format-unit';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

describe('niceTicks', () => {
  it('steps 1, 2, 5 × 10^k over a plain range', () => {
    expect(niceTicks(0, 100)).toEqual([0, 50, 100]);
    expect(niceTicks(20, 95)).toEqual([20, 40, 60, 80]);
    expect(niceTicks(5, 5)).toEqual([5]);
  });

  it('reads round in MiB and GiB on a byte axis (QA: 48 MiB, 95 MiB before)', () => {
    const labels = (min: number, max: number) =>
      niceTicks(min, max, 4, byteScaleOf(min, max)).map((v) => formatTick('bytes', v));
    expect(labels(0, 100e6)).toEqual(['0', '50 MiB']);
    expect(labels(0, 20e9)).toEqual(['0', '5 GiB', '10 GiB', '15 GiB']);
    // From 600 MiB: the range is counted in GiB, the larger end's unit.
    expect(labels(600 * MiB, 2.2 * GiB)).toEqual(['1 GiB', '1.5 GiB', '2 GiB']);
  });
});

describe('byteScaleOf', () => {
  it('is the binary unit of the larger end', () => {
    expect(byteScaleOf(0, 1000)).toBe(1);
    expect(byteScaleOf(0, 5000)).toBe(1024);
    expect(byteScaleOf(-3 * MiB, 100)).toBe(MiB);
    expect(byteScaleOf(0, 20 * GiB)).toBe(GiB);
    expect(byteScaleOf(0, 2 ** 60)).toBe(1024 ** 4);
  });
});
