// What a dead app left on the selected board (renderer/src/state/left-runs-slice.ts): shown after a
// probe, above the device card and in the session library. Each run is named (its label, its
// start) with its age, and offered: Recover imports it into a session (then its run directory on
// the board goes), Discard removes it after a confirmation. A run still running there that no
// window of this app follows (Keep running, then the app closed) says whether another KVScope
// follows it, and is offered Stop on board after a confirmation: it then ends and is recoverable.
import type { LeftRun } from '../../../../shared/api/session-schemas';
import { ConfirmDialog } from '../ConfirmDialog';
import { useAppStore } from '../store-context';
import { useEffect, useState } from 'react';
import { ageSince, formatAge, formatDate } from './session-format';
import './sessions.css';

function runName(run: LeftRun): string {
  return run.label ?? run.dir.slice(run.dir.lastIndexOf('/') + 1);
}

/**
 * A client following a run rewrites its heartbeat every second: one this recent means an app or a
 * CLI follows the run now (a few seconds of slack for a slow link).
 */
const FOLLOWED_HEARTBEAT_S = 10;

function followedNow(run: LeftRun): boolean {
  return run.heartbeatAgeS !== null && run.heartbeatAgeS < FOLLOWED_HEARTBEAT_S;
}

function runningText(run: LeftRun): string {
  return followedNow(run)
    ? ` · running on the board, followed by another KVScope (heartbeat ${formatAge(run.heartbeatAgeS)})`
    : ' · running on the board, no KVScope follows it (kept running by an app that closed)';
}

/** How often the shown ages move on (they are in whole seconds, minutes, hours or days). */
const AGE_REFRESH_MS = 15_000;

/** Date.now(), again every `periodMs` while mounted: the offer's ages move on while it is on screen. */
function useNow(periodMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), periodMs);
    return () => clearInterval(timer);
  }, [periodMs]);
  return now;
}

function LeftRunRow({
  boardId,
  run,
  busy,
  ageS,
}: {
  boardId: string;
  run: LeftRun;
  busy: boolean;
  ageS: number | null;
}) {
  const recover = useAppStore((s) => s.recoverLeftRun);
  const askDiscard = useAppStore((s) => s.askDiscardLeftRun);
  const askStop = useAppStore((s) => s.askStopLeftRun);
  const working = useAppStore((s) => s.leftRuns[boardId]?.busyDir === run.dir);
  if (run.running)
    return (
      <li className="left-run" data-testid="left-run" data-dir={run.dir} data-running="true">
        <span className="left-run-name">
          <strong>{runName(run)}</strong>
          {run.startedAt && <span className="muted"> · started {formatDate(run.startedAt)}</span>}
          <span className="muted" data-testid="left-run-running">
            {runningText(run)}
          </span>
        </span>
        <span className="left-run-actions">
          <button
            type="button"
            className="button-secondary"
            disabled={busy}
            onClick={() => askStop(boardId, run.dir)}
            aria-label={`${working ? 'Stopping' : 'Stop on board'} run ${runName(run)}`}
            data-testid="left-run-stop"
          >
            {working ? 'Stopping…' : 'Stop on board'}
          </button>
        </span>
      </li>
    );
  return (
    <li className="left-run" data-testid="left-run" data-dir={run.dir}>
      <span className="left-run-name">
        <strong>{runName(run)}</strong>
        {run.startedAt && <span className="muted"> · started {formatDate(run.startedAt)}</span>}
        <span className="muted" data-testid="left-run-age">
          {' '}
          · last written {formatAge(ageS)}
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
          aria-label={`${working ? 'Recovering' : 'Recover'} run ${runName(run)}`}
          data-testid="left-run-recover"
        >
          {working ? 'Recovering…' : 'Recover'}
        </button>
        <button
          type="button"
          className="link-button"
          disabled={busy}
          onClick={() => askDiscard(boardId, run.dir)}
          aria-label={`Discard run ${runName(run)}`}
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
  const listedAtMs = useAppStore((s) => (s.confirmDiscard ? s.leftRuns[s.confirmDiscard.boardId]?.listedAtMs : 0));
  const now = useNow(AGE_REFRESH_MS);
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
      “<strong>{runName(pending.run)}</strong>” ({formatAge(ageSince(pending.run.ageS, listedAtMs ?? 0, now))}) will be
      removed from the board with its samples ({pending.run.dir}). It will not be in the session list. This cannot be
      undone.
    </ConfirmDialog>
  );
}

function ConfirmStopDialog() {
  const pending = useAppStore((s) => s.confirmStopLeftRun);
  const cancel = useAppStore((s) => s.cancelStopLeftRun);
  const confirm = useAppStore((s) => s.stopLeftRun);
  if (!pending) return null;
  const { run } = pending;
  return (
    <ConfirmDialog
      title="Stop this run on the board?"
      testId="confirm-stop-left-run"
      confirmLabel="Stop engine"
      onCancel={cancel}
      onConfirm={() => void confirm()}
    >
      “<strong>{runName(run)}</strong>”{run.startedAt ? `, started ${formatDate(run.startedAt)},` : ''} still runs on
      the board ({run.dir}). Its engine will be ended (TERM, then KILL).
      {followedNow(run)
        ? ` Another KVScope is following it right now (heartbeat ${formatAge(run.heartbeatAgeS)}): its run ends too.`
        : ''}{' '}
      The samples stay on the board: Recover then makes a session of the whole run.
    </ConfirmDialog>
  );
}

function heading(runs: LeftRun[], board: string): string {
  const count = (n: number) => (n === 1 ? 'A run' : `${n} runs`);
  const running = runs.filter((r) => r.running).length;
  if (running === 0) return `${count(runs.length)} left on ${board} by an app that stopped`;
  if (running === runs.length) return `${count(running)} still running on ${board}, not followed by this app`;
  return `${count(runs.length)} on ${board} that this app does not follow`;
}

/** The offer for the selected board; nothing when it left no runs (or was not probed yet). */
export function LeftRunsNotice() {
  const board = useAppStore((s) => s.boards.find((b) => b.id === s.selectedBoardId) ?? null);
  const state = useAppStore((s) => (s.selectedBoardId ? s.leftRuns[s.selectedBoardId] : undefined));
  const now = useNow(AGE_REFRESH_MS);
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
          <h3 id="left-runs-heading">{heading(runs, board.label)}</h3>
          {runs.some((r) => !r.running) && (
            <p className="muted small">
              Its samples are still on the board. Recover makes a session of each (then removes it from the board).
            </p>
          )}
          {runs.some((r) => r.running) && (
            <p className="muted small">
              A run still running goes on until its engine ends or you stop it here; its samples stay on the board, and
              once it has ended, Recover makes a session of it.
            </p>
          )}
          <ul className="left-run-list">
            {runs.map((run) => (
              <LeftRunRow
                key={run.dir}
                boardId={board.id}
                run={run}
                busy={busyDir !== null}
                ageS={ageSince(run.ageS, state.listedAtMs, now)}
              />
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
      <ConfirmStopDialog />
    </section>
  );
}
