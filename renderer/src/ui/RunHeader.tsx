import { formatBytesPerToken } from '../../../shared/format/units';
import { useAppStore } from './store-context';

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

const PHASE_TEXT = {
  idle: 'no run',
  starting: 'starting',
  running: 'running',
  stopping: 'stopping',
  done: 'finished',
  failed: 'failed',
} as const;

export function RunHeader() {
  const run = useAppStore((s) => s.run);
  const connection = useAppStore((s) => s.connection);
  const tokens = useAppStore((s) => Math.max(s.chart.xMax, s.run.analysis?.throughput.tokens ?? 0));
  const leak = useAppStore((s) => s.run.analysis?.leak);
  const samples = useAppStore((s) => s.chart.samples);

  return (
    <div className="run-header">
      <div className="run-title">
        <h1 className="run-label" title={run.label ?? undefined}>
          {run.label ?? (run.phase === 'idle' ? 'No run yet' : 'Run')}
        </h1>
        <span
          className={`phase phase-${run.phase}`}
          data-testid="run-phase"
          data-phase={run.phase}
          hidden={run.phase === 'idle'}
        >
          {PHASE_TEXT[run.phase]}
        </span>
        {run.runId && <span className="muted mono small">{run.runId}</span>}
        {run.phase !== 'idle' && (
          <span className="muted small" data-testid="run-progress">
            {plural(tokens, 'token')} · {plural(samples, 'sample')}
          </span>
        )}
      </div>
      {connection === 'reconnecting' && (
        <div className="banner banner-warn" role="status" data-testid="connection-lost">
          <strong>Connection to KVScope lost, reconnecting…</strong> The run continues on the machine. If KVScope was
          restarted, open the new URL it printed.
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
      {run.phase === 'done' && run.engineExitCode !== null && (
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
