// A session file: one SQLite database (better-sqlite3) holding the runs of a profiling session,
// their samples, events and engine-log records, and each finished run's summary.
//
// Crash safety: WAL journal with synchronous=NORMAL — a committed transaction survives the death
// of the writing process (SIGKILL, OOM kill, a crash); only an OS crash or power loss can lose
// the last few commits, never corrupt the file. Appends are queued and committed together, every
// FLUSH_EVERY_MS or FLUSH_EVERY_SAMPLES samples, whichever comes first, so a crash loses at most
// one batch; events (an OOM kill, a disconnect) are committed at once. A file left by a killed
// writer opens as it is (SQLite replays the WAL): `openSession`/`readSession` need nothing else.
//
// Samples are stored one row each with their values as JSON text. Measured against a long
// format (one row per sample × key, keys interned; 100k samples of a demo run, 1 procfs sample per
// 4 engine samples, 2-core x86 VM): JSON text appends 138k samples/s vs 70k, reads 100k in
// 0.36 s vs 1.8 s, at 1.37 MB vs 1.0 MB per 10k samples; SQLite's JSONB was slower to read
// (0.66 s) for a 6 % smaller file. The stream is open-ended (collectors add keys), which JSON
// keeps trivial. bench/session.bench.ts measures the store as built.
//
// Each run is stored as its run record (shared/run/run-record.ts): the request, the engine, the
// analysis inputs, samples, events and engine-log records as they arrive, and at the end its
// outcome and final analysis. Nothing else derived is stored: summaries come from the record.
//
// One thing is stored twice: a finished run's samples, once more packed in one JSON text
// (run-snapshot.ts, the optional table run_packed), which openSession sends as it is; the rows
// stay the record.
//
// Schema versions (PRAGMA user_version): 1 = runs + summaries (the `profile --json` summary of
// each finished run); 2 = this layout, runs.outcome and runs.analysis instead of summaries.
// Older files are migrated when opened (electron/node/session/session-migrations.ts). A file is
// recognised by PRAGMA application_id = SESSION_APPLICATION_ID and meta.format = 'kvscope-session'.
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { keepPreviousSession } from './session-backup';
import { packSamples, type PackedSamples, type StoredPackedSessionData } from '../../../shared/api/packed-samples';
import type { RunAnalysis, RunEvent, RunRequest, RunState, Sample } from '../../../shared/api/schemas';
import type { SweepPlan } from '../../../shared/analysis/sweep-summary';
import type { AnalysisInputs, RunEngine, RunOutcome } from '../../../shared/run/run-record';
import type { TargetFacts } from '../../../shared/run/target-facts';
import { SESSION_FORMAT, type SessionData, type SessionMeta } from '../../../shared/report/session-data';
import { redact, redactJson } from '../util/redact';
import { openReadOnlyDatabase, verifySessionFile } from './session-file-guard';
import { migrateSession, SESSION_SCHEMA_VERSION } from './session-migrations';
import { scrubSecrets } from './scrub';
import { describeCreateError, describeOpenError, SessionError } from './session-errors';
import {
  packRunSamples,
  readPackedSessionData,
  readSessionData,
  readSessionHead as readHeadData,
} from './session-read';
import { RUN_PREVIEW_TABLE, RUN_SNAPSHOT_TABLE, writeRunSnapshot } from './run-snapshot';

export { SessionError };

export { SESSION_SCHEMA_VERSION };
/** What a bulk writer's file is called until close() renames it onto its path (CreateSessionOptions.bulk). */
export const BULK_SUFFIX = '.importing';

/** 'KVSC' — lets `file`/readers tell a session from any other SQLite database. */
export const SESSION_APPLICATION_ID = 0x4b565343;
/** A crash loses at most this much recording; 4 commits a second cost nothing measurable. */
export const FLUSH_EVERY_MS = 250;
/** …or this many samples, so a fast sampler does not build a large batch in 250 ms. */
export const FLUSH_EVERY_SAMPLES = 500;

