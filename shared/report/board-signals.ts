// The board in a run's report: what throttling did (shared/analysis/throttle.ts summarizeThrottle,
// through the run summary) and every registered series the run's samples hold — the collectors'
// temperatures, clocks, loads, rails, counters — each summed up in one row: a gauge's low, mean and
// high over the run, a counter's increase. A collector added to the registry shows up here without
// a change (as in the dashboard's "All series" panel). Pure.
import { alarmOfReading, alarmWords, isAlarmLevelKey, PMIC_ALARM_NAME } from '../analysis/alarm-sensors';
import { perTokenSummary, type PerTokenSummary } from '../analysis/per-token';
import type { ThrottleReason, ThrottleSummary } from '../analysis/throttle';
import type { TimeSeries } from '../analysis/time-series';
import { registeredSeries, type RegisteredSeries } from '../collectors/registry';
import { seriesName, seriesPart } from '../collectors/series-names';
import { perfCounterName } from '../collectors/perf-parser';
import { THROTTLED_BITS_KEY } from '../collectors/vcgencmd-collector-parser';
import { formatSeriesValue } from '../format/series-value';
import {
  formatCount,
  formatMs,
  formatPercent,
  formatRunTimeMs,
  formatTempC,
  formatTokensPerSecond,
  MISSING,
} from '../format/units';
import type { Row } from './report-target';
import { maxOf, minOf } from '../util/extremes';

/** Distinct get_throttled words a row lists before `…`. */
const MAX_WORDS_LISTED = 6;

const REASON_WORDS: Record<ThrottleReason, string> = {
  thermal: 'hot: at or near the trip point, clocks below their maxima',
  'rpi-freq-capped': 'ARM clock capped by the firmware',
  'rpi-throttled': 'throttled by the firmware',
  'rpi-soft-temp-limit': "the firmware's soft temperature limit",
  'rpi-under-voltage': 'under-voltage (the power supply)',
};

/** What throttling did to the run: how long, why, how hot, and the decode speed inside and outside. */
export function throttleRows(throttle: ThrottleSummary, durationMs: number): Row[] {
  const n = throttle.intervals.length;
  if (n === 0)
    return [
      {
        label: 'Throttled',
        value:
          'none detected (by the trip point, the clocks against their maxima and the firmware’s bits, as far as the run recorded them)',
      },
      { label: 'Trip point used', value: throttle.tripC === null ? MISSING : formatTempC(throttle.tripC) },
    ];
  const share = durationMs > 0 ? ` (${formatPercent(throttle.throttledMs / durationMs)} of the run)` : '';
  const reasons = [...new Set(throttle.intervals.flatMap((i) => i.reasons))];
  const temps = throttle.intervals.map((i) => i.maxTempC).filter((t): t is number => t !== null);
  const clocks = throttle.intervals.map((i) => i.minClockFraction).filter((c): c is number => c !== null);
  return [
    {
      label: 'Throttled',
      value: `${formatMs(throttle.throttledMs)}${share}, in ${formatCount(n)} interval${n === 1 ? '' : 's'}`,
    },
    { label: 'Why', value: reasons.length ? reasons.map((r) => REASON_WORDS[r]).join('; ') : MISSING },
    { label: 'Trip point used', value: throttle.tripC === null ? MISSING : formatTempC(throttle.tripC) },
    { label: 'Hottest while throttled', value: temps.length ? formatTempC(maxOf(temps)) : MISSING },
    {
      label: 'Lowest clock while throttled',
      value: clocks.length ? `${formatPercent(minOf(clocks))} of its maximum` : MISSING,
    },
    {
      label: 'Decode inside / outside the intervals',
      value: `${formatTokensPerSecond(throttle.insideTokensPerSecond)} / ${formatTokensPerSecond(throttle.outsideTokensPerSecond)}`,
    },
  ];
}

interface Seen {
  low: number;
  high: number;
  sum: number;
  count: number;
  first: number;
  last: number;
}

/** A flag (a firmware bit: only 0 and 1) as how often it was set; a bit mask's distinct words in hex; a counter's increase; a limit as set; a gauge's low · mean · high. */
function summed(series: RegisteredSeries, values: TimeSeries, seen: Seen): string {
  const { low, high, sum, count, first, last } = seen;
  const fmt = (v: number) => formatSeriesValue(series.unit, v);
  if (series.kind === 'counter') return `+${fmt(last - first)} over the run`;
  // A threshold as it was set; one that moved (a user, a governor) from what to what.
  if (series.kind === 'limit')
    return low === high
      ? fmt(low)
      : `${fmt(first)} at the start, ${fmt(last)} at the end (low ${fmt(low)}, high ${fmt(high)})`;
  if (series.key === THROTTLED_BITS_KEY) {
    const words = new Set<number>();
    for (let i = 0; i < values.length && words.size <= MAX_WORDS_LISTED; i++) words.add(values.v[i] ?? NaN);
    const listed = [...words].slice(0, MAX_WORDS_LISTED).map((w) => `0x${w.toString(16)}`);
    return `${listed.join(', ')}${words.size > MAX_WORDS_LISTED ? ', …' : ''} (seen in ${formatCount(count)} samples)`;
  }
  if (series.unit === 'count' && low >= 0 && high <= 1 && Number.isInteger(sum))
    return sum === 0
      ? `never set (${formatCount(count)} samples)`
      : `set in ${formatCount(sum)} of ${formatCount(count)} samples`;
  return `low ${fmt(low)} · mean ${fmt(sum / count)} · high ${fmt(high)}`;
}

