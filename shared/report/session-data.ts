// What a session file holds, as the rest of KVScope sees it (electron/node/session/session-store.ts
// writes and reads it; reports, compare and the UI consume it). Pure: no Node, no DOM.
//
// A session holds several runs (a sweep is one run per context size). Each run keeps its samples,
// events and the records of the engine's own log exactly as they arrived, plus — when the run
// ended cleanly — the final summary. A run without one (the app was killed mid-run) gets its
// analysis recomputed here from the stored samples, with the same inputs the live run used.
import { analyzeRun } from '../analysis/run-analysis';
import type { KvMode, ProfileSummary, RunAnalysis, RunEvent, Sample } from '../api/schemas';
import type { KvRecord, ModelRecord, TimingsRecord } from '../parsers/records';

/** Written into every session (meta `format`) so a reader can tell a session from other SQLite files. */
export const SESSION_FORMAT = 'kvscope-session';

export interface SessionMeta {
  format: typeof SESSION_FORMAT;
  /** `PRAGMA user_version` of the file. */
  schemaVersion: number;
  /** KVScope version that created the file. */
  appVersion: string;
  /** ISO 8601, UTC. */
  createdAt: string;
  /** Facts about the target (probe facts, `profile --json` `target`); null until known. */
  target: Record<string, unknown> | null;
}

/**
 * The engine as the run prepared it (electron/node/run/engine-setup.ts PreparedEngine), minus the
 * shell line the launcher ran (it holds temporary paths): `command` is what people are shown.
 */
export interface StoredEngine {
  command: string;
  theoryBytesPerToken: number | null;
  ctx: number | null;
  requestedCtx?: number | null;
  modeHint?: KvMode;
  theoryReservedBytes?: number | null;
  ctxPad?: number;
  model?: Record<string, unknown> | null;
  [key: string]: unknown;
}

/** Every input of analyzeRun besides the samples and timings: what a recompute needs. */
export interface AnalysisInputs {
  theoryBytesPerToken: number | null;
  theoryMode?: KvMode;
  ctx: number | null;
  theoryReservedBytes?: number | null;
  budgetBytes: number | null;
}

export interface EngineLog {
  timings: TimingsRecord[];
  kv: KvRecord[];
  model: ModelRecord[];
}

export type StoredRunState = 'starting' | 'running' | 'stopping' | 'done' | 'failed';

export interface SessionRun {
  /** 1-based position in the session. */
  seq: number;
  id: string;
  label: string;
  /** The run request, secret-like fields scrubbed. */
  request: Record<string, unknown>;
  engine: StoredEngine | null;
  analysisInputs: AnalysisInputs | null;
  state: StoredRunState;
  error: string | null;
  startedAt: string;
  endedAt: string | null;
  samples: Sample[];
  events: RunEvent[];
  engineLog: EngineLog;
  /** The final summary, when the run ended cleanly (null after a crash). */
  summary: ProfileSummary | null;
  /** The stored final analysis, or one recomputed from the stored samples. */
  analysis: RunAnalysis;
  analysisSource: 'stored' | 'recomputed';
}

export interface SessionData {
  meta: SessionMeta;
  runs: SessionRun[];
}

/** The run's request field at `path` (e.g. ['engine', 'demo', 'kvType']), or undefined. */
export function requestField(run: Pick<SessionRun, 'request'>, path: readonly string[]): unknown {
  let at: unknown = run.request;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Budget of the run's request, in bytes (null when none was given). */
export function requestBudgetBytes(run: Pick<SessionRun, 'request'>): number | null {
  const b = requestField(run, ['budgetBytes']);
  return typeof b === 'number' && Number.isFinite(b) && b > 0 ? b : null;
}

/** analyzeRun over the stored samples, with the inputs the live run used. */
export function recomputeAnalysis(
  run: Pick<SessionRun, 'samples' | 'engineLog' | 'analysisInputs' | 'engine' | 'request'>,
): RunAnalysis {
  const inputs: AnalysisInputs = run.analysisInputs ?? {
    theoryBytesPerToken: run.engine?.theoryBytesPerToken ?? null,
    theoryMode: run.engine?.modeHint,
    ctx: run.engine?.ctx ?? null,
    theoryReservedBytes: run.engine?.theoryReservedBytes ?? null,
    budgetBytes: requestBudgetBytes(run),
  };
  return analyzeRun({ ...inputs, samples: run.samples, timings: run.engineLog.timings });
}

/**
 * The run's `profile --json`-style summary: the stored one, or — for a run that did not end
 * cleanly — one rebuilt from what the file holds (exit status unknown, analysis recomputed).
 */
export function runSummary(run: SessionRun, target: Record<string, unknown> | null): ProfileSummary {
  if (run.summary) return run.summary;
  const a = run.analysis;
  const exit = [...run.events].reverse().find((e) => e.kind === 'exit');
  const code = exit && typeof exit.data?.code === 'number' ? exit.data.code : null;
  const lastT = run.samples.reduce((m, s) => Math.max(m, s.tMs), 0);
  const kvTotals = run.engineLog.kv.filter((k) => k.scope === 'total' && k.sizeBytes !== null);
  return {
    target: target ?? {},
    engine: {
      command: run.engine?.command ?? '',
      exitCode: code !== null && code <= 128 ? code : null,
      oomKilled: run.events.some((e) => e.kind === 'oom'),
      signal: null,
      ...(run.error ? { error: run.error } : {}),
    },
    samples: run.samples.filter((s) => s.source === 'procfs').length,
    lostSamples: 0,
    durationMs: lastT,
    events: run.events,
    kv: a.kv,
    budgetBytes: a.budgetBytes,
    oomHorizonTokens: a.oomHorizonTokens,
    maxSafeContextTokens: a.maxSafeContextTokens,
    throughput: a.throughput,
    peakRssBytes: a.peakRssBytes,
    engineReported: {
      kvBytes: kvTotals.length ? kvTotals.reduce((sum, k) => sum + (k.sizeBytes as number), 0) : null,
      kv: run.engineLog.kv,
      timings: run.engineLog.timings,
    },
  };
}

/** True when the run did not end cleanly: no summary was stored (the recording process died). */
export function isRecoveredRun(run: Pick<SessionRun, 'summary'>): boolean {
  return run.summary === null;
}
