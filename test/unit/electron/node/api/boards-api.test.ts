// The boards part of the API (createAppServices + electron/node/boards/): handler input
// validation through the same dispatch every transport uses, listing/removing, the ~/.ssh/config
// import, and the app's connector with a scripted connection: prompts as events, remembered
// credentials, and connection errors in plain words.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiEventName } from '../../../../../shared/api/contract';
import type { TargetSpec } from '../../../../../shared/api/schemas';
import { dispatchApiCall } from '../../../../../electron/node/api/api-dispatch';
import { createAppServices } from '../../../../../electron/node/api/create-app-services';
import { AppConnector } from '../../../../../electron/node/boards/app-connector';
import { describeConnectError } from '../../../../../electron/node/boards/connect-errors';
import { PromptBroker } from '../../../../../electron/node/boards/prompt-broker';
import {
  EncryptedFileSecretStore,
  noSecretStore,
  secretKeys,
  type SecretCipher,
} from '../../../../../electron/node/boards/secret-store';
import { BoardStore } from '../../../../../electron/node/boards/board-store';
import {
  HostKeyChangedError,
  HostKeyUnknownError,
  type KnownHostEntry,
} from '../../../../../electron/node/transport/known-hosts';
import { SshError } from '../../../../../electron/node/transport/ssh-target';
import type { CreateTargetOptions } from '../../../../../electron/node/transport/target-spec';
import type { Target } from '../../../../../electron/node/transport/target';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kvscope-api-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const board = { kind: 'ssh' as const, host: '10.0.0.5', user: 'nvidia', port: 2222 };

function services(extra: Partial<Parameters<typeof createAppServices>[0]> = {}) {
  const env = {
    KVSCOPE_HOME: join(dir, 'app'),
    KVSCOPE_SSH_CONFIG: join(dir, 'ssh_config'),
    HOME: dir,
  } as NodeJS.ProcessEnv;
  const s = createAppServices({
    shell: 'web',
    env,
    boardStore: new BoardStore({ dir: join(dir, 'app'), homeDir: dir }),
    ...extra,
  });
  const call = (method: string, input: unknown) => dispatchApiCall(s.handlers, method, input);
  return { s, call };
}

/** A memory cipher: enough to make a store "available" (the real one is tested in secret-store.test.ts). */
const memoryCipher: SecretCipher = {
  backend: () => 'keychain',
  isAvailable: () => true,
  encrypt: (t) => Buffer.from(t).reverse(),
  decrypt: (b) => Buffer.from(b).reverse().toString(),
};

describe('handler input validation', () => {
  it.each([
    [
      'saveBoard',
      { label: 'x', spec: { ...board, password: 'hunter2' } },
      /^invalid input for saveBoard: spec: Unrecognized key.*password/,
    ],
    ['saveBoard', { label: 'x', spec: { ...board, passwordEnv: 'HOME' } }, /spec: Unrecognized key.*passwordEnv/],
    ['saveBoard', { label: 'x', spec: { kind: 'local' } }, /^invalid input for saveBoard: spec/],
    ['saveBoard', { label: 'x', spec: { ...board, host: 'a;reboot' } }, /spec.host: host may contain/],
    ['saveBoard', { label: '', spec: board }, /label: a name is required/],
    ['saveBoard', { id: '../../etc', label: 'x', spec: board }, /^invalid input for saveBoard: id/],
    ['saveBoard', { label: 'x', spec: board, extra: 1 }, /Unrecognized key.*extra/],
    ['removeBoard', { id: 'Not An Id' }, /^invalid input for removeBoard: id/],
    ['probeBoard', { boardId: 'x y' }, /^invalid input for probeBoard: boardId/],
    ['answerHostKey', { requestId: 'abc', accept: 'yes' }, /accept/],
    ['answerHostKey', { requestId: '../x', accept: true }, /requestId/],
    ['answerCredential', { requestId: 'abc', value: 'x'.repeat(5000) }, /value/],
    ['answerCredential', { requestId: 'abc', value: 'pw', remember: true, store: 'plain' }, /Unrecognized key.*store/],
    ['forgetSecrets', { boardId: 'Orin Lab' }, /^invalid input for forgetSecrets: boardId/],
    ['importSshConfig', { path: '/etc/shadow' }, /Unrecognized key.*path/],
  ])('%s refuses %j', async (method, input, message) => {
    const { call } = services();
    const result = await call(method, input);
    expect(result.ok).toBe(false);
    expect((result as { error: string }).error).toMatch(message);
  });

  it('the error text of a refused secret field never contains the secret', async () => {
    const { call } = services();
    const result = await call('saveBoard', { label: 'x', spec: { ...board, password: 'hunter2-secret' } });
    expect(JSON.stringify(result)).not.toContain('hunter2-secret');
  });
});

