// Throttle intervals on a constructed series and what they cost in tokens/s.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../../shared/api/schemas';
import {
  detectThrottleIntervals,
  rpiThrottleReasons,
  throttlePointsFromSamples,
  throttleIntervalsFromSeries,
  throttlePointsFromSeries,
  type ThrottleSeries,
  clockCeilingsFromPolicies,
  throughputInsideOutside,
  throughputInsideOutsideOfSeries,
  ThrottleWatch,
  zonePassiveTripC,
  type ThrottlePoint,
} from '../../../../shared/analysis/throttle';
import type { TokenEvent } from '../../../../shared/analysis/throughput';
import type { CollectorParser } from '../../../../shared/collectors/collector';
import { tegrastatsValues } from '../../../../shared/collectors/tegrastats-collector-parser';
import { createVcgencmdCollectorParser } from '../../../../shared/collectors/vcgencmd-collector-parser';
import { parseTegrastatsLine } from '../../../../shared/parsers/tegrastats-parser';
import { parseProbeOutput } from '../../../../shared/probe/probe-parser';
import { nanoSamplerSamples, pmicAlarmMilli } from '../../../helpers/pmic-fixtures';

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

  it('reads a token series in place (the dashboard buffer): 20 tokens/s inside, 40 outside', () => {
    const series = { t: events.map((e) => e.tMs), v: events.map((e) => e.tokens), length: events.length };
    const cost = throughputInsideOutsideOfSeries(detectThrottleIntervals(points, { tripC: 99 }), series);
    expect(cost.insideMs).toBe(17000);
    expect(cost.outsideMs).toBe(42900);
    expect(cost.insideTokensPerSecond).toBeCloseTo(20, 10);
    expect(cost.outsideTokensPerSecond).toBeCloseTo(40, 10);
    expect(throughputInsideOutsideOfSeries([], undefined).costFraction).toBeNull();
  });

  it('a series in place costs what its events cost, whatever the counts (zeros, repeats, drops) and intervals', () => {
    const counts = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 9 })), { maxLength: 30 })
      .map((pairs) => [...pairs].sort((a, b) => a[0] - b[0]).map(([t, n]) => ({ tMs: t * 100, tokens: n })));
    const intervals = fc
      .array(fc.tuple(fc.integer({ min: -5, max: 55 }), fc.integer({ min: 0, max: 20 })), { maxLength: 4 })
      .map((pairs) =>
        pairs.map(([a, d]) => ({
          startMs: a * 100,
          endMs: (a + d) * 100,
          reasons: ['thermal' as const],
          maxTempC: null,
          minClockFraction: null,
        })),
      );
    fc.assert(
      fc.property(counts, intervals, (evs, ivs) => {
        const series = { t: evs.map((e) => e.tMs), v: evs.map((e) => e.tokens), length: evs.length };
        expect(throughputInsideOutsideOfSeries(ivs, series)).toEqual(throughputInsideOutside(ivs, evs));
      }),
      { numRuns: 1000 },
    );
  });
});

