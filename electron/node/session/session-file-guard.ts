// A session file is untrusted input: `kvscope report` and `compare` read files mailed in, copied
// off boards, downloaded. SQLite runs whatever the schema says, so a crafted file can make our
// plain `SELECT … FROM samples` run forever (a `samples` VIEW over a recursive CTE), or run code
// on every insert (a trigger). Before the store (session-store.ts) opens a file for reading, this
// guard opens it on its own read-only connection with PRAGMA trusted_schema=OFF and checks that
// its schema is a session's: the application id, real tables (sqlite_master type='table') with
// the columns the reader selects and no generated ones, and no view, trigger or virtual table
// anywhere. Then every query the store makes reads stored rows only — linear in the file.
// Extra plain tables and columns are let through: they compute nothing, and a newer writer
// may add some.
//
// Why no timeout or progress handler: better-sqlite3 exposes neither SQLite's progress handler
// nor sqlite3_interrupt (checked at 12.11), and a query runs synchronously on the calling thread,
// so nothing can stop it from outside. Refusing every schema object that computes (views,
// triggers, virtual tables, generated columns) removes the unbounded work instead, and the
// guard's own queries are bounded (LIMIT on sqlite_master, which alone it scans).
import { SESSION_SCHEMA_VERSION } from './session-migrations';
import { RUN_PREVIEW_TABLE_NAME, RUN_SNAPSHOT_TABLE_NAME } from './run-snapshot';
import { damagedFileText, oneLineSqliteMessage } from './session-errors';
import Database from 'better-sqlite3';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';

/** 'KVSC', as session-store.ts SESSION_APPLICATION_ID (not imported: session-store.ts imports this file). */
const APPLICATION_ID = 0x4b565343;

const V1_RUN_COLUMNS = [
  'seq',
  'id',
  'label',
  'request',
  'engine',
  'analysis_inputs',
  'state',
  'error',
  'started_at',
  'ended_at',
];
const COMMON_TABLES = {
  meta: ['key', 'value'],
  samples: ['id', 'run', 't_ms', 'source', 'vals'],
  events: ['id', 'run', 't_ms', 'kind', 'message', 'data'],
  engine_log: ['id', 'run', 'kind', 'record'],
};

/**
 * The tables of a session and the columns the reader (or the migration) selects from them, per
 * schema version (`PRAGMA user_version`; session-store.ts and session-migrations.ts): schema 1
 * kept each run's summary in `summaries`, schema 2 keeps the run record's outcome and analysis in
 * `runs`. A version not listed here is checked against the newest (the store refuses it anyway).
 */
export const SESSION_TABLE_COLUMNS_BY_VERSION: Readonly<Record<number, Readonly<Record<string, readonly string[]>>>> = {
  1: { ...COMMON_TABLES, runs: V1_RUN_COLUMNS, summaries: ['run', 'summary', 'analysis'] },
  2: { ...COMMON_TABLES, runs: [...V1_RUN_COLUMNS, 'outcome', 'analysis'] },
};

/**
 * Tables a session may have in any schema version, which the reader selects from when present and
 * does without otherwise (run-snapshot.ts reads the rows instead, also when a column is missing):
 * only checked for columns that compute.
 */
const OPTIONAL_TABLES: readonly string[] = [RUN_SNAPSHOT_TABLE_NAME, RUN_PREVIEW_TABLE_NAME];

/** A session has 5 to 7 tables and their indexes (plus SQLite's autoindexes): 20 objects, far fewer than this. */
const MAX_SCHEMA_OBJECTS = 64;

/** A file that is not a session, or a session whose schema was tampered with: one line for the user. */
export class SessionFileRejected extends Error {
  override name = 'SessionFileRejected';
}

interface SchemaRow {
  type: string;
  name: string;
  sql: string | null;
}

/** The reason `db`'s schema is not a session's, or null when it is. */
function schemaProblem(db: Database.Database): string | null {
  if (db.pragma('application_id', { simple: true }) !== APPLICATION_ID) return 'is not a KVScope session';
  const tampered = (what: string) => `is not a KVScope session as KVScope writes them: it ${what} (a tampered file?)`;
  const rows = db
    .prepare('SELECT type, name, sql FROM sqlite_master LIMIT ?')
    .all(MAX_SCHEMA_OBJECTS + 1) as SchemaRow[];
  if (rows.length > MAX_SCHEMA_OBJECTS) return tampered(`has more than ${MAX_SCHEMA_OBJECTS} schema objects`);
  const shown = (name: string) => JSON.stringify(name.slice(0, 40));
  for (const row of rows) {
    if (row.type === 'view' || row.type === 'trigger') return tampered(`contains a ${row.type} (${shown(row.name)})`);
    if (row.type === 'table' && /^\s*CREATE\s+VIRTUAL/i.test(row.sql ?? ''))
      return tampered(`contains a virtual table (${shown(row.name)})`);
  }
  const version = Number(db.pragma('user_version', { simple: true }));
  const tables =
    SESSION_TABLE_COLUMNS_BY_VERSION[version] ?? SESSION_TABLE_COLUMNS_BY_VERSION[SESSION_SCHEMA_VERSION] ?? {};
  const present = (table: string) => rows.some((r) => r.type === 'table' && r.name === table);
  // table_xinfo also lists generated columns (hidden 2 or 3), which compute on every read.
  const columnsOf = (table: string) => db.pragma(`table_xinfo(${table})`) as Array<{ name: string; hidden: number }>;
  const computing = 'has generated or hidden columns in';
  for (const [table, expected] of Object.entries(tables)) {
    if (!present(table)) return tampered(`has no ${table} table`);
    const columns = columnsOf(table);
    if (columns.some((c) => c.hidden !== 0)) return tampered(`${computing} ${table}`);
    const missing = expected.find((name) => !columns.some((c) => c.name === name));
    if (missing !== undefined) return tampered(`has no ${missing} column in ${table}`);
  }
  for (const table of OPTIONAL_TABLES)
    if (present(table) && columnsOf(table).some((c) => c.hidden !== 0)) return tampered(`${computing} ${table}`);
  return null;
}

