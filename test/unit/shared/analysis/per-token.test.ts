// The decode's cost per generated token, from series: expected values worked out by hand below.
import { describe, expect, it } from 'vitest';
import { perTokenSummary } from '../../../../shared/analysis/per-token';
import { seriesOfSamples, type TimeSeries } from '../../../../shared/analysis/time-series';
import type { Sample } from '../../../../shared/api/schemas';
import { captureSamples } from '../../../helpers/tegrastats-samples';

function access(series: Record<string, [number[], number[]]>) {
  const map = new Map<string, TimeSeries>(Object.entries(series).map(([k, [t, v]]) => [k, { t, v, length: t.length }]));
  return [(k: string) => map.get(k), [...map.keys()]] as const;
}

describe('perTokenSummary', () => {
  // The first token at 2 s (count 1), the last at 3 s (count 11): 10 tokens in (2 s, 3 s].
  const tokens: [number[], number[]] = [
    [1000, 2000, 3000],
    [0, 1, 11],
  ];

  it('IPC per PMU, counts per token and the input rail’s energy over the decode', () => {
    const summary = perTokenSummary(
      ...access({
        tokens,
        // The sample at 2 s holds the interval before the decode: left out. 400 + 600 cycles,
        // 800 + 1200 instructions: IPC 2.
        'perf.cpu_core.cycles': [
          [2000, 2500, 3000],
          [999, 400, 600],
        ],
        'perf.cpu_core.instructions': [
          [2000, 2500, 3000],
          [999, 800, 1200],
        ],
        // The sample at 2.5 s opens its window: 20 misses in (2.5 s, 3 s], while the count went from
        // 1 to 11: 2 a token.
        'perf.cache-misses': [
          [2500, 3000],
          [30, 20],
        ],
        // CPU time is no count.
        'perf.task-clockUs': [[3000], [1e6]],
        // Trapezoids: (4 + 6) / 2 W × 0.5 s twice = 5 J over 1 s, 0.5 J a token.
        'tegra.rail.VDD_IN.curmW': [
          [2000, 2500, 3000],
          [4000, 6000, 4000],
        ],
        // A rail that is not the board's input is never the total.
        'tegra.rail.VDD_SOC.curmW': [
          [2000, 3000],
          [900, 900],
        ],
      }),
    );
    expect(summary).toEqual({
      fromMs: 2000,
      toMs: 3000,
      tokens: 10,
      ipc: [{ pmu: 'cpu_core', ipc: 2 }],
      perToken: [
        { key: 'perf.cache-misses', event: 'cache-misses', pmu: '', perToken: 2 },
        { key: 'perf.cpu_core.cycles', event: 'cycles', pmu: 'cpu_core', perToken: 100 },
        { key: 'perf.cpu_core.instructions', event: 'instructions', pmu: 'cpu_core', perToken: 200 },
      ],
      energy: { rails: ['VDD_IN'], meanMw: 5000, joulesPerToken: 0.5 },
      noEnergy: null,
    });
  });

  it('reads a Nano’s POM_5V_IN and an INA sensor labelled VIN as the input; none without one', () => {
    const rail = (key: string) =>
      perTokenSummary(
        ...access({
          tokens,
          [key]: [
            [2000, 3000],
            [3000, 3000],
          ],
        }),
      )?.energy ?? null;
    expect(rail('tegra.rail.POM_5V_IN.curmW')).toEqual({ rails: ['POM_5V_IN'], meanMw: 3000, joulesPerToken: 0.3 });
    expect(rail('power.VIN.mW')).toEqual({ rails: ['VIN'], meanMw: 3000, joulesPerToken: 0.3 });
    expect(rail('tegra.rail.VDD_CPU_GPU_CV.curmW')).toBeNull();
    // One reading in the decode (a slow rail): its power over the whole decode, 2 W × 1 s / 10 tokens.
    const one = perTokenSummary(
      ...access({
        tokens,
        'tegra.rail.VDD_IN.curmW': [
          [1000, 2500],
          [9000, 2000],
        ],
      }),
    );
    expect(one?.energy).toEqual({ rails: ['VDD_IN'], meanMw: 2000, joulesPerToken: 0.2 });
  });

  it('IPC per PMU of a hybrid CPU, never mixed; a count with no token in its window has none per token', () => {
    const summary = perTokenSummary(
      ...access({
        tokens: [
          [1000, 2000, 4000],
          [1, 5, 45],
        ],
        // (1 s, 4 s]: 3000 cycles and 7500 instructions on the big cores, 2000 and 1000 on the small.
        'perf.cpu_core.cycles': [
          [1000, 4000],
          [7, 3000],
        ],
        'perf.cpu_core.instructions': [
          [1000, 4000],
          [7, 7500],
        ],
        'perf.cpu_atom.cycles': [
          [1000, 4000],
          [7, 2000],
        ],
        'perf.cpu_atom.instructions': [
          [1000, 4000],
          [7, 1000],
        ],
        // Counted only before the decode's last token count moved: (1 s, 1.5 s], no token in it.
        'perf.page-faults': [
          [1000, 1500],
          [3, 4],
        ],
      }),
    );
    expect(summary?.ipc).toEqual([
      { pmu: 'cpu_atom', ipc: 0.5 },
      { pmu: 'cpu_core', ipc: 2.5 },
    ]);
    expect(summary?.perToken.map((c) => c.key)).not.toContain('perf.page-faults');
    // 44 tokens from 1 to 45 in (1 s, 4 s].
    expect(summary?.perToken.find((c) => c.key === 'perf.cpu_core.cycles')?.perToken).toBe(3000 / 44);
  });

  it('says nothing without a token count that reaches one and grows', () => {
    expect(perTokenSummary(...access({}))).toBeNull();
    expect(
      perTokenSummary(
        ...access({
          tokens: [
            [1000, 2000],
            [0, 0],
          ],
        }),
      ),
    ).toBeNull();
    expect(
      perTokenSummary(
        ...access({
          tokens: [
            [1000, 2000],
            [1, 1],
          ],
        }),
      ),
    ).toBeNull();
  });
});

