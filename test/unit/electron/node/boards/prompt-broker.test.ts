// The prompt broker (electron/node/boards/prompt-broker.ts): questions out as events, answers
// back by request id, and a question nobody answers is cancelled after the timeout.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiEventName } from '../../../../../shared/api/contract';
import { CredentialPromptSchema } from '../../../../../shared/api/schemas';
import { PromptBroker } from '../../../../../electron/node/boards/prompt-broker';
import { redact } from '../../../../../electron/node/util/redact';

function broker(timeoutMs = 60_000) {
  const events: Array<{ event: ApiEventName; payload: any }> = [];
  const b = new PromptBroker((event, payload) => events.push({ event, payload }), { timeoutMs, now: () => 1_000_000 });
  return { b, events, of: (name: ApiEventName) => events.filter((e) => e.event === name).map((e) => e.payload) };
}

const hostKey = {
  boardLabel: 'Orin',
  host: '10.0.0.5',
  port: 22,
  keyType: 'ssh-ed25519',
  fingerprint: 'SHA256:abc',
  knownHostsPath: '/k/known_hosts',
};

afterEach(() => vi.useRealTimers());

describe('host key questions', () => {
  it('emits hostKeyPrompt and resolves with the answer; the prompt then closes everywhere', async () => {
    const { b, of } = broker();
    const answer = b.askHostKey(hostKey);
    const [prompt] = of('hostKeyPrompt');
    expect(prompt).toEqual({
      ...hostKey,
      requestId: expect.stringMatching(/^[\w-]{16}$/),
      expiresAt: 1_060_000,
    });
    expect(b.list()).toEqual([{ kind: 'hostKey', prompt }]);
    expect(b.answerHostKey(prompt.requestId, true)).toBe(true);
    await expect(answer).resolves.toEqual({ accepted: true, outcome: 'answered' });
    expect(of('promptClosed')).toEqual([{ requestId: prompt.requestId, reason: 'answered' }]);
    expect(b.list()).toEqual([]);
    // A second window answering late: no such prompt any more.
    expect(b.answerHostKey(prompt.requestId, false)).toBe(false);
  });

  it('keeps questions apart by request id, and a credential answer does not answer a host key', async () => {
    const { b, of } = broker();
    const first = b.askHostKey(hostKey);
    const second = b.askHostKey({ ...hostKey, host: 'bastion' });
    const [p1, p2] = of('hostKeyPrompt');
    expect(p1.requestId).not.toBe(p2.requestId);
    expect(b.answerCredential(p1.requestId, 'x')).toBe(false);
    b.answerHostKey(p2.requestId, false);
    b.answerHostKey(p1.requestId, true);
    await expect(first).resolves.toMatchObject({ accepted: true });
    await expect(second).resolves.toMatchObject({ accepted: false, outcome: 'answered' });
  });

  it('times out into a refusal and tells the windows', async () => {
    vi.useFakeTimers();
    const { b, of } = broker(180_000);
    const answer = b.askHostKey(hostKey);
    const [prompt] = of('hostKeyPrompt');
    vi.advanceTimersByTime(179_999);
    expect(b.list()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await expect(answer).resolves.toEqual({ accepted: false, outcome: 'timeout' });
    expect(of('promptClosed')).toEqual([{ requestId: prompt.requestId, reason: 'timeout' }]);
    expect(b.answerHostKey(prompt.requestId, true)).toBe(false);
  });

  it('is cancelled by an abort signal or by cancelAll (app closing)', async () => {
    const { b, of } = broker();
    const controller = new AbortController();
    const viaSignal = b.askHostKey(hostKey, controller.signal);
    const viaClose = b.askCredential({
      kind: 'password',
      boardLabel: 'Orin',
      account: 'nvidia@orin',
      canRemember: false,
      rememberNote: null,
    });
    controller.abort();
    await expect(viaSignal).resolves.toEqual({ accepted: false, outcome: 'cancelled' });
    b.cancelAll();
    await expect(viaClose).resolves.toEqual({ value: null, remember: false, outcome: 'cancelled' });
    expect(of('promptClosed').map((p) => p.reason)).toEqual(['cancelled', 'cancelled']);
    await expect(b.askHostKey(hostKey, controller.signal)).resolves.toMatchObject({ outcome: 'cancelled' });
  });
});

describe('credential questions', () => {
  const question = {
    kind: 'password' as const,
    boardLabel: 'Orin',
    account: 'nvidia@orin.lan',
    canRemember: true,
    rememberNote: null,
  };

  it('returns the value and the remember choice, and the value is redacted from then on', async () => {
    const { b, of } = broker();
    const answer = b.askCredential(question);
    const [prompt] = of('credentialPrompt');
    expect(prompt).toMatchObject({ ...question, requestId: expect.any(String) });
    const secret = `pw-${Math.random().toString(36).slice(2)}`;
    expect(b.answerCredential(prompt.requestId, secret, true)).toBe(true);
    await expect(answer).resolves.toEqual({ value: secret, remember: true, outcome: 'answered' });
    expect(redact(`auth with ${secret} failed`)).toBe('auth with *** failed');
  });

  it('treats an empty answer as no answer, and never "remembers" nothing', async () => {
    const { b, of } = broker();
    const answer = b.askCredential(question);
    b.answerCredential(of('credentialPrompt')[0].requestId, '', true);
    await expect(answer).resolves.toEqual({ value: null, remember: false, outcome: 'answered' });
  });

  it('a cancel (null) resolves without a value', async () => {
    const { b, of } = broker();
    const answer = b.askCredential({
      ...question,
      kind: 'passphrase',
      keyFile: '/home/e/.ssh/id_ed25519',
      account: undefined,
    });
    b.answerCredential(of('credentialPrompt')[0].requestId, null);
    await expect(answer).resolves.toEqual({ value: null, remember: false, outcome: 'answered' });
  });

  it('a passphrase asked again carries why, and a question without it stays valid (older callers)', () => {
    const { b, of } = broker();
    const retry = { attempt: 2, maxAttempts: 3, reason: 'That passphrase did not unlock /k/id: try again' };
    void b.askCredential({ ...question, kind: 'passphrase', keyFile: '/k/id', account: undefined, retry });
    void b.askCredential(question);
    const [again, first] = of('credentialPrompt');
    expect(CredentialPromptSchema.parse(again).retry).toEqual(retry);
    expect(CredentialPromptSchema.parse(first).retry).toBeUndefined();
    expect(
      CredentialPromptSchema.safeParse({ ...again, retry: { attempt: 1, maxAttempts: 3, reason: '' } }).success,
    ).toBe(false);
    b.cancelAll();
  });
});
