// Stamps a shell loop prints into a log captured on a board (`while true; do date; pmap -x $PID;
// sleep 5; done`), read by the importers whose tool prints no time of its own (import-vcgencmd.ts,
// the pmap reader in import-log.ts): date(1)'s default output in the C and en_GB orders (`Tue Feb 23
// 10:01:53 GMT 2021`, `Tue 23 Feb 10:01:53 GMT 2021`), ISO 8601 (`date -Iseconds`, `date '+%F %T'`),
// a time of day (`date +%T`) or seconds since the epoch (`date +%s`); of date(1) in another
// language, its time of day (localDateStamp). Stamps are read as the board's wall clock, their zone
// not applied (as for tegrastats).
import { formatMs } from '../../../shared/format/units';
import type { Read } from './import-reads';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_MS = 86_400_000;

/** `2021-02-23T10:01:53+00:00`, `2021-02-23 10:01:53.123`. */
const ISO_STAMP_RE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(?:Z|[+-]\d{2}(?::?\d{2})?)?(?=\s|$)/;
// date(1): weekday, day and month in either order, the year before or after the time, AM/PM, a zone.
const DATE_STAMP_RE =
  /^(?:[A-Z][a-z]{2},?\s+)?(?:(\d{1,2})\s+([A-Z][a-z]{2})|([A-Z][a-z]{2})\s+(\d{1,2})),?\s+(?:(\d{4})\s+)?(\d{1,2}):(\d{2}):(\d{2})(?:\s*([AaPp][Mm]))?(?:\s+(?:[A-Z]{2,5}|[+-]\d{4}))?(?:\s+(\d{4}))?(?=\s|$)/;
/** `date +%T`. */
const TIME_STAMP_RE = /^(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(?=\s|$)/;
/** `date +%s` (from 2001 on: ten digits). */
const EPOCH_STAMP_RE = /^(\d{10})(?:\.(\d{1,9}))?(?=\s|$)/;

/** A stamp at the start of `t`: its time (a day's ms when only the time of day is known) and the rest. */
export interface Stamp {
  ms: number;
  /** Whether `ms` is a date (ms since the epoch) rather than a time of day. */
  dated: boolean;
  rest: string;
  text: string;
}

const fraction = (digits: string | undefined) => (digits ? Math.round(Number(`0.${digits}`) * 1000) : 0);
/** A time of day's ms from its hour, minute and second digits. */
const dayMs = (h: string | undefined, mi: string | undefined, s: string | undefined) =>
  ((Number(h) * 60 + Number(mi)) * 60 + Number(s)) * 1000;

export function readStamp(t: string): Stamp | null {
  let m = ISO_STAMP_RE.exec(t);
  if (m) {
    const [, y, mo, d, h, mi, s, frac] = m;
    const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) + fraction(frac);
    return { ms, dated: true, rest: t.slice(m[0].length).trim(), text: m[0] };
  }
  if ((m = DATE_STAMP_RE.exec(t))) {
    const month = MONTHS.indexOf((m[2] ?? m[3] ?? '').toLowerCase());
    const day = Number(m[1] ?? m[4]);
    const year = m[5] ?? m[10];
    let hour = Number(m[6]);
    const half = m[9]?.toLowerCase();
    if (half === 'pm' && hour < 12) hour += 12;
    if (half === 'am' && hour === 12) hour = 0;
    if (month >= 0 && year !== undefined) {
      const ms = Date.UTC(Number(year), month, day, hour, Number(m[7]), Number(m[8]));
      return { ms, dated: true, rest: t.slice(m[0].length).trim(), text: m[0] };
    }
  }
  if ((m = TIME_STAMP_RE.exec(t))) {
    const ms = dayMs(m[1], m[2], m[3]) + fraction(m[4]);
    return { ms, dated: false, rest: t.slice(m[0].length).trim(), text: m[0] };
  }
  if ((m = EPOCH_STAMP_RE.exec(t)))
    return { ms: Number(m[1]) * 1000 + fraction(m[2]), dated: true, rest: t.slice(m[0].length).trim(), text: m[0] };
  return localDateStamp(t);
}

