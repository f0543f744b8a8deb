import { useAppStore } from './store-context';

export function TargetList() {
  const targets = useAppStore((s) => s.targets);
  const status = useAppStore((s) => s.targetsStatus);
  const error = useAppStore((s) => s.targetsError);
  const selectedId = useAppStore((s) => s.selectedTargetId);
  const selectTarget = useAppStore((s) => s.selectTarget);
  const loadTargets = useAppStore((s) => s.loadTargets);
  const locked = useAppStore((s) => s.run.phase === 'starting' || s.run.phase === 'running' || s.run.phase === 'stopping');

  return (
    <section className="panel" aria-labelledby="targets-heading">
      <div className="panel-head">
        <h2 id="targets-heading">Targets</h2>
        <button type="button" className="link-button" onClick={() => void loadTargets()} disabled={status === 'loading'}>
          Refresh
        </button>
      </div>
      {status === 'loading' && targets.length === 0 && <p className="muted">Looking for targets…</p>}
      {status === 'error' && (
        <p className="field-error" role="alert" data-testid="targets-error">
          Could not list targets: {error}
        </p>
      )}
      {status === 'ready' && targets.length === 0 && <p className="muted">No targets.</p>}
      <ul className="target-list" data-testid="target-list">
        {targets.map((target) => (
          <li key={target.id}>
            <button
              type="button"
              className={`target${target.id === selectedId ? ' target-selected' : ''}`}
              aria-pressed={target.id === selectedId}
              disabled={locked}
              onClick={() => selectTarget(target.id)}
              data-testid={`target-${target.id}`}
            >
              <span className="target-icon" aria-hidden="true">
                {target.spec.kind === 'local' ? '▣' : '⇄'}
              </span>
              <span className="target-label">{target.label}</span>
              <span className="target-kind">{target.spec.kind === 'local' ? 'local' : `ssh ${target.spec.host}`}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
