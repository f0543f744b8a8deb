// The target manager of the left column: This computer and the saved boards; select one for the
// run form, add / edit a board, import boards from ~/.ssh/config, and "Test & probe" the selected
// one (its facts and findings appear in the device card of the main column).
import type { TargetInfo } from '../../../shared/api/schemas';
import { useAppStore } from './store-context';

function sshAddress(spec: Extract<TargetInfo['spec'], { kind: 'ssh' }>): string {
  const host = spec.host.includes(':') ? `[${spec.host}]` : spec.host;
  return `${spec.user ? spec.user + '@' : ''}${host}${spec.port && spec.port !== 22 ? `:${spec.port}` : ''}`;
}

export function TargetList() {
  const targets = useAppStore((s) => s.targets);
  const status = useAppStore((s) => s.targetsStatus);
  const error = useAppStore((s) => s.targetsError);
  const selectedId = useAppStore((s) => s.selectedTargetId);
  const selectTarget = useAppStore((s) => s.selectTarget);
  const loadTargets = useAppStore((s) => s.loadTargets);
  const openEditor = useAppStore((s) => s.openEditor);
  const openImporter = useAppStore((s) => s.openImporter);
  const probeTarget = useAppStore((s) => s.probeTarget);
  const probing = useAppStore((s) => (s.selectedTargetId ? s.probes[s.selectedTargetId]?.status === 'probing' : false));
  const locked = useAppStore(
    (s) => s.run.phase === 'starting' || s.run.phase === 'running' || s.run.phase === 'stopping',
  );
  const selected = targets.find((t) => t.id === selectedId);

  return (
    <section className="panel" aria-labelledby="targets-heading">
      <div className="panel-head">
        <h2 id="targets-heading">Targets</h2>
        <button
          type="button"
          className="link-button"
          onClick={() => void loadTargets()}
          disabled={status === 'loading'}
          title="Reload the list"
        >
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
          <li key={target.id} className="target-row">
            <button
              type="button"
              className={`target${target.id === selectedId ? ' target-selected' : ''}`}
              aria-pressed={target.id === selectedId}
              disabled={locked}
              onClick={() => selectTarget(target.id)}
              data-testid={`target-${target.id}`}
              title={
                target.spec.kind === 'ssh'
                  ? `ssh ${sshAddress(target.spec)}${target.spec.jump?.length ? ` via ${target.spec.jump.join(' → ')}` : ''}`
                  : 'This computer'
              }
            >
              <span className="target-icon" aria-hidden="true">
                {target.spec.kind === 'local' ? '▣' : '⇄'}
              </span>
              <span className="target-text">
                <span className="target-label">{target.label}</span>
                <span className="target-kind">
                  {target.spec.kind === 'local' ? 'local' : sshAddress(target.spec)}
                  {target.spec.kind === 'ssh' && target.spec.jump?.length
                    ? ` via ${target.spec.jump.length} jump${target.spec.jump.length === 1 ? '' : 's'}`
                    : ''}
                </span>
              </span>
            </button>
            {target.spec.kind === 'ssh' && (
              <button
                type="button"
                className="icon-button"
                onClick={() => openEditor(target.id)}
                aria-label={`Edit ${target.label}`}
                title="Edit board"
                data-testid={`edit-target-${target.id}`}
              >
                ✎
              </button>
            )}
          </li>
        ))}
      </ul>
      <div className="target-actions">
        <button
          type="button"
          className="button-secondary"
          disabled={!selected || probing}
          onClick={() => selected && void probeTarget(selected.id)}
          data-testid="probe-target"
          title="Connect, read the board's facts and check them"
        >
          {probing ? 'Connecting…' : 'Test & probe'}
        </button>
        <span className="target-links">
          <button type="button" className="link-button" onClick={() => openEditor()} data-testid="add-board">
            + Add board
          </button>
          <button
            type="button"
            className="link-button"
            onClick={() => void openImporter()}
            data-testid="import-ssh-config"
            title="Import Host entries from ~/.ssh/config"
          >
            Import ~/.ssh/config
          </button>
        </span>
      </div>
    </section>
  );
}
