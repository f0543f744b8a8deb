import { useMemo } from 'react';
import type { RunEvent } from '../../../shared/api/schemas';
import { STORED_PREVIEW_BUCKETS } from '../../../shared/api/packed-preview';
import { formatBytesPerToken, formatCount, MISSING } from '../../../shared/format/units';
import { isUserStop } from '../../../shared/run/run-labels';
import { SweepResultTable } from './run-form/SweepProgress';
import { useAppStore } from './store-context';

/** A run that ended because the user pressed Stop (not because it finished its work). */
export function stoppedByUser(events: readonly RunEvent[]): boolean {
  return events.some(isUserStop);
}

/**
 * The target of the run on screen: the recorded session's, the one this tab started it on
 * (tab-memory.ts), or what the session list says about the run (a run started elsewhere).
 */
export function useRunTarget(): { targetId: string | null; label: string } | null {
  const targetId = useAppStore((s) =>
    s.viewedSession || !s.run.runId ? null : (s.runTargets[s.run.runId]?.targetId ?? null),
  );
  const label = useAppStore((s) => {
    if (s.viewedSession) return s.viewedSession.target;
    const runId = s.run.runId;
    if (!runId) return null;
    return s.runTargets[runId]?.label ?? s.sessions.find((x) => x.id === runId)?.target ?? null;
  });
  // A session that names no target (an imported log: the list's '–') names none here either.
  return useMemo(() => (label === null || label === MISSING ? null : { targetId, label }), [targetId, label]);
}

// formatCount, not toLocaleString: the first Intl call loads ICU data (≈ 60 ms under load, bench/ui.bench.ts).
const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

const PHASE_TEXT = {
  idle: 'no run',
  starting: 'starting',
  running: 'running',
  stopping: 'stopping',
  done: 'finished',
  failed: 'failed',
} as const;

/** A session of several runs (a context sweep): which one the dashboard shows, and the choice of the others. */
function SessionRunPicker() {
  const viewedId = useAppStore((s) => s.viewedSession?.id);
  const viewedRuns = useAppStore((s) => s.viewedRuns);
  const showViewedRun = useAppStore((s) => s.showViewedRun);
  if (!viewedRuns || viewedRuns.sessionId !== viewedId) return null;
  return (
    <span className="session-run-picker">
      Showing run{' '}
      <select
        aria-label="Run shown"
        value={viewedRuns.shown}
        onChange={(e) => showViewedRun(Number(e.target.value))}
        data-testid="session-run-picker"
      >
        {viewedRuns.runs.map((r, i) => (
          <option key={r.id} value={i}>
            {i + 1} of {viewedRuns.runs.length}: {r.label}
          </option>
        ))}
      </select>
      .
    </span>
  );
}

/** A recorded sweep's result table, as the form showed it when the sweep ended. */
function SessionSweepResult() {
  const viewedId = useAppStore((s) => s.viewedSession?.id);
  const viewedRuns = useAppStore((s) => s.viewedRuns);
  if (!viewedRuns?.sweep || viewedRuns.sessionId !== viewedId || viewedRuns.sweep.points.length === 0) return null;
  return (
    <details className="session-sweep" open data-testid="session-sweep">
      <summary>Sweep result: {plural(viewedRuns.sweep.points.length, 'context size')}</summary>
      <SweepResultTable points={viewedRuns.sweep.points} result={viewedRuns.sweep.result} />
    </details>
  );
}

