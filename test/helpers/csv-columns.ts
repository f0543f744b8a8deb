// Reading a `kvscope report --format csv` export (shared/report/render-csv.ts: CRLF rows, a header of
// sample keys) by column, for the tests that check the export carries a run's values.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

/** The export at `path` → a reader of one column's non-empty cells, in row order (fails on a missing column). */
export function csvColumns(path: string): (key: string) => string[] {
  const rows = readFileSync(path, 'utf8')
    .trim()
    .split('\r\n')
    .map((l) => l.split(','));
  const header = rows[0] ?? [];
  return (key: string) => {
    const k = header.indexOf(key);
    expect(k, key).toBeGreaterThanOrEqual(0);
    return rows
      .slice(1)
      .map((row) => row[k] ?? '')
      .filter((v) => v !== '');
  };
}