describe('listing, saving, removing', () => {
  it('lists This computer first, then the saved boards, with how many credentials each has remembered', async () => {
    const secretStore = new EncryptedFileSecretStore(memoryCipher, { dir: join(dir, 'app') });
    const { call } = services({ secretStore });
    expect(await call('listBoards', {})).toEqual({
      ok: true,
      output: [{ id: 'local', label: 'This computer', spec: { kind: 'local' } }],
    });
    const saved = await call('saveBoard', { label: 'Orin', spec: { ...board, identityFile: '~/.ssh/id_ed25519' } });
    expect(saved.ok).toBe(true);
    const id = (saved as { output: { id: string } }).output.id;
    await secretStore.set(secretKeys.password(id, 'nvidia@10.0.0.5:2222'), 'pw');
    const list = await call('listBoards', {});
    expect(list).toEqual({
      ok: true,
      output: [
        { id: 'local', label: 'This computer', spec: { kind: 'local' } },
        { id, label: 'Orin', spec: { ...board, identityFile: join(dir, '.ssh/id_ed25519') }, rememberedSecrets: 1 },
      ],
    });
    expect(await call('secretStorage', {})).toEqual({
      ok: true,
      output: { available: true, backend: 'keychain', reason: null },
    });
    expect(await call('removeBoard', { id })).toEqual({ ok: true, output: { ok: true } });
    expect(await secretStore.countPrefix(secretKeys.boardPrefix(id))).toBe(0);
    expect(await call('probeBoard', { boardId: id })).toEqual({
      ok: false,
      error: `no saved board "${id}" (it may have been removed in another window)`,
    });
  });

  it('keeps This computer usable when boards.json is damaged', async () => {
    const { call } = services();
    await call('saveBoard', { label: 'Orin', spec: board });
    writeFileSync(join(dir, 'app', 'boards.json'), '{ damaged');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await call('listBoards', {})).toEqual({
        ok: true,
        output: [{ id: 'local', label: 'This computer', spec: { kind: 'local' } }],
      });
    } finally {
      stderr.mockRestore();
    }
    expect((await call('saveBoard', { label: 'B', spec: board })) as { error: string }).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not valid JSON/),
    });
  });

  it('in browser mode, says why credentials are not remembered', async () => {
    const { call } = services();
    expect(await call('secretStorage', {})).toEqual({ ok: true, output: noSecretStore().status() });
  });
});

