// The app's session library: every run started from the app is recorded into its own session file
// in <app data>/sessions/<id>.kvscope (electron/node/config/app-paths.ts), the way
// `kvscope profile --out` records one. This file lists, reads, renames, deletes and exports them.
//
// Ids come from windows (the API): an id is only ever a file name inside the sessions folder
// (SessionIdSchema: no "/", no "..", no leading "-"), resolved and checked to stay in the folder,
// and a symbolic link or anything else that is not a regular file is refused. Files opened from
// the command line (`kvscope web --open <file>`) are registered by the process itself and get an
// id of their own; the app never renames or deletes them.
//
// Reading goes through session-store.ts. A list row reads the runs without their samples
// (readSessionHead: the stored outcome and analysis hold its numbers); only a session whose writer
// was killed before it stored them is read whole, to recompute them. Rows are cached per file
// version (size and mtime of the file and its WAL, taken after the read: opening a file for
// reading may checkpoint its WAL), so a list of long sessions is read once.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import {
  SessionIdSchema,
  type ExportFormat,
  type SessionHeadline,
  type SessionListing,
} from '../../../shared/api/session-schemas';
import { buildReportModel } from '../../../shared/report/report-model';
import { isRecoveredRun } from '../../../shared/analysis/run-summary';
import { isUserStop, modelLabel } from '../../../shared/run/run-labels';
import { sessionSweep, type SessionData, type SessionRun } from '../../../shared/report/session-data';
import { forEachPackedSample, packedSamplesOf, type StoredPackedSessionData } from '../../../shared/api/packed-samples';
import { appDataDir } from '../config/app-paths';
import { htmlToPdf } from './pdf';
import { renderReport } from './report-files';
import { readPackedSession, readSession, readSessionHead, SESSION_APPLICATION_ID } from './session-store';
import { SESSION_NAME_META_KEY } from './session-read';
import { renderReportHtml } from '../../../shared/report/render-html';
import { MISSING } from '../../../shared/format/units';

export const SESSION_FILE_EXT = '.kvscope';
export { SESSION_NAME_META_KEY };

export function sessionsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(appDataDir(env), 'sessions');
}

/** A request the library refuses (unknown id, a path outside the folder, a file opened from elsewhere). */
export class SessionLibraryError extends Error {
  override name = 'SessionLibraryError';
}

const EXPORT_FILES: Record<ExportFormat, { ext: string; mimeType: string }> = {
  html: { ext: '.html', mimeType: 'text/html' },
  md: { ext: '.md', mimeType: 'text/markdown' },
  csv: { ext: '.csv', mimeType: 'text/csv' },
  json: { ext: '.json', mimeType: 'application/json' },
  pdf: { ext: '.pdf', mimeType: 'application/pdf' },
  perfetto: { ext: '.trace.json', mimeType: 'application/json' },
};

export interface ExportedReport {
  fileName: string;
  mimeType: string;
  data: Buffer;
}

/** Without leading and trailing '-' and '.' (no hidden files, no "..", no dangling dash). A loop, not a regex: linear. */
function trimDashesAndDots(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === '-' || text[start] === '.')) start++;
  while (end > start && (text[end - 1] === '-' || text[end - 1] === '.')) end--;
  return text.slice(start, end);
}

/** How many characters (code points, never half a surrogate pair) of a session's name make its file name. */
const EXPORT_STEM_MAX_CHARS = 80;

/**
 * A file name made from a session's name: letters of any script (with their accents), digits, '-',
 * '_' and '.', never empty. Letters are kept as typed ("café", "测试"): an ASCII-only name turned an
 * accent into a dash ("ca-fe") and a name in another script into the same "kvscope-session" for
 * every session.
 */
export function exportFileName(name: string, format: ExportFormat): string {
  const stem = trimDashesAndDots(
    Array.from(name.normalize('NFKC').replace(/[^\p{L}\p{M}\p{N}_.-]+/gu, '-'))
      .slice(0, EXPORT_STEM_MAX_CHARS)
      .join(''),
  );
  return `${stem || 'kvscope-session'}${EXPORT_FILES[format].ext}`;
}

/** What ran, in a few words: the demo's shape, the GGUF's file name, or the engine's program. */
export function modelOf(run: Pick<SessionRun, 'request' | 'engine'> | undefined): string {
  return (run && modelLabel(run)) || MISSING;
}

