// Reading a session database back into SessionData (shared/report/session-data.ts): every run
// as its run record, stored values validated but kept whole (fields of later versions survive),
// and the analysis recomputed for runs that ended without one (a killed writer).

import type Database from 'better-sqlite3';
import { z } from 'zod';
import {
  RunAnalysisSchema,
  RunEventSchema,
  RunRequestSchema,
  type RunAnalysis,
  type RunEvent,
  type RunRequest,
  type RunState,
  type Sample,
} from '../../../shared/api/schemas';
import { recomputeAnalysis } from '../../../shared/analysis/run-summary';
import type { SweepPlan } from '../../../shared/analysis/sweep-summary';
import {
  AnalysisInputsSchema,
  RunEngineSchema,
  RunOutcomeSchema,
  type AnalysisInputs,
  type EngineLog,
  type RunEngine,
  type RunOutcome,
} from '../../../shared/run/run-record';
import { targetFactsOf } from '../../../shared/run/target-facts';
import {
  SESSION_FORMAT,
  type SessionData,
  type SessionMeta,
  type SessionRun,
} from '../../../shared/report/session-data';
import {
  PackedSamplesWriter,
  packedSamplesOf,
  unpackSamples,
  type PackedSamples,
  type StoredPackedSamples,
  type StoredPackedSessionData,
} from '../../../shared/api/packed-samples';
import { describeOpenError, SessionError } from './session-errors';
import { readRunPreview, readRunSnapshot } from './run-snapshot';
/**
 * What KVScope stores nests a few levels (an event's data, an engine-log record's parts); a crafted
 * value nested thousands deep parses, but every JSON.stringify of it later (the JSON report, the
 * trace, the API) overflows the stack.
 */
const MAX_JSON_DEPTH = 64;

/** How deep `text`'s arrays and objects nest, counted without recursion (brackets inside strings skipped). */
function jsonNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

function parseJson(stored: unknown, what: string, path: string): unknown {
  // A TEXT column may hold a number or a BLOB in a crafted file: read as its text.
  const textValue = textOf(stored, null);
  if (textValue === null) return null;
  // Left out as a value this version cannot hold: a request then says it is damaged, a sample is empty.
  if (jsonNesting(textValue) > MAX_JSON_DEPTH) return null;
  try {
    return JSON.parse(textValue);
  } catch {
    throw new SessionError(`${path}: damaged ${what} (not JSON)`);
  }
}

/** The meta key (the open key/value table) holding the user's name for a session (session-library.ts rename). */
export const SESSION_NAME_META_KEY = 'name';

function stringOr(v: unknown, fallback: string): string {
  return typeof v === 'string' ? v : fallback;
}

/**
 * A TEXT column's value as text: SQLite stores whatever a crafted file puts there (an integer, a
 * BLOB, a NULL where the writer never leaves one), and every reader after this one takes strings.
 */
function textOf(v: unknown, fallback: string): string;
function textOf(v: unknown, fallback: null): string | null;
function textOf(v: unknown, fallback: string | null): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  return fallback;
}

/** What a sweep plan must be for the report to read it (shared/analysis/sweep-summary.ts SweepPlan). */
const SweepPlanSchema = z.object({
  sizes: z.array(z.number()),
  failedStarts: z.array(z.object({ ctx: z.number(), error: z.string() })),
  interrupted: z.boolean(),
});

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const RUN_STATES = new Set<RunState>(['starting', 'running', 'stopping', 'done', 'failed']);

interface RunRow {
  seq: number;
  id: string;
  label: string;
  request: string;
  engine: string | null;
  analysis_inputs: string | null;
  state: string;
  error: string | null;
  started_at: string;
  ended_at: string | null;
  outcome: string | null;
  analysis: string | null;
}

/** A stored value of this schema, kept whole (fields of later versions survive), or null. */
function valid<T>(schema: { safeParse(v: unknown): { success: boolean } }, value: unknown): T | null {
  return value !== null && schema.safeParse(value).success ? (value as T) : null;
}

/**
 * Everything committed in an open session database. `openedAs` is the schema the file had when it
 * was opened (older files are migrated in place or in a copy first; session-store.ts).
 */
export function readSessionData(db: Database.Database, path: string, openedAs: number): SessionData {
  return readRuns(db, path, openedAs, OBJECT_SAMPLES) as SessionData;
}

/**
 * The same, with each run's samples packed (shared/api/packed-samples.ts) for openSession: a
 * finished run's as the JSON text of its stored snapshot (run-snapshot.ts), any other run's packed
 * straight from its rows. No Sample object is built on the way (a run that must have its analysis
 * recomputed is unpacked for that).
 */
