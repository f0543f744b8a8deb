// What the readouts say a measured KV cost is: a slope against tokens while the cache grows, the
// jump at start per context token when it was reserved (no slope, and no OOM horizon in tokens);
// and what the max safe context counts (on anon RSS: the file pages too, unlike the OOM horizon).
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
    expect(kvNotes(kv(mode, metric))).toMatchObject({ measured, horizon });
  });

  it('max safe context on anon RSS keeps the file pages (mmap’d weights) in the budget; on RSS they are in the baseline', () => {
    // QA: "Max safe context 15,641" beside "OOM horizon 16,823" with nothing saying why they differ.
    expect(kvNotes(kv('growth', 'rssAnonBytes')).maxSafe).toBe(
      '(budget − baseline − file pages) ÷ measured: weights stay in memory',
    );
    expect(kvNotes(kv('growth', 'rssBytes')).maxSafe).toBe('(budget − baseline) ÷ measured');
  });

  it('a reserved cache the engine never got to (it failed loading): nothing said of a reservation', () => {
    expect(kvNotes({ ...kv('reserved', 'rssAnonBytes'), measuredBytesPerToken: null })).toMatchObject({
      measured: 'slope of anon RSS against tokens',
      horizon: null,
    });
  });

  it('before any analysis: the slope of RSS, and the horizon’s own note', () => {
    expect(kvNotes(undefined)).toMatchObject({ measured: 'slope of RSS against tokens', horizon: null });
  });
});
