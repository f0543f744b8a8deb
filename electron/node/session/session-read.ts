// Reading a session database back into SessionData (shared/report/session-data.ts): every run
// as its run record, stored values validated but kept whole (fields of later versions survive),
// and the analysis recomputed for runs that ended without one (a killed writer).

import type Database from 'better-sqlite3';
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
import { readRunSnapshot } from './run-snapshot';
function parseJson(textValue: string | null, what: string, path: string): unknown {
  if (textValue === null) return null;
  try {
    return JSON.parse(textValue);
  } catch {
    throw new SessionError(`${path}: damaged ${what} (not JSON)`);
  }
}

function stringOr(v: unknown, fallback: string): string {
  return typeof v === 'string' ? v : fallback;
}

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
export function readPackedSessionData(db: Database.Database, path: string, openedAs: number): StoredPackedSessionData {
  return readRuns(db, path, openedAs, PACKED_SAMPLES) as StoredPackedSessionData;
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
  for (const [tMs, source, vals] of sampleRows.iterate(run) as Iterable<[number, string, string]>) {
    const values = parseJson(vals, 'sample', path);
    kept.add(tMs, source, isRecord(values) ? (values as Sample['values']) : {});
  }
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
  stored?(db: Database.Database, run: number): S | null;
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
  stored: readRunSnapshot,
};

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
  const meta: SessionMeta = {
    format: SESSION_FORMAT,
    schemaVersion: Math.min(version, openedAs),
    appVersion: stringOr(metaValues.get('appVersion'), 'unknown'),
    createdAt: stringOr(metaValues.get('createdAt'), ''),
    target,
    sweep: isRecord(sweep) ? (sweep as unknown as SweepPlan) : null,
  };

  const sampleRows = db.prepare(SAMPLE_ROWS).raw();
  const eventRows = db.prepare('SELECT t_ms, kind, message, data FROM events WHERE run = ? ORDER BY id').raw();
  const logRows = db.prepare('SELECT kind, record FROM engine_log WHERE run = ? ORDER BY id').raw();

  const runs: Array<ReadRun<S>> = [];
  for (const row of db.prepare('SELECT * FROM runs ORDER BY seq').all() as RunRow[]) {
    const stored = keeping?.stored?.(db, row.seq) ?? null;
    const kept = stored === null ? keeping?.start() : undefined;
    if (kept) addSampleRows(sampleRows, row.seq, path, kept);
    const samples = (stored ?? (kept ? kept.finish() : [])) as S;
    const events: RunEvent[] = [];
    for (const [tMs, kind, message, data] of eventRows.iterate(row.seq) as Iterable<
      [number, string, string | null, string | null]
    >) {
      const event = {
        tMs,
        kind,
        ...(message !== null ? { message } : {}),
        ...(data !== null ? { data: parseJson(data, 'event', path) } : {}),
      };
      // A kind this version does not know (a newer writer) is kept as an info event.
      const parsed = RunEventSchema.safeParse(event);
      events.push(parsed.success ? (event as RunEvent) : { tMs, kind: 'info', message: `${kind}: ${message ?? ''}` });
    }
    const engineLog: EngineLog = { timings: [], kv: [], model: [] };
    for (const [kind, record] of (withSamples ? logRows.iterate(row.seq) : []) as Iterable<[string, string]>) {
      if (kind === 'timings' || kind === 'kv' || kind === 'model')
        (engineLog[kind] as unknown[]).push(parseJson(record, 'engine log record', path));
    }
    // Validated, but kept whole: fields added by later versions (leak, model…) survive.
    const outcome = valid<RunOutcome>(RunOutcomeSchema, parseJson(row.outcome, 'run outcome', path));
    const analysis = valid<RunAnalysis>(RunAnalysisSchema, parseJson(row.analysis, 'analysis', path));
    const request = valid<RunRequest>(RunRequestSchema, parseJson(row.request, 'run request', path));
    if (!request) throw new SessionError(`${path}: damaged run request (run ${row.seq})`);
    if (!withSamples && !(analysis && outcome)) return null;
    const run: Omit<ReadRun<S>, 'analysis' | 'analysisSource'> = {
      seq: row.seq,
      id: row.id,
      label: row.label,
      request,
      target,
      engine: valid<RunEngine>(RunEngineSchema, parseJson(row.engine, 'engine', path)),
      analysisInputs: valid<AnalysisInputs>(
        AnalysisInputsSchema,
        parseJson(row.analysis_inputs, 'analysis inputs', path),
      ),
      state: RUN_STATES.has(row.state as RunState) ? (row.state as RunState) : 'failed',
      error: row.error,
      startedAt: row.started_at,
      endedAt: row.ended_at,
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
