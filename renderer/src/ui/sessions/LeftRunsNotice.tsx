// What a dead app left on the selected board (renderer/src/state/left-runs-slice.ts): shown after a
// probe, above the device card and in the session library. Each run is named (its label, its
// start) with its age, and offered: Recover imports it into a session (then its run directory on
// the board goes), Discard removes it after a confirmation.
import type { LeftRun } from '../../../../shared/api/session-schemas';
import { ConfirmDialog } from '../ConfirmDialog';
import { useAppStore } from '../store-context';
import { formatAge, formatDate } from './session-format';
import './sessions.css';

function runName(run: LeftRun): string {
  return run.label ?? run.dir.slice(run.dir.lastIndexOf('/') + 1);
}

function LeftRunRow({ boardId, run, busy }: { boardId: string; run: LeftRun; busy: boolean }) {
  const recover = useAppStore((s) => s.recoverLeftRun);
  const askDiscard = useAppStore((s) => s.askDiscardLeftRun);
  const working = useAppStore((s) => s.leftRuns[boardId]?.busyDir === run.dir);
  return (
    <li className="left-run" data-testid="left-run" data-dir={run.dir}>
      <span className="left-run-name">
        <strong>{runName(run)}</strong>
        {run.startedAt && <span className="muted"> · started {formatDate(run.startedAt)}</span>}
        <span className="muted" data-testid="left-run-age">
          {' '}
          · last written {formatAge(run.ageS)}
        </span>
        {run.problem && <span className="field-error"> · {run.problem}</span>}
      </span>
      <span className="left-run-actions">
        <button
          type="button"
          className="button-secondary"
          disabled={busy || run.problem !== null}
          title={run.problem ?? undefined}
          onClick={() => void recover(boardId, run.dir)}
          data-testid="left-run-recover"
        >
          {working ? 'Recovering…' : 'Recover'}
        </button>
        <button
          type="button"
          className="link-button"
          disabled={busy}
          onClick={() => askDiscard(boardId, run.dir)}
          data-testid="left-run-discard"
        >
          Discard
        </button>
      </span>
    </li>
  );
}

function ConfirmDiscardDialog() {
  const pending = useAppStore((s) => s.confirmDiscard);
  const cancel = useAppStore((s) => s.cancelDiscardLeftRun);
  const confirm = useAppStore((s) => s.discardLeftRun);
  if (!pending) return null;
  return (
    <ConfirmDialog
      title="Discard this run?"
      testId="confirm-discard"
      confirmLabel="Discard run"
      onCancel={cancel}
      onConfirm={() => void confirm()}
    >
      “<strong>{runName(pending.run)}</strong>” ({formatAge(pending.run.ageS)}) will be removed from the board with its
      samples ({pending.run.dir}). It will not be in the session list. This cannot be undone.
    </ConfirmDialog>
  );
}

/** The offer for the selected board; nothing when it left no runs (or was not probed yet). */
export function LeftRunsNotice() {
  const board = useAppStore((s) => s.boards.find((b) => b.id === s.selectedBoardId) ?? null);
  const state = useAppStore((s) => (s.selectedBoardId ? s.leftRuns[s.selectedBoardId] : undefined));
  if (!board || !state) return null;
  const { runs, busyDir, error, notice } = state;
  if (runs.length === 0 && !error && !notice) return null;
  return (
    <section
      className="banner banner-warn left-runs"
      aria-labelledby="left-runs-heading"
      data-testid="left-runs"
      data-board={board.id}
    >
      {runs.length > 0 && (
        <>
          <h3 id="left-runs-heading">
            {runs.length === 1 ? 'A run' : `${runs.length} runs`} left on {board.label} by an app that stopped
          </h3>
          <p className="muted small">
            Its samples are still on the board. Recover makes a session of each (then removes it from the board).
          </p>
          <ul className="left-run-list">
            {runs.map((run) => (
              <LeftRunRow key={run.dir} boardId={board.id} run={run} busy={busyDir !== null} />
            ))}
          </ul>
        </>
      )}
      {error && (
        <p className="field-error" role="alert" data-testid="left-runs-error">
          {error}
        </p>
      )}
      {notice && (
        <p role="status" data-testid="left-runs-notice">
          {notice}
        </p>
      )}
      <ConfirmDiscardDialog />
    </section>
  );
}
