// A session file from elsewhere whose rows hold values of the wrong type or shape (SQLite keeps
// whatever a crafted file stores: a BLOB label, a sweep plan of strings, a `null` engine-log
// record, gigantic or deeply nested JSON, keys named "__proto__" or "constructor"): it opens with
// those values left out or shown as text, and every report format renders — never a TypeError
// from deep inside a renderer.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPORT_FORMATS, renderReport } from '../../../../../electron/node/session/report-files';
import { readPackedSession, readSession, SessionError } from '../../../../../electron/node/session/session-store';
import { buildCompareModel } from '../../../../../shared/report/compare-model';
import { renderCompareHtml } from '../../../../../shared/report/render-html';
import { renderCompareMarkdown } from '../../../../../shared/report/render-markdown';
import { smallSessionBytes } from '../../../../helpers/hostile-session';
import { PROTOTYPE_KEYS } from '../../../../helpers/prototype-keys';

const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'kvscope-session-values-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A sweep plan and one record of each engine-log kind, so that each has a stored value to replace.
const base = smallSessionBytes(
  dir,
  5,
  `INSERT INTO meta (key, value) VALUES ('sweep', '{"sizes":[512,1024],"failedStarts":[],"interrupted":false}');
  INSERT INTO engine_log (run, kind, record) VALUES
    (1, 'timings', '{"kind":"timings","line":1}'), (1, 'kv', '{"kind":"kv","line":1}'), (1, 'model', '{"kind":"model","line":1}');`,
);

/** Where a crafted value goes: one column of one table (meta: the value of one key). */
const PLACES = [
  'UPDATE runs SET label = ?',
  'UPDATE runs SET id = ?',
  'UPDATE runs SET error = ?',
  'UPDATE runs SET started_at = ?',
  'UPDATE runs SET ended_at = ?',
  'UPDATE runs SET state = ?',
  'UPDATE samples SET t_ms = ?',
  'UPDATE samples SET source = ?',
  'UPDATE samples SET vals = ?',
  'UPDATE events SET t_ms = ?',
  'UPDATE events SET message = ?',
  'UPDATE events SET data = ?',
  "UPDATE engine_log SET record = ? WHERE kind = 'timings'",
  "UPDATE engine_log SET record = ? WHERE kind = 'kv'",
  "UPDATE engine_log SET record = ? WHERE kind = 'model'",
  "UPDATE meta SET value = ? WHERE key = 'sweep'",
  "UPDATE meta SET value = ? WHERE key = 'target'",
  "UPDATE meta SET value = ? WHERE key = 'createdAt'",
  "UPDATE meta SET value = ? WHERE key = 'appVersion'",
];

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
/**
 * A JSON object whose keys are named like Object.prototype's members ("__proto__" stays an own
 * key: the text is written by hand, as a crafted file has it), beside the record's usual fields.
 */
const prototypeKeyed: fc.Arbitrary<string> = fc
  .tuple(
    fc.uniqueArray(fc.constantFrom(...PROTOTYPE_KEYS), { minLength: 1, maxLength: 3 }),
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom('', '"kind":"model","line":1,', '"kind":"timings","line":1,', '"rssBytes":5,"tokens":1,'),
  )
  .map(([keys, v, fields]) => `{${fields}${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`);
/** Values of every SQLite storage class, JSON of any shape, and the extremes. */
const crafted: fc.Arbitrary<string | number | bigint | Buffer | null> = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.jsonValue(),
  fc.string(),
  fc.constantFrom(1e308, -1e308, 0, -1, 2 ** 53 + 1, 9_223_372_036_854_775_807n, null, 'NaN', 'Infinity', '-0'),
  fc.uint8Array({ maxLength: 16 }).map((a) => Buffer.from(a)),
  fc.constantFrom(deep(20_000), `{"a":${deep(20_000)}}`, 'x'.repeat(2_000_000)),
  fc.constantFrom('{"sizes":"x","failedStarts":5}', '{"sizes":[1e308,-1],"failedStarts":[null],"interrupted":"no"}'),
  fc.constantFrom('null', '[1]', '{"kind":"model","extra":null}', '{"kind":"kv","sizeBytes":"x","parts":7}'),
  prototypeKeyed,
) as fc.Arbitrary<string | number | bigint | Buffer | null>;

function craft(place: string, value: unknown): string {
  const db = new Database(base);
  db.pragma('foreign_keys = OFF');
  try {
    db.prepare(place).run(
      typeof value === 'object' && value !== null && !Buffer.isBuffer(value) ? JSON.stringify(value) : value,
    );
  } catch {
    // A value the column's constraint refuses (NOT NULL, UNIQUE) cannot be in a file either.
  }
  const path = join(dir, 'case.kvscope');
  writeFileSync(path, db.serialize());
  db.close();
  return path;
}

describe('crafted values in a session file', () => {
  it('open (or fail with a SessionError) and render in every format', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PLACES), crafted, (place, value) => {
        const path = craft(place, value);
        let session;
        try {
          // As `kvscope report` reads it, and as the app opens it (`kvscope web --open`: samples packed).
          session = readSession(path);
          readPackedSession(path);
        } catch (error) {
          if (!(error instanceof SessionError)) throw error;
          expect(error.message).not.toMatch(/[\n\r]/);
          return;
        }
        for (const format of REPORT_FORMATS) {
          if (format === 'pdf') continue; // the HTML, printed
          const out = renderReport(session, format);
          if (format === 'json' || format === 'perfetto') JSON.parse(out);
          // A stored key named "constructor" read a function as its value: its text in the report.
          if (out.includes('[native code]')) throw new Error(`${format}: a function's text in the report`);
        }
        const compare = buildCompareModel(session, session, { a: 'a.kvscope', b: 'b.kvscope' });
        renderCompareHtml(compare);
        renderCompareMarkdown(compare);
      }),
      { numRuns: 1000 },
    );
  }, 120_000);
});
