// Throttle intervals on a constructed series and what they cost in tokens/s.
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../../shared/api/schemas';
import {
  detectThrottleIntervals,
  rpiThrottleReasons,
  throttlePointsFromSamples,
  throughputInsideOutside,
  type ThrottlePoint,
} from '../../../../shared/analysis/throttle';
import type { TokenEvent } from '../../../../shared/analysis/throughput';

// One point per second for 60 s: 60 °C, except 97 °C from 20 s to 39 s; the clock drops to 60%
// from 22 s to 38 s. Trip 99 °C, "near" = within 5 °C → hot from 94 °C.
const points: ThrottlePoint[] = Array.from({ length: 61 }, (_, i) => {
  const t = i * 1000;
  return { tMs: t, tempC: t >= 20000 && t < 40000 ? 97 : 60, clockFraction: t >= 22000 && t <= 38000 ? 0.6 : 1 };
});

// Tokens every 100 ms: 4 per step (40 tokens/s), 2 per step (20 tokens/s) for steps starting in [22 s, 39 s).
const events: TokenEvent[] = [];
{
  let tokens = 0;
  for (let j = 1; j <= 600; j++) {
    const stepStart = 100 * (j - 1);
    tokens += stepStart >= 22000 && stepStart < 39000 ? 2 : 4;
    events.push({ tMs: 100 * j, tokens });
  }
}

describe('detectThrottleIntervals', () => {
  it('hot and slow together make one interval, from the first throttled sample to the first one that is not', () => {
    expect(detectThrottleIntervals(points, { tripC: 99 })).toEqual([
      { startMs: 22000, endMs: 39000, reasons: ['thermal'], maxTempC: 97, minClockFraction: 0.6 },
    ]);
  });

  it('hot alone or slow alone is not throttling', () => {
    expect(
      detectThrottleIntervals(
        points.map((p) => ({ ...p, clockFraction: 1 })),
        { tripC: 99 },
      ),
    ).toEqual([]);
    expect(
      detectThrottleIntervals(
        points.map((p) => ({ ...p, tempC: 60 })),
        { tripC: 99 },
      ),
    ).toEqual([]);
    expect(detectThrottleIntervals(points, { tripC: null })).toEqual([]); // no trip point known
  });

  it('the margin and the clock fraction are options', () => {
    expect(detectThrottleIntervals(points, { tripC: 99, nearTripC: 1 })).toEqual([]); // 97 < 98
    expect(detectThrottleIntervals(points, { tripC: 99, clockBelowFraction: 0.5 })).toEqual([]); // 0.6 ≥ 0.5
  });

  it('merges intervals separated by short gaps', () => {
    const gappy = points.map((p) => (p.tMs === 30000 ? { ...p, clockFraction: 1 } : p));
    expect(detectThrottleIntervals(gappy, { tripC: 99 }).map((i) => [i.startMs, i.endMs])).toEqual([
      [22000, 30000],
      [31000, 39000],
    ]);
    expect(detectThrottleIntervals(gappy, { tripC: 99, mergeGapMs: 1000 }).map((i) => [i.startMs, i.endMs])).toEqual([
      [22000, 39000],
    ]);
  });

  it('Raspberry Pi get_throttled bits', () => {
    expect(rpiThrottleReasons(0x50005)).toEqual(['rpi-throttled', 'rpi-under-voltage']); // bits 0, 2 now (+16, 18 occurred)
    expect(rpiThrottleReasons(0x50000)).toEqual([]); // only "has occurred" bits
    expect(rpiThrottleReasons(0x80008)).toEqual(['rpi-soft-temp-limit']);
    expect(rpiThrottleReasons(0x1)).toEqual([]); // under-voltage alone does not slow the clock
    const rpi: ThrottlePoint[] = [0x0, 0x0, 0x2, 0x6, 0x0].map((w, i) => ({
      tMs: i * 1000,
      tempC: null,
      clockFraction: null,
      rpiThrottled: w,
    }));
    expect(detectThrottleIntervals(rpi)).toEqual([
      {
        startMs: 2000,
        endMs: 4000,
        reasons: ['rpi-freq-capped', 'rpi-throttled'],
        maxTempC: null,
        minClockFraction: null,
      },
    ]);
  });
});

describe('throughputInsideOutside', () => {
  it('20 tokens/s inside, 40 outside: half the speed lost', () => {
    const cost = throughputInsideOutside(detectThrottleIntervals(points, { tripC: 99 }), events);
    // inside: 170 steps × 2 tokens = 340 tokens in 17000 ms; outside: 2056 − 340 = 1716 tokens in 59900 − 17000 = 42900 ms
    expect(cost.insideMs).toBe(17000);
    expect(cost.outsideMs).toBe(42900);
    expect(cost.insideTokensPerSecond).toBeCloseTo(20, 10);
    expect(cost.outsideTokensPerSecond).toBeCloseTo(40, 10);
    expect(cost.costFraction).toBeCloseTo(0.5, 10);
  });

  it('no intervals: everything outside', () => {
    const cost = throughputInsideOutside([], events);
    expect(cost.insideTokensPerSecond).toBeNull();
    expect(cost.costFraction).toBeNull();
  });
});

describe('throttlePointsFromSamples', () => {
  it('combines collectors of one tick: hottest sensor, slowest clock relative to its max', () => {
    const samples: Sample[] = [
      { tMs: 1000, source: 'thermal', values: { cpuTempC: 70, gpuTempC: 75.5 } },
      {
        tMs: 1000,
        source: 'cpufreq',
        values: { cpu0FreqKHz: 1500000, cpu0MaxFreqKHz: 2000000, cpu4FreqKHz: 2400000, cpu4MaxFreqKHz: 2400000 },
      },
      { tMs: 2000, source: 'vcgencmd', values: { rpiThrottled: 0x4 } },
      { tMs: 3000, source: 'procfs', values: { rssBytes: 1 } },
    ];
    expect(throttlePointsFromSamples(samples)).toEqual([
      { tMs: 1000, tempC: 75.5, clockFraction: 0.75, rpiThrottled: null },
      { tMs: 2000, tempC: null, clockFraction: null, rpiThrottled: 4 },
    ]);
  });
});