/** The lines of a corpus file (test/fixtures/…) that are not `#` provenance notes. */
function captureLines(path: string): string[] {
  return readFileSync(new URL(`../../../fixtures/${path}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));
}

/** The samples a run's collector gives for tick lines (the collector's parser, as the run reads its spool). */
function collectorSamples(parser: CollectorParser, source: string, lines: string[]): Sample[] {
  return lines.flatMap((line) => {
    const r = parser.push(line);
    return r?.kind === 'sample' ? [{ tMs: r.uptimeMs, source, values: r.values }] : [];
  });
}

describe('throttlePointsFromSamples: the series the collectors really emit', () => {
  it("reads a Raspberry Pi's get_throttled word (vcgencmd collector): throttled and under-voltage at 38.6 °C, no trip point needed", () => {
    // Section (A) of the capture, one reading a tick 2 s apart (the collector's default):
    // 0x50000 = only the sticky bits 16 and 18 (it happened since boot: not now);
    // 0x50005 = under-voltage now (bit 0) + throttled now (bit 2); then 0x0 as in section (B).
    const vc = captureLines('thermal/raspberry-pi-vcgencmd/03_raspberry_pi_vcgencmd_outputs.txt');
    expect(vc.slice(0, 6)).toEqual([
      "temp=39.2'C",
      'throttled=0x50000',
      "temp=38.6'C",
      "temp=38.6'C",
      'throttled=0x50005',
      "temp=38.6'C",
    ]);
    const samples = collectorSamples(createVcgencmdCollectorParser(), 'vcgencmd', [
      `t=100|${vc[1]}|${vc[0]}`,
      `t=102|${vc[4]}|${vc[3]}`,
      `t=104|throttled=0x0|${vc[5]}`,
    ]);
    const points = throttlePointsFromSamples(samples);
    expect(points).toEqual([
      { tMs: 100_000, tempC: 39.2, clockFraction: null, rpiThrottled: 0x50000 },
      { tMs: 102_000, tempC: 38.6, clockFraction: null, rpiThrottled: 0x50005 },
      { tMs: 104_000, tempC: 38.6, clockFraction: null, rpiThrottled: 0 },
    ]);
    expect(detectThrottleIntervals(points, { tripC: null })).toEqual([
      {
        startMs: 102_000,
        endMs: 104_000,
        reasons: ['rpi-throttled', 'rpi-under-voltage'],
        maxTempC: 38.6,
        minClockFraction: null,
      },
    ]);
  });

  it("reads tegrastats' temperatures and clocks, without the PMIC's alarm level (PMIC@100C: no alarm)", () => {
    // Xavier NX under full stress: PMIC@100C on every line; the real sensors peak at GPU@45C.
    const lines = captureLines('tegrastats/xavier-nx-and-nano-jp4.6/nano_tx2nx_xaviernx_aiblox_stresstest.txt').slice(
      0,
      3,
    );
    const samples = lines.map((text, i): Sample => {
      const r = parseTegrastatsLine(text, i + 1);
      if (r.kind !== 'tegrastats') throw new Error(`line ${i + 1} did not parse`);
      return { tMs: i * 1000, source: 'tegrastats', values: tegrastatsValues(r) };
    });
    expect(samples[0]?.values['tegra.temp.PMIC.C']).toBe(100);
    // By hand: line 1 AO 42.5 GPU 44.5 AUX 43.5 CPU 44.5 thermal 44.25 → 44.5; lines 2 and 3 GPU@45C → 45.
    // Every clock (six cores @1420 MHz; EMC and GR3D print no clock without root) at its highest: 1.
    expect(throttlePointsFromSamples(samples)).toEqual([
      { tMs: 0, tempC: 44.5, clockFraction: 1, rpiThrottled: null },
      { tMs: 1000, tempC: 45, clockFraction: 1, rpiThrottled: null },
      { tMs: 2000, tempC: 45, clockFraction: 1, rpiThrottled: null },
    ]);
  });

  it("an idle GPU at its floor is not a cap: a Xavier NX's GR3D at 0 % and 114 MHz on a hot board (real tegrastats line)", () => {
    // Xavier NX, JetPack 5.1.2 (the waggle exporter capture): GR3D_FREQ 0%@[114], EMC 2 %, cores
    // 10–23 % at 1190–1397 MHz, CPU@46.5C the hottest. Against a trip at 50 °C the board is "near"
    // it; the GPU's maximum (1109 MHz, as the capture's JetPack 4 Xavier NX line prints it) would
    // make 114 MHz a fraction of 0.10.
    const line = captureLines('tegrastats/xavier-nx-jp4-jp5.1-nano-jp4.6/xavier_nx_and_nano_waggle_exporter.txt').find(
      (l) => l.startsWith('07-09-2024 13:31:31 '),
    );
    const r = parseTegrastatsLine(line ?? '', 1);
    if (r.kind !== 'tegrastats') throw new Error('the line did not parse');
    const samples: Sample[] = [{ tMs: 0, source: 'tegrastats', values: tegrastatsValues(r) }];
    expect(samples[0]?.values).toMatchObject({ 'tegra.gpu.loadPct': 0, 'tegra.gpu.freqMHz': 114 });
    const points = throttlePointsFromSamples(samples, { 'tegra.gpu.freqMHz': 1109 });
    // Every unit below half its load: no clock says anything, so nothing is throttled.
    expect(points).toEqual([{ tMs: 0, tempC: 46.5, clockFraction: null, rpiThrottled: null }]);
    expect(detectThrottleIntervals(points, { tripC: 50 })).toEqual([]);
  });

  it('a busy unit below its maximum is: the same GPU at 99 % load and 114 MHz, hot, is throttled', () => {
    const tick = (tMs: number, gpuLoadPct: number): Sample => ({
      tMs,
      source: 'tegrastats',
      values: {
        'tegra.temp.gpu.C': 83,
        'tegra.cpu.0.loadPct': 100,
        'tegra.cpu.0.freqMHz': 1510,
        'tegra.gpu.loadPct': gpuLoadPct,
        'tegra.gpu.freqMHz': 114,
      },
    });
    const ceilings = { 'tegra.gpu.freqMHz': 1109, 'tegra.cpu.0.freqMHz': 1510 };
    // 0–2 s the GPU idles (its floor is no cap), 3–5 s it works at the same clock (a cap), then idles.
    const samples = [0, 0, 0, 99, 99, 99, 0].map((load, i) => tick(i * 1000, load));
    const points = throttlePointsFromSamples(samples, ceilings);
    expect(points.map((p) => p.clockFraction)).toEqual([1, 1, 1, 114 / 1109, 114 / 1109, 114 / 1109, 1]);
    expect(detectThrottleIntervals(points, { tripC: 85 })).toEqual([
      { startMs: 3000, endMs: 6000, reasons: ['thermal'], maxTempC: 83, minClockFraction: 114 / 1109 },
    ]);
    // Live, reading by reading, the same.
    const watch = new ThrottleWatch(85, ceilings);
    expect(samples.map((x) => watch.observe(x.values).throttling)).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
      false,
    ]);
  });

  it('a cpufreq policy is judged by its cap: an idle cluster at its floor is not throttled, a capped one is', () => {
    // An RK3588 running on its big cores (policy4, policy6) at 82 °C, trip 85 °C: the little cluster
    // (policy0) idles at 408 MHz under its cap of 1.8 GHz. At 3 s the thermal framework caps the big
    // clusters at 1.2 GHz (scaling_max_freq), and their clocks follow.
    const tick = (tMs: number, bigCapKHz: number): Sample => ({
      tMs,
      source: 'procfs',
      values: {
        'temp.soc-thermal.C': 82,
        'cpufreq.policy0.KHz': 408_000,
        'cpufreq.policy0.max.KHz': 1_800_000,
        'cpufreq.policy4.KHz': bigCapKHz,
        'cpufreq.policy4.max.KHz': bigCapKHz,
        'cpufreq.policy6.KHz': bigCapKHz,
        'cpufreq.policy6.max.KHz': bigCapKHz,
      },
    });
    const samples = [0, 1, 2]
      .map((i) => tick(i * 1000, 2_400_000))
      .concat([3, 4].map((i) => tick(i * 1000, 1_200_000)));
    const ceilings = {
      'cpufreq.policy0.KHz': 1_800_000,
      'cpufreq.policy4.KHz': 2_400_000,
      'cpufreq.policy6.KHz': 2_400_000,
    };
    const points = throttlePointsFromSamples(samples, ceilings);
    expect(points.map((p) => p.clockFraction)).toEqual([1, 1, 1, 0.5, 0.5]);
    expect(detectThrottleIntervals(points, { tripC: 85 })).toEqual([
      { startMs: 3000, endMs: 4000, reasons: ['thermal'], maxTempC: 82, minClockFraction: 0.5 },
    ]);
    const watch = new ThrottleWatch(85, ceilings);
    expect(samples.map((x) => watch.observe(x.values).throttling)).toEqual([false, false, false, true, true]);
    // Without the caps (a sampler before them) the idle cluster's floor reads as a cap, as it did.
    const withoutCaps = samples.map((x) => ({
      ...x,
      values: Object.fromEntries(Object.entries(x.values).filter(([k]) => !k.endsWith('.max.KHz'))),
    }));
    expect(throttlePointsFromSamples(withoutCaps, ceilings)[0]?.clockFraction).toBeCloseTo(408 / 1800, 10);
  });

  it("a devfreq device is judged by its max_freq: the RK3588's Mali idle at 300 of 1000 MHz is not throttled, capped at 600 it is", () => {
    // The Orange Pi 5's GPU as its sysfs tree shows it (test/fixtures/board-root/rk3588-orange-pi-5:
    // cur_freq 300 MHz, max_freq 1000 MHz, simple_ondemand), at 83 °C, trip 85 °C. At 2 s the thermal
    // framework's devfreq cooling lowers max_freq to 600 MHz while the GPU works there.
    const tick = (tMs: number, curMHz: number, maxMHz: number): Sample => ({
      tMs,
      source: 'board-sysfs',
      values: {
        'temp.soc-thermal.C': 83,
        'devfreq.fb000000.gpu.curFreqMHz': curMHz,
        'devfreq.fb000000.gpu.maxFreqMHz': maxMHz,
      },
    });
    const samples = [tick(0, 300, 1000), tick(1000, 300, 1000), tick(2000, 600, 600), tick(3000, 600, 600)];
    const points = throttlePointsFromSamples(samples);
    expect(points.map((p) => p.clockFraction)).toEqual([1, 1, 0.6, 0.6]);
    expect(detectThrottleIntervals(points, { tripC: 85 })).toEqual([
      { startMs: 2000, endMs: 3000, reasons: ['thermal'], maxTempC: 83, minClockFraction: 0.6 },
    ]);
  });

  it('thermal zones and cpufreq policies of the procfs sampler, trip points (trip.*.C) not read as temperatures', () => {
    // 1 s ticks; policy4 drops from 2,400,000 to 1,200,000 kHz at 2 s while cpu-thermal is at 81.5 °C.
    // Each policy against its own highest: policy0 1,800,000/1,800,000 = 1; policy4 1 then 1.2/2.4 = 0.5.
    const tick = (tMs: number, tempC: number, policy4KHz: number): Sample[] => [
      {
        tMs,
        source: 'procfs',
        values: { 'temp.cpu-thermal.C': tempC, 'cpufreq.policy0.KHz': 1_800_000, 'cpufreq.policy4.KHz': policy4KHz },
      },
      { tMs, source: 'board-sysfs', values: { 'trip.cpu-thermal.0.C': 85, 'trip.cpu-thermal.1.C': 115 } },
    ];
    const samples = [...tick(0, 70, 2_400_000), ...tick(1000, 80, 2_400_000), ...tick(2000, 81.5, 1_200_000)];
    expect(throttlePointsFromSamples(samples)).toEqual([
      { tMs: 0, tempC: 70, clockFraction: 1, rpiThrottled: null },
      { tMs: 1000, tempC: 80, clockFraction: 1, rpiThrottled: null },
      { tMs: 2000, tempC: 81.5, clockFraction: 0.5, rpiThrottled: null },
    ]);
  });

  it("a Jetson Nano's PMIC-Die zone (procfs sampler) is an alarm level, not the hottest sensor: nor when its alarm fires", () => {
    // The real Nano's zones (AO-therm 31 °C the hottest, PMIC-Die 100000), the PMIC then reading
    // the driver's alarm levels (120, 140 °C); the CPU clock drops from 1479 to 921.6 MHz at 1 s.
    const samples = nanoSamplerSamples(pmicAlarmMilli(), [1_479_000, 921_600]);
    expect(samples.map((x) => x.values['temp.PMIC-Die.C'])).toEqual([100, 120, 140, 120, 100]);
    const points = throttlePointsFromSamples(samples);
    expect(points.map((p) => p.tempC)).toEqual([31, 31, 31, 31, 31]);
    // Against a passive trip at 97 °C the board is nowhere near it: a low clock is the governor's.
    expect(detectThrottleIntervals(points, { tripC: 97 })).toEqual([]);
    // Live: no near-trip temperature from it, not throttling.
    const now = new ThrottleWatch(97).observe(samples[1]?.values ?? {});
    expect(Object.keys(now.tempsC)).not.toContain('temp.PMIC-Die.C');
    expect(now.throttling).toBe(false);
  });

  it('holds a reading until its collector reads again: a clock at 1 s and a temperature at 1.5 s make one picture', () => {
    const samples: Sample[] = [
      { tMs: 1000, source: 'procfs', values: { 'cpufreq.policy0.KHz': 2_000_000 } },
      { tMs: 1500, source: 'tegrastats', values: { 'tegra.temp.cpu.C': 90 } },
      { tMs: 2000, source: 'procfs', values: { 'cpufreq.policy0.KHz': 1_000_000 } },
    ];
    expect(throttlePointsFromSamples(samples)).toEqual([
      { tMs: 1000, tempC: null, clockFraction: 1, rpiThrottled: null },
      { tMs: 1500, tempC: 90, clockFraction: 1, rpiThrottled: null },
      { tMs: 2000, tempC: 90, clockFraction: 0.5, rpiThrottled: null },
    ]);
  });
});

describe('throttlePointsFromSeries: series ticking at their own pace', () => {
  /**
   * The rule written the plain way, as the oracle: every distinct time of any series, and at each
   * the last value at or before it of every series (a scan from the start each time).
   */
  function naivePoints(
    temps: ThrottleSeries[],
    clocks: Array<{ s: ThrottleSeries; ceiling: number }>,
  ): ThrottlePoint[] {
    const times = [...new Set([...temps, ...clocks.map((c) => c.s)].flatMap((s) => Array.from(s.t)))].sort(
      (a, b) => a - b,
    );
    const latest = (s: ThrottleSeries, t: number): number | null => {
      let v: number | null = null;
      for (let i = 0; i < s.length && (s.t[i] as number) <= t; i++) v = s.v[i] as number;
      return v;
    };
    return times.map((tMs) => {
      const ts = temps.map((s) => latest(s, tMs)).filter((v): v is number => v !== null);
      const fs = clocks.map((c) => latest(c.s, tMs)).flatMap((v, i) => (v === null ? [] : [v / clocks[i]!.ceiling]));
      return {
        tMs,
        tempC: ts.length ? Math.max(...ts) : null,
        clockFraction: fs.length ? Math.min(...fs) : null,
        rpiThrottled: null,
      };
    });
  }

  const series = fc
    .array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 100 })), { maxLength: 25 })
    .map((pairs) => {
      const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
      return { t: sorted.map((p) => p[0] * 100), v: sorted.map((p) => p[1]), length: sorted.length };
    });

  it('gives the same points as reading each series at every time anew (merged, not sorted)', () => {
    fc.assert(
      fc.property(fc.array(series, { maxLength: 3 }), fc.array(series, { maxLength: 3 }), (temps, clocks) => {
        const keys = [...temps.map((_, i) => `temp.z${i}.C`), ...clocks.map((_, i) => `cpufreq.policy${i}.KHz`)];
        const byKey = new Map<string, ThrottleSeries>(keys.map((k, i) => [k, [...temps, ...clocks][i]!]));
        // Each clock against a ceiling of 200 given by the probe (above any value drawn).
        const ceilings = Object.fromEntries(clocks.map((_, i) => [`cpufreq.policy${i}.KHz`, 200]));
        const got = throttlePointsFromSeries((k) => byKey.get(k), keys, ceilings);
        const nonEmptyClocks = clocks.filter((c) => c.length > 0).map((s) => ({ s, ceiling: 200 }));
        expect(got).toEqual(naivePoints(temps, nonEmptyClocks));
      }),
      { numRuns: 500 },
    );
  });

  it('throttleIntervalsFromSeries finds the intervals detectThrottleIntervals finds in those points', () => {
    fc.assert(
      fc.property(
        fc.array(series, { maxLength: 3 }),
        fc.array(series, { maxLength: 3 }),
        fc.integer({ min: 40, max: 110 }),
        fc.integer({ min: 0, max: 1000 }),
        (temps, clocks, tripC, mergeGapMs) => {
          const keys = [...temps.map((_, i) => `temp.z${i}.C`), ...clocks.map((_, i) => `cpufreq.policy${i}.KHz`)];
          const byKey = new Map<string, ThrottleSeries>(keys.map((k, i) => [k, [...temps, ...clocks][i]!]));
          // Ceilings of 150 make some clocks count as low (below 135) and others not.
          const ceilings = Object.fromEntries(clocks.map((_, i) => [`cpufreq.policy${i}.KHz`, 150]));
          const get = (k: string) => byKey.get(k);
          const options = { tripC, mergeGapMs };
          expect(throttleIntervalsFromSeries(get, keys, ceilings, options)).toEqual(
            detectThrottleIntervals(throttlePointsFromSeries(get, keys, ceilings), options),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('passes over a point without a finite time and keeps the value before it', () => {
    const temp: ThrottleSeries = { t: [0, NaN, 2000], v: [50, 99, 70], length: 3 };
    const clock: ThrottleSeries = { t: [1000], v: [100], length: 1 };
    const byKey = new Map([
      ['temp.cpu.C', temp],
      ['cpufreq.policy0.KHz', clock],
    ]);
    const points = throttlePointsFromSeries((k) => byKey.get(k), [...byKey.keys()], { 'cpufreq.policy0.KHz': 200 });
    expect(points).toEqual([
      { tMs: 0, tempC: 50, clockFraction: null, rpiThrottled: null },
      { tMs: 1000, tempC: 50, clockFraction: 0.5, rpiThrottled: null },
      { tMs: 2000, tempC: 70, clockFraction: 0.5, rpiThrottled: null },
    ]);
  });
});

describe('zonePassiveTripC: only a passive trip caps clocks', () => {
  it("a Raspberry Pi 4's cpu-thermal has one trip, active (the fan) at 70 °C: no throttle trip point", () => {
    const zoneDir = new URL(
      '../../../fixtures/board-root/raspberry-pi-4/sys/class/thermal/thermal_zone0/',
      import.meta.url,
    );
    const read = (name: string) => readFileSync(new URL(name, zoneDir), 'utf8').trim();
    expect([read('type'), read('trip_point_0_type'), read('trip_point_0_temp')]).toEqual([
      'cpu-thermal',
      'active',
      '70000',
    ]);
    expect(zonePassiveTripC({ trips: [{ name: 'trip_point_0', type: 'active', tempC: 70 }] })).toBeNull();
  });

  it('the lowest passive trip, whatever the order; hot and critical trips are not it', () => {
    expect(
      zonePassiveTripC({
        trips: [
          { name: 'trip_point_0', type: 'active', tempC: 60 },
          { name: 'trip_point_1', type: 'passive', tempC: 95 },
          { name: 'trip_point_2', type: 'passive', tempC: 85 },
          { name: 'trip_point_3', type: 'hot', tempC: 80 },
          { name: 'trip_point_4', type: 'critical', tempC: 115 },
        ],
      }),
    ).toBe(85);
  });

  it('a trip a driver printed in degrees (85 → 0.085 °C as millidegrees) or left at 0 is not one', () => {
    const trips = (...tempsC: number[]) => ({
      trips: tempsC.map((tempC, i) => ({ name: `trip_point_${i}`, type: 'passive', tempC })),
    });
    expect(zonePassiveTripC(trips(0.085))).toBeNull();
    expect(zonePassiveTripC(trips(0, 95))).toBe(95);
  });
});

describe('a board throttled before the run started and until it ended', () => {
  // The RK3588's probe (a real Orange Pi 5): cpuinfo_max_freq 1.8 GHz for policy0 (CPUs 0–3),
  // 2.4 GHz for policy4 (4, 5) and policy6 (6, 7).
  const probe = parseProbeOutput(
    readFileSync(new URL('../../../fixtures/probe/rk3588-orange-pi-5/probe-output.txt', import.meta.url), 'utf8'),
  );
  const ceilings = clockCeilingsFromPolicies(probe.cpu.policies);
  // 83 °C and the big cores at 1.2 GHz on every tick, 0…4 s; a passive trip at 85 °C.
  const samples: Sample[] = Array.from({ length: 5 }, (_, i) => ({
    tMs: i * 1000,
    source: 'procfs',
    values: {
      'temp.soc-thermal.C': 83,
      'cpufreq.policy0.KHz': 1_800_000,
      'cpufreq.policy4.KHz': 1_200_000,
      'cpufreq.policy6.KHz': 1_200_000,
    },
  }));

  it('takes the clock maxima from the probe: cpufreq in kHz, tegrastats cores in MHz', () => {
    expect(ceilings).toEqual({
      'cpufreq.policy0.KHz': 1_800_000,
      'cpufreq.policy4.KHz': 2_400_000,
      'cpufreq.policy6.KHz': 2_400_000,
      'tegra.cpu.0.freqMHz': 1800,
      'tegra.cpu.1.freqMHz': 1800,
      'tegra.cpu.2.freqMHz': 1800,
      'tegra.cpu.3.freqMHz': 1800,
      'tegra.cpu.4.freqMHz': 2400,
      'tegra.cpu.5.freqMHz': 2400,
      'tegra.cpu.6.freqMHz': 2400,
      'tegra.cpu.7.freqMHz': 2400,
    });
  });

  it('is one interval over the whole run against the hardware maximum (1.2 / 2.4 = 0.5), none against the run’s own', () => {
    expect(detectThrottleIntervals(throttlePointsFromSamples(samples), { tripC: 85 })).toEqual([]);
    expect(detectThrottleIntervals(throttlePointsFromSamples(samples, ceilings), { tripC: 85 })).toEqual([
      { startMs: 0, endMs: 4000, reasons: ['thermal'], maxTempC: 83, minClockFraction: 0.5 },
    ]);
  });

  it('raises the throttling state live from the first reading', () => {
    const watch = new ThrottleWatch(85, ceilings);
    expect(watch.observe(samples[0]?.values ?? {})).toEqual({
      tempsC: { 'temp.soc-thermal.C': 83 },
      throttling: true,
      reasons: ['thermal'],
    });
    expect(new ThrottleWatch(85).observe(samples[0]?.values ?? {}).throttling).toBe(false);
  });
});
