// Which panel and track a series belongs to, decided by its unit and kind, so a collector's new
// series lands in the right place without panel code: bytes go to Memory, °C and clocks to
// Thermal and clocks, power, energy and counters to Power and counters. A series a collector
// describes (name, unit) wins over the name rules below, which cover keys no collector declares
// and the naming habit of docs/DEVELOPING.md (units in names: rssBytes, tempC, freqKHz, powerMw).
// A registered series is named as everywhere else (shared/collectors/series-names.ts), by the
// short legend name its collector gives it.

import { isAlarmSensorSeries, PMIC_ALARM_NAME } from '../../../../shared/analysis/alarm-sensors';
import { seriesOf } from '../../../../shared/collectors/registry';
import { seriesLegendName, seriesName } from '../../../../shared/collectors/series-names';

export type SeriesUnit = 'bytes' | 'celsius' | 'khz' | 'mhz' | 'hz' | 'mw' | 'mj' | 'percent' | 'count' | 'per-second';

export type PanelId = 'memory' | 'throughput' | 'thermal' | 'power' | 'events';

/** The landmark names tests and screen readers rely on (issue 9). */
export const PANEL_NAMES: Record<PanelId, string> = {
  memory: 'Memory',
  throughput: 'Throughput',
  thermal: 'Thermal and clocks',
  power: 'Power and counters',
  events: 'Events',
};

export const DEFAULT_PANEL_ORDER: readonly PanelId[] = ['memory', 'throughput', 'thermal', 'power', 'events'];

export interface SeriesInfo {
  key: string;
  label: string;
  unit: SeriesUnit;
  panel: Exclude<PanelId, 'events'>;
  /** Series of one track share a y axis (one unit per track). */
  track: string;
}

/** A collector's own description of a series, when it gives one (shared/collectors registry). */
export interface CollectorSeries {
  key: string;
  label?: string;
  unit: string;
  kind?: string;
}

const TRACK_TITLES: Record<string, string> = {
  'process-memory': 'Engine memory',
  'system-memory': 'System memory',
  'memory-pressure': 'Memory pressure',
  temperature: 'Temperature',
  'alarm-level': `${PMIC_ALARM_NAME} (a level, not a temperature)`,
  limits: 'Limits (thermal trip points, as set)',
  clocks: 'Clocks',
  load: 'Load',
  power: 'Power',
  energy: 'Energy',
  counters: 'Counters',
  rates: 'Rates',
};
export const trackTitle = (track: string) => TRACK_TITLES[track] ?? track;

/** Series that are bookkeeping or constants, never drawn. */
const HIDDEN: ReadonlySet<string> = new Set([
  'tokens',
  'started',
  'vmSizeBytes',
  'statmResidentBytes',
  'smapsAnonBytes',
  'memTotalBytes',
  'swapTotalBytes',
  'threads',
]);

/** Engine-process memory (the KV story) vs the whole board's. */
const PROCESS_MEMORY: ReadonlySet<string> = new Set([
  'rssBytes',
  'rssAnonBytes',
  'rssFileBytes',
  'rssShmemBytes',
  'pssBytes',
  'swapBytes',
  'rssPeakBytes',
  'nvmapBytes',
]);

const UNIT_ALIASES: Record<string, SeriesUnit> = {
  b: 'bytes',
  bytes: 'bytes',
  '°c': 'celsius',
  c: 'celsius',
  celsius: 'celsius',
  khz: 'khz',
  mhz: 'mhz',
  hz: 'hz',
  mw: 'mw',
  mj: 'mj',
  '%': 'percent',
  percent: 'percent',
  count: 'count',
  '/s': 'per-second',
  'per-second': 'per-second',
};

function placeByUnit(key: string, unit: SeriesUnit): Pick<SeriesInfo, 'panel' | 'track'> {
  const lower = key.toLowerCase();
  if (/psi|pressure/.test(lower)) return { panel: 'memory', track: 'memory-pressure' };
  switch (unit) {
    case 'bytes':
      return { panel: 'memory', track: PROCESS_MEMORY.has(key) ? 'process-memory' : 'system-memory' };
    case 'celsius':
      // The Jetson PMIC's die zone reads a fixed 100 °C until an alarm fires: a track of its own,
      // never the temperature track's scale (shared/analysis/alarm-sensors.ts).
      return { panel: 'thermal', track: isAlarmSensorSeries(key) ? 'alarm-level' : 'temperature' };
    case 'khz':
    case 'mhz':
    case 'hz':
      return { panel: 'thermal', track: 'clocks' };
    case 'percent':
      return { panel: 'thermal', track: 'load' };
    case 'mw':
      return { panel: 'power', track: 'power' };
    case 'mj':
      return { panel: 'power', track: 'energy' };
    case 'per-second':
      return { panel: 'power', track: 'rates' };
    case 'count':
      return { panel: 'power', track: 'counters' };
  }
}

