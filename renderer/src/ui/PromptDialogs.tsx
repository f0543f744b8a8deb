// The questions a connection asks, one dialog at a time (oldest first):
// - an unknown host key: its SHA256 fingerprint, host:port and key type, to compare with the
//   board's own (`ssh-keygen -lf …` on the board) before "Accept & remember";
// - a password or key passphrase: a masked field and "remember", which is only possible where
//   the OS keychain protects it (the note says why not otherwise); asked again after a wrong
//   passphrase, it says so first (prompt.retry: why, and which attempt of how many).
// The typed secret stays in this component's state, never in the app store.
import { useEffect, useState } from 'react';
import type { CredentialPrompt, HostKeyPrompt } from '../../../shared/api/schemas';
import { Modal } from './Modal';
import { useAppStore } from './store-context';

function useSecondsLeft(expiresAt: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.round((expiresAt - now) / 1000));
}

function Countdown({ expiresAt }: { expiresAt: number }) {
  const left = useSecondsLeft(expiresAt);
  return (
    <span className="muted small">
      Without an answer, this is cancelled in {Math.floor(left / 60)}:{String(left % 60).padStart(2, '0')}.
    </span>
  );
}

function hostPort(host: string, port: number): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return port === 22 ? h : `${h}:${port}`;
}

function keyFileWord(keyType: string): string {
  if (keyType === 'ssh-ed25519') return 'ed25519';
  if (keyType === 'ssh-rsa') return 'rsa';
  if (keyType.startsWith('ecdsa-')) return 'ecdsa';
  return '*';
}

function HostKeyDialog({ prompt }: { prompt: HostKeyPrompt }) {
  const answer = useAppStore((s) => s.answerHostKey);
  const where = hostPort(prompt.host, prompt.port);
  return (
    <Modal
      title="Unknown host key"
      onCancel={() => void answer(prompt.requestId, false)}
      testId="hostkey-dialog"
      tone="warn"
    >
      <p>
        KVScope has not connected to{' '}
        <strong className="mono" data-testid="hostkey-host">
          {where}
        </strong>{' '}
        before
        {prompt.boardLabel !== where ? (
          <>
            {' '}
            (for <strong>{prompt.boardLabel}</strong>)
          </>
        ) : null}
        . Before you accept its key, compare the fingerprint with the board&apos;s own.
      </p>
      <dl className="kv-list">
        <dt>Fingerprint</dt>
        <dd>
          <code className="fingerprint" data-testid="hostkey-fingerprint">
            {prompt.fingerprint}
          </code>
        </dd>
        <dt>Key type</dt>
        <dd className="mono" data-testid="hostkey-type">
          {prompt.keyType}
        </dd>
        <dt>On the board</dt>
        <dd>
          <code className="mono small">ssh-keygen -lf /etc/ssh/ssh_host_{keyFileWord(prompt.keyType)}_key.pub</code>
        </dd>
      </dl>
      <p className="muted small">
        Accepting stores the key in <span className="mono">{prompt.knownHostsPath}</span>. If the board ever presents a
        different key, KVScope refuses to connect.
      </p>
      <div className="modal-actions">
        <Countdown expiresAt={prompt.expiresAt} />
        <button
          type="button"
          className="button-secondary"
          onClick={() => void answer(prompt.requestId, false)}
          data-testid="hostkey-cancel"
        >
          Cancel
        </button>
        <button
          type="button"
          className="button-primary"
          onClick={() => void answer(prompt.requestId, true)}
          data-testid="hostkey-accept"
        >
          Accept &amp; remember
        </button>
      </div>
    </Modal>
  );
}

function CredentialDialog({ prompt }: { prompt: CredentialPrompt }) {
  const answer = useAppStore((s) => s.answerCredential);
  const [value, setValue] = useState('');
  const [remember, setRemember] = useState(false);
  const isPassword = prompt.kind === 'password';
  const retryId = `credential-retry-${prompt.requestId}`;
  const submit = () => {
    const typed = value;
    setValue('');
    void answer(prompt.requestId, typed === '' ? null : typed, remember && prompt.canRemember);
  };
  const cancel = () => {
    setValue('');
    void answer(prompt.requestId, null, false);
  };
  return (
    <Modal
      title={isPassword ? 'Password needed' : 'Key passphrase needed'}
      onCancel={cancel}
      testId="credential-dialog"
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <p>
          {isPassword ? (
            <>
              Password for <strong className="mono">{prompt.account}</strong>
              {prompt.boardLabel !== prompt.account ? <> ({prompt.boardLabel})</> : null}
            </>
          ) : (
            <>
              Passphrase of <strong className="mono">{prompt.keyFile}</strong> for {prompt.boardLabel}
            </>
          )}
        </p>
        {prompt.retry && (
          <p className="field-error" role="alert" id={retryId} data-testid="credential-retry">
            {prompt.retry.reason} (attempt {prompt.retry.attempt} of {prompt.retry.maxAttempts}).
          </p>
        )}
        <label className="field">
          <span className="field-label">{isPassword ? 'Password' : 'Passphrase'}</span>
          <input
            type="password"
            autoComplete="off"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={prompt.retry ? true : undefined}
            aria-describedby={prompt.retry ? retryId : undefined}
            data-testid="credential-input"
            data-autofocus
          />
        </label>
        <label className="check remember">
          <input
            type="checkbox"
            checked={remember && prompt.canRemember}
            disabled={!prompt.canRemember}
            onChange={(e) => setRemember(e.target.checked)}
            data-testid="credential-remember"
          />
          Remember for this board (encrypted by the OS keychain)
        </label>
        {prompt.rememberNote && (
          <p className="field-hint" data-testid="credential-remember-note">
            {prompt.rememberNote}
          </p>
        )}
        <div className="modal-actions">
          <Countdown expiresAt={prompt.expiresAt} />
          <button type="button" className="button-secondary" onClick={cancel} data-testid="credential-cancel">
            Cancel
          </button>
          <button type="submit" className="button-primary" data-testid="credential-submit">
            Connect
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function PromptDialogs() {
  const first = useAppStore((s) => s.prompts[0]);
  const promptError = useAppStore((s) => s.promptError);
  if (first?.kind === 'hostKey') return <HostKeyDialog key={first.prompt.requestId} prompt={first.prompt} />;
  if (first?.kind === 'credential') return <CredentialDialog key={first.prompt.requestId} prompt={first.prompt} />;
  if (promptError) return <PromptNotice key={promptError} text={promptError} />;
  return null;
}

function PromptNotice({ text }: { text: string }) {
  const [shown, setShown] = useState(true);
  if (!shown) return null;
  return (
    <div className="toast banner banner-warn" role="status" data-testid="prompt-error">
      {text}{' '}
      <button type="button" className="link-button" onClick={() => setShown(false)}>
        Dismiss
      </button>
    </div>
  );
}
