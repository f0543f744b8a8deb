// No secret reaches a session file: secret-named fields of a request are scrubbed before they are
// stored, and registered secrets (SSH passwords, passphrases) are masked in every stored string.
// Checked on the bytes of the real SQLite file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunRequest } from '../../../shared/api/schemas';
import { isSecretFieldName, SCRUBBED, scrubSecrets } from '../../../electron/node/session/scrub';
import { createSession, readSession } from '../../../electron/node/session/session-store';
import { registerSecret, unregisterSecret } from '../../../electron/node/util/redact';
import { defined } from '../../helpers/defined';
import { finishedRun } from '../../helpers/session-fixtures';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('secret-named fields', () => {
  it('names that hold secrets, and names that only mention tokens', () => {
    for (const name of [
      'password',
      'sshPassword',
      'key_passphrase',
      'clientSecret',
      'authToken',
      'token',
      'api-key',
      'apiKey',
      'privateKey',
      'PASSWORD',
      'db.password',
      'x-auth-token',
      'credentials',
    ]) {
      expect([name, isSecretFieldName(name)]).toEqual([name, true]);
    }
    for (const name of [
      'tokens',
      'promptTokens',
      'bytesPerToken',
      'leakBytesPerToken',
      'tokenRegex',
      'passwordEnv',
      'identityFile',
      'keepRunning',
      'knownHostsFile',
      'kvType',
      'key',
    ]) {
      expect([name, isSecretFieldName(name)]).toEqual([name, false]);
    }
  });

  it('scrubSecrets replaces them at any depth and leaves everything else as it was', () => {
    const request = {
      target: {
        kind: 'ssh',
        host: 'orin',
        passwordEnv: 'ORIN_PW',
        password: 'hunter2',
        jump: [{ host: 'bastion', passphrase: 'pp' }],
      },
      engine: { kind: 'command', command: 'llama-server', apiKey: 'sk-123', tokenRegex: '\\S+' },
      tokens: 500,
      extra: { secret: null, nested: { authToken: 42 } },
    };
    expect(scrubSecrets(request)).toEqual({
      target: {
        kind: 'ssh',
        host: 'orin',
        passwordEnv: 'ORIN_PW',
        password: SCRUBBED,
        jump: [{ host: 'bastion', passphrase: SCRUBBED }],
      },
      engine: { kind: 'command', command: 'llama-server', apiKey: SCRUBBED, tokenRegex: '\\S+' },
      tokens: 500,
      extra: { secret: null, nested: { authToken: SCRUBBED } },
    });
    // The input is not modified.
    expect(request.target.password).toBe('hunter2');
  });

  it('property: no value under a secret-named key survives, at any depth', () => {
    const secretKeys = ['password', 'sshPassword', 'passphrase', 'clientSecret', 'authToken', 'apiKey', 'privateKey'];
    const secretKey = fc.constantFrom(...secretKeys);
    const plainKey = fc.constantFrom('host', 'label', 'command', 'tokens', 'passwordEnv', 'tokenRegex', 'ctx');
    const secretValue = fc.string({ minLength: 4, maxLength: 20 }).map((s) => `S3CR3T-${s}`);
    const tree: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.dictionary(fc.oneof(plainKey, secretKey), fc.oneof(secretValue, tie('node')), { maxKeys: 4 }),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.integer(),
        fc.constant('plain'),
      ),
    })).node;
    fc.assert(
      fc.property(tree, (value) => {
        const out = JSON.stringify(scrubSecrets(value)) ?? '';
        const hidden = new Set<string>();
        const shown = new Set<string>();
        const walk = (v: unknown, underSecret: boolean): void => {
          if (typeof v === 'string' && v.startsWith('S3CR3T-')) (underSecret ? hidden : shown).add(v);
          if (Array.isArray(v)) v.forEach((x) => walk(x, underSecret));
          else if (v && typeof v === 'object')
            for (const [k, x] of Object.entries(v)) walk(x, underSecret || isSecretFieldName(k));
        };
        walk(value, false);
        // (The same string may also sit under a plain key elsewhere: that copy is not a secret.)
        for (const v of hidden) if (!shown.has(v)) expect(out).not.toContain(JSON.stringify(v));
        for (const v of shown) expect(out).toContain(JSON.stringify(v));
      }),
    );
  });
});

