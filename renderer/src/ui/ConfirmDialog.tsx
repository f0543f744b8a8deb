// A question before something that cannot be undone (delete a session, discard a left run, remove a board): what
// goes, Cancel (focused first) and the danger button.
import type { ReactNode } from 'react';
import { Modal } from './Modal';

export function ConfirmDialog({
  title,
  testId,
  confirmLabel,
  onCancel,
  onConfirm,
  children,
}: {
  title: string;
  /** The dialog's test id; its confirm button is `<testId>-yes`. */
  testId: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <Modal title={title} onCancel={onCancel} testId={testId} tone="warn">
      <p>{children}</p>
      <div className="modal-actions">
        <button type="button" className="button-secondary" onClick={onCancel} data-autofocus>
          Cancel
        </button>
        <button type="button" className="button-danger" onClick={onConfirm} data-testid={`${testId}-yes`}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
