// The report's board signals, temperature chart and per-token rows: each series named as people
// read it (shared/collectors/series-names.ts: a pattern's series by its label and which one, never by
// its sample key), the numbers beside them the series' own; and the energy per token of a Jetson
// without an input rail, from real tegrastats captures: the rails it adds up, or why there is none.
import { describe, expect, it } from 'vitest';
import type { TimeSeries } from '../../../../shared/analysis/time-series';
import { temperatureChart } from '../../../../shared/report/report-charts';
import { seriesOfSamples } from '../../../../shared/analysis/time-series';
import type { Sample } from '../../../../shared/api/schemas';
import { captureSamples } from '../../../helpers/tegrastats-samples';
import { boardSignalRows, perTokenRows } from '../../../../shared/report/board-signals';

const series = (...v: number[]): TimeSeries => ({ t: v.map((_, i) => i * 1000), v, length: v.length });

describe('board signal rows', () => {
  it('name a pattern’s series by its label and which one, the plain ones by their label', () => {
    const byKey = new Map<string, TimeSeries>([
      ['tegra.temp.AO.C', series(42.5, 44.5)],
      ['tegra.rail.VDD_IN.curmW', series(12000, 14000)],
      ['tegra.rail.VDD_IN.avgmW', series(13000, 13000)],
      ['tegra.cpu.0.loadPct', series(50, 100)],
      ['tegra.gpu.loadPct', series(99, 99)],
      ['cpufreq.policy0.KHz', series(1_800_000, 1_800_000)],
      ['cpufreq.policy0.max.KHz', series(1_800_000, 1_800_000)],
      ['temp.cpu-thermal.C', series(50, 52)],
    ]);
    expect(boardSignalRows(byKey).map((r) => r.label)).toEqual([
      'temperature: cpu-thermal',
      'CPU clock: policy0',
      'CPU clock cap (scaling_max_freq): policy0',
      'CPU load (tegrastats): core 0',
      'GPU load (GR3D)',
      'temperature (tegrastats): AO',
      'power rail, now: VDD_IN',
      'power rail, average: VDD_IN',
    ]);
    const row = (label: string) => boardSignalRows(byKey).find((r) => r.label === label)?.value;
    expect(row('temperature (tegrastats): AO')).toBe('low 42.5 °C · mean 43.5 °C · high 44.5 °C');
    expect(row('power rail, average: VDD_IN')).toBe('low 13000 mW · mean 13000 mW · high 13000 mW');
  });
});

describe('thermal trip points (kind limit): a threshold as it is set, never a reading', () => {
  // The Orange Pi 5's soc-thermal (shared corpus, sbc-bench 4D0a): 26.8 °C with crit 115 °C.
  it('a row says the limit as set, or from what to what when it moved', () => {
    const byKey = new Map<string, TimeSeries>([
      ['trip.soc-thermal.0.C', series(115)],
      ['trip.cpu-thermal.1.C', series(85, 85, 75)],
    ]);
    const row = (label: string) => boardSignalRows(byKey).find((r) => r.label === label)?.value;
    expect(row('thermal trip point: soc-thermal, trip 0')).toBe('115.0 °C');
    expect(row('thermal trip point: cpu-thermal, trip 1')).toBe(
      '85.0 °C at the start, 75.0 °C at the end (low 75.0 °C, high 85.0 °C)',
    );
  });

  it('the temperature chart draws the sensors, not a trip point read twice', () => {
    const chart = temperatureChart(
      new Map<string, TimeSeries>([
        ['temp.soc-thermal.C', series(26.8, 27.7)],
        ['trip.soc-thermal.0.C', series(115, 115)],
      ]),
      null,
    );
    expect(chart?.series.map((s) => s.name)).toEqual(['temperature: soc-thermal']);
  });
});

describe('temperature chart', () => {
  it('its legend names each sensor as the rows do', () => {
    const chart = temperatureChart(
      new Map<string, TimeSeries>([
        ['temp.cpu.C', series(40, 60)],
        ['tegra.temp.CPU.C', series(41, 59)],
      ]),
      null,
    );
    expect(chart?.series.map((s) => s.name)).toEqual(['temperature: cpu', 'temperature (tegrastats): CPU']);
  });
});

/** The first token at 1 s (count 1), the last at 3 s (count 21): 20 tokens in 2 s. */
const tokens: Sample[] = [
  { tMs: 1000, source: 'engine', values: { tokens: 1 } },
  { tMs: 3000, source: 'engine', values: { tokens: 21 } },
];
const rowsOf = (samples: Sample[]) => perTokenRows(seriesOfSamples([...tokens, ...samples]));

describe('perTokenRows: energy per token of a Jetson without an input rail', () => {
  it('AGX Orin: the sum of VDD_GPU_SOC, VDD_CPU_CV and VIN_SYS_5V0, named', () => {
    // 2412 + 1607 + 4657 mW mean (VIN_SYS_5V0 4707, 4607, 4707 mW at 1, 2, 3 s) = 8676 mW;
    // 8.676 W × 2 s / 20 tokens = 0.8676 J.
    const rows = rowsOf(
      captureSamples('agx-orin-64gb-l4t36.4.4/agx_orin_64gb_l4t36.4.4_lesomnus.txt', [1000, 2000, 3000]),
    );
    expect(rows).toEqual([
      { label: 'Energy per token', value: '0.868 J/token (VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0, 8,676 mW mean)' },
      { label: 'Over', value: 'the decode: 20 tokens in 2.00 s' },
    ]);
  });

  it('AGX Xavier: no figure, and why in one line', () => {
    const rows = rowsOf(captureSamples('agx-xavier-jp4.2/agx_xavier_jp4.2_gtop_pr7.txt', [2000]));
    expect(rows[0]).toEqual({
      label: 'Energy per token',
      value:
        "no input rail: the AGX Xavier's GPU, CPU, SOC, CV, VDDRQ and SYS5V leave its DRAM VDD2 supply unmeasured, so their sum is not the module's power",
    });
  });
});