export function readPackedSessionData(
  db: Database.Database,
  path: string,
  openedAs: number,
  previewBuckets?: number,
): StoredPackedSessionData {
  const keeping = previewBuckets === undefined ? PACKED_SAMPLES : previewOrPackedSamples(previewBuckets);
  return readRuns(db, path, openedAs, keeping) as StoredPackedSessionData;
}

/** One run's samples packed from its rows (what its snapshot stores; session-store.ts finishRun). */
export function packRunSamples(db: Database.Database, path: string, run: number): PackedSamples {
  const writer = new PackedSamplesWriter();
  addSampleRows(db.prepare(SAMPLE_ROWS).raw(), run, path, writer);
  return writer.finish();
}

const SAMPLE_ROWS = 'SELECT t_ms, source, vals FROM samples WHERE run = ? ORDER BY id';

function addSampleRows(
  sampleRows: Database.Statement,
  run: number,
  path: string,
  kept: { add(tMs: number, source: string, values: Sample['values']): void },
): void {
  for (const [tMs, source, vals] of sampleRows.iterate(run) as Iterable<[unknown, unknown, string]>) {
    // A sample without a time cannot be placed (a crafted row): left out.
    if (typeof tMs !== 'number' || !Number.isFinite(tMs)) continue;
    kept.add(tMs, textOf(source, ''), sampleValues(parseJson(vals, 'sample', path)));
  }
}

/** A sample's values as SampleSchema has them (a number or null per key); any other value is left out. */
function sampleValues(parsed: unknown): Sample['values'] {
  if (!isRecord(parsed)) return {};
  let values = parsed as Sample['values'];
  for (const [key, v] of Object.entries(parsed)) {
    if (typeof v === 'number' || v === null) continue;
    if (values === parsed) values = { ...values };
    delete values[key];
  }
  return values;
}

/**
 * The session without its samples and engine log (what a list row needs: the stored outcome and
 * analysis, events, request, engine), or null when a run has no stored outcome or analysis (a
 * killed writer): its numbers must then be recomputed from the samples (readSessionData).
 */
export function readSessionHead(db: Database.Database, path: string, openedAs: number): SessionData | null {
  return readRuns(db, path, openedAs, null);
}

/**
 * How a run's sample rows are kept: as Sample objects or packed; and as Samples again for a
 * recomputation. `stored` gives the run's samples without reading its rows when it can (null: read them).
 */
interface SampleKeeping<S> {
  start(): { add(tMs: number, source: string, values: Sample['values']): void; finish(): S };
  asSamples(kept: S): Sample[];
  /** What is stored of the run's samples, if anything; `numbersStored`: its outcome and analysis are (no recomputing from them). */
  stored?(db: Database.Database, run: number, numbersStored: boolean): S | null;
}

const OBJECT_SAMPLES: SampleKeeping<Sample[]> = {
  start() {
    const samples: Sample[] = [];
    return { add: (tMs, source, values) => samples.push({ tMs, source, values }), finish: () => samples };
  },
  asSamples: (kept) => kept,
};

const PACKED_SAMPLES: SampleKeeping<StoredPackedSamples> = {
  start: () => new PackedSamplesWriter(),
  asSamples: (kept) => unpackSamples(packedSamplesOf(kept)),
  stored: (db, run) => readRunSnapshot(db, run),
};

/** The same, a run's stored preview at `buckets` slices first, unless its numbers must be recomputed (from every sample). */
const previewOrPackedSamples = (buckets: number): SampleKeeping<StoredPackedSamples> => ({
  ...PACKED_SAMPLES,
  stored: (db, run, numbersStored) =>
    (numbersStored ? readRunPreview(db, run, buckets) : null) ?? readRunSnapshot(db, run),
});

type ReadRun<S> = Omit<SessionRun, 'samples'> & { samples: S };