/** A session as read whole, or with its samples packed (openSession's read): a list row is made from either. */
type ListedSession = SessionData | StoredPackedSessionData;

function lastSampleMs(run: ListedSession['runs'][number]): number {
  let last = 0;
  const later = (tMs: number) => {
    if (tMs > last) last = tMs;
  };
  if (Array.isArray(run.samples)) for (const s of run.samples) later(s.tMs);
  else forEachPackedSample(packedSamplesOf(run.samples), (_shape, tMs) => later(tMs));
  return last;
}

function stateOf(run: ListedSession['runs'][number] | undefined, recording: boolean): SessionListing['state'] {
  if (recording) return 'recording';
  if (!run) return 'failed';
  if (run.state === 'failed') return 'failed';
  if (isRecoveredRun(run)) return 'recovered';
  return run.events.some(isUserStop) ? 'stopped' : 'done';
}

/**
 * The name of a session the user has not named: its run's label, or for several runs (a sweep)
 * the first and the last ("sweep ctx 512 … sweep ctx 8192"), not the first alone above the
 * numbers of the last.
 */
function defaultName(data: ListedSession): string | null {
  const first = data.runs[0]?.label;
  const last = data.runs.at(-1)?.label;
  if (first === undefined || last === undefined) return null;
  return first === last ? first : `${first} … ${last}`;
}

/**
 * A sweep's largest context within its budget, or null (not a sweep, no budget, too few points).
 * The fit is of each run's peak RSS against its context (shared/analysis/sweep.ts analyzeSweep):
 * the stored analyses and outcomes are all it needs, so a head without samples gives the number
 * the opened sweep's table shows.
 */
function sweepMaxContextOf(data: ListedSession): number | null {
  const runs = data.runs.map((r) => ({ ...r, samples: [] }));
  return sessionSweep({ ...data, runs })?.summary.maxContextForBudget ?? null;
}

/**
 * The list row of a session, from what session-store.ts read: whole, or its head (runs without
 * samples, every run with its stored outcome and analysis). The numbers are the last run's
 * analysis, the same values reports show (shared/report/report-model.ts runReport copies them),
 * except a sweep's max safe context: one run cannot measure what a context costs an engine that
 * reserves it, the sweep's fit across its runs does, and its table says that number.
 */
export function listingOf(
  id: string,
  data: ListedSession,
  file: { name: string | null; sizeBytes: number; recording: boolean; external: boolean },
): SessionListing {
  const last = data.runs.at(-1);
  const a = last?.analysis;
  const headline: SessionHeadline | null = a
    ? {
        peakRssBytes: a.peakRssBytes,
        theoryBytesPerToken: a.kv.theoryBytesPerToken,
        measuredBytesPerToken: a.kv.measuredBytesPerToken,
        decodeTokensPerSecond: a.throughput.decodeTokensPerSecond,
        maxSafeContextTokens: sweepMaxContextOf(data) ?? a.maxSafeContextTokens,
        tokens: a.throughput.tokens,
      }
    : null;
  const target = data.meta.target;
  const targetName =
    typeof target?.label === 'string' ? target.label : typeof target?.hostname === 'string' ? target.hostname : MISSING;
  return {
    id,
    name: file.name ?? defaultName(data) ?? id,
    target: targetName,
    model: modelOf(last),
    createdAt: data.meta.createdAt,
    durationMs: data.runs.reduce((sum, r) => sum + (r.outcome?.durationMs ?? lastSampleMs(r)), 0),
    runs: data.runs.length,
    state: stateOf(last, file.recording),
    headline,
    sizeBytes: file.sizeBytes,
    external: file.external,
    error: null,
  };
}

function fileVersion(path: string): { key: string; sizeBytes: number } {
  const main = statSync(path);
  const wal = statSync(`${path}-wal`, { throwIfNoEntry: false });
  return {
    key: `${main.size}:${main.mtimeMs}:${wal?.size ?? 0}:${wal?.mtimeMs ?? 0}`,
    sizeBytes: main.size + (wal?.size ?? 0),
  };
}

