// The Sessions view's two ways in for what the app did not record itself, both read on the
// computer KVScope runs on: Open a session file (a colleague's, `profile --out`, `kvscope import`),
// listed for the app's lifetime like `kvscope web --open`; and Import a board's log captured
// without a link (tegrastats, perf, pmap, vcgencmd, llama.cpp) into a new session, as `kvscope
// import` does. Either way the session then opens in the dashboard.
import { useEffect, useRef, useState } from 'react';
import { IMPORT_KINDS, type ImportKind } from '../../../../shared/api/session-schemas';
import { RunRequestSchema } from '../../../../shared/api/schemas';
import { LabelledField } from '../LabelledField';
import { Modal } from '../Modal';
import { useAppStore } from '../store-context';
import type { FileDialogState } from '../../state/view-types';

type FileDialogMode = FileDialogState['mode'];

const KIND_TEXT: Record<ImportKind, string> = {
  tegrastats: 'tegrastats (Jetson)',
  perf: 'perf stat -I (CSV or human)',
  pmap: 'pmap -x, repeated',
  vcgencmd: 'vcgencmd loop (Raspberry Pi)',
  'llama-log': 'llama.cpp log',
};

/** The spacing a log without times of its own is given (tegrastats' own default, --interval 1000). */
const DEFAULT_INTERVAL_MS = 1000;
const INTERVAL_RANGE = RunRequestSchema.shape.intervalMs.unwrap();

export function SessionFileDialog() {
  const dialog = useAppStore((s) => s.fileDialog);
  const close = useAppStore((s) => s.closeFileDialog);
  const submit = useAppStore((s) => s.submitFileDialog);
  const browse = useAppStore((s) => s.browseForFile);
  const clearError = useAppStore((s) => s.clearFileDialogError);
  // The desktop app opens the system's dialog; a page in a browser cannot name a file, so it is typed.
  const desktop = useAppStore((s) => s.appInfo?.shell === 'electron');
  // A path for each purpose (a log to import, a session to open): the one typed for the other is
  // never offered, while each comes back as it was left, to correct a typo.
  const [paths, setPaths] = useState<Record<FileDialogMode, string>>({ import: '', open: '' });
  const [kind, setKind] = useState<ImportKind>('tegrastats');
  const [interval, setIntervalText] = useState(String(DEFAULT_INTERVAL_MS));
  const [intervalError, setIntervalError] = useState<string | null>(null);
  // A refusal of the file is the path field's description: the focus goes there from the button
  // that asked (it keeps the focus while it works), or from <body> when it was lost meanwhile.
  const working = dialog?.working === true;
  const error = dialog?.error ?? null;
  const submitButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (working || error === null) return;
    const active = document.activeElement;
    if (active === null || active === document.body || active === submitButton.current)
      document.getElementById('session-file-path')?.focus();
  }, [working, error]);
  if (!dialog) return null;
  const importing = dialog.mode === 'import';
  const path = paths[dialog.mode];
  const setPath = (value: string) => setPaths((p) => ({ ...p, [dialog.mode]: value }));
  const onSubmit = () => {
    if (!importing) return void submit({ path });
    const ms = Number(interval);
    const parsed = INTERVAL_RANGE.safeParse(interval.trim() === '' ? NaN : ms);
    if (!parsed.success) {
      setIntervalError(
        `whole milliseconds from ${INTERVAL_RANGE.minValue ?? 0} to ${INTERVAL_RANGE.maxValue ?? Infinity}`,
      );
      return;
    }
    setIntervalError(null);
    void submit({ path, kind, intervalMs: parsed.data });
  };
  return (
    <Modal
      title={importing ? 'Import a board log' : 'Open a session file'}
      onCancel={close}
      testId="session-file-dialog"
    >
      <form
        className="session-file-form"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <p className="muted small">
          {importing ? (
            <>
              A log captured on a board without a link to KVScope becomes a session of its own, as{' '}
              <code>kvscope import</code> makes it.
            </>
          ) : (
            <>
              A <code>.kvscope</code> file made elsewhere (another computer, <code>kvscope profile --out</code>,{' '}
              <code>kvscope import</code>) is listed until the app closes; the app does not change it.
            </>
          )}
        </p>
        {importing && (
          <LabelledField id="import-kind" label="Log kind" errorTestId="import-kind-error">
            {(describedBy) => (
              <select
                id="import-kind"
                value={kind}
                aria-describedby={describedBy}
                onChange={(e) => {
                  setKind(e.target.value as ImportKind);
                  clearError();
                }}
                data-testid="import-kind"
              >
                {IMPORT_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {KIND_TEXT[k]}
                  </option>
                ))}
              </select>
            )}
          </LabelledField>
        )}
        <LabelledField
          id="session-file-path"
          label={importing ? 'Log file' : 'Session file'}
          hint={
            importing
              ? 'The full path on the computer KVScope runs on (from / or ~/); a .gz log is read as it is.'
              : 'The full path on the computer KVScope runs on (from / or ~/).'
          }
          error={dialog.error ?? undefined}
          errorTestId="session-file-error"
        >
          {(describedBy) => (
            <input
              id="session-file-path"
              type="text"
              value={path}
              spellCheck={false}
              autoComplete="off"
              placeholder={importing ? '~/logs/tegrastats.log' : '~/Downloads/orin-nano.kvscope'}
              aria-invalid={Boolean(dialog.error)}
              aria-describedby={describedBy}
              onChange={(e) => {
                setPath(e.target.value);
                clearError();
              }}
              data-autofocus
              data-testid="session-file-path"
            />
          )}
        </LabelledField>
        {desktop && (
          <button
            type="button"
            className="button-secondary session-file-browse"
            onClick={() =>
              void browse().then((chosen) => {
                if (chosen === null) return;
                setPath(chosen);
                clearError();
              })
            }
            data-testid="session-file-browse"
          >
            Browse…
          </button>
        )}
        {importing && (
          <LabelledField
            id="import-interval"
            label="Interval between readings"
            hint="ms; used only where the log prints no times of its own"
            error={intervalError ?? undefined}
            errorTestId="import-interval-error"
          >
            {(describedBy) => (
              <input
                id="import-interval"
                type="text"
                inputMode="numeric"
                value={interval}
                aria-invalid={Boolean(intervalError)}
                aria-describedby={describedBy}
                onChange={(e) => setIntervalText(e.target.value)}
                data-testid="import-interval"
              />
            )}
          </LabelledField>
        )}
        <div className="modal-actions">
          <button type="button" className="button-secondary" onClick={close} data-testid="session-file-cancel">
            Cancel
          </button>
          {/* While it works the button stays focusable (aria-disabled; a second submit is ignored by
              submitFileDialog): disabled, it dropped the focus of the user who pressed it to <body>. */}
          <button
            ref={submitButton}
            type="submit"
            className="button-primary"
            aria-disabled={dialog.working || undefined}
            data-testid="session-file-submit"
          >
            {dialog.working ? (importing ? 'Importing…' : 'Opening…') : importing ? 'Import' : 'Open'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