/** Bytes 18 and 19 of an SQLite file: its write and read format versions, 2 in WAL mode, 1 otherwise. */
const FORMAT_VERSION_OFFSETS = [18, 19] as const;
const ROLLBACK_JOURNAL_FORMAT = 1;

/**
 * A read-only connection to `path`. A session is in WAL mode, and SQLite reads a WAL file only
 * where it can create the -shm beside it: on read-only media (a mounted SD card, a read-only
 * share) even a read-only open fails at the first read with SQLITE_CANTOPEN ("unable to open
 * database file"). Then the file is read into memory, marked as a rollback-journal file and
 * opened there (read-only): the same rows, nothing written anywhere. A -wal beside it that holds
 * rows (a recording that never checkpointed) is refused in one line: those rows would be missed.
 */
export function openReadOnlyDatabase(path: string): Database.Database {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma('application_id', { simple: true }); // the first read: where a WAL file fails
    return db;
  } catch (error) {
    // Any other failure (not SQLite, damaged) is the caller's to say, at its own first query.
    if ((error as { code?: unknown }).code !== 'SQLITE_CANTOPEN') return db;
    db.close();
  }
  const wal = statSync(`${path}-wal`, { throwIfNoEntry: false });
  if (wal !== undefined && wal.size > 0)
    throw new SessionFileRejected(
      `${path}: its folder is read-only and its -wal file holds rows SQLite cannot read there: copy the session and its -wal file to a writable folder`,
    );
  const image = readFileSync(path);
  for (const offset of FORMAT_VERSION_OFFSETS) image[offset] = ROLLBACK_JOURNAL_FORMAT;
  return new Database(image, { readonly: true });
}

/**
 * Throws SessionFileRejected (one line) unless `path` is an SQLite file whose schema is a
 * session's and computes nothing. Opens the file read-only and closes it again; never writes.
 * A missing file passes: the store reports it in its own words.
 */
export function verifySessionFile(path: string): void {
  if (!existsSync(path)) return;
  // SQLite opens a directory and fails at the first read with "disk I/O error".
  const stat = statSync(path);
  if (stat.isDirectory()) throw new SessionFileRejected(`${path} is a directory, not a session`);
  // SQLite reads an empty file as an empty database: "not a session", never why.
  if (stat.size === 0) throw new SessionFileRejected(`${path} is empty (0 bytes), not a KVScope session`);
  // The -wal and -shm SQLite makes beside a WAL file it opens: it removes them when the connection
  // closes, but not after a damaged file failed a read (empty ones were left beside the user's file).
  const sideFiles = [`${path}-wal`, `${path}-shm`];
  const hadSideFiles = sideFiles.map((f) => existsSync(f));
  let db: Database.Database;
  try {
    db = openReadOnlyDatabase(path);
  } catch (error) {
    if (error instanceof SessionFileRejected) throw error;
    throw new SessionFileRejected(`cannot open ${path}: ${(error as Error).message}`);
  }
  let rejected = false;
  try {
    // Functions named in the schema run only if innocuous (sqlite.org/pragma.html#pragma_trusted_schema).
    db.pragma('trusted_schema = OFF');
    const problem = schemaProblem(db);
    if (problem) throw new SessionFileRejected(`${path} ${problem}`);
  } catch (error) {
    if (error instanceof SessionFileRejected) throw error;
    const message = (error as Error).message;
    if (/not a database|file is encrypted/i.test(message))
      throw new SessionFileRejected(`${path} is not a KVScope session (not an SQLite file)`);
    rejected = true;
    const damaged = damagedFileText(path, error);
    if (damaged) throw new SessionFileRejected(damaged);
    throw new SessionFileRejected(`${path}: ${oneLineSqliteMessage(error)}`);
  } finally {
    db.close();
    if (rejected) removeOwnEmptySideFiles(sideFiles, hadSideFiles);
  }
}

/** Removes the -wal/-shm pair this read made (absent before it), when its -wal holds nothing. */
function removeOwnEmptySideFiles([wal, shm]: string[], [hadWal, hadShm]: boolean[]): void {
  if (hadWal || hadShm || wal === undefined || shm === undefined) return;
  if (statSync(wal, { throwIfNoEntry: false })?.size !== 0) return;
  rmSync(wal, { force: true });
  rmSync(shm, { force: true });
}