describe('import from ~/.ssh/config', () => {
  it('resolves concrete Host entries (HostName, User, Port, ProxyJump, IdentityFile) and skips patterns', async () => {
    writeFileSync(
      join(dir, 'ssh_config'),
      [
        'Host orin',
        '  HostName 192.168.1.50',
        '  User nvidia',
        '  Port 2200',
        '  IdentityFile ~/.ssh/orin_ed25519',
        '  ProxyJump jump@bastion.example:2222',
        '  ServerAliveInterval 20',
        'Host pi5 rk3588',
        '  User pi',
        'Host *.lab',
        '  User lab',
        'Host *',
        '  IdentityFile ~/.ssh/id_default',
        '',
      ].join('\n'),
    );
    const { call } = services();
    const result = (await call('importSshConfig', {})) as {
      ok: true;
      output: { path: string; found: boolean; hosts: any[] };
    };
    expect(result.ok).toBe(true);
    expect(result.output.found).toBe(true);
    expect(result.output.hosts.map((h) => h.alias)).toEqual(['orin', 'pi5', 'rk3588']);
    const orin = result.output.hosts[0];
    expect(orin).toMatchObject({
      alias: 'orin',
      hostName: '192.168.1.50',
      user: 'nvidia',
      port: 2200,
      proxyJump: ['jump@bastion.example:2222'],
      identityFiles: [join(dir, '.ssh/orin_ed25519'), join(dir, '.ssh/id_default')],
      spec: {
        kind: 'ssh',
        host: '192.168.1.50',
        user: 'nvidia',
        port: 2200,
        alias: 'orin',
        identityFile: join(dir, '.ssh/orin_ed25519'),
        jump: ['jump@bastion.example:2222'],
        keepaliveSec: 20,
      },
    });
    expect(result.output.hosts[1].spec).toMatchObject({ kind: 'ssh', host: 'pi5', user: 'pi', alias: 'pi5' });
    // Saving one marks it as saved in the next import.
    await call('saveBoard', { label: 'orin', spec: orin.spec });
    const again = (await call('importSshConfig', {})) as { ok: true; output: { hosts: any[] } };
    expect(again.output.hosts[0].savedBoardId).toMatch(/^orin-/);
    expect(again.output.hosts[1].savedBoardId).toBeUndefined();
  });

  // ssh(1) refuses these entries ("Bad port"); the import offered them with the port dropped (so
  // the board went to port 22) or with the port inside the host name.
  it.each([
    ['Port abc', ['  HostName 10.0.0.1', '  Port abc'], 'Port abc is not a port (1–65535)'],
    ['Port 0', ['  HostName 10.0.0.1', '  Port 0'], 'Port 0 is not a port (1–65535)'],
    ['Port 70000', ['  HostName 10.0.0.1', '  Port 70000'], 'Port 70000 is not a port (1–65535)'],
    [
      'HostName with a port',
      ['  HostName 10.0.0.3:2222'],
      'HostName 10.0.0.3:2222 has a port in it: give it on a Port line',
    ],
  ])('offers no board for an entry ssh refuses too (%s)', async (_what, lines, problem) => {
    writeFileSync(join(dir, 'ssh_config'), ['Host orin', ...lines, 'Host v6', '  HostName fe80::1', ''].join('\n'));
    const { call } = services();
    const result = (await call('importSshConfig', {})) as { ok: true; output: { hosts: any[] } };
    expect(result.output.hosts[0]).toMatchObject({ alias: 'orin', spec: null, problem });
    expect(result.output.hosts[1]).toMatchObject({ alias: 'v6', spec: { host: 'fe80::1' } });
    expect(result.output.hosts[1].problem).toBeUndefined();
  });

  it('says when there is no config file', async () => {
    const { call } = services();
    expect(await call('importSshConfig', {})).toEqual({
      ok: true,
      output: { path: join(dir, 'ssh_config'), found: false, hosts: [] },
    });
  });
});

// ---- the connector, with the connection scripted ---------------------------------------------

const fakeTarget = (): Target => ({ kind: 'ssh', id: 'ssh:x', label: 'x', close: async () => {} }) as unknown as Target;

