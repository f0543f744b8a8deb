// Turns the questions an SSH connection asks (an unknown host key, a password, a key passphrase)
// into API events and waits for the answer from whichever window answers first. A question
// nobody answers within the timeout is cancelled (the connection then fails with a plain reason),
// and every window is told to close its dialog (promptClosed) whatever ended the question.
import { randomBytes } from 'node:crypto';
import { PROMPT_TIMEOUT_MS, type EventSink } from '../../../shared/api/contract';
import type { CredentialPrompt, HostKeyPrompt, PendingPrompt, PromptClosed } from '../../../shared/api/schemas';
import { registerSecret } from '../util/redact';

export type PromptOutcome = PromptClosed['reason'];

export interface HostKeyAnswer {
  accepted: boolean;
  outcome: PromptOutcome;
}

export interface CredentialAnswer {
  /** null: cancelled, timed out, or an empty answer. */
  value: string | null;
  remember: boolean;
  outcome: PromptOutcome;
}

type Entry =
  | { kind: 'hostKey'; prompt: HostKeyPrompt; settle(answer: HostKeyAnswer): void }
  | { kind: 'credential'; prompt: CredentialPrompt; settle(answer: CredentialAnswer): void };

export interface PromptBrokerOptions {
  timeoutMs?: number;
  now?: () => number;
}

export class PromptBroker {
  private readonly open = new Map<string, Entry>();
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(
    private readonly emit: EventSink,
    options: PromptBrokerOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? PROMPT_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
  }

  askHostKey(question: Omit<HostKeyPrompt, 'requestId' | 'expiresAt'>, signal?: AbortSignal): Promise<HostKeyAnswer> {
    return this.ask<HostKeyAnswer>(
      (requestId, expiresAt, settle) => ({ kind: 'hostKey', prompt: { ...question, requestId, expiresAt }, settle }),
      (outcome) => ({ accepted: false, outcome }),
      signal,
    );
  }

  askCredential(
    question: Omit<CredentialPrompt, 'requestId' | 'expiresAt'>,
    signal?: AbortSignal,
  ): Promise<CredentialAnswer> {
    return this.ask<CredentialAnswer>(
      (requestId, expiresAt, settle) => ({ kind: 'credential', prompt: { ...question, requestId, expiresAt }, settle }),
      (outcome) => ({ value: null, remember: false, outcome }),
      signal,
    );
  }

  /** false when no such host-key prompt is open (answered elsewhere, timed out, cancelled). */
  answerHostKey(requestId: string, accept: boolean): boolean {
    const entry = this.open.get(requestId);
    if (!entry || entry.kind !== 'hostKey') return false;
    entry.settle({ accepted: accept, outcome: 'answered' });
    return true;
  }

  answerCredential(requestId: string, value: string | null, remember = false): boolean {
    // Registered before anything else can log or throw with it in the text.
    if (value) registerSecret(value);
    const entry = this.open.get(requestId);
    if (!entry || entry.kind !== 'credential') return false;
    const given = value === null || value === '' ? null : value;
    entry.settle({ value: given, remember: given !== null && remember, outcome: 'answered' });
    return true;
  }

  list(): PendingPrompt[] {
    return [...this.open.values()].map((e) =>
      e.kind === 'hostKey' ? { kind: 'hostKey', prompt: e.prompt } : { kind: 'credential', prompt: e.prompt },
    );
  }

  /** Cancel every open question (the app is closing). */
  cancelAll(): void {
    for (const [requestId, entry] of [...this.open]) {
      if (entry.kind === 'hostKey') entry.settle({ accepted: false, outcome: 'cancelled' });
      else entry.settle({ value: null, remember: false, outcome: 'cancelled' });
      this.open.delete(requestId);
    }
  }

  private ask<A>(
    make: (requestId: string, expiresAt: number, settle: (answer: A) => void) => Entry,
    unanswered: (outcome: PromptOutcome) => A,
    signal?: AbortSignal,
  ): Promise<A> {
    if (signal?.aborted) return Promise.resolve(unanswered('cancelled'));
    return new Promise<A>((resolve) => {
      const requestId = randomBytes(12).toString('base64url');
      // eslint-disable-next-line prefer-const -- assigned after finish() is defined, which clears it
      let timer: NodeJS.Timeout | undefined;
      let done = false;
      const onAbort = () => finish(unanswered('cancelled'));
      const finish = (answer: A) => {
        if (done) return;
        done = true;
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.open.delete(requestId);
        this.emit('promptClosed', { requestId, reason: (answer as { outcome: PromptOutcome }).outcome });
        resolve(answer);
      };
      const entry = make(requestId, this.now() + this.timeoutMs, finish);
      this.open.set(requestId, entry);
      timer = setTimeout(() => finish(unanswered('timeout')), this.timeoutMs);
      timer.unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
      if (entry.kind === 'hostKey') this.emit('hostKeyPrompt', entry.prompt);
      else this.emit('credentialPrompt', entry.prompt);
    });
  }
}
