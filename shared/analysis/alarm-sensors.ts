// Sensors that report an alarm level, not a measured temperature: ONE place for what KVScope knows
// of them. The throttle rule, the alerts, the reports and the dashboard ask here; the series stay
// in the session, the CSV and the JSON as they were read (they are data).
//
// The PMIC of Jetson TX1, TX2, Nano (MAX77620) and AGX Xavier / Xavier NX (MAX20024, the same
// driver) has no temperature sensor: only two junction-temperature comparators, TJALRM1 and
// TJALRM2. Its Linux thermal driver (drivers/thermal/max77620_thermal.c, upstream since 4.9,
// ec4664b3fd6d "thermal: max77620: Add thermal driver for reporting junction temp", 2016; the same
// file in torvalds/linux today) reads the STATLBT register and reports
//     TJALRM2 set  → 140 °C   (MAX77620_TJALARM2_TEMP 140000)
//     TJALRM1 set  → 120 °C   (MAX77620_TJALARM1_TEMP 120000)
//     neither      → 100 °C   (MAX77620_NORMAL_OPERATING_TEMP 100000)
// and says why in its comment: "The actual temperature of PMIC die is not available from PMIC. PMIC
// only tells the status if it has crossed or not the threshold level of 120degC or 140degC. If
// threshold has not been crossed then assume die temperature as 100degC". NVIDIA's earlier
// downstream driver (2014–2015, "Driver for Maxim 77620 thermal") reports the same two alarms as
// 125 °C and 145 °C, and the same 100 °C otherwise. NVIDIA's answer about `PMIC@100C` on its forum
// (forums.developer.nvidia.com/t/121300) says the same: "There is no register to read the actual
// PMIC die temperature".
//
// The L4T device trees name the zone `PMIC-Die` (one trip, `hot-die`, active at 120 °C; the old
// mainline binding's example: `hot` 120 °C, `critical` 140 °C), and tegrastats prints it as
// `PMIC@100C`. Later builds print `PMIC@50C` instead (a TX2 NX on L4T 32.6.1, a Nano on JetPack
// 4.6.1, Xavier NX on JetPack 4.6 and 5.1.2: test/fixtures/tegrastats/tx2nx-jp4.6,
// xavier-nx-jp4-jp5.1-nano-jp4.6, xavier-nx-and-nano-jp4.6); the source of that driver was not
// found, so nothing here depends on the nominal value. A reading is an alarm when it is at or above
// the lowest level any version of the driver reports for one (120 °C), the second alarm from
// 140 °C; anything below is "no alarm", whatever the number (50, 100). No Orin capture here prints
// a PMIC temperature.
import { seriesOf } from '../collectors/registry';
import { seriesName } from '../collectors/series-names';
import { formatTempC } from '../format/units';
import type { TimeSeries } from './time-series';

/** What the sensor is, in the words every surface uses. */
const PMIC_DIE = 'PMIC die-temperature';
export const PMIC_ALARM_NAME = `${PMIC_DIE} alarm`;

/** The die temperature each alarm stands for, °C: TJALRM1 and TJALRM2 (the driver's 120 and 140). */
export const PMIC_ALARM_LEVELS_C = [120, 140] as const;

export type AlarmNumber = 1 | 2;

