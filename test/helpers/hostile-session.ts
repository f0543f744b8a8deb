// Session files for the hostile-input tests and benchmarks: a real small session written by the
// store, and the same file tampered with the ways a crafted file can make SQLite compute
// (a view standing in for a table, a trigger, a virtual table, a generated column).
import { RunRequestSchema } from '../../shared/api/schemas';
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSession } from '../../electron/node/session/session-store';

/** Writes a real session (one finished run, `samples` samples, two events) to `path`. */
export function writeSmallSession(path: string, samples = 50): void {
  const store = createSession(path, { appVersion: 'hostile-test' });
  const run = store.addRun({
    id: 'run-1',
    label: 'demo',
    request: RunRequestSchema.parse({ target: { kind: 'local' }, engine: { kind: 'demo', demo: {} } }),
    state: 'running',
  });
  store.appendEvents(run, [
    { tMs: 0, kind: 'start', message: 'engine started' },
    { tMs: 900, kind: 'info', message: 'done' },
  ]);
  store.appendSamples(
    run,
    Array.from({ length: samples }, (_, i) => ({
      tMs: i * 20,
      source: 'procfs',
      values: { rssBytes: 100_000_000 + i * 32_768, tokens: i },
    })),
  );
  store.updateRun(run, { state: 'done', endedAt: new Date(0).toISOString() });
  store.close();
}

/**
 * The bytes of a small real session (writeSmallSession) in `dir`, as one self-contained file (no
 * WAL beside it: checkpointed, rollback journal), with `extraSql` applied: what fuzz tests mutate.
 */
export function smallSessionBytes(dir: string, samples: number, extraSql = ''): Buffer {
  const path = join(dir, 'base.kvscope');
  writeSmallSession(path, samples);
  const db = new Database(path);
  try {
    db.pragma('journal_mode = DELETE');
    db.exec(extraSql);
  } finally {
    db.close();
  }
  return readFileSync(path);
}

/**
 * SQL that turns a session into a crafted one; each leaves application_id and meta intact. The
 * INSTEAD OF trigger lets the store prepare its INSERT on the view, so the read reaches the view.
 */
export const TAMPERINGS: Readonly<Record<string, string>> = {
  'recursive view as samples': `DROP TABLE samples;
    CREATE VIEW samples AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
    SELECT n AS id, 1 AS run, n AS t_ms, 'procfs' AS source, '{}' AS vals FROM r;
    CREATE TRIGGER samples_insert INSTEAD OF INSERT ON samples BEGIN SELECT 1; END;`,
  'view as runs': `ALTER TABLE runs RENAME TO runs_real;
    CREATE VIEW runs AS SELECT * FROM runs_real, (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r);`,
  trigger: `CREATE TRIGGER grow AFTER INSERT ON samples BEGIN INSERT INTO samples (run, t_ms, source, vals) SELECT run, t_ms, source, vals FROM samples; END;`,
  'virtual table': `CREATE VIRTUAL TABLE notes USING fts5(text);`,
  'generated column': `ALTER TABLE samples ADD COLUMN big BLOB GENERATED ALWAYS AS (zeroblob(1000000000)) VIRTUAL;`,
  'missing column': `DROP TABLE events; CREATE TABLE events (id INTEGER PRIMARY KEY, run INTEGER, t_ms REAL, kind TEXT);`,
};

/** Applies one of TAMPERINGS to the session at `path`. */
export function tamper(path: string, sql: string): void {
  const db = new Database(path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/**
 * Rows a crafted file may hold where the writer never puts them (the schema itself untouched): a
 * BLOB label, a sweep plan of the wrong shape, a `null` engine-log record, sample values that are
 * not numbers, event data nested 10,000 deep.
 */
export const WRONG_TYPED_VALUES = `UPDATE runs SET label = x'3c623e626c6f623c2f623e';
  INSERT OR REPLACE INTO meta (key, value) VALUES ('sweep', '{"sizes":"x","failedStarts":5}');
  INSERT INTO engine_log (run, kind, record) VALUES (1, 'model', 'null');
  UPDATE samples SET vals = '{"rssBytes":[1],"tokens":"x"}' WHERE id = 1;
  UPDATE events SET data = printf('%.*c', 10000, '[') || printf('%.*c', 10000, ']');`;
