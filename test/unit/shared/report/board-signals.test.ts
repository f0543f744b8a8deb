// The report's board signals and temperature chart name each series as people read it
// (shared/collectors/series-names.ts): a pattern's series by its label and which one, never by its
// sample key; the numbers beside them are the series' own.
import { describe, expect, it } from 'vitest';
import type { TimeSeries } from '../../../../shared/analysis/time-series';
import { boardSignalRows } from '../../../../shared/report/board-signals';
import { temperatureChart } from '../../../../shared/report/report-charts';

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
