// A wrong passphrase for an encrypted identity file, against a real OpenSSH sshd: it is asked
// again, saying why, up to 3 times as ssh(1) does; a source that gives the same wrong value again
// (an environment variable, a remembered value) stops at once; no password question comes after
// it (that hid why the key failed); the app's connector keeps no passphrase that failed. Before:
// the key was skipped at the first wrong answer and the user met a password dialog, or "tried
// key X (wrong passphrase)" with no chance to type it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiEventName } from '../../../shared/api/contract';
import type { CredentialPrompt } from '../../../shared/api/schemas';
import { generateKey, makeTempDir, startSshd, writeKnownHosts, type Sshd } from '../../helpers/sshd';
import { runCli } from '../../helpers/cli';
import { SshTarget, type SshTargetOptions } from '../../../electron/node/transport/ssh-target';
import { KnownHostsStore } from '../../../electron/node/transport/known-hosts';
import type { PassphraseRequest } from '../../../electron/node/transport/ssh-options';
import { AppConnector } from '../../../electron/node/boards/app-connector';
import { PromptBroker } from '../../../electron/node/boards/prompt-broker';
import { BoardStore } from '../../../electron/node/boards/board-store';
import { EncryptedFileSecretStore, secretKeys } from '../../../electron/node/boards/secret-store';

let sshd: Sshd;
let dir: string;
let knownHosts: string;
let encryptedKey: string;
const PASSPHRASE = `right "pass' ${Date.now()}`;
const WRONG = [`wrong-1-${Date.now()}`, `wrong-2-${Date.now()}`, `wrong-3-${Date.now()}`] as const;
const allOutput: string[] = [];

beforeAll(async () => {
  sshd = await startSshd(); // accepts publickey and password
  dir = await makeTempDir();
  knownHosts = await writeKnownHosts(join(dir, 'known_hosts'), [sshd.knownHostsLine]);
  const enc = await generateKey(join(dir, 'encrypted_ed25519'), { passphrase: PASSPHRASE });
  encryptedKey = enc.privatePath;
  await writeFile(join(sshd.dir, 'authorized_keys'), enc.publicLine + '\n');
});

