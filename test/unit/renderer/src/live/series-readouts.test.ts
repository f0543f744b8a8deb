import { describe, expect, it } from 'vitest';
import { seriesReadouts, updateLatest } from '../../../../../renderer/src/live/series-readouts';
import { formatSeriesValue } from '../../../../../shared/format/series-value';

describe('series readouts', () => {
  it('the newest value of every registered series present, in registry order, with its unit', () => {
    const latest = {};
    updateLatest(latest, [
      { tMs: 0, source: 'engine', values: { started: 1, tokens: 0 } },
      {
        tMs: 100,
        source: 'procfs',
        values: { rssBytes: 1048576, cpuBusyPct: 12.345, 'temp.cpu-thermal.C': 41.5, unknownKey: 3, swapBytes: null },
      },
      { tMs: 200, source: 'engine', values: { tokens: 12 } },
    ]);
    expect(seriesReadouts(latest).map((r) => [r.key, r.sourceId, r.value])).toEqual([
      ['tokens', 'engine', '12'],
      ['started', 'engine', '1'],
      ['rssBytes', 'procfs', '1.00 MiB'],
      ['cpuBusyPct', 'procfs', '12.3 %'],
      ['temp.cpu-thermal.C', 'procfs', '41.5 °C'],
    ]);
    // Named as the reports name them: a pattern's series by its label and which one, not by its key.
    expect(seriesReadouts(latest).map((r) => r.label)).toEqual([
      'tokens generated',
      'engine started',
      'RSS',
      'CPU busy (board)',
      'temperature: cpu-thermal',
    ]);
  });

  it('words each unit', () => {
    expect(formatSeriesValue('kHz', 1800000)).toBe('1.80 GHz');
    expect(formatSeriesValue('us', 2_500_000)).toBe('2.50 s');
    expect(formatSeriesValue('count', 0.57)).toBe('0.57');
    expect(formatSeriesValue('mW', 4999.6)).toBe('5000 mW');
    expect(formatSeriesValue('bytes', null)).toBe('–');
  });
});