/** A time of day among a localized date's words: `09:05:03`, between spaces or commas. */
const LOCAL_TIME_RE = /(?:^|[\s,])(\d{1,2}):(\d{2}):(\d{2})(?=[\s,]|$)/gu;
/** A year of this century or the last, alone or with its sign (`2026`, `2026年`, `2026.`). */
const LOCAL_YEAR_RE = /(?:^|[^\d:])(?:19|20)\d{2}(?:[^\d:]|$)/u;

/**
 * date(1) in another language, a whole line (glibc's LC_TIME): `Mo 7. Dez 09:05:03 UTC 2026` (de),
 * `lun. 07 déc. 2026 09:05:03 UTC` (fr), `pon, 7 gru 2026, 09:05:03 UTC` (pl), `2026年 12月 07日 星期一
 * 09:05:03 UTC` (zh_CN), `Thứ hai, 07 Tháng 12 năm 2026 09:05:03 UTC` (vi). Month names differ by
 * language, so only its time of day is read: the readings keep their spacing, the run its date
 * unknown. A short line with a year and exactly one time, and no `=` (a reading), or null.
 */
function localDateStamp(t: string): Stamp | null {
  if (t.length > 64 || t.includes('=') || t.split(/\s+/).length > 9 || !LOCAL_YEAR_RE.test(t)) return null;
  const times = [...t.matchAll(LOCAL_TIME_RE)];
  const m = times.length === 1 ? times[0] : undefined;
  if (!m || Number(m[1]) > 23) return null;
  return { ms: dayMs(m[1], m[2], m[3]), dated: false, rest: '', text: t };
}

/**
 * A log's readings on its stamps' clock: tMs 0 at the first stamp (or where it puts the readings
 * before it, one interval apart), a reading without a stamp one interval after the one before. A
 * time of day that comes back below the last one by more than half a day is past midnight. A clock
 * that steps back (set by hand, or by NTP on a board without a battery clock) cannot be the time
 * between two readings; the log's order is: the reading goes one interval after the one before,
 * with a note, and the readings after it keep that offset.
 */
export function stampClock(intervalMs: number) {
  let firstClockMs: number | null = null;
  let lastClockMs: number | null = null;
  /** What the clock's steps back (and midnights, for times of day) have added since the first stamp. */
  let shiftMs = 0;
  let dated = true;
  return {
    /** The time of a reading stamped `stamp` (null: none), `lastTMs` the reading's before it; a note into `out`. */
    timeOf(stamp: Stamp | null, lastTMs: number | null, line: number, out: Read[]): number {
      if (stamp === null) return lastTMs === null ? 0 : lastTMs + intervalMs;
      dated &&= stamp.dated;
      firstClockMs ??= stamp.ms - (lastTMs === null ? 0 : lastTMs + intervalMs);
      if (!stamp.dated && lastClockMs !== null && stamp.ms < lastClockMs && lastClockMs - stamp.ms > DAY_MS / 2)
        shiftMs += DAY_MS; // a time of day past midnight
      let tMs = stamp.ms - firstClockMs + shiftMs;
      if (lastTMs !== null && tMs <= lastTMs) {
        const back = (lastClockMs ?? stamp.ms) - stamp.ms;
        const step =
          back === 0 ? `stamp ${stamp.text} came again` : `clock went back ${formatMs(back)} (${stamp.text})`;
        const message = `the log's ${step}: read one interval after the reading before`;
        shiftMs += lastTMs + intervalMs - tMs;
        tMs = lastTMs + intervalMs;
        out.push({ kind: 'note', tMs, line, message });
      }
      lastClockMs = stamp.ms;
      return tMs;
    },
    /** The clock time (ms since the epoch) of tMs 0 when the stamps are dates; null for times of day or none. */
    clockStartMs: (): number | null => (dated ? firstClockMs : null),
  };
}