const SCHEMA = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL                      -- JSON
);
CREATE TABLE runs (
  seq             INTEGER PRIMARY KEY,     -- order in the session, from 1
  id              TEXT NOT NULL UNIQUE,
  label           TEXT NOT NULL,
  request         TEXT NOT NULL,           -- RunRequest JSON, secret-like fields scrubbed
  engine          TEXT,                    -- StoredEngine JSON, once the engine is prepared
  analysis_inputs TEXT,                    -- AnalysisInputs JSON: what a recompute needs
  state           TEXT NOT NULL,
  error           TEXT,
  started_at      TEXT NOT NULL,
  ended_at        TEXT,
  outcome         TEXT,                    -- RunOutcome JSON, once the run ended
  analysis        TEXT                     -- RunAnalysis JSON, the final one
);
CREATE TABLE samples (
  id     INTEGER PRIMARY KEY,              -- append order
  run    INTEGER NOT NULL REFERENCES runs(seq),
  t_ms   REAL NOT NULL,
  source TEXT NOT NULL,
  vals   TEXT NOT NULL                     -- {"rssBytes": 123, ...} JSON
);
CREATE INDEX samples_by_run ON samples(run, id);
CREATE TABLE events (
  id      INTEGER PRIMARY KEY,
  run     INTEGER NOT NULL REFERENCES runs(seq),
  t_ms    REAL NOT NULL,
  kind    TEXT NOT NULL,
  message TEXT,
  data    TEXT                             -- JSON or NULL
);
CREATE INDEX events_by_run ON events(run, id);
CREATE TABLE engine_log (
  id     INTEGER PRIMARY KEY,
  run    INTEGER NOT NULL REFERENCES runs(seq),
  kind   TEXT NOT NULL,                    -- timings | kv | model
  record TEXT NOT NULL                     -- the parser's record, JSON
);
CREATE INDEX engine_log_by_run ON engine_log(run, id);
${RUN_SNAPSHOT_TABLE}`;

export interface CreateSessionOptions {
  appVersion: string;
  target?: TargetFacts | null;
  /**
   * One writer that fills a new file at once and then closes it (`kvscope import`): the file is
   * written under a temporary name beside `path` (BULK_SUFFIX) and renamed onto it by close(), so a
   * writer that dies leaves no half session at `path`; meanwhile its rollback journal is kept in
   * memory (no WAL: every page written once, not into the WAL and again at the checkpoint) and its
   * pages are 64 KiB (fewer, for rows of ~2 KB). close() leaves it in WAL mode like any session.
   * An 8-hour tegrastats import (bench/import.bench.ts) took ~20 % less.
   */
  bulk?: boolean;
  /** Called after each commit with the totals stored so far (progress, tests). */
  onCommit?: (totals: CommitTotals) => void;
}

export interface OpenSessionOptions {
  onCommit?: (totals: CommitTotals) => void;
}

export interface CommitTotals {
  samples: number;
  events: number;
  engineLog: number;
}

export interface NewRun {
  id: string;
  label: string;
  request: RunRequest;
  state: RunState;
  startedAt?: string;
}

export interface RunUpdate {
  label?: string;
  state?: RunState;
  error?: string | null;
  endedAt?: string | null;
  engine?: RunEngine | null;
  analysisInputs?: AnalysisInputs | null;
}

/** How a run ended: written once, with whatever is still queued committed first. */
export interface RunEnd {
  label: string;
  state: RunState;
  error: string | null;
  endedAt: string;
  outcome: RunOutcome;
  analysis: RunAnalysis;
}

type Db = Database.Database;

const json = (value: unknown) => redactJson(value);
const text = (value: string) => redact(value);

/** Checks that an open database is a session this version reads (any older schema); returns its schema version. */
function checkSession(db: Db, path: string): number {
  let appId: number;
  let version: number;
  try {
    appId = db.pragma('application_id', { simple: true }) as number;
    version = db.pragma('user_version', { simple: true }) as number;
  } catch (error) {
    throw describeOpenError(path, error);
  }
  if (appId !== SESSION_APPLICATION_ID) throw new SessionError(`${path} is not a KVScope session`);
  if (version > SESSION_SCHEMA_VERSION) {
    throw new SessionError(
      `${path} was written by a newer KVScope (session schema ${version}; this one reads up to ${SESSION_SCHEMA_VERSION})`,
    );
  }
  if (version < 1) throw new SessionError(`${path} is an incomplete KVScope session (no schema)`);
  return version;
}

/** SQLite's file header: its first 16 bytes, and where it keeps PRAGMA application_id (sqlite.org/fileformat.html). */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const APPLICATION_ID_OFFSET = 68;

/** The application id in the file's header; null when the header is not an SQLite database's (or not whole). */
function headerApplicationId(path: string): number | null {
  const head = Buffer.alloc(APPLICATION_ID_OFFSET + 4);
  const fd = openSync(path, 'r');
  try {
    if (readSync(fd, head, 0, head.length, 0) < head.length) return null;
  } finally {
    closeSync(fd);
  }
  return head.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER) ? head.readUInt32BE(APPLICATION_ID_OFFSET) : null;
}

/**
 * True when `path` exists and is a KVScope session (any schema version). Read from the file's
 * header when it says so: a read-only SQLite open of a closed session leaves an empty -wal and
 * -shm beside it (a read-only connection cannot remove them), and this is asked of the user's
 * files before every report and --out. SQLite answers otherwise (a session whose writer died
 * before its first checkpoint has its header in the -wal only).
 */
export function isSessionFile(path: string): boolean {
  if (!existsSync(path) || statSync(path).isDirectory()) return false;
  try {
    if (headerApplicationId(path) === SESSION_APPLICATION_ID) return true;
  } catch {
    return false; // unreadable: SQLite could not read it either
  }
  let db: Db | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    return db.pragma('application_id', { simple: true }) === SESSION_APPLICATION_ID;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

export class SessionStore {
  private pendingSamples: Array<[number, Sample]> = [];
  private pendingEvents: Array<[number, RunEvent]> = [];
  private pendingLog: Array<[number, string, unknown]> = [];
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly totals: CommitTotals = { samples: 0, events: 0, engineLog: 0 };
  /** The first error of a background commit (disk full…), reported again by flush() and close(). */
  error: Error | null = null;
  /** Where create() moved the session that was at this path before, or null (there was none). */
  previousKeptAs: string | null = null;
  /** A bulk writer's file until close() renames it onto `path` (CreateSessionOptions.bulk); else null. */
  private bulkFile: string | null = null;

  private readonly insertSample;
  private readonly insertEvent;
  private readonly insertLog;

  private constructor(
    private readonly db: Db,
    readonly path: string,
    private readonly onCommit?: (totals: CommitTotals) => void,
    /** The file's schema version when it was opened (older files are migrated on open). */
    private readonly openedAs: number = SESSION_SCHEMA_VERSION,
  ) {
    this.insertSample = db.prepare('INSERT INTO samples (run, t_ms, source, vals) VALUES (?, ?, ?, ?)');
    this.insertEvent = db.prepare('INSERT INTO events (run, t_ms, kind, message, data) VALUES (?, ?, ?, ?, ?)');
    this.insertLog = db.prepare('INSERT INTO engine_log (run, kind, record) VALUES (?, ?, ?)');
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    this.totals = { samples: count('samples'), events: count('events'), engineLog: count('engine_log') };
  }

  /**
   * A new session at `path` (':memory:' for one that lives only in this process). An existing
   * session there is kept aside under a numbered name (session-backup.ts; `previousKeptAs` says
   * where); any other existing file is left alone and refused.
   */
  static create(path: string, options: CreateSessionOptions): SessionStore {
    let previousKeptAs: string | null = null;
    if (path !== ':memory:' && existsSync(path)) {
      if (statSync(path).isDirectory()) throw new SessionError(`${path} is a directory`);
      if (!isSessionFile(path))
        throw new SessionError(`${path} exists and is not a KVScope session: not overwriting it`);
      previousKeptAs = keepPreviousSession(path);
    }
    const bulkFile = options.bulk && path !== ':memory:' ? `${path}${BULK_SUFFIX}-${process.pid}` : null;
    let db: Db;
    try {
      if (bulkFile !== null) rmSync(bulkFile, { force: true });
      db = new Database(bulkFile ?? path);
      if (bulkFile !== null) {
        db.pragma('page_size = 65536');
        db.pragma('journal_mode = MEMORY');
      } else db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
    } catch (error) {
      throw describeCreateError(path, error);
    }
    const meta: Omit<SessionMeta, 'schemaVersion' | 'sweep'> = {
      format: SESSION_FORMAT,
      appVersion: options.appVersion,
      createdAt: new Date().toISOString(),
      target: options.target ? scrubSecrets(options.target) : null,
    };
    db.transaction(() => {
      db.exec(SCHEMA);
      const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      for (const [k, v] of Object.entries(meta)) put.run(k, json(v));
      // Header fields, written in the same transaction: a half-created file has neither.
      db.pragma(`application_id = ${SESSION_APPLICATION_ID}`);
      db.pragma(`user_version = ${SESSION_SCHEMA_VERSION}`);
    })();
    const store = new SessionStore(db, path, options.onCommit);
    store.previousKeptAs = previousKeptAs;
    store.bulkFile = bulkFile;
    return store;
  }

  /** An existing session, also one whose writer was killed; new runs can be added to it. */
  static open(path: string, options: OpenSessionOptions = {}): SessionStore {
    if (!existsSync(path)) throw new SessionError(`${path}: no such file`);
    let db: Db;
    try {
      db = new Database(path, { fileMustExist: true });
    } catch (error) {
      throw describeOpenError(path, error);
    }
    let openedAs: number;
    try {
      openedAs = checkSession(db, path);
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      migrateSession(db, openedAs);
    } catch (error) {
      db.close();
      throw error;
    }
    return new SessionStore(db, path, options.onCommit, openedAs);
  }

  /** Read-only access, for files on read-only media or owned by someone else. */
  static openReadOnly(path: string): SessionStore {
    if (!existsSync(path)) throw new SessionError(`${path}: no such file`);
    let db: Db;
    let openedAs: number;
    try {
      db = openReadOnlyDatabase(path);
      openedAs = checkSession(db, path);
      if (openedAs < SESSION_SCHEMA_VERSION) {
        // An older file we may not write: migrate a copy in memory, leave the file as it is. The
        // copy says "WAL" in its header (bytes 18-19 = 2), which a database in memory cannot be:
        // set them to the rollback journal (1): the file format read/write versions.
        const image = db.serialize();
        image[18] = 1;
        image[19] = 1;
        const copy = new Database(image);
        db.close();
        db = copy;
        migrateSession(db, openedAs);
      }
    } catch (error) {
      throw error instanceof SessionError ? error : describeOpenError(path, error);
    }
    return new SessionStore(db, path, undefined, openedAs);
  }

  /** Target facts of the session (every run's summary shows them). */
  setTarget(target: TargetFacts | null): void {
    this.putMeta('target', target ? scrubSecrets(target) : null);
  }

  /** The plan of the sweep this session records (shared/analysis/sweep-summary.ts). */
  setSweep(plan: SweepPlan | null): void {
    this.putMeta('sweep', plan);
  }

  private putMeta(key: string, value: unknown) {
    this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, json(value));
  }

  /** Adds a run (committed at once) and returns its seq. */
  addRun(run: NewRun): number {
    const info = this.db
      .prepare('INSERT INTO runs (id, label, request, state, started_at) VALUES (?, ?, ?, ?, ?)')
      .run(
        run.id,
        text(run.label),
        json(scrubSecrets(run.request)),
        run.state,
        run.startedAt ?? new Date().toISOString(),
      );
    return Number(info.lastInsertRowid);
  }

  updateRun(seq: number, update: RunUpdate): void {
    const sets: string[] = [];
    const args: unknown[] = [];
    const set = (column: string, value: unknown) => {
      sets.push(`${column} = ?`);
      args.push(value);
    };
    if (update.label !== undefined) set('label', text(update.label));
    if (update.state !== undefined) set('state', update.state);
    if (update.error !== undefined) set('error', update.error === null ? null : text(update.error));
    if (update.endedAt !== undefined) set('ended_at', update.endedAt);
    if (update.engine !== undefined) set('engine', update.engine === null ? null : json(scrubSecrets(update.engine)));
    if (update.analysisInputs !== undefined)
      set('analysis_inputs', update.analysisInputs === null ? null : json(update.analysisInputs));
    if (sets.length === 0) return;
    this.db.prepare(`UPDATE runs SET ${sets.join(', ')} WHERE seq = ?`).run(...args, seq);
  }

  /** Queues samples; committed within FLUSH_EVERY_MS, or now once FLUSH_EVERY_SAMPLES are queued. */
  appendSamples(run: number, samples: readonly Sample[]): void {
    this.assertOpen();
    for (const s of samples) this.pendingSamples.push([run, s]);
    if (this.pendingSamples.length >= FLUSH_EVERY_SAMPLES) this.flushQuietly();
    else this.arm();
  }

  /** Queues events and commits them (with everything queued before) at once. */
  appendEvents(run: number, events: readonly RunEvent[]): void {
    this.assertOpen();
    for (const e of events) this.pendingEvents.push([run, e]);
    this.flushQuietly();
  }

  /** Queues records of the engine's own log (timings, kv, model). */
  appendEngineLog(run: number, kind: 'timings' | 'kv' | 'model', records: readonly unknown[]): void {
    this.assertOpen();
    for (const r of records) this.pendingLog.push([run, kind, r]);
    this.arm();
  }

  /**
   * Stores how a run ended: its outcome and final analysis (commits everything queued first), then
   * the snapshot of its samples (run-snapshot.ts).
   */
  finishRun(run: number, end: RunEnd, appended?: readonly Sample[]): void {
    this.flush();
    this.db
      .prepare('UPDATE runs SET label = ?, state = ?, error = ?, ended_at = ?, outcome = ?, analysis = ? WHERE seq = ?')
      .run(
        text(end.label),
        end.state,
        end.error === null ? null : text(end.error),
        end.endedAt,
        json(end.outcome),
        json(end.analysis),
        run,
      );
    try {
      this.db.transaction(() => {
        // A file written before the tables existed gains them here.
        this.db.exec(RUN_SNAPSHOT_TABLE);
        this.db.exec(RUN_PREVIEW_TABLE);
        writeRunSnapshot(this.db, run, (rowCount) => this.snapshotOf(run, rowCount, appended));
      })();
    } catch {
      // The snapshot is a copy, for speed: without it the run is read from its rows (a damaged
      // sample row then says so when the run is opened), and the end stored above stands.
    }
  }

  /**
   * The run's samples packed for its snapshot: from `appended` when the caller appended the run's
   * every sample itself (an import holds them all: reading 28,800 rows back and parsing their JSON
   * was a quarter of an 8-hour import, bench/import.bench.ts), else from the rows. A count that
   * differs from the rows' means they are not the same samples: the rows decide.
   */
  private snapshotOf(run: number, rowCount: number, appended: readonly Sample[] | undefined): PackedSamples {
    return appended?.length === rowCount ? packSamples(appended) : packRunSamples(this.db, this.path, run);
  }

  /** Commits everything queued, in one transaction. Throws what a background commit hit. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.error) throw this.error;
    if (this.pendingSamples.length === 0 && this.pendingEvents.length === 0 && this.pendingLog.length === 0) return;
    const samples = this.pendingSamples;
    const events = this.pendingEvents;
    const log = this.pendingLog;
    this.pendingSamples = [];
    this.pendingEvents = [];
    this.pendingLog = [];
    try {
      this.db.transaction(() => {
        for (const [run, s] of samples) this.insertSample.run(run, s.tMs, s.source, JSON.stringify(s.values));
        for (const [run, e] of events)
          this.insertEvent.run(
            run,
            e.tMs,
            e.kind,
            e.message === undefined ? null : text(e.message),
            e.data === undefined ? null : json(e.data),
          );
        for (const [run, kind, r] of log) this.insertLog.run(run, kind, json(r));
      })();
    } catch (error) {
      this.error = error instanceof Error ? error : new Error(String(error));
      throw this.error;
    }
    this.totals.samples += samples.length;
    this.totals.events += events.length;
    this.totals.engineLog += log.length;
    this.onCommit?.({ ...this.totals });
  }

  /**
   * Commits and closes; the WAL is checkpointed into the file. Idempotent. A bulk writer's file
   * (CreateSessionOptions.bulk) is then in WAL mode and renamed onto `path`.
   */
  close(): void {
    if (this.closed) return;
    try {
      this.flush();
      if (this.bulkFile !== null) this.db.pragma('journal_mode = WAL');
    } finally {
      this.closed = true;
      this.db.close();
    }
    if (this.bulkFile !== null) renameSync(this.bulkFile, this.path);
  }

  /** A bulk writer that failed: closes without committing what is queued and removes its file (nothing lands at `path`). */
  discard(): void {
    if (!this.closed) {
      this.closed = true;
      this.db.close();
    }
    if (this.bulkFile !== null) rmSync(this.bulkFile, { force: true });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Everything in the file (committed data only; queued appends are committed first). */
  read(): SessionData {
    if (!this.db.readonly && !this.closed) this.flushQuietly();
    return readSessionData(this.db, this.path, this.openedAs);
  }

  /**
   * Everything in the file with the samples packed (what openSession sends; session-read.ts
   * readPackedSessionData); with `previewBuckets`, a run's stored preview at those slices in place
   * of its samples where it has one (run-snapshot.ts).
   */
  readPacked(previewBuckets?: number): StoredPackedSessionData {
    if (!this.db.readonly && !this.closed) this.flushQuietly();
    return readPackedSessionData(this.db, this.path, this.openedAs, previewBuckets);
  }

  /** The runs without samples and engine log, or null when one must be recomputed (session-read.ts readSessionHead). */
  readHead(): SessionData | null {
    if (!this.db.readonly && !this.closed) this.flushQuietly();
    return readHeadData(this.db, this.path, this.openedAs);
  }

  private arm() {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushQuietly();
    }, FLUSH_EVERY_MS);
    // A pending batch never keeps the process alive; close() commits it.
    this.timer.unref();
  }

  /** flush() for callers that must not throw (timers, run callbacks): the error is kept in `error`. */
  private flushQuietly() {
    try {
      this.flush();
    } catch {
      // kept in this.error; flush() and close() report it
    }
  }

  private assertOpen() {
    if (this.closed) throw new SessionError(`${this.path}: the session is closed`);
  }
}

/** An existing session for appending (crash-recovered files included). */
export function openSession(path: string, options?: OpenSessionOptions): SessionStore {
  return SessionStore.open(path, options);
}

/** A new session file (replaces an existing session at `path`, refuses any other file). */
export function createSession(path: string, options: CreateSessionOptions): SessionStore {
  return SessionStore.create(path, options);
}

/** Everything in a session file; runs without a stored summary get their analysis recomputed. */
export function readSession(path: string): SessionData {
  return withStoreForReading(path, (store) => store.read());
}

/** Everything in a session file, samples packed (shared/api/packed-samples.ts): openSession's answer (SessionStore.readPacked). */
export function readPackedSession(path: string, previewBuckets?: number): StoredPackedSessionData {
  return withStoreForReading(path, (store) => store.readPacked(previewBuckets));
}

/** A session file's runs without samples, or null when a run's numbers must be recomputed (SessionStore.readHead). */
export function readSessionHead(path: string): SessionData | null {
  return withStoreForReading(path, (store) => store.readHead());
}

function withStoreForReading<T>(path: string, read: (store: SessionStore) => T): T {
  verifySessionFile(path); // untrusted file: schema checked before any query runs (session-file-guard.ts)
  let store: SessionStore;
  try {
    store = SessionStore.open(path);
  } catch (error) {
    // Read-only media, or a file we may read but not write: read it as it is.
    if (error instanceof SessionError && !/cannot open|readonly|read-only/i.test(error.message)) throw error;
    store = SessionStore.openReadOnly(path);
  }
  try {
    return read(store);
  } finally {
    store.close();
  }
}
