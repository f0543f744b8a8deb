// How the session library and the left-runs offer put dates and ages. Pure.

export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

const MINUTE_S = 60;
const HOUR_S = 60 * MINUTE_S;
const DAY_S = 24 * HOUR_S;

/**
 * A left run's age now, from the age the board said when it was listed `listedAtMs` ago: the
 * offer stays on screen for minutes and its confirmation opens later ("3 seconds ago" was read
 * long after). Null stays null.
 */
export function ageSince(ageS: number | null, listedAtMs: number, nowMs: number): number | null {
  return ageS === null ? null : ageS + Math.max(0, nowMs - listedAtMs) / 1000;
}

/** How long ago a left run's spool was last written, in the largest whole unit that reads well. */
export function formatAge(ageS: number | null): string {
  if (ageS === null || !Number.isFinite(ageS)) return 'age unknown';
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (ageS < 90) return plural(Math.round(ageS), 'second');
  if (ageS < 90 * MINUTE_S) return plural(Math.round(ageS / MINUTE_S), 'minute');
  if (ageS < 36 * HOUR_S) return plural(Math.round(ageS / HOUR_S), 'hour');
  return plural(Math.round(ageS / DAY_S), 'day');
}
