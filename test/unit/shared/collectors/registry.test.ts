// The collector registry's promises to the rest of KVScope: ids that are safe as spool tags, file
// and shell variable names; series whose keys say their unit (CSV columns are the keys).
import { describe, expect, it } from 'vitest';
import { SERIES_UNIT_SUFFIX } from '../../../../shared/collectors/collector';
import {
  COLLECTORS,
  registeredSeries,
  SERIES_SOURCES,
  seriesOf,
  seriesPresent,
} from '../../../../shared/collectors/registry';

describe('collector registry', () => {
  it('ids are lower-case words, unique; each collector has a script and an interval', () => {
    const ids = SERIES_SOURCES.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9]*$/);
    for (const c of COLLECTORS) {
      expect(c.script, c.id).toMatch(/^#!\/bin\/sh\n/);
      if (c.interval !== 'run') expect(c.interval.minMs).toBeLessThanOrEqual(c.interval.defaultMs);
    }
  });

  it('every series key ends with its unit (Bytes, Pct, .C, .KHz, MHz, mW, Us; counts with none of them)', () => {
    const suffixes = Object.values(SERIES_UNIT_SUFFIX).filter((s) => s !== '');
    for (const source of SERIES_SOURCES) {
      for (const s of source.series) {
        const suffix = SERIES_UNIT_SUFFIX[s.unit];
        if (suffix) expect(s.key.endsWith(suffix), `${source.id} ${s.key}`).toBe(true);
        else
          expect(
            suffixes.some((x) => s.key.endsWith(x)),
            `${source.id} ${s.key}`,
          ).toBe(false);
      }
    }
  });

  it('finds the definition of a sample key, patterns included; unknown keys have none', () => {
    expect(seriesOf('rssAnonBytes')).toMatchObject({ sourceId: 'procfs', unit: 'bytes', kind: 'gauge' });
    expect(seriesOf('temp.gpu-thermal.C')).toMatchObject({ pattern: 'temp.*.C', unit: 'C' });
    expect(seriesOf('tokens')).toMatchObject({ sourceId: 'engine', kind: 'counter' });
    expect(seriesOf('temp..C')).toBeNull();
    expect(seriesOf('i')).toBeNull();
    expect(
      seriesPresent([
        { values: { 'cpufreq.policy4.KHz': 1, 'cpufreq.policy0.KHz': 2, rssBytes: null, tokens: 3, other: 4 } },
      ]).map((s) => s.key),
    ).toEqual(['tokens', 'cpufreq.policy0.KHz', 'cpufreq.policy4.KHz']);
  });

  it('a key several definitions match belongs to the one that fixes most of it', () => {
    // `*` matches dots too: `cpufreq.*.KHz` fits the cap key (as `policy0.max`), `perf.*` fits every perf key.
    expect(seriesOf('cpufreq.policy0.max.KHz')).toMatchObject({
      pattern: 'cpufreq.*.max.KHz',
      label: 'CPU clock cap (scaling_max_freq)',
    });
    expect(seriesOf('cpufreq.policy0.KHz')).toMatchObject({ pattern: 'cpufreq.*.KHz', label: 'CPU clock' });
    expect(seriesOf('perf.task-clockUs')).toMatchObject({ pattern: 'perf.*Us', unit: 'us' });
    expect(seriesOf('perf.cache-misses')).toMatchObject({ pattern: 'perf.*', unit: 'count' });
    // In registry order: the clocks' definition before the caps', each one's keys sorted.
    expect(
      registeredSeries([
        'cpufreq.policy4.max.KHz',
        'cpufreq.policy4.KHz',
        'cpufreq.policy0.max.KHz',
        'cpufreq.policy0.KHz',
      ]).map((s) => [s.key, s.pattern]),
    ).toEqual([
      ['cpufreq.policy0.KHz', 'cpufreq.*.KHz'],
      ['cpufreq.policy4.KHz', 'cpufreq.*.KHz'],
      ['cpufreq.policy0.max.KHz', 'cpufreq.*.max.KHz'],
      ['cpufreq.policy4.max.KHz', 'cpufreq.*.max.KHz'],
    ]);
  });

  it('a pattern’s keys come as people count them: core 2 before core 10, zone 9 before zone 10', () => {
    const keys = ['tegra.cpu.10.loadPct', 'tegra.cpu.2.loadPct', 'tegra.cpu.1.loadPct', 'tegra.cpu.11.loadPct'];
    expect(registeredSeries(keys).map((s) => s.key)).toEqual([
      'tegra.cpu.1.loadPct',
      'tegra.cpu.2.loadPct',
      'tegra.cpu.10.loadPct',
      'tegra.cpu.11.loadPct',
    ]);
  });

  it('labels are unique and hold no colon; short legend names fit their key (a function of the part for a pattern)', () => {
    // shared/collectors/series-names.ts names a pattern's series `<label>: <part>`: these keep names apart.
    const labels = SERIES_SOURCES.flatMap((s) => s.series.map((d) => d.label.toLowerCase()));
    expect(new Set(labels).size).toBe(labels.length);
    for (const label of labels) expect(label).not.toContain(':');
    for (const source of SERIES_SOURCES)
      for (const def of source.series) {
        const pattern = def.key.includes('*');
        if (def.legend !== undefined) expect(typeof def.legend, def.key).toBe(pattern ? 'function' : 'string');
        if (def.partWords !== undefined) expect(pattern, def.key).toBe(true);
      }
  });
});
