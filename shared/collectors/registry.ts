// Every collector and series source KVScope knows, in one list. The launcher, the run, the
// session, the UI and the reports iterate it; adding a collector is one definition file (see
// shared/collectors/collector.ts) and one line here.
import type { CollectorDefinition, SeriesDef, SeriesSource } from './collector';
import { seriesKeyMatches } from './collector';
import { boardSysfsCollector } from './board-sysfs-collector';
import { cgroupCollector } from './cgroup-collector';
import { engineSource } from './engine-source';
import { perfCollector } from './perf-collector';
import { pmapCollector } from './pmap-collector';
import { pressureCollector } from './pressure-collector';
import { procfsCollector } from './procfs-collector';
import { tegrastatsCollector } from './tegrastats-collector';
import { vcgencmdCollector } from './vcgencmd-collector';

/** Collectors: a script each, started on the target for every run where they can run. */
export const COLLECTORS: readonly CollectorDefinition[] = [
  procfsCollector,
  pressureCollector,
  tegrastatsCollector,
  vcgencmdCollector,
  boardSysfsCollector,
  perfCollector,
  pmapCollector,
  cgroupCollector,
];

/** Everything that puts series into samples: the engine's output, then every collector. */
export const SERIES_SOURCES: readonly SeriesSource[] = [engineSource, ...COLLECTORS];

export function collectorById(id: string): CollectorDefinition | undefined {
  return COLLECTORS.find((c) => c.id === id);
}

export interface RegisteredSeries extends SeriesDef {
  /** The sample key itself (a `*` of the definition resolved). */
  key: string;
  /** The definition's key, `*` included. */
  pattern: string;
  /** The source that defines it. */
  sourceId: string;
}

/** How a series is named to people: its label, and for a pattern's key the key itself (`temperature temp.cpu-thermal.C`). */
export function seriesDisplayLabel(s: Pick<RegisteredSeries, 'label' | 'pattern' | 'key'>): string {
  return s.pattern.includes('*') ? `${s.label} ${s.key}` : s.label;
}

/** The registered definition of a sample key, or null for a key no source declares. */
export function seriesOf(key: string): RegisteredSeries | null {
  for (const source of SERIES_SOURCES) {
    for (const def of source.series) {
      if (seriesKeyMatches(def.key, key)) return { ...def, key, pattern: def.key, sourceId: source.id };
    }
  }
  return null;
}

/**
 * Every registered series that has at least one number in `samples`, in registry order (a
 * pattern's keys sorted by name). Keys no source declares are left out: they have no unit.
 */
export function seriesPresent(samples: ReadonlyArray<{ values: Record<string, number | null> }>): RegisteredSeries[] {
  const keys = new Set<string>();
  for (const s of samples) for (const [k, v] of Object.entries(s.values)) if (typeof v === 'number') keys.add(k);
  return registeredSeries(keys);
}

/** The registered series of these sample keys, in registry order (a pattern's keys sorted); unregistered keys left out. */
export function registeredSeries(sampleKeys: Iterable<string>): RegisteredSeries[] {
  const keys = new Set(sampleKeys);
  const out: RegisteredSeries[] = [];
  for (const source of SERIES_SOURCES) {
    for (const def of source.series) {
      const matching = [...keys].filter((k) => seriesKeyMatches(def.key, k)).sort();
      for (const key of matching) {
        keys.delete(key);
        out.push({ ...def, key, pattern: def.key, sourceId: source.id });
      }
    }
  }
  return out;
}