/** The runs with their samples kept as `keeping` says, or (keeping null) without samples and engine log. */
function readRuns<S>(
  db: Database.Database,
  path: string,
  openedAs: number,
  keeping: SampleKeeping<S> | null,
): { meta: SessionMeta; runs: Array<ReadRun<S>> } | null {
  const withSamples = keeping !== null;
  let metaRows: Array<{ key: string; value: string }>;
  let version: number;
  try {
    metaRows = db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>;
    version = db.pragma('user_version', { simple: true }) as number;
  } catch (error) {
    throw describeOpenError(path, error);
  }
  const metaValues = new Map(metaRows.map((r) => [r.key, parseJson(r.value, `meta ${r.key}`, path)]));
  if (metaValues.get('format') !== SESSION_FORMAT)
    throw new SessionError(`${path} is not a KVScope session (meta format missing)`);
  const target = targetFactsOf(metaValues.get('target'));
  const sweep = metaValues.get('sweep');
  const name = metaValues.get(SESSION_NAME_META_KEY);
  const meta: SessionMeta = {
    format: SESSION_FORMAT,
    schemaVersion: Math.min(version, openedAs),
    appVersion: stringOr(metaValues.get('appVersion'), 'unknown'),
    createdAt: stringOr(metaValues.get('createdAt'), ''),
    target,
    sweep: valid<SweepPlan>(SweepPlanSchema, sweep),
    // Absent, not null, when unnamed: the JSON report of an unnamed session stays as it was.
    ...(typeof name === 'string' && name.trim() ? { name } : {}),
  };

  const sampleRows = db.prepare(SAMPLE_ROWS).raw();
  const eventRows = db.prepare('SELECT t_ms, kind, message, data FROM events WHERE run = ? ORDER BY id').raw();
  const logRows = db.prepare('SELECT kind, record FROM engine_log WHERE run = ? ORDER BY id').raw();

  const runs: Array<ReadRun<S>> = [];
  for (const row of db.prepare('SELECT * FROM runs ORDER BY seq').all() as RunRow[]) {
    // Validated, but kept whole: fields added by later versions (leak, model…) survive.
    const outcome = valid<RunOutcome>(RunOutcomeSchema, parseJson(row.outcome, 'run outcome', path));
    const analysis = valid<RunAnalysis>(RunAnalysisSchema, parseJson(row.analysis, 'analysis', path));
    const stored = keeping?.stored?.(db, row.seq, analysis !== null && outcome !== null) ?? null;
    const kept = stored === null ? keeping?.start() : undefined;
    if (kept) addSampleRows(sampleRows, row.seq, path, kept);
    const samples = (stored ?? (kept ? kept.finish() : [])) as S;
    const events: RunEvent[] = [];
    for (const [tMs, kind, message, data] of eventRows.iterate(row.seq) as Iterable<
      [unknown, string, string | null, string | null]
    >) {
      if (typeof tMs !== 'number' || !Number.isFinite(tMs)) continue; // as a sample without a time
      const event = {
        tMs,
        kind,
        ...(message !== null ? { message } : {}),
        ...(data !== null ? { data: parseJson(data, 'event', path) } : {}),
      };
      // A kind this version does not know (a newer writer) is kept as an info event.
      const parsed = RunEventSchema.safeParse(event);
      events.push(
        parsed.success
          ? (event as RunEvent)
          : { tMs, kind: 'info', message: `${textOf(kind, '')}: ${textOf(message, null) ?? ''}` },
      );
    }
    const engineLog: EngineLog = { timings: [], kv: [], model: [] };
    for (const [kind, record] of (withSamples ? logRows.iterate(row.seq) : []) as Iterable<[string, string]>) {
      if (kind !== 'timings' && kind !== 'kv' && kind !== 'model') continue;
      // A record is the parser's object of its kind; anything else (null, a number) is left out.
      const parsed = parseJson(record, 'engine log record', path);
      if (isRecord(parsed) && parsed.kind === kind) (engineLog[kind] as unknown[]).push(parsed);
    }
    const request = valid<RunRequest>(RunRequestSchema, parseJson(row.request, 'run request', path));
    if (!request) throw new SessionError(`${path}: damaged run request (run ${row.seq})`);
    if (!withSamples && !(analysis && outcome)) return null;
    const run: Omit<ReadRun<S>, 'analysis' | 'analysisSource'> = {
      seq: row.seq,
      id: textOf(row.id, String(row.seq)),
      label: textOf(row.label, ''),
      request,
      target,
      engine: valid<RunEngine>(RunEngineSchema, parseJson(row.engine, 'engine', path)),
      analysisInputs: valid<AnalysisInputs>(
        AnalysisInputsSchema,
        parseJson(row.analysis_inputs, 'analysis inputs', path),
      ),
      state: RUN_STATES.has(row.state as RunState) ? (row.state as RunState) : 'failed',
      error: textOf(row.error, null),
      startedAt: textOf(row.started_at, ''),
      endedAt: textOf(row.ended_at, null),
      samples,
      events,
      engineLog,
      outcome,
    };
    runs.push(
      analysis && outcome
        ? { ...run, analysis, analysisSource: 'stored' }
        : {
            ...run,
            analysis: recomputeAnalysis({ ...run, samples: keeping ? keeping.asSamples(samples) : [] }),
            analysisSource: 'recomputed',
          },
    );
  }
  return { meta, runs };
}
