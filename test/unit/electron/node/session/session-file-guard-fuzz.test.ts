// Fuzz: a real small session (written by the store) with its schema and rows mutated in SQL, or
// its bytes overwritten, then read as `kvscope report` reads it. Every case opens or ends in a
// one-line error (SessionError, SessionFileRejected, or SQLite's own for a corrupt page) — never
// another exception, never a hang (a view or trigger standing in is refused before any query).
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionFileRejected } from '../../../../../electron/node/session/session-file-guard';
import { readSession, SessionError } from '../../../../../electron/node/session/session-store';
import { smallSessionBytes, TAMPERINGS } from '../../../../helpers/hostile-session';

/** 10,000 session files in all: half mutated in SQL, half in bytes. */
const RUNS = 5_000;
// 20,000 files written and opened: in memory (tmpfs) where there is one, as disk syncs dominate otherwise.
const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'kvscope-session-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = smallSessionBytes(dir, 5);

/** Mutations in SQL: the crafted-file kinds, plus rows and schema changes a damaged file may hold. */
const SQL_MUTATIONS = [
  ...Object.values(TAMPERINGS),
  "UPDATE samples SET vals = 'not json'",
  "UPDATE samples SET vals = '[1,2,3]', t_ms = 'x'",
  "UPDATE runs SET request = '{', state = 'weird', engine = '\"str\"'",
  'UPDATE runs SET seq = seq + 1000',
  "UPDATE meta SET value = 'null' WHERE key = 'format'",
  "DELETE FROM meta WHERE key = 'format'",
  "INSERT INTO summaries (run, summary, analysis) VALUES (1, '{\"x\":1}', '[]')",
  "INSERT INTO events (run, t_ms, kind, message, data) VALUES (1, 5, 'kind?', NULL, '{')",
  "INSERT INTO engine_log (run, kind, record) VALUES (1, 'kv', 'nope')",
  'DELETE FROM runs',
  'DROP TABLE summaries',
  'ALTER TABLE samples RENAME COLUMN vals TO v',
  'ALTER TABLE runs ADD COLUMN extra TEXT',
  'CREATE TABLE extra (x)',
  'PRAGMA user_version = 99',
  'PRAGMA application_id = 1',
];

const sqlMutated = fc.array(fc.constantFrom(...SQL_MUTATIONS), { minLength: 1, maxLength: 3 }).map((statements) => {
  const db = new Database(base);
  for (const sql of statements) {
    try {
      db.exec(sql);
    } catch {
      // A mutation that does not apply to this state (a table already dropped) is skipped.
    }
  }
  const out = db.serialize();
  db.close();
  return out;
});

const byteMutated = fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 16 }).map((edits) => {
  const out = Buffer.from(base);
  for (const [at, value] of edits) out[at % out.length] = value;
  return out;
});

/** What `kvscope report` does with a file: read it whole. Returns 'ok' or the error's name. */
function readOutcome(bytes: Buffer, path: string): string {
  writeFileSync(path, bytes);
  try {
    readSession(path);
    return 'ok';
  } catch (error) {
    const known =
      error instanceof SessionError || error instanceof SessionFileRejected || error instanceof Database.SqliteError;
    if (!known) throw error;
    expect(error.message).not.toMatch(/[\n\r]/);
    return error.name;
  } finally {
    rmSync(path, { force: true });
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
  }
}

describe('session file fuzz (fast-check)', () => {
  it(`${2 * RUNS} sessions, ${RUNS} mutated in SQL and ${RUNS} in bytes: they open or fail in one line`, () => {
    const outcomes = new Map<string, number>();
    const path = join(dir, 'case.kvscope');
    for (const arbitrary of [sqlMutated, byteMutated]) {
      fc.assert(
        fc.property(arbitrary, (bytes) => {
          const outcome = readOutcome(bytes, path);
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }),
        { numRuns: RUNS },
      );
    }
    expect(outcomes.get('ok')).toBeGreaterThan(0);
    expect(outcomes.get('SessionFileRejected')).toBeGreaterThan(0);
    // 10,000 files written, verified and read: 11 s on a loaded 2-core VM; the default 5 s is for unit tests.
  }, 180_000);
});