function connector(options: {
  script: (spec: TargetSpec, o: CreateTargetOptions) => Promise<Target>;
  secrets?: EncryptedFileSecretStore | ReturnType<typeof noSecretStore>;
}) {
  const events: Array<{ event: ApiEventName; payload: any }> = [];
  const prompts = new PromptBroker((event, payload) => events.push({ event, payload }));
  const boards = new BoardStore({ dir: join(dir, 'app') });
  const secrets = options.secrets ?? new EncryptedFileSecretStore(memoryCipher, { dir: join(dir, 'app') });
  const c = new AppConnector({
    prompts,
    secrets,
    boards,
    env: { KVSCOPE_HOME: join(dir, 'app') },
    createTarget: options.script,
    promptTimeoutMs: 180_000,
  });
  /** Answers every prompt that appears, as a user would. */
  const answer = (fn: (event: ApiEventName, payload: any) => void) => {
    const seen = new Set<string>();
    const timer = setInterval(() => {
      for (const e of events) {
        if (e.event === 'promptClosed' || seen.has(e.payload.requestId)) continue;
        seen.add(e.payload.requestId);
        fn(e.event, e.payload);
      }
    }, 1);
    return () => clearInterval(timer);
  };
  return {
    c,
    events,
    prompts,
    boards,
    secrets,
    answer,
    of: (name: ApiEventName) => events.filter((e) => e.event === name).map((e) => e.payload),
  };
}

