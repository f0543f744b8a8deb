// The session as a Chrome trace (JSON Object Format, "Trace Event Format" by Google), which
// Perfetto (ui.perfetto.dev) and chrome://tracing open: one process per run (pid = run seq, named
// by a process_name metadata event), one counter track per sample series ("ph": "C", args
// {<series>: value}), and each run event as a process-scoped instant event ("ph": "i", "s": "p").
// Timestamps are microseconds; runs are placed on one time line by their start time, so the steps
// of a sweep follow each other. Series of the procfs sampler keep their key as name
// (rssBytes…); other sources are prefixed (engine.tokens).
import type { SessionData } from './session-data';

export interface TraceEvent {
  name: string;
  ph: 'C' | 'i' | 'M';
  ts?: number;
  pid: number;
  tid?: number;
  s?: 'p' | 'g' | 't';
  cat?: string;
  args: Record<string, unknown>;
}

export interface ChromeTrace {
  traceEvents: TraceEvent[];
  displayTimeUnit: 'ms';
  metadata: Record<string, unknown>;
}

const MAIN_SOURCE = 'procfs';

function startOffsetUs(session: SessionData, startedAt: string): number {
  const t0 = Date.parse(session.runs[0]?.startedAt ?? session.meta.createdAt);
  const t = Date.parse(startedAt);
  return Number.isFinite(t0) && Number.isFinite(t) && t >= t0 ? (t - t0) * 1000 : 0;
}

export function buildPerfettoTrace(session: SessionData): ChromeTrace {
  const traceEvents: TraceEvent[] = [];
  for (const run of session.runs) {
    const pid = run.seq;
    const offset = startOffsetUs(session, run.startedAt);
    traceEvents.push({ name: 'process_name', ph: 'M', pid, tid: 0, args: { name: `run ${run.seq}: ${run.label}` } });
    traceEvents.push({ name: 'process_sort_index', ph: 'M', pid, tid: 0, args: { sort_index: run.seq } });
    for (const s of run.samples) {
      const ts = Math.round(offset + s.tMs * 1000);
      for (const [key, value] of Object.entries(s.values)) {
        if (typeof value !== 'number' || !Number.isFinite(value)) continue;
        const name = s.source === MAIN_SOURCE ? key : `${s.source}.${key}`;
        traceEvents.push({ name, ph: 'C', ts, pid, tid: 0, cat: s.source, args: { [name]: value } });
      }
    }
    for (const ev of run.events) {
      traceEvents.push({
        name: ev.kind,
        ph: 'i',
        s: 'p',
        ts: Math.round(offset + ev.tMs * 1000),
        pid,
        tid: 0,
        cat: 'event',
        args: {
          ...(ev.message !== undefined ? { message: ev.message } : {}),
          ...(ev.data !== undefined ? { data: ev.data } : {}),
        },
      });
    }
  }
  return {
    traceEvents,
    displayTimeUnit: 'ms',
    metadata: {
      'generated-by': 'KVScope',
      'kvscope-version': session.meta.appVersion,
      'session-created': session.meta.createdAt,
      target: session.meta.target,
    },
  };
}

export function renderPerfettoJson(session: SessionData): string {
  return JSON.stringify(buildPerfettoTrace(session)) + '\n';
}
