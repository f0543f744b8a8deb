// Derived series on hand-made data: tokens/s, throttle intervals from temperatures and clocks,
// and when the OOM horizon is reached.
import { describe, expect, it } from 'vitest';
import { perTokenSummary } from '../../../../../../shared/analysis/per-token';
import { tokensPerSecondByDepth } from '../../../../../../shared/analysis/throughput';
import {
  oomHorizonTime,
  perTokenLine,
  rollingTokensPerSecond,
  throttleFromStore,
  tokenEventsAt,
} from '../../../../../../renderer/src/ui/dashboard/derived';
import { SeriesStore } from '../../../../../../renderer/src/ui/dashboard/series-store';
import { captureSamples } from '../../../../../helpers/tegrastats-samples';

describe('derived series', () => {
  it('rolls tokens/s over a 2 s window from the cumulative count', () => {
    const s = new SeriesStore();
    // 10 tokens/s for 10 s: a count every 100 ms.
    s.ingest(Array.from({ length: 101 }, (_, i) => ({ tMs: i * 100, source: 'engine', values: { tokens: i } })));
    const r = rollingTokensPerSecond(s.get('tokens'), 0, 10_000, 5);
    // First token at 100 ms → first rate at 2100 ms; 5 points from 2100 to 10000 ms.
    expect(r.count).toBe(5);
    expect(r.xs[0]).toBe(2100);
    expect(r.xs[4]).toBe(10_000);
    // 20 tokens in every 2 s window = 10 tokens/s.
    for (let i = 0; i < r.count; i++) expect(r.ys[i]).toBeCloseTo(10, 9);
  });

  it('finds a throttle interval: hot (≥ trip − 5 °C) and the clock below 90 % of its highest', () => {
    const s = new SeriesStore();
    // 1 s ticks 0…9 s; 97 °C from 3 s to 6 s (trip 99: hot from 94), clock 2000 MHz except 1000 at 4–6 s.
    s.ingest(
      Array.from({ length: 10 }, (_, i) => ({
        tMs: i * 1000,
        source: 'procfs',
        values: {
          'temp.cpu.C': i >= 3 && i <= 6 ? 97 : 60,
          'cpufreq.policy0.KHz': i >= 4 && i <= 6 ? 1_000_000 : 2_000_000,
        },
      })),
    );
    const v = throttleFromStore(s, 99);
    // Throttled samples 4, 5, 6 s; the interval ends at the first sample after (7 s).
    expect(v.intervals.map((i) => [i.startMs, i.endMs, i.reasons])).toEqual([[4000, 7000, ['thermal']]]);
    expect(throttleFromStore(s, null).intervals).toEqual([]);
  });

  it("shades a Raspberry Pi's firmware throttling without a trip point, and reads tegrastats' sensors", () => {
    const s = new SeriesStore();
    // vcgencmd ticks 2 s apart: 0x50000 (sticky bits only), 0x50005 (under-voltage + throttled now), 0x0.
    s.ingest(
      [0x50000, 0x50005, 0].map((bits, i) => ({
        tMs: i * 2000,
        source: 'vcgencmd',
        values: { 'rpi.throttledBits': bits, 'rpi.soc.C': 38.6 },
      })),
    );
    expect(throttleFromStore(s, null).intervals.map((i) => [i.startMs, i.endMs, i.reasons])).toEqual([
      [2000, 4000, ['rpi-throttled', 'rpi-under-voltage']],
    ]);
    const j = new SeriesStore();
    // A Jetson at 93 °C (trip 97: hot from 92) whose CPU clock halves at 1 s; PMIC's fixed 100 is no reading.
    j.ingest(
      [1420, 710, 1420].map((mhz, i) => ({
        tMs: i * 1000,
        source: 'tegrastats',
        values: { 'tegra.temp.CPU.C': i === 1 ? 93 : 60, 'tegra.temp.PMIC.C': 100, 'tegra.cpu.0.freqMHz': mhz },
      })),
    );
    expect(throttleFromStore(j, 97).intervals.map((i) => [i.startMs, i.endMs, i.maxTempC])).toEqual([[1000, 2000, 93]]);
  });

  it('projects the OOM horizon in time at the decode speed', () => {
    // 500 tokens to go at 50 tokens/s = 10 s after now (20 s).
    expect(oomHorizonTime(20_000, 1500, 2000, 50)).toBe(30_000);
    expect(oomHorizonTime(20_000, 2500, 2000, 50)).toBe(20_000);
    expect(oomHorizonTime(20_000, 1500, null, 50)).toBeNull();
    expect(oomHorizonTime(20_000, 1500, 2000, null)).toBeNull();
  });

  it('keeps only the token events the depth rates read, with the same rates', () => {
    const s = new SeriesStore();
    // 1 token per 100 ms for 60 s, then 1 per 200 ms: 600 tokens at 10 tokens/s, 300 more at 5.
    const counts = [
      ...Array.from({ length: 601 }, (_, i) => [i * 100, i]),
      ...Array.from({ length: 300 }, (_, i) => [60_000 + (i + 1) * 200, 601 + i]),
    ];
    s.ingest(counts.map(([tMs, tokens]) => ({ tMs: tMs ?? 0, source: 'engine', values: { tokens: tokens ?? 0 } })));
    const tokens = s.get('tokens');
    const events = tokenEventsAt(tokens, [1, 300, 600, 900]);
    // Each edge's first point and the one before it, and the last point.
    expect(events.map((e) => e.tokens)).toEqual([0, 1, 299, 300, 599, 600, 899, 900]);
    const rates = tokensPerSecondByDepth(events, { bucketTokens: 300 });
    // 10 tokens/s over the first two buckets, 5 over the third (hand-computed above).
    expect(rates.map((r) => Number(r.tokensPerSecond.toFixed(9)))).toEqual([10, 10, 5]);
    expect(tokenEventsAt(undefined, [1])).toEqual([]);
  });

  it("says in the Power panel's line which rails the energy per token adds up, or why there is none", () => {
    const lineOf = (rel: string, times: number[]) => {
      const s = new SeriesStore();
      // The first token at 1 s (count 1), the last at 3 s (count 21): 20 tokens in 2 s.
      s.ingest([
        { tMs: 1000, source: 'engine', values: { tokens: 1 } },
        { tMs: 3000, source: 'engine', values: { tokens: 21 } },
        ...captureSamples(rel, times),
      ]);
      return perTokenLine(perTokenSummary((k) => s.get(k), s.keys()));
    };
    // AGX Orin's three lines at 1, 2, 3 s: 2412 + 1607 + (4707 + 4607) / 2 = 8676 mW mean over 2 s,
    // 20 tokens: 0.8676 J each.
    expect(lineOf('agx-orin-64gb-l4t36.4.4/agx_orin_64gb_l4t36.4.4_lesomnus.txt', [1000, 2000, 3000])).toBe(
      '0.868 J/token (VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0, 8,676 mW mean) over the decode',
    );
    expect(lineOf('agx-xavier-jp4.2/agx_xavier_jp4.2_gtop_pr7.txt', [2000])).toBe(
      "no input rail: the AGX Xavier's GPU, CPU, SOC, CV, VDDRQ and SYS5V leave its DRAM VDD2 supply unmeasured, so their sum is not the module's power",
    );
  });
});