/**
 * An alarm-level series (../analysis/alarm-sensors.ts) as what it says: which alarms, in how many
 * readings, from when; never a low · mean · high of degrees (a mean of 50 and 100 °C is no die's).
 */
function alarmSummed(values: TimeSeries): string {
  const byAlarm = [0, 0, 0];
  const quiet = new Set<number>();
  let count = 0;
  let first: number | null = null;
  for (let i = 0; i < values.length; i++) {
    const v = values.v[i] ?? NaN;
    if (!Number.isFinite(v)) continue;
    count++;
    const alarm = alarmOfReading(v);
    byAlarm[alarm] = (byAlarm[alarm] ?? 0) + 1;
    if (alarm === 0) quiet.add(v);
    else first ??= values.t[i] ?? null;
  }
  const readings = (n: number) => `${formatCount(n)} reading${n === 1 ? '' : 's'}`;
  const quietC = [...quiet].sort((a, b) => a - b).map((v) => formatTempC(v));
  const nominal =
    quietC.length > 0
      ? ` (read as ${quietC.join(', ')} while no alarm is set: the driver's value, not a temperature)`
      : '';
  if (first === null) return `no alarm in ${readings(count)}${nominal}`;
  const raised = ([2, 1] as const)
    .filter((a) => (byAlarm[a] ?? 0) > 0)
    .map((a) => `${alarmWords(a)} in ${readings(byAlarm[a] ?? 0)}`);
  return `${raised.join(', ')} of ${formatCount(count)}, the first at ${formatRunTimeMs(first)}${nominal}`;
}

/**
 * One row per registered series the samples hold, in registry order, but the engine's own (tokens,
 * its output: the run's other sections say them): a gauge as `low · mean · high`, a counter as its
 * increase over the run, an alarm level as its alarms.
 */
export function boardSignalRows(byKey: ReadonlyMap<string, TimeSeries>): Row[] {
  const rows: Row[] = [];
  for (const series of registeredSeries(byKey.keys())) {
    const values = byKey.get(series.key);
    if (!values || series.sourceId === 'engine' || series.kind === 'event') continue;
    let low = Infinity;
    let high = -Infinity;
    let sum = 0;
    let count = 0;
    let first: number | null = null;
    let last = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values.v[i] ?? NaN;
      if (!Number.isFinite(v)) continue;
      first ??= v;
      last = v;
      low = Math.min(low, v);
      high = Math.max(high, v);
      sum += v;
      count++;
    }
    if (count === 0 || first === null) continue;
    if (isAlarmLevelKey(series.key)) {
      rows.push({ label: `${PMIC_ALARM_NAME}: ${seriesPart(series) ?? series.key}`, value: alarmSummed(values) });
      continue;
    }
    rows.push({
      label: seriesName(series),
      value: summed(series, values, { low, high, sum, count, first, last }),
    });
  }
  return rows;
}

/** A per-token count: whole from 100 up, else three significant digits (0.0123, 4.56, 78.9). */
export function formatPerToken(v: number): string {
  return v >= 100 ? formatCount(v) : formatCount(v, v >= 10 ? 1 : v >= 1 ? 2 : 4);
}

/** IPC per PMU, `1.97 (cpu_core) · 0.84 (cpu_atom)`, or one figure on a CPU with one PMU. */
export function formatIpc(ipc: PerTokenSummary['ipc']): string {
  return ipc.map((x) => `${formatCount(x.ipc, 2)}${x.pmu ? ` (${x.pmu})` : ''}`).join(' · ');
}

/**
 * Energy per token with the rails it is read from: `0.35 J/token (VDD_IN, 4,812 mW mean)`, or the
 * rails added up, `0.868 J/token (VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0, 8,676 mW mean)`.
 */
export function formatEnergy(energy: NonNullable<PerTokenSummary['energy']>): string {
  return `${formatCount(energy.joulesPerToken, energy.joulesPerToken >= 10 ? 1 : 3)} J/token (${energy.rails.join(' + ')}, ${formatCount(energy.meanMw)} mW mean)`;
}

/**
 * The decode's cost per generated token (./../analysis/per-token.ts): IPC, each perf count, the
 * board's energy, or why a board that reads power rails has none.
 */
export function perTokenRows(byKey: ReadonlyMap<string, TimeSeries>): Row[] {
  const summary = perTokenSummary((k) => byKey.get(k), [...byKey.keys()]);
  if (!summary || (summary.perToken.length === 0 && summary.energy === null && summary.noEnergy === null)) return [];
  const rows: Row[] = [];
  if (summary.ipc.length > 0) rows.push({ label: 'Instructions per cycle', value: formatIpc(summary.ipc) });
  for (const c of summary.perToken)
    rows.push({ label: `${perfCounterName(c)} per token`, value: formatPerToken(c.perToken) });
  if (summary.energy) rows.push({ label: 'Energy per token', value: formatEnergy(summary.energy) });
  else if (summary.noEnergy) rows.push({ label: 'Energy per token', value: summary.noEnergy });
  rows.push({
    label: 'Over',
    value: `the decode: ${formatCount(summary.tokens)} tokens in ${formatMs(summary.toMs - summary.fromMs)}`,
  });
  return rows;
}