/** The unit a key's name states (docs/DEVELOPING.md: units in names), or null. */
export function unitFromName(key: string): SeriesUnit | null {
  if (/Bytes$/.test(key)) return 'bytes';
  // Every collector's °C series ends in `.C` (shared/collectors/collector.ts SERIES_UNIT_SUFFIX).
  if (/\.C$/.test(key) || /TempC$/.test(key)) return 'celsius';
  if (/\.KHz$/.test(key) || /KHz$/.test(key)) return 'khz';
  if (/MHz$/.test(key)) return 'mhz';
  if (/Hz$/.test(key)) return 'hz';
  if (/Mw$|mW$/.test(key)) return 'mw';
  if (/Mj$|mJ$/.test(key)) return 'mj';
  if (/Pct$/.test(key)) return 'percent';
  if (/PerSecond$|PerS$/.test(key)) return 'per-second';
  if (/Count$|Misses$|Instructions$|Cycles$/.test(key)) return 'count';
  return null;
}

/** A name for a key no collector declares, from the key itself. */
function labelFromName(key: string): string {
  // "<group>.<name>.<unit>" (rail.VDD_IN.mW, temp.cpu.C): the name says it. A last part that is a
  // statistic beside its unit (avg10Pct, avgmW) tells apart series of one name.
  const dotted = /^[^.]+\.(.+)\.([^.]+)$/.exec(key);
  if (dotted) {
    const name = dotted[1] ?? key;
    const statistic = /^((?:avg|min|max)\d*)[A-Za-z]*$/.exec(dotted[2] ?? '')?.[1];
    return statistic ? `${name} ${statistic}` : name;
  }
  return key
    .replace(/(?:Bytes|TempC|KHz|MHz|Hz|Mw|mW|Mj|mJ|Pct|PerSecond|Count)$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim();
}

/** Where a series is drawn, or null when it is not drawn (bookkeeping, constants, unknown unit). */
export function describeSeries(key: string, described?: CollectorSeries): SeriesInfo | null {
  if (HIDDEN.has(key)) return null;
  const unit = (described && UNIT_ALIASES[described.unit.toLowerCase()]) ?? unitFromName(key);
  if (!unit) return null;
  const registered = seriesOf(key);
  const label = described?.label ?? (registered ? seriesLegendName(registered) : labelFromName(key));
  const place = placeByUnit(key, unit);
  // A threshold (a trip point) in a track of its own: on the readings' track its 95–115 °C would
  // set their scale. A PMIC die zone's trips stay with its alarm levels.
  if (registered?.kind === 'limit' && place.track !== 'alarm-level')
    return { key, label, unit, ...place, track: 'limits' };
  return { key, label, unit, ...place };
}

/**
 * The drawn series of these keys. A panel lists its series in one legend and one readout, so two
 * of them whose short names do not tell them apart, case aside (a devfreq device called `GPU`,
 * `GPU clock`, beside tegrastats' GPU clock; a thermal zone typed `AO temp` beside tegrastats' AO)
 * are called by their full names, which never coincide; a key no collector declares by the key.
 */
export function describeSeriesList(keys: readonly string[]): SeriesInfo[] {
  const infos = keys.map((k) => describeSeries(k)).filter((s): s is SeriesInfo => s !== null);
  const seen = new Map<string, number>();
  const id = (s: SeriesInfo) => `${s.panel}\u0000${s.label.toLowerCase()}`;
  for (const s of infos) seen.set(id(s), (seen.get(id(s)) ?? 0) + 1);
  return infos.map((s) => {
    if ((seen.get(id(s)) ?? 0) < 2) return s;
    const registered = seriesOf(s.key);
    return { ...s, label: registered ? seriesName(registered) : s.key };
  });
}

/** The display unit of a track: clocks in MHz whatever the collector's unit. */
export function displayUnit(unit: SeriesUnit): SeriesUnit {
  return unit === 'khz' || unit === 'hz' ? 'mhz' : unit;
}

/** A value in its series unit converted to the display unit. */
export function toDisplay(unit: SeriesUnit, value: number): number {
  if (unit === 'khz') return value / 1000;
  if (unit === 'hz') return value / 1e6;
  return value;
}