/** The file a path names once every symbolic link is followed, or null when nothing is there. */
function realpathOf(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

export class SessionLibrary {
  private readonly cache = new Map<string, { key: string; listing: SessionListing }>();
  private readonly recording = new Set<string>();
  private readonly external = new Map<string, string>();
  readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  /**
   * A fresh file for a run's session: <dir>/<runId>.kvscope (a suffix when taken, or when `reserved`
   * holds the id: a file promised to a writer that has not made it yet).
   */
  newSessionPath(runId: string, reserved: ReadonlySet<string> = new Set()): { id: string; path: string } {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const base = SessionIdSchema.parse(runId);
    for (let n = 0; ; n++) {
      const id = n === 0 ? base : `${base}-${n}`;
      const path = join(this.dir, `${id}${SESSION_FILE_EXT}`);
      if (!existsSync(path) && !reserved.has(id)) return { id, path };
    }
  }

  /** While a session is recorded its row says so and is never cached. */
  setRecording(id: string, recording: boolean): void {
    if (recording) this.recording.add(id);
    else this.recording.delete(id);
    this.cache.delete(id);
  }

  /** A session file named on the command line (`kvscope web --open <file>`): its id for the API. */
  addExternal(path: string): string {
    // The user named this file (ids from windows never reach here): a symbolic link to a session
    // (latest.kvscope → run-42.kvscope) is followed, and the file it names is the one registered.
    const absolute = realpathOf(path);
    if (!absolute) throw new SessionLibraryError(`${path}: no such session file`);
    const info = statSync(absolute);
    if (info.isDirectory())
      throw new SessionLibraryError(`${path}: a folder, not a session file (a .kvscope file inside it is)`);
    if (!info.isFile()) throw new SessionLibraryError(`${path}: not a regular file, so no session file`);
    // A session of the app's own folder keeps its row (renamed and deleted like the others) instead
    // of being listed twice, once read-only.
    const own = basename(absolute).slice(0, -SESSION_FILE_EXT.length);
    if (
      dirname(absolute) === realpathOf(this.dir) &&
      absolute.endsWith(SESSION_FILE_EXT) &&
      SessionIdSchema.safeParse(own).success
    )
      return own;
    const id = `file-${createHash('sha256').update(absolute).digest('hex').slice(0, 16)}`;
    this.external.set(id, absolute);
    return id;
  }

  /**
   * A session file the user names in the app (the Sessions view's Open): listed for the app's
   * lifetime, as `--open` lists one. A file that is no KVScope session is refused and not listed.
   */
  addFile(path: string): SessionListing {
    const listedBefore = new Set(this.external.keys());
    const id = this.addExternal(path);
    const listing = this.listing(id);
    if (listing.error === null) return listing;
    if (!listedBefore.has(id)) this.external.delete(id);
    this.cache.delete(id);
    // The reader's reason names the file and says what it is not; said once, not wrapped in the same words.
    throw new SessionLibraryError(
      listing.error.includes(path)
        ? listing.error
        : `${path}: not a KVScope session that can be read (${listing.error})`,
    );
  }

  /** The file of a session id, checked: inside the folder (or registered from the command line), a regular file. */
  pathOf(id: string): string {
    const parsed = SessionIdSchema.safeParse(id);
    if (!parsed.success) throw new SessionLibraryError(`"${id.slice(0, 80)}" is not a session id`);
    const external = this.external.get(parsed.data);
    if (external) return external;
    const path = resolve(this.dir, `${parsed.data}${SESSION_FILE_EXT}`);
    // The schema already rules out separators; this keeps the promise whatever the schema becomes.
    if (dirname(path) !== this.dir) throw new SessionLibraryError(`"${id}" is not a session id`);
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (!info) throw new SessionLibraryError(`no session "${id}" (it may have been deleted in another window)`);
    if (!info.isFile()) throw new SessionLibraryError(`session "${id}" is not a regular file: not touching it`);
    return path;
  }

  isExternal(id: string): boolean {
    return this.external.has(id);
  }

  /** Every session, newest first; an unreadable file is a row with `error` (so it can be deleted). */
  list(): SessionListing[] {
    const ids: string[] = [];
    if (existsSync(this.dir)) {
      for (const entry of readdirSync(this.dir, { withFileTypes: true })) {
        if (!entry.isFile() || !entry.name.endsWith(SESSION_FILE_EXT)) continue;
        const id = entry.name.slice(0, -SESSION_FILE_EXT.length);
        if (SessionIdSchema.safeParse(id).success) ids.push(id);
      }
    }
    ids.push(...this.external.keys());
    const rows = ids.map((id) => this.listing(id));
    return rows.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
  }

  /**
   * One list row (cached per file version). `readData` reads the session for a row not cached:
   * by default its head (no samples), or the whole session when it must be read anyway.
   */
  listing(id: string, readData?: () => ListedSession): SessionListing {
    const path = this.pathOf(id);
    const recording = this.recording.has(id);
    let version: { key: string; sizeBytes: number };
    try {
      version = fileVersion(path);
    } catch (error) {
      return this.broken(id, 0, (error as Error).message);
    }
    const cached = this.cache.get(id);
    if (cached && cached.key === version.key && !recording) return cached.listing;
    let listing: SessionListing;
    try {
      const data = readData ? readData() : (readSessionHead(path) ?? readSession(path));
      version = fileVersion(path);
      listing = listingOf(id, data, {
        name: data.meta.name ?? null,
        sizeBytes: version.sizeBytes,
        recording,
        external: this.external.has(id),
      });
    } catch (error) {
      listing = this.broken(id, version.sizeBytes, (error as Error).message);
    }
    if (!recording) this.cache.set(id, { key: version.key, listing });
    return listing;
  }

  /** Everything in the session (session-store.ts readSession) with its list row (made from it when not cached). */
  read(id: string): { listing: SessionListing; data: SessionData } {
    return this.readWith(id, readSession);
  }

  /**
   * The same for openSession, samples packed (session-read.ts: a finished run's stored snapshot, any
   * other run's rows): the list row is made from the packed session itself when not cached.
   */
  readPacked(id: string, previewBuckets?: number): { listing: SessionListing; data: StoredPackedSessionData } {
    return this.readWith(id, (path) => readPackedSession(path, previewBuckets));
  }

  /** The file read once, by `readFile`, for both the list row (when not cached) and the content. */
  private readWith<D extends ListedSession>(
    id: string,
    readFile: (path: string) => D,
  ): { listing: SessionListing; data: D } {
    const path = this.pathOf(id);
    let data: D | null = null;
    const readWhole = () => (data ??= readFile(path));
    const listing = this.listing(id, readWhole);
    return { listing, data: readWhole() };
  }

  /** Stores the user's name for the session in the file itself, so it travels with the file. */
  rename(id: string, name: string): SessionListing {
    if (this.external.has(id)) throw new SessionLibraryError('a session opened from a file is not renamed by the app');
    const path = this.pathOf(id);
    const db = new Database(path, { fileMustExist: true, timeout: 5000 });
    try {
      if (db.pragma('application_id', { simple: true }) !== SESSION_APPLICATION_ID)
        throw new SessionLibraryError(`session "${id}" is not a KVScope session file`);
      db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(
        SESSION_NAME_META_KEY,
        JSON.stringify(name.trim()),
      );
    } finally {
      db.close();
    }
    this.cache.delete(id);
    return this.listing(id);
  }

  /** Deletes the file (and its WAL/SHM). Refused while the session is being recorded. */
  remove(id: string): void {
    if (this.external.has(id)) throw new SessionLibraryError('a session opened from a file is not deleted by the app');
    if (this.recording.has(id))
      throw new SessionLibraryError('this session is still being recorded: stop its run first');
    const path = this.pathOf(id);
    for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
    this.cache.delete(id);
  }

  /** The session as a report file in any `kvscope report` format (PDF through the system Chromium). */
  async export(id: string, format: ExportFormat): Promise<ExportedReport> {
    const { listing, data } = this.read(id);
    const fileName = exportFileName(listing.name, format);
    const { mimeType } = EXPORT_FILES[format];
    if (format !== 'pdf') return { fileName, mimeType, data: Buffer.from(renderReport(data, format), 'utf8') };
    const dir = await mkdtemp(join(tmpdir(), 'kvscope-export-'));
    try {
      const out = join(dir, 'report.pdf');
      await htmlToPdf(renderReportHtml(buildReportModel(data)), out);
      return { fileName, mimeType, data: readFileSync(out) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  private broken(id: string, sizeBytes: number, error: string): SessionListing {
    const external = this.external.get(id);
    return {
      id,
      // A file from the command line is known by its file name; its id is a hash of the path.
      name: external ? basename(external) : id,
      target: MISSING,
      model: MISSING,
      createdAt: '',
      durationMs: 0,
      runs: 0,
      state: 'failed',
      headline: null,
      sizeBytes,
      external: this.external.has(id),
      error,
    };
  }
}
