// What a session file holds, as the rest of KVScope sees it (electron/node/session/session-store.ts
// writes and reads it; reports, compare and the UI consume it). Pure: no Node, no DOM.
//
// A session holds several runs (a sweep is one run per context size). Each run is a run record
// (shared/run/run-record.ts), exactly as the live run produced it: samples, events, the engine's
// log, and — when the run ended cleanly — its outcome and final analysis. A run without an outcome
// (the app was killed mid-run) gets its analysis recomputed from the stored samples, with the same
// inputs the live run used. Every summary derives from the records (shared/analysis/run-summary.ts,
// shared/analysis/sweep-summary.ts).
import type { ProfileSummaryOutput } from '../analysis/run-summary';
import {
  inferSweepPlan,
  summarizeProfile,
  summarizeSweep,
  type SweepPlan,
  type SweepResultOfRecords,
} from '../analysis/sweep-summary';
import type { RunRecord } from '../run/run-record';
import type { TargetFacts } from '../run/target-facts';

/** Written into every session (meta `format`) so a reader can tell a session from other SQLite files. */
export const SESSION_FORMAT = 'kvscope-session';

export interface SessionMeta {
  format: typeof SESSION_FORMAT;
  /** `PRAGMA user_version` of the file as it was opened (before any migration). */
  schemaVersion: number;
  /** KVScope version that created the file. */
  appVersion: string;
  /** ISO 8601, UTC. */
  createdAt: string;
  /** Facts about the target (probe facts, `profile --json` `target`); null until known. */
  target: TargetFacts | null;
  /** When the session is a context sweep: what it meant to run (null for other sessions and old files). */
  sweep?: SweepPlan | null;
  /** The user's name for the session (the app's Rename, stored in the file), when it has one. */
  name?: string;
}

export interface SessionRun extends RunRecord {
  /** 1-based position in the session. */
  seq: number;
  /** 'stored': the analysis as the run ended; 'recomputed': from the stored samples (no outcome). */
  analysisSource: 'stored' | 'recomputed';
}

export interface SessionData {
  meta: SessionMeta;
  runs: SessionRun[];
}

/** The session's sweep plan: the stored one, or (sessions written before plans were stored) inferred from its runs. */
export function sweepPlanOf(session: SessionData): SweepPlan | null {
  return session.meta.sweep ?? inferSweepPlan(session.runs);
}

/** The sweep a session holds (its points, fit and summary), or null when it is not a sweep. */
export function sessionSweep(session: SessionData): SweepResultOfRecords | null {
  const plan = sweepPlanOf(session);
  return plan ? summarizeSweep(session.runs, plan) : null;
}

/** What `profile --json` printed when it recorded this session (the sweep's, for a sweep). */
export function summarizeSession(session: SessionData): ProfileSummaryOutput | null {
  return summarizeProfile(session.runs, sweepPlanOf(session));
}
