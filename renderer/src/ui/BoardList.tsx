// The board list of the left column: This computer and the saved boards; select one for the
// run form, add / edit a board, import boards from ~/.ssh/config, and "Test & probe" the selected
// one (its facts and findings appear in the device card of the main column).
import { useLayoutEffect, useRef } from 'react';
import type { BoardInfo } from '../../../shared/api/schemas';
import { useAppStore } from './store-context';

function sshAddress(spec: Extract<BoardInfo['spec'], { kind: 'ssh' }>): string {
  const host = spec.host.includes(':') ? `[${spec.host}]` : spec.host;
  return `${spec.user ? spec.user + '@' : ''}${host}${spec.port && spec.port !== 22 ? `:${spec.port}` : ''}`;
}

/**
 * "Test & probe" becomes a disabled "Connecting…" while it probes: Chromium then dropped the focus
 * it had (Enter, a click) to <body> for the whole probe and after it. It goes to the next control
 * of the row, "+ Add board", as it does when a question asked by the connection closes
 * (focus-return.ts). Checked in a layout effect, while the disabled button still holds it.
 */
function useProbeFocus(probing: boolean) {
  const probe = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (probing && probe.current !== null && document.activeElement === probe.current) next.current?.focus();
  }, [probing]);
  return { probe, next };
}

export function BoardList() {
  const boards = useAppStore((s) => s.boards);
  const status = useAppStore((s) => s.boardsStatus);
  const error = useAppStore((s) => s.boardsError);
  const selectedId = useAppStore((s) => s.selectedBoardId);
  const selectBoard = useAppStore((s) => s.selectBoard);
  const loadBoards = useAppStore((s) => s.loadBoards);
  const openEditor = useAppStore((s) => s.openEditor);
  const openImporter = useAppStore((s) => s.openImporter);
  const probeBoard = useAppStore((s) => s.probeBoard);
  const setView = useAppStore((s) => s.setView);
  const probing = useAppStore((s) => (s.selectedBoardId ? s.probes[s.selectedBoardId]?.status === 'probing' : false));
  const locked = useAppStore(
    (s) => s.run.phase === 'starting' || s.run.phase === 'running' || s.run.phase === 'stopping',
  );
  const selected = boards.find((b) => b.id === selectedId);
  const { probe: probeRef, next: addBoardRef } = useProbeFocus(probing);

  return (
    <section className="panel" aria-labelledby="boards-heading">
      <div className="panel-head">
        <h2 id="boards-heading">Boards</h2>
        <button
          type="button"
          className="link-button"
          // While it loads the button stays focusable (aria-disabled, a press ignored): disabled, it
          // dropped the focus of the user who pressed it to <body>.
          onClick={() => {
            if (status !== 'loading') void loadBoards();
          }}
          aria-disabled={status === 'loading' || undefined}
          title="Reload the list"
        >
          Refresh
        </button>
      </div>
      {status === 'loading' && boards.length === 0 && <p className="muted">Looking for boards…</p>}
      {status === 'error' && (
        <p className="field-error" role="alert" data-testid="boards-error">
          Could not list boards: {error}
        </p>
      )}
      {status === 'ready' && boards.length === 0 && <p className="muted">No boards.</p>}
      <ul className="board-list" data-testid="board-list">
        {boards.map((board) => (
          <li key={board.id} className="board-row">
            <button
              type="button"
              className={`board${board.id === selectedId ? ' board-selected' : ''}`}
              aria-pressed={board.id === selectedId}
              disabled={locked}
              onClick={() => selectBoard(board.id)}
              data-testid={`board-${board.id}`}
              title={
                board.spec.kind === 'ssh'
                  ? `ssh ${sshAddress(board.spec)}${board.spec.jump?.length ? ` via ${board.spec.jump.join(' → ')}` : ''}`
                  : 'This computer'
              }
            >
              <span className="board-icon" aria-hidden="true">
                {board.spec.kind === 'local' ? '▣' : '⇄'}
              </span>
              <span className="board-text">
                <span className="board-label">{board.label}</span>
                <span className="board-kind">
                  {board.spec.kind === 'local' ? 'local' : sshAddress(board.spec)}
                  {board.spec.kind === 'ssh' && board.spec.jump?.length
                    ? ` via ${board.spec.jump.length} jump${board.spec.jump.length === 1 ? '' : 's'}`
                    : ''}
                </span>
              </span>
            </button>
            {board.spec.kind === 'ssh' && (
              <button
                type="button"
                className="icon-button"
                onClick={() => openEditor(board.id)}
                aria-label={`Edit ${board.label}`}
                title="Edit board"
                data-testid={`edit-board-${board.id}`}
              >
                ✎
              </button>
            )}
          </li>
        ))}
      </ul>
      <div className="board-actions">
        <button
          type="button"
          ref={probeRef}
          className="button-secondary"
          disabled={!selected || probing}
          onClick={() => {
            if (!selected) return;
            // The answer (the device card and its findings) is on the Run view.
            setView('run');
            void probeBoard(selected.id);
          }}
          aria-label={selected ? `${probing ? 'Connecting to' : 'Test & probe'} ${selected.label}` : undefined}
          data-testid="probe-board"
          title="Connect, read the board's facts and check them"
        >
          {probing ? 'Connecting…' : 'Test & probe'}
        </button>
        <span className="board-links">
          <button
            type="button"
            ref={addBoardRef}
            className="link-button"
            onClick={() => openEditor()}
            data-testid="add-board"
          >
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
