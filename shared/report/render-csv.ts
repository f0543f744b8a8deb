// Samples as CSV (RFC 4180: CRLF line ends, a field with a comma, a quote, CR or LF is quoted and
// its quotes doubled). Two layouts:
// - wide (default): one row per sample; columns run, run_label, t_ms, source, then every value key
//   of the session in sorted order (empty where a sample has no such key) — what a spreadsheet wants;
// - long: one row per sample × key (run, run_label, t_ms, source, key, value) — what pandas/R melt to.
// Spreadsheet formula injection (OWASP "CSV injection"): every text cell comes from a session,
// hence from a board, an engine or a file. A text cell that a spreadsheet would run as a formula
// (=, +, -, @, tab or CR first) gets a leading apostrophe, which Excel and LibreOffice show as
// text; so a text "-3" reads '-3, a text and not a number. Numbers (sample values, times, run
// numbers) are written as numbers, never prefixed: a negative number is data, not a formula.
// Besides RFC 4180's comma, quote, CR and LF, a field with a semicolon or a tab is quoted too:
// Excel in a locale whose list separator is ';' splits an unquoted field there, and the part
// after it would be a cell of its own that no apostrophe defuses.
import type { SessionData } from './session-data';

export type CsvLayout = 'wide' | 'long';

const CRLF = '\r\n';

/** One RFC 4180 field, formulas defused. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(fields: ReadonlyArray<string | number | null | undefined>): string {
  return fields.map(csvField).join(',') + CRLF;
}

export function renderSamplesCsv(session: SessionData, layout: CsvLayout = 'wide'): string {
  const parts: string[] = [];
  if (layout === 'long') {
    parts.push(csvRow(['run', 'run_label', 't_ms', 'source', 'key', 'value']));
    for (const run of session.runs) {
      for (const s of run.samples) {
        for (const [key, value] of Object.entries(s.values))
          parts.push(csvRow([run.seq, run.label, s.tMs, s.source, key, value]));
      }
    }
    return parts.join('');
  }
  const keys = new Set<string>();
  for (const run of session.runs) for (const s of run.samples) for (const k of Object.keys(s.values)) keys.add(k);
  const columns = [...keys].sort();
  parts.push(csvRow(['run', 'run_label', 't_ms', 'source', ...columns]));
  for (const run of session.runs) {
    for (const s of run.samples)
      parts.push(csvRow([run.seq, run.label, s.tMs, s.source, ...columns.map((k) => s.values[k])]));
  }
  return parts.join('');
}