describe('the session file holds no secrets', () => {
  it('scrubbed request fields and registered secrets are absent from the file bytes', () => {
    const password = `pw-${Math.random().toString(36).slice(2)}-long-enough`;
    const apiKey = `sk-${Math.random().toString(36).slice(2)}`;
    const path = join(dir, 'secrets.kvscope');
    registerSecret(password);
    try {
      const store = createSession(path, { appVersion: 't', target: { kind: 'ssh', label: 'orin', password } });
      const seq = store.addRun({
        id: 'r',
        label: 'run',
        // Fields a future request or engine might carry: scrubbed by their names whatever the type says.
        request: {
          target: { kind: 'ssh', host: 'orin', passwordEnv: 'ORIN_PW', password },
          engine: { kind: 'command', command: 'llama-server', apiKey },
          intervalMs: 200,
          keepRunning: false,
        } as RunRequest,
        state: 'running',
      });
      // A server echoing the password in an error, an engine printing it: masked on the way in.
      store.appendEvents(seq, [
        { tMs: 1, kind: 'error', message: `auth failed for password ${password}`, data: { said: `"${password}"` } },
      ]);
      store.updateRun(seq, { state: 'failed', error: `ssh: ${password} rejected` });
      store.close();
      const bytes = readFileSync(path).toString('latin1');
      expect(bytes).not.toContain(password);
      expect(bytes).not.toContain(apiKey);
      const run = defined(readSession(path).runs[0], 'run 0');
      expect(run.request).toEqual({
        target: { kind: 'ssh', host: 'orin', passwordEnv: 'ORIN_PW', password: SCRUBBED },
        engine: { kind: 'command', command: 'llama-server', apiKey: SCRUBBED },
        intervalMs: 200,
        keepRunning: false,
      });
      expect(run.events[0]).toEqual({
        tMs: 1,
        kind: 'error',
        message: 'auth failed for password ***',
        data: { said: '"***"' },
      });
      expect(run.error).toBe('ssh: *** rejected');
    } finally {
      unregisterSecret(password);
    }
  });
});

describe('a short or numeric secret masks text, never the numbers and syntax of what is stored', () => {
  // A dev board's password is often digits or a word ("1234", "true"): masked inside the stored
  // JSON's text it broke numbers and literals, and the session no longer opened ("damaged analysis").
  it.each(['2000', 'true', '131000'])('password %j', (password) => {
    const path = join(dir, `short-${password}.kvscope`);
    const run = finishedRun();
    const outcome = defined(run.outcome ?? undefined, 'outcome');
    registerSecret(password);
    try {
      const store = createSession(path, { appVersion: 't' });
      const seq = store.addRun({ id: 'r', label: 'run', request: run.request, state: 'running' });
      store.appendEvents(seq, [{ tMs: 1, kind: 'error', message: `sshd said: bad password ${password}` }]);
      store.finishRun(seq, {
        label: 'run',
        state: 'failed',
        error: null,
        endedAt: '2026-01-01T12:02:11.000Z',
        outcome,
        analysis: run.analysis,
      });
      store.close();
      const read = defined(readSession(path).runs[0], 'run 0');
      expect(read.analysisSource).toBe('stored');
      expect(read.analysis).toEqual(run.analysis);
      expect(read.outcome).toEqual(run.outcome);
      expect(read.events[0]?.message).toBe('sshd said: bad password ***');
    } finally {
      unregisterSecret(password);
    }
  });
});
