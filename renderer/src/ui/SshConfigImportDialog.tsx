// "Import from ~/.ssh/config": the concrete Host entries, resolved as ssh(1) resolves them;
// the user adds the ones they want as saved boards.
import { Modal } from './Modal';
import { useAppStore } from './store-context';

export function SshConfigImportDialog() {
  const importer = useAppStore((s) => s.importer);
  const importHost = useAppStore((s) => s.importHost);
  const closeImporter = useAppStore((s) => s.closeImporter);
  if (!importer) return null;

  return (
    <Modal title="Import from ~/.ssh/config" onCancel={closeImporter} testId="ssh-config-import" wide>
      {importer.status === 'loading' && <p className="muted">Reading…</p>}
      {importer.status === 'error' && (
        <p className="field-error" role="alert">
          {importer.error}
        </p>
      )}
      {importer.status === 'ready' && !importer.found && (
        <p className="muted" data-testid="ssh-config-missing">
          There is no <span className="mono">{importer.path}</span>.
        </p>
      )}
      {importer.status === 'ready' && importer.found && importer.hosts.length === 0 && (
        <p className="muted">
          <span className="mono">{importer.path}</span> has no Host entries without wildcards.
        </p>
      )}
      {importer.hosts.length > 0 && (
        <>
          <p className="muted small">
            From <span className="mono">{importer.path}</span>
          </p>
          <ul className="import-list" data-testid="ssh-config-hosts">
            {importer.hosts.map((h) => (
              <li key={h.alias} className="import-row" data-testid={`ssh-host-${h.alias}`}>
                <div className="import-main">
                  <strong>{h.alias}</strong>
                  <span className="mono small">
                    {h.user ? `${h.user}@` : ''}
                    {h.hostName}
                    {h.port && h.port !== 22 ? `:${h.port}` : ''}
                  </span>
                  {h.proxyJump.length > 0 && <span className="muted small">via {h.proxyJump.join(' → ')}</span>}
                  {h.identityFiles.length > 0 && <span className="muted small mono">key {h.identityFiles[0]}</span>}
                  {h.unsupported.length > 0 && <span className="field-hint">{h.unsupported.join(', ')} ignored</span>}
                  {h.problem && <span className="field-error">{h.problem}</span>}
                </div>
                {h.savedBoardId ? (
                  <span className="muted small">saved</span>
                ) : (
                  <button
                    type="button"
                    className="button-secondary"
                    disabled={!h.spec || importer.adding.includes(h.alias)}
                    onClick={() => void importHost(h.alias)}
                    aria-label={`${importer.adding.includes(h.alias) ? 'Adding' : 'Add'} host ${h.alias}`}
                    data-testid={`import-host-${h.alias}`}
                  >
                    {importer.adding.includes(h.alias) ? 'Adding…' : 'Add'}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="modal-actions">
        <button type="button" className="button-secondary" onClick={closeImporter} data-testid="ssh-config-close">
          Done
        </button>
      </div>
    </Modal>
  );
}
