// The session library: every run started from the app, newest first, with what a field engineer
// looks for first (target, model, when, how long, peak RSS, KV per token, decode speed, max safe
// context). Open one into the dashboard, rename it, export it in any report format, delete it
// after a confirmation, or tick two or more and compare them.
import { useEffect, useRef, useState } from 'react';
import { EXPORT_FORMATS, type ExportFormat, type SessionListing } from '../../../../shared/api/session-schemas';
import {
  formatBytes,
  formatBytesPerToken,
  formatMs,
  formatTokens,
  formatTokensPerSecond,
} from '../../../../shared/format/units';
import { MAX_COMPARED_SESSIONS } from '../../state/compare-slice';
import { ConfirmDialog } from '../ConfirmDialog';
import { formatDate } from './session-format';
import { LeftRunsNotice } from './LeftRunsNotice';
import { SessionFileDialog } from './SessionFileDialog';
import { useAppStore } from '../store-context';
import './sessions.css';

const STATE_TEXT: Record<SessionListing['state'], string> = {
  recording: 'recording',
  done: 'finished',
  stopped: 'stopped',
  failed: 'failed',
  recovered: 'recovered',
};

const FORMAT_TEXT: Record<ExportFormat, string> = {
  html: 'HTML report',
  md: 'Markdown report',
  csv: 'CSV samples',
  json: 'JSON summary',
  pdf: 'PDF report',
  perfetto: 'Perfetto trace',
};

/** Said on a session listed from a file outside the library (Open file…, --open): the app leaves it as it is. */
const EXTERNAL_NOTE =
  'a file from outside the library, listed until the app closes: KVScope does not rename or delete it';

function RenameRow({ session }: { session: SessionListing }) {
  const renaming = useAppStore((s) => s.renaming);
  const setRenameText = useAppStore((s) => s.setRenameText);
  const commitRename = useAppStore((s) => s.commitRename);
  const cancelRename = useAppStore((s) => s.cancelRename);
  if (!renaming) return null;
  const errorId = `rename-error-${session.id}`;
  return (
    <form
      className="rename-form"
      onSubmit={(e) => {
        e.preventDefault();
        void commitRename();
      }}
    >
      <label className="field">
        <span className="field-label">Session name</span>
        <input
          type="text"
          value={renaming.name}
          autoFocus
          aria-invalid={Boolean(renaming.error)}
          aria-describedby={renaming.error ? errorId : undefined}
          onChange={(e) => setRenameText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') cancelRename();
          }}
          data-testid="rename-input"
        />
      </label>
      {renaming.error && (
        <span className="field-error" id={errorId}>
          {renaming.error}
        </span>
      )}
      <button type="submit" className="button-secondary" data-testid="rename-save">
        Save
      </button>
      <button type="button" className="link-button" onClick={cancelRename}>
        Cancel
      </button>
    </form>
  );
}

