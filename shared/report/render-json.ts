// `kvscope report --format json`: the session's meta and, per run, the `profile --json` summary
// of its run record (shared/analysis/run-summary.ts; a run whose recording was cut short gets what
// its stored samples and events say).
import { summarizeRun, type ProfileSummaryOutput } from '../analysis/run-summary';
import type { SessionData, SessionMeta } from './session-data';

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
    summary: ProfileSummaryOutput;
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
      summary: summarizeRun(r),
    })),
  };
}

export function renderSummaryJson(session: SessionData): string {
  return JSON.stringify(sessionSummaryJson(session), null, 2) + '\n';
}