afterAll(async () => {
  await sshd?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function options(over: Partial<SshTargetOptions>, logs: string[]): SshTargetOptions {
  return {
    target: { host: sshd.host, port: sshd.port, username: sshd.user, identityFiles: [encryptedKey] },
    knownHosts: new KnownHostsStore({ readFiles: [knownHosts], storeFile: join(dir, 'store') }),
    agentSocket: null,
    debug: true,
    log: (l) => {
      logs.push(l);
      allOutput.push(l);
    },
    ...over,
  };
}

async function failure(o: SshTargetOptions): Promise<Error & { code?: string }> {
  const error = (await SshTarget.connect(o).then(
    () => new Error('connected'),
    (e: Error) => e,
  )) as Error & { code?: string };
  allOutput.push(error.message, error.stack ?? '');
  return error;
}

describe('a wrong passphrase, in the transport', () => {
  it('is asked again, saying it is a retry, and the right one then logs in', async () => {
    const requests: PassphraseRequest[] = [];
    const answers = [WRONG[0], PASSPHRASE];
    let passwordAsked = 0;
    const t = await SshTarget.connect(
      options(
        {
          passphrase: (r) => (requests.push(r), answers.shift()),
          password: () => (passwordAsked++, undefined),
        },
        [],
      ),
    );
    expect((await t.exec('id -un')).stdout.toString().trim()).toBe(sshd.user);
    await t.close();
    expect(requests).toEqual([
      { keyFile: encryptedKey },
      { keyFile: encryptedKey, retry: { attempt: 2, maxAttempts: 3 } },
    ]);
    expect(passwordAsked).toBe(0);
  });

  it('three wrong ones: a failure naming the key and "wrong passphrase", and no password question', async () => {
    const requests: PassphraseRequest[] = [];
    const answers = [...WRONG];
    let passwordAsked = 0;
    const error = await failure(
      options(
        {
          passphrase: (r) => (requests.push(r), answers.shift()),
          password: () => (passwordAsked++, 'not asked'),
        },
        [],
      ),
    );
    expect(error.code).toBe('SSH_AUTH_FAILED');
    expect(error.message).toContain(`tried key ${encryptedKey} (wrong passphrase, 3 attempts)`);
    expect(requests.map((r) => r.retry?.attempt)).toEqual([undefined, 2, 3]);
    expect(passwordAsked).toBe(0);
  });

  it('a source that gives the same wrong one again is not asked a third time', async () => {
    let asked = 0;
    const error = await failure(options({ passphrase: () => (asked++, WRONG[0]), password: () => 'not asked' }, []));
    expect(error.code).toBe('SSH_AUTH_FAILED');
    expect(error.message).toContain(`tried key ${encryptedKey} (wrong passphrase);`);
    expect(asked).toBe(2);
  });
});

describe('a wrong passphrase from the CLI (--passphrase-env)', () => {
  it('stops at once with one line naming the key, the exit status of an auth failure, and no passphrase', async () => {
    const target = [`${sshd.user}@${sshd.host}:${sshd.port}`, '--identity', encryptedKey, '--known-hosts', knownHosts];
    const env = {
      KVSCOPE_HOME: join(dir, 'cli-home'),
      SSH_AUTH_SOCK: '',
      KVSCOPE_TEST_PP: WRONG[1],
      KVSCOPE_TEST_PW: 'x',
    };
    // A password is at hand too: it is not tried after the wrong passphrase (that hid the reason).
    const flags = ['--passphrase-env', 'KVSCOPE_TEST_PP', '--password-env', 'KVSCOPE_TEST_PW'];
    const r = await runCli(['probe', ...target, ...flags], { env, timeoutMs: 60_000 });
    // Another authentication failure (an unencrypted key the server does not know), for its status.
    const other = await generateKey(join(dir, 'unknown_ed25519'));
    const target2 = [...target.slice(0, 2), other.privatePath, ...target.slice(3)];
    const r2 = await runCli(['probe', ...target2], { env, timeoutMs: 60_000 });
    expect(r2.stderr).toContain('authentication failed');
    expect(r.code).toBe(r2.code);
    expect(r.code).not.toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines.filter((l) => l.includes('authentication failed'))).toHaveLength(1);
    expect(lines.at(-1)).toContain(`authentication failed for ${sshd.user}@127.0.0.1:${sshd.port}`);
    // The source is named: which variable holds the wrong passphrase.
    expect(lines.at(-1)).toContain(
      `tried key ${encryptedKey} (wrong passphrase from --passphrase-env KVSCOPE_TEST_PP); the server accepts`,
    );
    expect(r.stderr + r.stdout).not.toContain(WRONG[1]);
  }, 90_000);

  it('an unset --passphrase-env variable is named in the failure, not "no passphrase given"', async () => {
    const target = [`${sshd.user}@${sshd.host}:${sshd.port}`, '--identity', encryptedKey, '--known-hosts', knownHosts];
    const env = { KVSCOPE_HOME: join(dir, 'cli-home'), SSH_AUTH_SOCK: '' };
    const r = await runCli(['probe', ...target, '--passphrase-env', 'KVSCOPE_TEST_PP_UNSET'], {
      env,
      timeoutMs: 60_000,
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n').at(-1)).toContain(
      `tried key ${encryptedKey} (encrypted, --passphrase-env KVSCOPE_TEST_PP_UNSET is not set)`,
    );
  }, 90_000);
});

// ---- the app's connector: prompts as events, memory, remembered secrets -----------------------

const memoryCipher = {
  backend: () => 'keychain',
  isAvailable: () => true,
  encrypt: (t: string) => Buffer.from(t).reverse(),
  decrypt: (b: Buffer) => Buffer.from(b).reverse().toString(),
};

function app(name: string) {
  const events: Array<{ event: ApiEventName; payload: any }> = [];
  const prompts = new PromptBroker((event, payload) => {
    events.push({ event, payload });
    allOutput.push(JSON.stringify(payload));
  });
  const home = join(dir, name);
  const boards = new BoardStore({ dir: home });
  const secrets = new EncryptedFileSecretStore(memoryCipher, { dir: home });
  const connector = new AppConnector({
    prompts,
    secrets,
    boards,
    env: { KVSCOPE_HOME: home, KVSCOPE_SSH_CONFIG: join(dir, 'no_ssh_config'), HOME: home },
    log: (l) => allOutput.push(l),
  });
  const spec = {
    kind: 'ssh' as const,
    host: sshd.host,
    port: sshd.port,
    user: sshd.user,
    identityFile: encryptedKey,
    knownHostsFile: knownHosts,
  };
  const credentialPrompts = () =>
    events.filter((e) => e.event === 'credentialPrompt').map((e) => e.payload as CredentialPrompt);
  /** Answers each new credential prompt with the next of `answers` (null: Cancel), as a user would. */
  const answerWith = (answers: Array<string | null>, remember = false) => {
    const seen = new Set<string>();
    const timer = setInterval(() => {
      for (const p of credentialPrompts()) {
        if (seen.has(p.requestId)) continue;
        seen.add(p.requestId);
        prompts.answerCredential(p.requestId, answers.shift() ?? null, remember);
      }
    }, 2);
    return () => clearInterval(timer);
  };
  return { connector, boards, secrets, spec, credentialPrompts, answerWith };
}

describe('a wrong passphrase in the app', () => {
  it('the dialog comes back saying so; the right one connects; only the right one is kept', async () => {
    const a = app('app-retry');
    const stop = a.answerWith([WRONG[0], PASSPHRASE]);
    const t = await a.connector.connect(a.spec).finally(stop);
    await t.close();
    const asked = a.credentialPrompts();
    expect(asked.map((p) => p.kind)).toEqual(['passphrase', 'passphrase']);
    expect(asked[0]!.retry).toBeUndefined();
    expect(asked[1]!.retry).toEqual({
      attempt: 2,
      maxAttempts: 3,
      reason: `That passphrase did not unlock ${encryptedKey}: try again`,
    });
    // What this app keeps for the board is the passphrase that worked: a second connection asks nothing.
    const t2 = await a.connector.connect(a.spec);
    await t2.close();
    expect(a.credentialPrompts()).toHaveLength(2);
  });

  it('three wrong ones fail naming the key and the wrong passphrase, with no password dialog', async () => {
    const a = app('app-three');
    const stop = a.answerWith([...WRONG]);
    const error = (await a.connector
      .connect(a.spec)
      .finally(stop)
      .catch((e: Error) => e)) as Error & { kind?: string };
    allOutput.push(error.message);
    expect(a.credentialPrompts().map((p) => [p.kind, p.retry?.attempt])).toEqual([
      ['passphrase', undefined],
      ['passphrase', 2],
      ['passphrase', 3],
    ]);
    expect(error.kind).toBe('auth-failed');
    expect(error.message).toContain(`key ${encryptedKey} (wrong passphrase, 3 attempts)`);
    expect(error.message).toContain('The passphrase did not unlock that key');
  });

  it('Cancel on the second question ends the attempt as a cancelled question', async () => {
    const a = app('app-cancel');
    const stop = a.answerWith([WRONG[0], null]);
    const error = (await a.connector
      .connect(a.spec)
      .finally(stop)
      .catch((e: Error) => e)) as Error & { kind?: string };
    expect(error.kind).toBe('cancelled');
    expect(error.message).toMatch(/^Not connected to .*: the passphrase question was cancelled\./);
    expect(error.message).not.toContain('no usable credential');
    expect(error.message).toContain(`key ${encryptedKey} (wrong passphrase, then none given)`);
    // No password question after it.
    expect(a.credentialPrompts().map((p) => p.kind)).toEqual(['passphrase', 'passphrase']);
  });

  it('a remembered passphrase that no longer unlocks the key is forgotten and asked for', async () => {
    const a = app('app-remembered');
    const saved = await a.boards.save({ label: 'Enc board', spec: a.spec });
    const key = secretKeys.passphrase(saved.id, encryptedKey);
    await a.secrets.set(key, WRONG[2]); // the key's passphrase was changed since
    const stop = a.answerWith([PASSPHRASE], true);
    const t = await a.connector.connect(a.spec, { boardId: saved.id }).finally(stop);
    await t.close();
    const asked = a.credentialPrompts();
    expect(asked).toHaveLength(1);
    expect(asked[0]!.retry?.reason).toBe(
      `The remembered passphrase did not unlock ${encryptedKey} and has been forgotten: type it again`,
    );
    expect(await a.secrets.get(key)).toBe(PASSPHRASE);
  });
});

it('nothing logged, thrown or sent as an event in this file contains a passphrase', () => {
  const text = allOutput.join('\n');
  expect(text).toContain('Outbound: Sending USERAUTH_REQUEST');
  for (const secret of [PASSPHRASE, ...WRONG]) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
  }
});
