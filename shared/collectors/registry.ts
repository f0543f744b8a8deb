// Every collector and series source KVScope knows, in one list. The launcher, the run, the
// session, the UI and the reports iterate it; adding a collector is one definition file (see
// shared/collectors/collector.ts) and one line here.
import type { CollectorDefinition, SeriesDef, SeriesSource } from './collector';
import { seriesKeyMatches } from './collector';
import { naturalOrder } from '../util/natural-order';
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

/** Every definition in registry order, with its source and its place in that order. */
const DEFINITIONS: ReadonlyArray<{ def: SeriesDef; sourceId: string; order: number }> = SERIES_SOURCES.flatMap(
  (source) => source.series.map((def) => ({ def, sourceId: source.id })),
).map((d, order) => ({ ...d, order }));

/** How much of a key a definition fixes: a plain key all of it, a pattern its text around the `*`. */
const fixedChars = (def: SeriesDef) => (def.key.includes('*') ? def.key.length - 1 : Infinity);

/**
 * The definition of a key, or null. A `*` matches dots too, so a key can fit several:
 * `cpufreq.policy0.max.KHz` fits `cpufreq.*.KHz` (as `policy0.max`) and is the cap of
 * `cpufreq.*.max.KHz`; `perf.task-clockUs` fits `perf.*` and is the CPU time of `perf.*Us`. The one
 * that fixes most of the key says what it is (among equals the first in registry order).
 */
function definitionOf(key: string): (typeof DEFINITIONS)[number] | null {
  let best: (typeof DEFINITIONS)[number] | null = null;
  for (const d of DEFINITIONS) {
    if (seriesKeyMatches(d.def.key, key) && (best === null || fixedChars(d.def) > fixedChars(best.def))) best = d;
    if (best !== null && fixedChars(best.def) === Infinity) break;
  }
  return best;
}

const registered = (key: string, { def, sourceId }: (typeof DEFINITIONS)[number]): RegisteredSeries => ({
  ...def,
  key,
  pattern: def.key,
  sourceId,
});

/** The registered definition of a sample key, or null for a key no source declares. */
export function seriesOf(key: string): RegisteredSeries | null {
  const d = definitionOf(key);
  return d === null ? null : registered(key, d);
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

/** The registered series of these sample keys, in registry order (a pattern's keys as people count: core 2 before core 10); unregistered keys left out. */
export function registeredSeries(sampleKeys: Iterable<string>): RegisteredSeries[] {
  const found: Array<{ key: string; d: (typeof DEFINITIONS)[number] }> = [];
  for (const key of new Set(sampleKeys)) {
    const d = definitionOf(key);
    if (d !== null) found.push({ key, d });
  }
  found.sort((a, b) => a.d.order - b.d.order || naturalOrder(a.key, b.key));
  return found.map(({ key, d }) => registered(key, d));
}
