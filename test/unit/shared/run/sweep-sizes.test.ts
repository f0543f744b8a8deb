import { describe, expect, it } from 'vitest';
import { readSweepSizes } from '../../../../shared/run/sweep-sizes';

describe('readSweepSizes', () => {
  it('reads commas and spaces, k = 1024, ascending and distinct', () => {
    expect(readSweepSizes(' 4096, 512 4k,64K ,512')).toEqual({ ok: true, sizes: [512, 4096, 65536] });
  });

  it.each<[string, ReturnType<typeof readSweepSizes>]>([
    ['512, 2k5', { ok: false, problem: 'not-a-size', part: '2k5' }],
    ['512, 0', { ok: false, problem: 'not-a-size', part: '0' }],
    ['512, -1', { ok: false, problem: 'not-a-size', part: '-1' }],
    ['512', { ok: false, problem: 'too-few' }],
    ['4k, 4096', { ok: false, problem: 'too-few' }],
    ['', { ok: false, problem: 'too-few' }],
    ['512, 10000001', { ok: false, problem: 'too-large', part: '10000001' }],
    [Array.from({ length: 33 }, (_, i) => i + 1).join(','), { ok: false, problem: 'too-many' }],
  ])('%j: %j', (text, reading) => {
    expect(readSweepSizes(text)).toEqual(reading);
  });
});
