// The decode's cost per generated token, from series: expected values worked out by hand below.
import { describe, expect, it } from 'vitest';
import { perTokenSummary } from '../../../../shared/analysis/per-token';
import type { TimeSeries } from '../../../../shared/analysis/time-series';

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
      energy: { rail: 'VDD_IN', meanMw: 5000, joulesPerToken: 0.5 },
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
    expect(rail('tegra.rail.POM_5V_IN.curmW')).toEqual({ rail: 'POM_5V_IN', meanMw: 3000, joulesPerToken: 0.3 });
    expect(rail('power.VIN.mW')).toEqual({ rail: 'VIN', meanMw: 3000, joulesPerToken: 0.3 });
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
    expect(one?.energy).toEqual({ rail: 'VDD_IN', meanMw: 2000, joulesPerToken: 0.2 });
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
