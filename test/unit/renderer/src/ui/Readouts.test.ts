// What the readouts say a measured KV cost is: a slope against tokens while the cache grows, the
// jump at start per context token when it was reserved (no slope, and no OOM horizon in tokens).
import { describe, expect, it } from 'vitest';
import type { RunAnalysis } from '../../../../../shared/api/schemas';
import { kvNotes } from '../../../../../renderer/src/ui/Readouts';

const kv = (mode: RunAnalysis['kv']['mode'], rssMetric: 'rssBytes' | 'rssAnonBytes'): RunAnalysis['kv'] => ({
  theoryBytesPerToken: 32768,
  measuredBytesPerToken: 32800,
  overheadFactor: 1,
  mode,
  baselineBytes: 110e6,
  rssMetric,
});

describe('kvNotes', () => {
  it.each([
    ['growth', 'rssAnonBytes', 'slope of anon RSS against tokens', null],
    ['window', 'rssBytes', 'slope of RSS against tokens', null],
    [
      'reserved',
      'rssAnonBytes',
      'anon RSS reserved at start, per context token',
      'none: the cache was reserved at start, memory does not grow with tokens',
    ],
  ] as const)('a %s cache measured on %s', (mode, metric, measured, horizon) => {
    expect(kvNotes(kv(mode, metric))).toEqual({ measured, horizon });
  });

  it('a reserved cache the engine never got to (it failed loading): nothing said of a reservation', () => {
    expect(kvNotes({ ...kv('reserved', 'rssAnonBytes'), measuredBytesPerToken: null })).toEqual({
      measured: 'slope of anon RSS against tokens',
      horizon: null,
    });
  });

  it('before any analysis: the slope of RSS, and the horizon’s own note', () => {
    expect(kvNotes(undefined)).toEqual({ measured: 'slope of RSS against tokens', horizon: null });
  });
});
