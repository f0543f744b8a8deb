// Values that are not numbers with units, for report tables: stored facts of any type and ISO
// timestamps. Deterministic (no locale, no time zone but UTC), like ./units.
import { formatCount, MISSING } from './units';

/** A fact value for tables: numbers grouped, booleans as yes/no, objects as JSON, nothing as MISSING. */
export function formatFact(value: unknown): string {
  if (value === null || value === undefined) return MISSING;
  if (typeof value === 'number') return formatCount(value, Number.isInteger(value) ? 0 : 2);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? MISSING;
}

/** "2026-11-29T09:31:43.351Z" → "2026-11-29 09:31:43 UTC"; anything else as it is. */
export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return MISSING;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}
