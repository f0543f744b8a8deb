// The `profile --json` summary's throttle section (summarizeRun over a run record): a hot run on a
// board with a fan trip at 60 °C and a passive trip at 85 °C (test/helpers/throttle-fixtures.ts).
import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../../../../shared/analysis/run-summary';
import { finishedRun } from '../../../helpers/session-fixtures';
import { HOT_BOARD, hotRunSamples } from '../../../helpers/throttle-fixtures';

describe('summarizeRun: throttle', () => {
  it('lists the interval, the time throttled and the decode speed inside and outside it', () => {
    const summary = summarizeRun(finishedRun({ samples: hotRunSamples(), target: HOT_BOARD }));
    // By hand: 83 °C ≥ 85 − 5 at half clock on the 6, 7 and 8 s ticks, the 9 s tick ends it; the
    // 62 °C ticks (past the fan trip only) are not throttling. Inside [6 s, 9 s]: 150 − 120 = 30
    // tokens in 3 s; outside, from the first token (100 ms, 2) to the last (12 s, 210): 178 in 8.9 s.
    expect(summary.throttle).toEqual({
      tripC: 85,
      intervals: [{ startMs: 6000, endMs: 9000, reasons: ['thermal'], maxTempC: 83, minClockFraction: 0.5 }],
      throttledMs: 3000,
      insideTokensPerSecond: 10,
      outsideTokensPerSecond: 20,
    });
  });

  it('has none without a temperature, clock or get_throttled reading', () => {
    expect(summarizeRun(finishedRun()).throttle).toBeUndefined();
  });
});