export function RunHeader() {
  const run = useAppStore((s) => s.run);
  const connection = useAppStore((s) => s.connection);
  const tokens = useAppStore((s) => Math.max(s.chart.xMax, s.run.analysis?.throughput.tokens ?? 0));
  const leak = useAppStore((s) => s.run.analysis?.leak);
  const samples = useAppStore((s) => s.chart.samples);
  const target = useRunTarget();
  const viewed = useAppStore((s) => s.viewedSession);
  const preview = useAppStore((s) => s.viewedPreview !== null && s.viewedPreview.sessionId === s.viewedSession?.id);
  const leaveSession = useAppStore((s) => s.leaveSession);
  const stopped = run.phase === 'done' && stoppedByUser(run.events);

  return (
    <div className="run-header">
      <div className="run-title">
        <h1 className="run-label" title={run.label ?? undefined}>
          {run.label ?? (run.phase === 'idle' ? 'No run yet' : 'Run')}
        </h1>
        {target && (
          <span className="run-target-name" data-testid="run-target-name">
            on {target.label}
          </span>
        )}
        <span
          className={`phase phase-${stopped ? 'stopped' : run.phase}`}
          data-testid="run-phase"
          data-phase={run.phase}
          data-outcome={stopped ? 'stopped' : run.phase}
          hidden={run.phase === 'idle'}
        >
          {stopped ? 'stopped' : PHASE_TEXT[run.phase]}
        </span>
        {run.runId && (
          <span className="muted mono small" data-testid="run-id">
            {run.runId}
          </span>
        )}
        {run.phase !== 'idle' && (
          <span className="muted small" data-testid="run-progress">
            {plural(tokens, 'token')} · {plural(samples, 'memory sample')}
          </span>
        )}
      </div>
      {viewed && (
        <div className="banner banner-info" role="status" data-testid="viewing-session">
          <strong>Recorded session, read-only:</strong> {viewed.name}. <SessionRunPicker /> Start a run to measure
          again.{' '}
          {preview && (
            <span className="muted" data-testid="session-preview">
              Preview: each series’ lowest and highest values in {formatCount(STORED_PREVIEW_BUCKETS)} slices of time;
              reading every sample…{' '}
            </span>
          )}
          <button type="button" className="link-button" onClick={leaveSession}>
            Close
          </button>
        </div>
      )}
      {viewed && <SessionSweepResult />}
      {connection === 'reconnecting' && (
        <div className="banner banner-warn" role="status" data-testid="connection-lost">
          <strong>Connection to KVScope lost, reconnecting…</strong> The run continues on the machine. If KVScope was
          restarted, open the new URL it printed.
        </div>
      )}
      {connection === 'refused' && (
        <div className="banner banner-error" role="alert" data-testid="connection-refused">
          <strong>KVScope was restarted: this page cannot reconnect.</strong> Open the URL that `kvscope web` printed;
          the sessions recorded so far are there.
        </div>
      )}
      {run.phase === 'failed' && (
        <div className="banner banner-error" role="alert" data-testid="run-error">
          <strong>Run failed.</strong> <span className="multiline">{run.error ?? 'No reason was given.'}</span>
        </div>
      )}
      {run.phase !== 'failed' && run.error && (
        <div className="banner banner-error" role="alert" data-testid="run-error">
          {run.error}
        </div>
      )}
      {leak?.leaking && (
        <div className="banner banner-warn" role="status" data-testid="run-leak">
          <strong>
            Memory grows beyond the KV cache
            {leak.bytesPerToken !== null ? `: ${formatBytesPerToken(leak.bytesPerToken)} more than theory` : ''}.
          </strong>{' '}
          {leak.reason} (confidence {Math.round(leak.confidence * 100)}%)
        </div>
      )}
      {/* A run the user stopped ends with the stop's signal (143 = SIGTERM): the badge says so, not a warning. */}
      {run.phase === 'done' && !stopped && run.engineExitCode !== null && (
        <div
          className={`banner ${run.engineExitCode === 0 ? 'banner-info' : 'banner-warn'}`}
          role="status"
          data-testid="run-exit"
        >
          {run.engineExitCode === 0 ? (
            'Engine exited normally (code 0).'
          ) : (
            <>
              <strong>Engine exited with code {run.engineExitCode}.</strong>{' '}
              {run.engineExitCode === 137
                ? 'Code 137 is SIGKILL, usually the OOM killer.'
                : 'See the engine output below.'}
            </>
          )}
        </div>
      )}
    </div>
  );
}