function ExportControl({ session }: { session: SessionListing }) {
  const [format, setFormat] = useState<ExportFormat>('html');
  const exportSession = useAppStore((s) => s.exportSession);
  const working = useAppStore((s) => s.lastExport?.sessionId === session.id && s.lastExport.status === 'working');
  const selectId = `export-format-${session.id}`;
  return (
    <span className="export-control">
      <label className="visually-hidden" htmlFor={selectId}>
        Export format of session {session.name}
      </label>
      <select
        id={selectId}
        value={format}
        onChange={(e) => setFormat(e.target.value as ExportFormat)}
        data-testid={`export-format-${session.id}`}
      >
        {EXPORT_FORMATS.map((f) => (
          <option key={f} value={f}>
            {FORMAT_TEXT[f]}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button-secondary"
        // While it exports the button stays focusable (aria-disabled, a press ignored): disabled, it
        // dropped the focus of the user who pressed it to <body> until the file came.
        disabled={session.error !== null}
        aria-disabled={working || undefined}
        onClick={() => {
          if (!working) void exportSession(session.id, format);
        }}
        aria-label={`${working ? 'Exporting' : 'Export'} session ${session.name}`}
        data-testid={`export-${session.id}`}
      >
        {working ? 'Exporting…' : 'Export'}
      </button>
    </span>
  );
}

function SessionRow({ session, picked, canPick }: { session: SessionListing; picked: boolean; canPick: boolean }) {
  const renamingId = useAppStore((s) => s.renaming?.id ?? null);
  const viewSession = useAppStore((s) => s.viewSession);
  const startRename = useAppStore((s) => s.startRename);
  const askDelete = useAppStore((s) => s.askDelete);
  const toggleCompare = useAppStore((s) => s.toggleCompare);
  const renameButton = useRef<HTMLButtonElement>(null);
  const wasRenaming = useRef(false);
  useEffect(() => {
    const renamingThis = renamingId === session.id;
    // The name field closed (Save, Cancel, Escape) and took the focus with it: it goes back to this
    // row's Rename, so a keyboard user goes on from where they were, not from the top of the page.
    if (wasRenaming.current && !renamingThis && focusIsLost()) renameButton.current?.focus();
    wasRenaming.current = renamingThis;
  }, [renamingId, session.id]);
  const h = session.headline;
  return (
    <li
      className="session-row"
      data-testid={`session-${session.id}`}
      data-state={session.state}
      data-session-id={session.id}
    >
      <div className="session-pick">
        <input
          type="checkbox"
          checked={picked}
          // A picked session whose file became unreadable (damaged or replaced on disk) can still
          // be unticked: the comparison's error tells the user to do just that.
          disabled={!picked && (!canPick || session.error !== null)}
          onChange={() => toggleCompare(session.id)}
          aria-label={`Compare ${session.name}`}
          data-testid={`compare-pick-${session.id}`}
        />
      </div>
      <div className="session-main">
        {renamingId === session.id ? (
          <RenameRow session={session} />
        ) : (
          <h3 className="session-name" data-testid="session-name">
            {session.name}
          </h3>
        )}
        {session.error ? (
          <p className="field-error" data-testid="session-error">
            This file cannot be read: {session.error}.{' '}
            {/* The reason says when the file is from a newer KVScope; a damaged file no version reads. */}
            {session.external
              ? 'KVScope does not change a file it opened from elsewhere.'
              : 'Nothing in it is changed; delete it when you no longer need it.'}
          </p>
        ) : (
          <p className="session-meta muted small">
            <span data-testid="session-target">{session.target}</span> ·{' '}
            <span data-testid="session-model">{session.model}</span> · {formatDate(session.createdAt)} ·{' '}
            <span data-testid="session-duration">{formatMs(session.durationMs)}</span>
            {session.runs > 1 && ` · ${session.runs} runs`} ·{' '}
            <span className={`phase phase-${session.state}`} data-testid="session-state">
              {STATE_TEXT[session.state]}
            </span>
            {session.external && (
              <>
                {' · '}
                <span data-testid="session-external">{EXTERNAL_NOTE}</span>
              </>
            )}
          </p>
        )}
        {h && (
          <dl className="session-numbers">
            <div>
              <dt>Peak RSS</dt>
              <dd data-testid="session-peak-rss">{formatBytes(h.peakRssBytes)}</dd>
            </div>
            <div>
              <dt>KV measured</dt>
              <dd data-testid="session-measured">{formatBytesPerToken(h.measuredBytesPerToken)}</dd>
            </div>
            <div>
              <dt>KV theory</dt>
              <dd data-testid="session-theory">{formatBytesPerToken(h.theoryBytesPerToken)}</dd>
            </div>
            <div>
              <dt>Decode</dt>
              <dd data-testid="session-decode">{formatTokensPerSecond(h.decodeTokensPerSecond)}</dd>
            </div>
            <div>
              <dt>Max safe context</dt>
              <dd data-testid="session-max-context">{formatTokens(h.maxSafeContextTokens)}</dd>
            </div>
            <div>
              <dt>Tokens</dt>
              <dd data-testid="session-tokens">{formatTokens(h.tokens)}</dd>
            </div>
          </dl>
        )}
      </div>
      <div className="session-actions">
        <button
          type="button"
          className="button-secondary"
          disabled={session.error !== null}
          onClick={() => void viewSession(session.id).then(focusShownViewIfLost)}
          aria-label={`Open session ${session.name}`}
          data-testid={`open-${session.id}`}
        >
          Open
        </button>
        <button
          ref={renameButton}
          type="button"
          className="link-button"
          disabled={session.external || session.error !== null}
          title={session.external ? EXTERNAL_NOTE : undefined}
          onClick={() => startRename(session.id)}
          aria-label={`Rename session ${session.name}`}
          data-testid={`rename-${session.id}`}
        >
          Rename
        </button>
        <ExportControl session={session} />
        <button
          type="button"
          className="link-button danger"
          disabled={session.external || session.state === 'recording'}
          title={session.external ? EXTERNAL_NOTE : session.state === 'recording' ? 'Stop the run first' : undefined}
          onClick={() => askDelete(session.id)}
          aria-label={`Delete session ${session.name}`}
          data-testid={`delete-${session.id}`}
        >
          Delete
        </button>
      </div>
    </li>
  );
}

/** The focus went with an element that closed or was removed (the browser then puts it on the body). */
function focusIsLost(): boolean {
  return document.activeElement === null || document.activeElement === document.body;
}

/**
 * Open and Compare show another view: the button pressed goes with this one and the focus with
 * it, to <body>. Once the view is drawn (the next frame) the focus goes to its tab, which names it.
 */
function focusShownViewIfLost(): void {
  requestAnimationFrame(() => {
    if (focusIsLost()) document.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
  });
}

/** The session whose row takes a deleted row's place: the next one, else the one before, else none. */
function neighbourOf(sessions: readonly SessionListing[], id: string): string | null {
  const index = sessions.findIndex((s) => s.id === id);
  return sessions[index + 1]?.id ?? sessions[index - 1]?.id ?? null;
}

function ConfirmDeleteDialog({ onDeleted }: { onDeleted: (gone: string, next: string | null) => void }) {
  const session = useAppStore((s) => s.confirmDelete);
  const sessions = useAppStore((s) => s.sessions);
  const cancel = useAppStore((s) => s.cancelDelete);
  const confirm = useAppStore((s) => s.confirmDeleteSession);
  if (!session) return null;
  return (
    <ConfirmDialog
      title="Delete this session?"
      testId="confirm-delete"
      confirmLabel="Delete session"
      onCancel={cancel}
      onConfirm={() => {
        const next = neighbourOf(sessions, session.id);
        void confirm().then(() => onDeleted(session.id, next));
      }}
    >
      “<strong>{session.name}</strong>” ({session.target}, {formatDate(session.createdAt)}) and all its samples will be
      removed from this computer. Exported reports are not affected. This cannot be undone.
    </ConfirmDialog>
  );
}

export function SessionsView() {
  const sessions = useAppStore((s) => s.sessions);
  const status = useAppStore((s) => s.sessionsStatus);
  const error = useAppStore((s) => s.sessionsError);
  const actionError = useAppStore((s) => s.sessionActionError);
  const lastExport = useAppStore((s) => s.lastExport);
  const picked = useAppStore((s) => s.compareIds);
  const loadSessions = useAppStore((s) => s.loadSessions);
  const compareSessions = useAppStore((s) => s.compareSessions);
  const setView = useAppStore((s) => s.setView);
  const openFileDialog = useAppStore((s) => s.openFileDialog);
  const canPick = picked.length < MAX_COMPARED_SESSIONS;
  const list = useRef<HTMLUListElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The deleted row took the focus with it (its Delete button had it back from the dialog): it goes
  // to the row that took its place, or to the heading when the list is empty, not to the page's start.
  // Looked at on the next frame: the list without the row is rendered by then.
  const focusAfterDelete = (gone: string, next: string | null) =>
    requestAnimationFrame(() => {
      if (!focusIsLost() || list.current?.querySelector(`[data-session-id="${CSS.escape(gone)}"]`)) return;
      const row = next ? list.current?.querySelector(`[data-session-id="${CSS.escape(next)}"]`) : null;
      const control = row?.querySelector<HTMLElement>('button:not([disabled]), input:not([disabled]), select');
      (control ?? heading.current)?.focus();
    });

  return (
    <section className="panel sessions-view" aria-labelledby="sessions-heading" data-testid="sessions-view">
      <div className="panel-head">
        <h2 id="sessions-heading" ref={heading} tabIndex={-1}>
          Sessions
        </h2>
        <div className="panel-tools">
          <span className="muted small" data-testid="compare-count">
            {picked.length} picked for comparison
          </span>
          <button
            type="button"
            className="button-secondary"
            disabled={picked.length < 2}
            title={picked.length < 2 ? 'Tick two or more sessions' : undefined}
            onClick={() => {
              compareSessions(picked);
              focusShownViewIfLost();
            }}
            data-testid="compare-picked"
          >
            Compare
          </button>
          <button
            type="button"
            className="button-secondary"
            onClick={() => openFileDialog('open')}
            data-testid="sessions-open-file"
          >
            Open file…
          </button>
          <button
            type="button"
            className="button-secondary"
            onClick={() => openFileDialog('import')}
            data-testid="sessions-import-log"
          >
            Import log…
          </button>
          <button type="button" className="link-button" onClick={() => void loadSessions()}>
            Refresh
          </button>
        </div>
      </div>
      <LeftRunsNotice />
      {status === 'error' && (
        <div className="banner banner-error" role="alert" data-testid="sessions-error">
          Could not list the sessions: {error}.{' '}
          <button type="button" className="link-button" onClick={() => void loadSessions()}>
            Try again
          </button>
        </div>
      )}
      {actionError && (
        <div className="banner banner-error" role="alert" data-testid="session-action-error">
          {actionError}
        </div>
      )}
      {lastExport && lastExport.status !== 'working' && (
        <div
          className={`banner ${lastExport.status === 'error' ? 'banner-error' : 'banner-info'}`}
          role="status"
          data-testid="export-status"
        >
          {lastExport.message}
        </div>
      )}
      {status === 'loading' && sessions.length === 0 && <p className="muted">Reading the sessions…</p>}
      {status === 'ready' && sessions.length === 0 && (
        <div className="chart-empty" data-testid="sessions-empty">
          <div className="chart-empty-title">No sessions yet</div>
          <p>
            Every run you start is kept here with its samples and numbers. Choose a target and a workload, then press
            Start.{' '}
            <button type="button" className="link-button" onClick={() => setView('run')}>
              Go to the run
            </button>{' '}
            A log from a board without a link (tegrastats, perf, pmap, vcgencmd, llama.cpp) comes in with Import log…
            above.
          </p>
        </div>
      )}
      <ul className="session-list" data-testid="session-list" ref={list}>
        {sessions.map((session) => (
          <SessionRow key={session.id} session={session} picked={picked.includes(session.id)} canPick={canPick} />
        ))}
      </ul>
      <ConfirmDeleteDialog onDeleted={focusAfterDelete} />
      <SessionFileDialog />
    </section>
  );
}
