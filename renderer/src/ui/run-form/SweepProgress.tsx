// The sweep started from the form: where it is ("point 2 of 3, ctx 2048") while it runs, and
// its result table at the end — one row per context size, then the KV curve fitted over them
// (shared/analysis/sweep.ts), the numbers `kvscope profile --sweep` prints.
import type { SweepPointRow, SweepStatus } from '../../../../shared/api/schemas';
import {
  formatBytes,
  formatBytesPerToken,
  formatCount,
  formatFactor,
  formatTokens,
  formatTokensPerSecond,
} from '../../../../shared/format/units';
import { useAppStore } from '../store-context';

function outcomeOf(point: SweepPointRow): string {
  if (point.oomKilled) return 'OOM-killed';
  if (point.ok) return 'ok';
  return point.error ? `failed: ${point.error}` : `failed (exit ${point.exitCode ?? '?'})`;
}

/** "point 2 of 3, ctx 2048" while running; how it ended otherwise. */
export function sweepProgressText(sweep: SweepStatus): string {
  const current = sweep.runs.at(-1);
  const total = sweep.sizes.length;
  switch (sweep.state) {
    case 'running':
      return current ? `point ${sweep.runs.length} of ${total}, ctx ${current.ctx}` : `starting, ${total} points`;
    case 'done':
      return `done: ${sweep.points.filter((p) => p.ok).length} of ${total} points ok`;
    case 'stopped':
      return `stopped after ${sweep.points.length} of ${total} points`;
    case 'failed':
      return `failed: ${sweep.error ?? 'the first run did not start'}`;
  }
}

/** The points of a sweep, one row per context size, and the KV curve fitted over them. */
export function SweepResultTable({ points, result }: Pick<SweepStatus, 'points' | 'result'>) {
  return (
    <>
      <table className="sweep-table" aria-label="Sweep result by context size" data-testid="sweep-table">
        <thead>
          <tr>
            <th scope="col">Context</th>
            <th scope="col">Result</th>
            <th scope="col">Peak RSS</th>
            <th scope="col">Engine KV</th>
            <th scope="col">Decode</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.ctx} data-testid="sweep-row" data-ctx={p.ctx}>
              <th scope="row">{formatCount(p.ctx)}</th>
              <td className={p.ok ? undefined : 'sweep-bad'}>{outcomeOf(p)}</td>
              <td>{formatBytes(p.peakRssBytes)}</td>
              <td>{formatBytes(p.engineKvBytes ?? null)}</td>
              <td>{formatTokensPerSecond(p.decodeTokensPerSecond ?? null)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {result && (
        <dl className="sweep-fit" data-testid="sweep-fit">
          <dt>Memory per context token</dt>
          <dd data-testid="sweep-measured">{formatBytesPerToken(result.measuredBytesPerToken)}</dd>
          <dt>Theory</dt>
          <dd>{formatBytesPerToken(result.theoryBytesPerToken)}</dd>
          <dt>Overhead</dt>
          <dd data-testid="sweep-overhead">{formatFactor(result.overheadFactor)}</dd>
          <dt>Largest context within budget</dt>
          <dd data-testid="sweep-max-context">{formatTokens(result.maxContextForBudget)}</dd>
          {result.stoppedEarly && (
            <>
              <dt>Stopped early</dt>
              <dd>{result.stoppedEarly}</dd>
            </>
          )}
        </dl>
      )}
    </>
  );
}

export function SweepProgress() {
  const sweep = useAppStore((s) => s.sweep);
  if (!sweep) return null;
  return (
    <section className="sweep-progress" aria-label="Context sweep" data-testid="sweep" data-state={sweep.state}>
      <p className="sweep-status" role="status" data-testid="sweep-progress">
        Sweep {sweepProgressText(sweep)}
      </p>
      {sweep.points.length > 0 && <SweepResultTable points={sweep.points} result={sweep.result} />}
    </section>
  );
}
