// `kvscope report --format json`: the session's meta and, per run, the `profile --json` summary
// (stored at the end of the run, or rebuilt from the stored samples after a crash).
import type { ProfileSummary } from '../api/schemas';
import { runSummary, type SessionData, type SessionMeta } from './session-data';

export interface SessionSummaryJson {
  session: SessionMeta;
  runs: Array<{
    seq: number;
    id: string;
    label: string;
    state: string;
    startedAt: string;
    endedAt: string | null;
    /** 'stored': as the run ended; 'recomputed': from the stored samples (the recording was cut short). */
    analysisSource: 'stored' | 'recomputed';
    summary: ProfileSummary;
  }>;
}

export function sessionSummaryJson(session: SessionData): SessionSummaryJson {
  return {
    session: session.meta,
    runs: session.runs.map((r) => ({
      seq: r.seq,
      id: r.id,
      label: r.label,
      state: r.state,
      startedAt: r.startedAt,
      endedAt: r.endedAt,
      analysisSource: r.analysisSource,
      summary: runSummary(r, session.meta.target),
    })),
  };
}

export function renderSummaryJson(session: SessionData): string {
  return JSON.stringify(sessionSummaryJson(session), null, 2) + '\n';
}
