// Add or edit a saved board: how to reach it (host, port, user, identity file, jump hosts,
// known-hosts file). No password field on purpose: the app asks for one when a connection needs
// it, and remembers it only on request, in the OS keychain. "Remove board" asks first, naming the
// board; once it is gone the focus goes to the board that took its place in the list.
import { useState } from 'react';
import type { BoardInfo } from '../../../shared/api/schemas';
import type { BoardDraft, BoardField } from '../state/board-form';
import { ConfirmDialog } from './ConfirmDialog';
import { FormError } from './FormError';
import { LabelledField } from './LabelledField';
import { Modal } from './Modal';
import { useAppStore } from './store-context';

type TextField = Exclude<keyof BoardDraft, 'alias'>;

function Field({
  field,
  label,
  hint,
  placeholder,
  multiline,
  wide,
}: {
  field: TextField;
  label: string;
  hint?: string;
  placeholder?: string;
  multiline?: boolean;
  wide?: boolean;
}) {
  const value = useAppStore((s) => s.editor?.draft[field] ?? '');
  const error = useAppStore((s) => s.editor?.errors[field as BoardField]);
  const setBoardField = useAppStore((s) => s.setBoardField);
  const id = `board-field-${field}`;
  return (
    <div className={wide ? 'span-2' : undefined}>
      {/* Named exactly by its label; the hint or the error describes it (LabelledField). */}
      <LabelledField id={id} label={label} hint={hint} error={error} errorTestId={`board-error-${field}`}>
        {(describedBy) => {
          const common = {
            id,
            value,
            placeholder,
            spellCheck: false,
            'aria-invalid': Boolean(error),
            'aria-describedby': describedBy,
            'data-testid': `board-${field}`,
          };
          return multiline ? (
            <textarea className="mono" rows={2} {...common} onChange={(e) => setBoardField(field, e.target.value)} />
          ) : (
            <input type="text" autoComplete="off" {...common} onChange={(e) => setBoardField(field, e.target.value)} />
          );
        }}
      </LabelledField>
    </div>
  );
}

/** The board whose row takes a removed row's place: the next one, else the one before. */
function neighbourOf(boards: readonly BoardInfo[], id: string): string | null {
  const index = boards.findIndex((b) => b.id === id);
  return boards[index + 1]?.id ?? boards[index - 1]?.id ?? null;
}

/**
 * After a removal the focus went with the editor's opener (the removed row's Edit button) to the
 * page's start: it goes to the neighbour's row, or to "+ Add board" when that row cannot take it.
 */
function focusAfterRemoval(neighbourId: string | null): void {
  if (document.activeElement !== null && document.activeElement !== document.body) return;
  const row = neighbourId ? document.querySelector<HTMLButtonElement>(`[data-testid="board-${neighbourId}"]`) : null;
  if (row && !row.disabled) row.focus();
  else document.querySelector<HTMLElement>('[data-testid="add-board"]')?.focus();
}

export function BoardEditor() {
  const editor = useAppStore((s) => s.editor);
  const board = useAppStore((s) => (s.editor?.id ? s.boards.find((b) => b.id === s.editor?.id) : undefined));
  const saveBoard = useAppStore((s) => s.saveBoard);
  const closeEditor = useAppStore((s) => s.closeEditor);
  const removeBoard = useAppStore((s) => s.removeBoard);
  const forgetSecrets = useAppStore((s) => s.forgetSecrets);
  const secretStorage = useAppStore((s) => s.secretStorage);
  const boards = useAppStore((s) => s.boards);
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  if (!editor) return null;
  const general = editor.errors.general;
  const remembered = board?.rememberedSecrets ?? 0;

  const remove = (id: string) => {
    setConfirmingRemove(false);
    const next = neighbourOf(boards, id);
    void removeBoard(id).then(() => requestAnimationFrame(() => focusAfterRemoval(next)));
  };

  return (
    <Modal
      title={editor.mode === 'add' ? 'Add a board' : `Edit ${board?.label ?? 'board'}`}
      onCancel={closeEditor}
      testId="board-editor"
      wide
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          // Refused for a field's error: the focus goes to the first such field (its error is its
          // description), not left on Save with the error possibly out of view, as the run form does.
          void saveBoard().then((saved) => {
            if (saved) return;
            requestAnimationFrame(() => {
              const field = form.querySelector<HTMLElement>('[aria-invalid="true"]');
              field?.scrollIntoView({ block: 'nearest' });
              field?.focus();
            });
          });
        }}
      >
        <fieldset disabled={editor.saving}>
          <div className="field-grid">
            <Field field="label" label="Name" placeholder="e.g. Jetson Orin (lab)" hint="Defaults to the host" wide />
            <Field field="host" label="Host" placeholder="192.168.1.50 or orin.local" />
            <Field field="port" label="Port" />
            <Field field="user" label="User" placeholder="your local user name" />
            <Field field="keepaliveSec" label="Keepalive" placeholder="15 s default" />
            <Field
              field="identityFile"
              label="Identity file"
              placeholder="~/.ssh/id_ed25519"
              hint="Empty: ssh-agent, then ~/.ssh/id_*"
              wide
            />
            <Field
              field="jump"
              label="Jump hosts"
              placeholder="user@bastion:22 (one per line, outermost first)"
              multiline
              wide
            />
            <Field
              field="knownHostsFile"
              label="Known-hosts file"
              placeholder="~/.ssh/known_hosts"
              hint="Read as well as KVScope's own store, where accepted keys are kept"
              wide
            />
          </div>
          {editor.draft.alias && (
            <p className="muted small">
              From ~/.ssh/config Host {editor.draft.alias}: its other settings apply when connecting.
            </p>
          )}
          <p className="muted small" data-testid="board-password-note">
            No password here: KVScope asks when the board needs one.{' '}
            {secretStorage?.available
              ? 'Tick “remember” in that dialog to keep it in the OS keychain.'
              : (secretStorage?.reason ?? '')}
          </p>
          {remembered > 0 && board && (
            <p className="small">
              {remembered} remembered credential{remembered === 1 ? '' : 's'}.{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => void forgetSecrets(board.id)}
                data-testid="forget-secrets"
              >
                Forget
              </button>
            </p>
          )}
        </fieldset>
        <FormError text={general} testId="board-error" />
        <div className="modal-actions">
          {editor.mode === 'edit' && editor.id && (
            <button
              type="button"
              className="button-danger modal-action-left"
              onClick={() => setConfirmingRemove(true)}
              data-testid="board-remove"
            >
              Remove board
            </button>
          )}
          <button type="button" className="button-secondary" onClick={closeEditor} data-testid="board-cancel">
            Cancel
          </button>
          <button type="submit" className="button-primary" disabled={editor.saving} data-testid="board-save">
            {editor.saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
      {confirmingRemove && editor.id && (
        <ConfirmDialog
          title={`Remove ${board?.label ?? 'this board'}?`}
          testId="confirm-remove-board"
          confirmLabel="Remove board"
          onCancel={() => setConfirmingRemove(false)}
          onConfirm={() => remove(editor.id as string)}
        >
          “<strong>{board?.label ?? editor.id}</strong>” leaves the board list
          {remembered > 0 ? ', with the credentials remembered for it' : ''}. Sessions recorded on it are kept.
        </ConfirmDialog>
      )}
    </Modal>
  );
}