describe('perTokenSummary: energy of a Jetson without an input rail (real tegrastats captures)', () => {
  // The decode: the first token at 1 s (count 1), the last at 3 s (count 21): 20 tokens in 2 s.
  const tokens: Sample[] = [
    { tMs: 1000, source: 'engine', values: { tokens: 1 } },
    { tMs: 3000, source: 'engine', values: { tokens: 21 } },
  ];
  const summaryOf = (samples: Sample[]) => {
    const byKey = seriesOfSamples([...tokens, ...samples]);
    return perTokenSummary((k) => byKey.get(k), [...byKey.keys()]);
  };

  it('AGX Orin (L4T 36.4.4): VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0, each rail over the decode, never their averages', () => {
    // The capture's three lines at 1, 2 and 3 s. Current readings: VDD_GPU_SOC 2412, 2412, 2412 mW;
    // VDD_CPU_CV 1607, 1607, 1607 mW; VIN_SYS_5V0 4707, 4607, 4707 mW. Trapezoids: 2412, 1607 and
    // (4707 + 4607) / 2 = 4657 mW mean, together 8676 mW; 8.676 W × 2 s = 17.352 J over 20 tokens.
    // (tegrastats' averages, VIN_SYS_5V0 4707/4657/4674 mW, would give 8692.75 mW.)
    const summary = summaryOf(
      captureSamples('agx-orin-64gb-l4t36.4.4/agx_orin_64gb_l4t36.4.4_lesomnus.txt', [1000, 2000, 3000]),
    );
    expect(summary?.energy?.rails).toEqual(['VDD_GPU_SOC', 'VDD_CPU_CV', 'VIN_SYS_5V0']);
    expect(summary?.energy?.meanMw).toBe(8676);
    expect(summary?.energy?.joulesPerToken).toBeCloseTo(0.8676, 12);
    expect(summary?.noEnergy).toBeNull();
  });

  it('AGX Orin (JetPack 5): VDDQ_VDD2_1V8AO is inside VIN_SYS_5V0 and NC is no rail: neither is added', () => {
    // One line, at 2 s: its power over the whole decode. 2340 + 390 + 4025 = 6755 mW (not 7056 with
    // VDDQ_VDD2_1V8AO's 301 mW); 6.755 W × 2 s / 20 tokens.
    const summary = summaryOf(captureSamples('agx-orin-64gb-jp5/agx_orin_64gb_jp5_gdwr_issue14.txt', [2000]));
    expect(summary?.energy?.rails).toEqual(['VDD_GPU_SOC', 'VDD_CPU_CV', 'VIN_SYS_5V0']);
    expect(summary?.energy?.meanMw).toBe(6755);
    expect(summary?.energy?.joulesPerToken).toBeCloseTo(0.6755, 12);
  });

  it('AGX Orin read by tegrastats and by hwmon: the rails of one source, not both added', () => {
    const tegra = captureSamples('agx-orin-64gb-jp5/agx_orin_64gb_jp5_gdwr_issue14.txt', [2000]);
    // The same three INA3221 channels through hwmon (power.<label>.mW), 100 mW apiece above tegrastats.
    const hwmon: Sample = {
      tMs: 2000,
      source: 'boardsysfs',
      values: { 'power.VDD_GPU_SOC.mW': 2440, 'power.VDD_CPU_CV.mW': 490, 'power.VIN_SYS_5V0.mW': 4125 },
    };
    expect(summaryOf([...tegra, hwmon])?.energy?.meanMw).toBe(6755);
    // hwmon alone: 2440 + 490 + 4125.
    expect(summaryOf([hwmon])?.energy).toEqual({
      rails: ['VDD_GPU_SOC', 'VDD_CPU_CV', 'VIN_SYS_5V0'],
      meanMw: 7055,
      joulesPerToken: (7.055 * 2) / 20,
    });
  });

  it('Orin Nano (JetPack 6): the input rail VDD_IN is the total, its sub-rails are not added', () => {
    // VDD_IN 4744mW/6179mW, VDD_CPU_GPU_CV 1273 mW, VDD_SOC 1234 mW: VDD_IN's current 4744 mW alone,
    // 4.744 W × 2 s / 20 tokens.
    const summary = summaryOf(captureSamples('orin-nano-8gb-jp6/orin_nano_8gb_jp6_two_sources.txt', [2000]));
    expect(summary?.energy?.rails).toEqual(['VDD_IN']);
    expect(summary?.energy?.meanMw).toBe(4744);
    expect(summary?.energy?.joulesPerToken).toBeCloseTo(0.4744, 12);
    expect(summary?.noEnergy).toBeNull();
  });

  it('AGX Xavier (JetPack 4.2): its six rails leave out the DRAM VDD2 supply, so no total, and why', () => {
    // GPU 463, CPU 618, SOC 2936, CV 0, VDDRQ 309, SYS5V 3306 mW: their 7632 mW is not the module's power.
    const summary = summaryOf(captureSamples('agx-xavier-jp4.2/agx_xavier_jp4.2_gtop_pr7.txt', [2000]));
    expect(summary?.energy).toBeNull();
    expect(summary?.noEnergy).toBe(
      "no input rail: the AGX Xavier's GPU, CPU, SOC, CV, VDDRQ and SYS5V leave its DRAM VDD2 supply unmeasured, so their sum is not the module's power",
    );
  });

  it('an AGX Orin missing one of the three rails, and rails of an unknown board: no total, and why', () => {
    const at = (values: Record<string, number>): Sample => ({ tMs: 2000, source: 'boardsysfs', values });
    expect(summaryOf([at({ 'power.VDD_GPU_SOC.mW': 2340, 'power.VDD_CPU_CV.mW': 390 })])?.noEnergy).toBe(
      "no input rail: the AGX Orin's total is VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0, and VIN_SYS_5V0 was not read",
    );
    expect(summaryOf([at({ 'power.VDD_CPU.mW': 900, 'power.VDD_DDR.mW': 300 })])?.noEnergy).toBe(
      "no input rail: VDD_CPU, VDD_DDR are not known to add up to the board's power",
    );
    // A board with no rail at all has nothing to say.
    expect(summaryOf([at({ 'temp.cpu.C': 50 })])?.noEnergy).toBeNull();
  });
});