describe('connecting from the app', () => {
  it('asks for an unknown host key as an event and passes the answer on; CLI-only fields are dropped', async () => {
    let seenSpec: TargetSpec | undefined;
    const k = connector({
      script: async (spec, o) => {
        seenSpec = spec;
        const ok = await o.confirmHostKey!({
          host: '10.0.0.5',
          port: 2222,
          keyType: 'ssh-ed25519',
          fingerprint: 'SHA256:new',
        });
        if (!ok) throw new Error('refused');
        return fakeTarget();
      },
    });
    const saved = await k.boards.save({ label: 'Orin', spec: board });
    const stop = k.answer(
      (event, payload) => event === 'hostKeyPrompt' && k.prompts.answerHostKey(payload.requestId, true),
    );
    await k.c.connect({ ...board, passwordEnv: 'AWS_SECRET_ACCESS_KEY', acceptNewHostKey: true });
    stop();
    expect(seenSpec).toEqual(board);
    expect(k.of('hostKeyPrompt')).toEqual([
      {
        requestId: expect.any(String),
        boardLabel: saved.label,
        host: '10.0.0.5',
        port: 2222,
        keyType: 'ssh-ed25519',
        fingerprint: 'SHA256:new',
        knownHostsPath: join(dir, 'app', 'known_hosts'),
        expiresAt: expect.any(Number),
      },
    ]);
  });

  it('remembers a password only on request and only after it worked; then connects without asking', async () => {
    let attempts = 0;
    const k = connector({
      script: async (_spec, o) => {
        attempts += 1;
        const pw = await o.password!({ host: '10.0.0.5', port: 2222, username: 'nvidia' });
        if (pw !== 'right')
          throw new SshError(
            'authentication failed for nvidia@10.0.0.5:2222: tried password; the server accepts password',
            'SSH_AUTH_FAILED',
          );
        return fakeTarget();
      },
    });
    const saved = await k.boards.save({ label: 'Orin', spec: board });
    const key = secretKeys.password(saved.id, 'nvidia@10.0.0.5:2222');
    // A wrong password, with "remember": not kept.
    let stop = k.answer(
      (event, p) => event === 'credentialPrompt' && k.prompts.answerCredential(p.requestId, 'wrong', true),
    );
    await expect(k.c.connect(board)).rejects.toThrow(
      /^Authentication failed for Orin: tried password; the server accepts password\. Check the user name/,
    );
    stop();
    expect(await k.secrets.get(key)).toBeUndefined();
    expect(k.of('credentialPrompt')[0]).toMatchObject({
      kind: 'password',
      boardLabel: 'Orin',
      account: 'nvidia@10.0.0.5:2222',
      canRemember: true,
      rememberNote: null,
    });
    // The right one, with "remember": kept (encrypted), and the next connection asks nothing.
    stop = k.answer(
      (event, p) => event === 'credentialPrompt' && k.prompts.answerCredential(p.requestId, 'right', true),
    );
    await k.c.connect(board);
    stop();
    expect(await k.secrets.get(key)).toBe('right');
    const asked = k.of('credentialPrompt').length;
    await k.c.connect(board);
    expect(k.of('credentialPrompt')).toHaveLength(asked);
    expect(attempts).toBe(3);
    expect(readFileSync(join(dir, 'app', 'secrets.json'), 'utf8')).not.toContain('right');
  });

  it('asks for a password once per app lifetime (memory only) until the board is forgotten', async () => {
    const k = connector({
      script: async (_spec, o) => {
        const pw = await o.password!({ host: '10.0.0.5', port: 2222, username: 'nvidia' });
        if (pw !== 'right') throw new SshError('authentication failed for nvidia@10.0.0.5:2222', 'SSH_AUTH_FAILED');
        return fakeTarget();
      },
    });
    const saved = await k.boards.save({ label: 'Orin', spec: board });
    const stop = k.answer(
      (event, p) =>
        event === 'credentialPrompt' &&
        k.prompts.answerCredential((p as { requestId: string }).requestId, 'right', false),
    );
    await k.c.connect(board);
    await k.c.connect(board);
    await k.c.connect(board, { boardId: saved.id });
    expect(k.of('credentialPrompt')).toHaveLength(1);
    // Not kept anywhere but in memory: "remember" was not ticked.
    expect(await k.secrets.get(secretKeys.password(saved.id, 'nvidia@10.0.0.5:2222'))).toBeUndefined();
    k.c.forgetTyped(saved.id);
    await k.c.connect(board);
    stop();
    expect(k.of('credentialPrompt')).toHaveLength(2);
  });

  it('says "cancelled" when the password question is cancelled, not that no credential worked', async () => {
    const k = connector({
      script: async (_spec, o) => {
        const pw = await o.password!({ host: '10.0.0.5', port: 2222, username: 'nvidia' });
        if (pw === undefined)
          throw new SshError('authentication failed for nvidia@10.0.0.5:2222: no usable credential', 'SSH_AUTH_FAILED');
        return fakeTarget();
      },
    });
    await k.boards.save({ label: 'Orin', spec: board });
    const stop = k.answer(
      (event, p) =>
        event === 'credentialPrompt' && k.prompts.answerCredential((p as { requestId: string }).requestId, null),
    );
    await expect(k.c.connect(board)).rejects.toThrow(/^Not connected to Orin: the password question was cancelled\.$/);
    stop();
  });

  it.each([
    [
      'password',
      'Not connected to Orin: the password question was cancelled. Before it: tried key /home/u/.ssh/id_orin (not found); the server accepts publickey, password.',
    ],
    [
      'passphrase',
      'Not connected to Orin: the passphrase question was cancelled. Before it: tried key /home/u/.ssh/id_orin (not found); the server accepts publickey, password.',
    ],
  ] as const)(
    'a cancelled %s question also says which identity file could not be used before it',
    async (kind, message) => {
      const k = connector({
        script: async (_spec, o) => {
          if (kind === 'password') await o.password!({ host: '10.0.0.5', port: 2222, username: 'nvidia' });
          else await o.passphrase!({ keyFile: '/home/u/.ssh/id_enc' });
          throw new SshError(
            'authentication failed for nvidia@10.0.0.5:2222: tried key /home/u/.ssh/id_orin (not found); the server accepts publickey, password',
            'SSH_AUTH_FAILED',
          );
        },
      });
      await k.boards.save({ label: 'Orin', spec: board });
      const stop = k.answer(
        (event, p) =>
          event === 'credentialPrompt' && k.prompts.answerCredential((p as { requestId: string }).requestId, null),
      );
      await expect(k.c.connect(board)).rejects.toThrow(message);
      stop();
    },
  );

  it('forgets a remembered password the server refuses, and says so', async () => {
    const k = connector({
      script: async (_spec, o) => {
        await o.password!({ host: '10.0.0.5', port: 2222, username: 'nvidia' });
        throw new SshError('authentication failed for nvidia@10.0.0.5:2222: tried password', 'SSH_AUTH_FAILED');
      },
    });
    const saved = await k.boards.save({ label: 'Orin', spec: board });
    const key = secretKeys.password(saved.id, 'nvidia@10.0.0.5:2222');
    await k.secrets.set(key, 'changed-on-the-board');
    await expect(k.c.connect(board)).rejects.toThrow(
      /remembered password or passphrase was refused and has been forgotten/,
    );
    expect(k.of('credentialPrompt')).toHaveLength(0);
    expect(await k.secrets.get(key)).toBeUndefined();
  });

  it('a passphrase typed earlier that no longer unlocks the key is dropped from memory and asked for', async () => {
    const keyFile = '/home/e/.ssh/id_enc';
    const given: Array<string | undefined> = [];
    let failFirst = false;
    const k = connector({
      script: async (_spec, o) => {
        given.push(await o.passphrase!({ keyFile }));
        if (failFirst) given.push(await o.passphrase!({ keyFile, retry: { attempt: 2, maxAttempts: 3 } }));
        // A reconnect within this connection: the value given last, not a failed one.
        given.push(await o.passphrase!({ keyFile }));
        return fakeTarget();
      },
    });
    const saved = await k.boards.save({ label: 'Orin', spec: board });
    const [before, after] = [`pp-before-${Date.now()}`, `pp-after-${Date.now()}`];
    const answers = [before, after];
    const stop = k.answer(
      (event, p) => event === 'credentialPrompt' && k.prompts.answerCredential(p.requestId, answers.shift()!),
    );
    await k.c.connect(board, { boardId: saved.id }); // typed once, kept in this app's memory
    failFirst = true; // the key's passphrase was changed since
    await k.c.connect(board, { boardId: saved.id });
    failFirst = false;
    await k.c.connect(board, { boardId: saved.id }); // the new one is what the memory holds now
    stop();
    expect(given).toEqual([before, before, before, after, after, after, after]);
    const prompts = k.of('credentialPrompt');
    expect(prompts).toHaveLength(2);
    expect(prompts[1].retry).toEqual({
      attempt: 2,
      maxAttempts: 3,
      reason: `The passphrase typed earlier did not unlock ${keyFile}: type it again`,
    });
  });

  it('offers no "remember" where storage is unavailable or the board is not saved, and says why', async () => {
    const k = connector({
      secrets: noSecretStore(),
      script: async (_spec, o) => {
        await o.passphrase!({ keyFile: '/home/e/.ssh/id_ed25519' });
        // A reconnect of the same board asks again? No: the passphrase is kept for its life.
        await o.passphrase!({ keyFile: '/home/e/.ssh/id_ed25519' });
        return fakeTarget();
      },
    });
    await k.boards.save({ label: 'Orin', spec: board });
    const stop = k.answer(
      (event, p) => event === 'credentialPrompt' && k.prompts.answerCredential(p.requestId, 'pp', true),
    );
    await k.c.connect(board);
    stop();
    expect(k.of('credentialPrompt')).toEqual([
      expect.objectContaining({
        kind: 'passphrase',
        keyFile: '/home/e/.ssh/id_ed25519',
        canRemember: false,
        rememberNote: expect.stringMatching(/Browser mode/),
      }),
    ]);

    const unsaved = connector({
      script: async (_s, o) => (await o.password!({ host: 'h', port: 22, username: 'u' }), fakeTarget()),
    });
    const stop2 = unsaved.answer(
      (event, p) => event === 'credentialPrompt' && unsaved.prompts.answerCredential(p.requestId, 'pw', true),
    );
    await unsaved.c.connect({ kind: 'ssh', host: 'h', user: 'u' });
    stop2();
    expect(unsaved.of('credentialPrompt')[0]).toMatchObject({
      boardLabel: 'u@h',
      account: 'u@h',
      canRemember: false,
      rememberNote: expect.stringMatching(/Save this board/),
    });
    expect(await unsaved.secrets.countPrefix('')).toBe(0);
  });

  it('says when the host key question went unanswered', async () => {
    const k = connector({
      script: async (_spec, o) => {
        const info = { host: '10.0.0.5', port: 2222, keyType: 'ssh-ed25519', fingerprint: 'SHA256:abc' };
        if (!(await o.confirmHostKey!(info))) throw new HostKeyUnknownError(info, '/k/known_hosts');
        return fakeTarget();
      },
    });
    const stop = k.answer((event, p) => event === 'hostKeyPrompt' && k.prompts.answerHostKey(p.requestId, false));
    await expect(k.c.connect(board)).rejects.toThrow(
      'Not connected to nvidia@10.0.0.5:2222: its host key ([10.0.0.5]:2222, SHA256:abc) is not known and you did not accept it. Nothing was sent to the host.',
    );
    stop();
  });
});