/** The series key of each way a PMIC die zone is read: tegrastats' `PMIC@…`, the procfs sampler's zone type (a repeat numbered `#2`). */
const ALARM_READING_KEY = /^(?:tegra\.temp\.PMIC|temp\.PMIC-Die(?:#\d+)?)\.C$/i;
/** Its trip points as the board sysfs collector reads them (trip.<zone type>.<index>.C): the alarm levels again. */
const ALARM_TRIP_KEY = /^trip\.PMIC-Die\.\d+\.C$/i;

/** True for a thermal zone whose `temp` is an alarm level (the probe's zones, by type). */
export function isAlarmLevelZone(zoneType: string | null | undefined): boolean {
  return typeof zoneType === 'string' && /^PMIC-Die$/i.test(zoneType);
}

/** True for a sample key whose values are an alarm level, not a temperature. */
export function isAlarmLevelKey(key: string): boolean {
  return ALARM_READING_KEY.test(key);
}

/** True for any series of an alarm-level sensor: its readings and its trip points (never a temperature scale's). */
export function isAlarmSensorSeries(key: string): boolean {
  return ALARM_READING_KEY.test(key) || ALARM_TRIP_KEY.test(key);
}

/** The alarm a reading says is raised: 0 for none (the driver's nominal value, 100 °C or 50 °C). */
export function alarmOfReading(readingC: number): AlarmNumber | 0 {
  if (!Number.isFinite(readingC)) return 0;
  if (readingC >= PMIC_ALARM_LEVELS_C[1]) return 2;
  if (readingC >= PMIC_ALARM_LEVELS_C[0]) return 1;
  return 0;
}

/** "alarm 1 (the die passed 120 °C)". */
export function alarmWords(alarm: AlarmNumber): string {
  return `alarm ${alarm} (the die passed ${PMIC_ALARM_LEVELS_C[alarm - 1]} °C)`;
}

/** "PMIC die-temperature alarm 1 (the die passed 120 °C)". */
export function pmicAlarmWords(alarm: AlarmNumber): string {
  return `${PMIC_DIE} ${alarmWords(alarm)}`;
}

/** A reading for people: "no alarm" or "alarm 1 (the die passed 120 °C)"; never a temperature. */
export function alarmReadingWords(readingC: number | null | undefined): string {
  if (typeof readingC !== 'number' || !Number.isFinite(readingC)) return '–';
  const alarm = alarmOfReading(readingC);
  return alarm === 0 ? 'no alarm' : alarmWords(alarm);
}

/** A reading in a readout: "no alarm, reads 100.0 °C" — the alarm it says, then the number the driver gave. */
export function alarmReadingText(readingC: number): string {
  return `${alarmReadingWords(readingC)}, reads ${formatTempC(readingC)}`;
}

/** A stretch of readings at an alarm level. */
export interface AlarmEpisode {
  /** The series it was read from. */
  key: string;
  /** The first reading at an alarm level. */
  startMs: number;
  /** The first reading back below the alarm levels, else the last reading. */
  endMs: number;
  /** False when the alarm was still raised at the series' last reading. */
  cleared: boolean;
  /** The highest alarm reached in it. */
  alarm: AlarmNumber;
}

/** The alarm episodes of one alarm-level series, in time order (as throttle intervals: to the first reading that is not). */
export function alarmEpisodes(key: string, series: TimeSeries): AlarmEpisode[] {
  const out: AlarmEpisode[] = [];
  let open: AlarmEpisode | null = null;
  for (let i = 0; i < series.length; i++) {
    const t = series.t[i] ?? NaN;
    const v = series.v[i] ?? NaN;
    if (!Number.isFinite(t) || !Number.isFinite(v)) continue;
    const alarm = alarmOfReading(v);
    if (alarm !== 0) {
      if (!open) open = { key, startMs: t, endMs: t, cleared: false, alarm };
      open.endMs = t;
      if (alarm > open.alarm) open.alarm = alarm;
    } else if (open) {
      out.push({ ...open, endMs: t, cleared: true });
      open = null;
    }
  }
  if (open) out.push(open);
  return out;
}

/** Every alarm episode of the alarm-level series among `keys`, in time order. */
export function alarmEpisodesOf(get: (key: string) => TimeSeries | undefined, keys: Iterable<string>): AlarmEpisode[] {
  const out: AlarmEpisode[] = [];
  for (const key of keys) {
    const series = isAlarmLevelKey(key) ? get(key) : undefined;
    if (series) out.push(...alarmEpisodes(key, series));
  }
  return out.sort((a, b) => a.startMs - b.startMs);
}

/** An episode as an event's message: what fired, for how long, and the series it was read on (by its name). */
export function alarmEpisodeMessage(e: AlarmEpisode): string {
  const seconds = ((e.endMs - e.startMs) / 1000).toFixed(1);
  const how = e.cleared ? `cleared after ${seconds} s` : `still raised at the last reading, ${seconds} s on`;
  const series = seriesOf(e.key);
  return `${pmicAlarmWords(e.alarm)}: ${how}, read on ${series ? seriesName(series) : e.key}`;
}

/** The alarm-level series a run read and their alarm episodes (`profile --json` `alarms`). */
export interface AlarmSummary {
  /** The alarm-level series in the samples (read, whether an alarm fired or not). */
  keys: string[];
  episodes: AlarmEpisode[];
}

/** AlarmSummary of a run's samples; null when it read no alarm-level sensor. Only the alarm keys are gathered. */
export function summarizeAlarms(
  samples: ReadonlyArray<{ tMs: number; values: Record<string, number | null> }>,
): AlarmSummary | null {
  const isAlarm = new Map<string, boolean>();
  const byKey = new Map<string, { t: number[]; v: number[]; length: number }>();
  const sorted = samples.filter((s) => Number.isFinite(s.tMs)).sort((a, b) => a.tMs - b.tMs);
  for (const s of sorted)
    for (const [k, x] of Object.entries(s.values)) {
      let alarm = isAlarm.get(k);
      if (alarm === undefined) isAlarm.set(k, (alarm = isAlarmLevelKey(k)));
      if (!alarm || typeof x !== 'number' || !Number.isFinite(x)) continue;
      let series = byKey.get(k);
      if (!series) byKey.set(k, (series = { t: [], v: [], length: 0 }));
      series.t.push(s.tMs);
      series.v.push(x);
      series.length += 1;
    }
  if (byKey.size === 0) return null;
  const keys = [...byKey.keys()].sort();
  return { keys, episodes: alarmEpisodesOf((k) => byKey.get(k), keys) };
}