describe('connection errors in plain words', () => {
  const entry: KnownHostEntry = {
    file: '/k/known_hosts',
    line: 3,
    hosts: '[10.0.0.5]:2222',
    hashed: false,
    keyType: 'ssh-ed25519',
    keyBlob: Buffer.alloc(0),
    fingerprint: 'SHA256:OLD',
  };

  it('a CHANGED key names both fingerprints, the file and what to do', () => {
    const e = describeConnectError(
      new HostKeyChangedError({ host: '10.0.0.5', port: 2222, keyType: 'ssh-rsa', fingerprint: 'SHA256:NEW' }, entry),
      { label: 'Orin' },
    );
    expect(e.kind).toBe('host-key-changed');
    expect(e.message.split('\n')).toEqual([
      'The host key of Orin ([10.0.0.5]:2222) has CHANGED: KVScope did not connect and sent no password or key.',
      'Presented now: RSA SHA256:NEW',
      'Known before (/k/known_hosts:3): ED25519 SHA256:OLD',
      expect.stringContaining(
        "remove the old entry (ssh-keygen -R '[10.0.0.5]:2222' -f /k/known_hosts) and connect again.",
      ),
    ]);
  });

  it.each([
    [
      'SSH_UNREACHABLE',
      'cannot reach host nvidia@10.0.0.5:2222: connection refused (is sshd running on port 2222?)',
      'unreachable',
      /^Cannot reach Orin: connection refused \(is sshd running on port 2222\?\)\. Check that the board is powered/,
    ],
    [
      'SSH_UNREACHABLE',
      // ssh-connection-chain.ts names the hop that failed; the board behind it is an IP (QA: a
      // ProxyJump host that did not resolve was reported as the board).
      'cannot reach jump host ops@bastion.example.com: host name not found',
      'unreachable',
      /^Cannot reach Orin through its jump host ops@bastion\.example\.com: host name not found\. Check the jump host's name and port \(ProxyJump\)/,
    ],
    [
      'SSH_TIMEOUT',
      'timed out connecting to host nvidia@10.0.0.5:2222 (TCP, key exchange or authentication took too long)',
      'timeout',
      /^Timed out connecting to Orin \(TCP, key exchange or authentication took too long\)\. The board may be busy/,
    ],
    [
      'SSH_AUTH_FAILED',
      'authentication failed for nvidia@10.0.0.5:2222: tried key /k/id; the server accepts publickey',
      'auth-failed',
      /^Authentication failed for Orin: tried key \/k\/id; the server accepts publickey\. Check the user name/,
    ],
    [
      'SSH_HANDSHAKE',
      'connection to host x was reset during the handshake',
      'other',
      /^Could not connect to Orin: connection to host x was reset/,
    ],
  ] as const)('%s', (code, message, kind, expected) => {
    const e = describeConnectError(new SshError(message, code), { label: 'Orin' });
    expect(e.kind).toBe(kind);
    expect(e.message).toMatch(expected);
  });

  it('an unanswered host key question says it timed out', () => {
    const e = describeConnectError(
      new HostKeyUnknownError({ host: 'orin.lan', port: 22, keyType: 'ssh-ed25519', fingerprint: 'SHA256:abc' }, '/k'),
      { label: 'Orin', hostKeyOutcome: 'timeout', promptTimeoutMs: 180_000 },
    );
    expect(e.message).toBe(
      'Not connected to Orin: its host key (orin.lan, SHA256:abc) is not known and the question was not answered within 3 minutes. Nothing was sent to the host.',
    );
  });
});
