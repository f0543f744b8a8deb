// Host key verification against a real sshd: unknown keys need consent (then go to the app's
// store, never ~/.ssh), a changed key is refused BEFORE any credential leaves, hashed and
// [host]:port entries are understood, @revoked keys are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateKey, makeTempDir, startSshd, waitFor, writeKnownHosts, type Sshd } from '../../helpers/sshd';
import { SshTarget, type SshTargetOptions } from '../../../electron/node/transport/ssh-target';
import {
  HostKeyChangedError,
  HostKeyRevokedError,
  HostKeyUnknownError,
  KnownHostsStore,
  type HostKeyInfo,
} from '../../../electron/node/transport/known-hosts';

const run = promisify(execFile);
let sshd: Sshd;
let dir: string;

beforeAll(async () => {
  sshd = await startSshd();
  dir = await makeTempDir();
});
afterAll(async () => {
  await sshd?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

let n = 0;
function setup(lines: string[] | null, over: Partial<SshTargetOptions> = {}) {
  const i = n++;
  const userFile = join(dir, `known_hosts_${i}`);
  const storeFile = join(dir, `store_${i}`);
  const logs: string[] = [];
  const files = { readFiles: [storeFile, userFile], storeFile };
  const opts: SshTargetOptions = {
    target: { host: sshd.host, port: sshd.port, username: sshd.user, identityFiles: [sshd.clientKey.privatePath] },
    knownHosts: new KnownHostsStore(files),
    agentSocket: null,
    log: (l) => logs.push(l),
    ...over,
  };
  return {
    opts,
    userFile,
    storeFile,
    logs,
    write: async () => {
      if (lines) await writeKnownHosts(userFile, lines);
    },
  };
}

describe('host key verification', () => {
  it('an unknown host key is refused without consent, naming the fingerprint and how to accept it', async () => {
    const s = setup(null);
    const asked: HostKeyInfo[] = [];
    const e = (await SshTarget.connect({ ...s.opts, confirmHostKey: (info) => (asked.push(info), false) }).catch(
      (x) => x,
    )) as HostKeyUnknownError;
    expect(e).toBeInstanceOf(HostKeyUnknownError);
    expect(e.code).toBe('HOST_KEY_UNKNOWN');
    expect(e.fingerprint).toBe(sshd.hostKey.fingerprint); // ssh-keygen -lf's own answer
    expect(e.message).toContain(sshd.hostKey.fingerprint);
    expect(e.message).toContain('--accept-new-host-key');
    expect(asked).toEqual([
      { host: '127.0.0.1', port: sshd.port, keyType: 'ssh-ed25519', fingerprint: sshd.hostKey.fingerprint },
    ]);
    await expect(readFile(s.storeFile, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('with consent the key is stored in the app store only, and the next connect needs no consent', async () => {
    const s = setup([]);
    await s.write();
    const t = await SshTarget.connect({ ...s.opts, confirmHostKey: () => true });
    expect((await t.exec('echo ok')).stdout.toString()).toBe('ok\n');
    await t.close();
    const stored = await readFile(s.storeFile, 'utf8');
    expect(stored).toBe(`${sshd.knownHostsLine}\n`);
    expect(await readFile(s.userFile, 'utf8')).toBe('\n'); // the user's file is untouched
    expect(s.logs).toContain(
      `added the host key of ${sshd.user}@127.0.0.1:${sshd.port} (ED25519 ${sshd.hostKey.fingerprint}) to ${s.storeFile}:1`,
    );
    // ssh-keygen agrees the stored line is a valid known_hosts entry for [127.0.0.1]:port
    const { stdout } = await run('ssh-keygen', ['-F', sshd.knownHostsName, '-f', s.storeFile]);
    expect(stdout).toContain(sshd.hostKey.blob.toString('base64'));
    let asked = 0;
    const again = await SshTarget.connect({ ...s.opts, confirmHostKey: () => (asked++, true) });
    await again.close();
    expect(asked).toBe(0);
  });

  it('a CHANGED key is refused before any credential is sent', async () => {
    const impostor = await generateKey(join(dir, 'old_host_key'));
    const s = setup(['# a comment', `${sshd.knownHostsName} ${impostor.type} ${impostor.blob.toString('base64')}`]);
    await s.write();
    let passwordAsked = 0;
    let passphraseAsked = 0;
    let confirmAsked = 0;
    const logOffset = sshd.logSize();
    const e = (await SshTarget.connect({
      ...s.opts,
      password: () => (passwordAsked++, 'never-sent'),
      passphrase: () => (passphraseAsked++, 'never-sent'),
      confirmHostKey: () => (confirmAsked++, true), // consent never overrides a changed key
    }).catch((x) => x)) as HostKeyChangedError;
    expect(e).toBeInstanceOf(HostKeyChangedError);
    expect(e.code).toBe('HOST_KEY_CHANGED');
    expect(e.oldFingerprint).toBe(impostor.fingerprint);
    expect(e.fingerprint).toBe(sshd.hostKey.fingerprint);
    expect(e.oldEntryLocation).toBe(`${s.userFile}:2`);
    expect(e.message).toContain(impostor.fingerprint);
    expect(e.message).toContain(sshd.hostKey.fingerprint);
    expect(e.message).toContain(`${s.userFile}:2`);
    expect([passwordAsked, passphraseAsked, confirmAsked]).toEqual([0, 0, 0]);
    expect(s.logs.some((l) => l.startsWith('trying '))).toBe(false);
    // sshd's own log of that connection (found by its client port): it ended in the key
    // exchange, with no userauth request at all.
    const log = await waitFor(() => {
      const text = sshd.logSince(logOffset);
      const port = /Connection from 127\.0\.0\.1 port (\d+)/.exec(text)?.[1];
      if (!port) return '';
      const end = new RegExp(`(Disconnected from|Connection (closed|reset) by) 127\\.0\\.0\\.1 port ${port}\\b.*`).exec(
        text,
      );
      return end ? text.slice(text.indexOf(`Connection from 127.0.0.1 port ${port}`), end.index + end[0].length) : '';
    }, 'sshd to log the end of the refused connection');
    expect(log).toContain('kex: host key algorithm: ssh-ed25519');
    expect(log).not.toMatch(/userauth-request|Accepted|Failed (password|publickey|none)|SSH2_MSG_SERVICE_REQUEST/);
    // positive control: a normal login does show up as a userauth request in the same log
    const offset2 = sshd.logSize();
    const ok = await SshTarget.connect(setup(null, { confirmHostKey: () => true }).opts);
    await ok.close();
    await waitFor(() => /userauth-request for user/.test(sshd.logSince(offset2)), 'sshd to log a userauth request');
  });

  it('a different key of ANOTHER type for the host is refused too', async () => {
    const rsa = await generateKey(join(dir, 'rsa_host_key'), { type: 'rsa' });
    const s = setup([`${sshd.knownHostsName} ${rsa.type} ${rsa.blob.toString('base64')}`]);
    await s.write();
    const e = (await SshTarget.connect(s.opts).catch((x) => x)) as HostKeyChangedError;
    expect(e.code).toBe('HOST_KEY_CHANGED');
    expect(e.oldFingerprint).toBe(rsa.fingerprint);
  });

  it('accepts hashed entries written by ssh-keygen -H', async () => {
    const other = await generateKey(join(dir, 'other_host_key'));
    const s = setup([`other.example ${other.type} ${other.blob.toString('base64')}`, sshd.knownHostsLine]);
    await s.write();
    await run('ssh-keygen', ['-H', '-f', s.userFile]);
    const hashed = await readFile(s.userFile, 'utf8');
    expect(hashed).not.toContain('127.0.0.1');
    expect(hashed).toMatch(/^\|1\|/m);
    const t = await SshTarget.connect(s.opts);
    await t.close();
  });

  it('[host]:port entries are for that port only; a plain host entry does not match a non-22 port', async () => {
    const plain = setup([`127.0.0.1 ${sshd.hostKey.type} ${sshd.hostKey.blob.toString('base64')}`]);
    await plain.write();
    const e = await SshTarget.connect(plain.opts).catch((x) => x);
    expect(e).toBeInstanceOf(HostKeyUnknownError);
    const wrongPort = setup([
      `[127.0.0.1]:${sshd.port + 1} ${sshd.hostKey.type} ${sshd.hostKey.blob.toString('base64')}`,
    ]);
    await wrongPort.write();
    expect(await SshTarget.connect(wrongPort.opts).catch((x) => x)).toBeInstanceOf(HostKeyUnknownError);
    const right = setup([
      `[127.0.0.1]:${sshd.port},[localhost]:${sshd.port} ${sshd.hostKey.type} ${sshd.hostKey.blob.toString('base64')}`,
    ]);
    await right.write();
    await (await SshTarget.connect(right.opts)).close();
  });

  it('a @revoked key is refused even when another line trusts it', async () => {
    const s = setup([sshd.knownHostsLine, `@revoked * ${sshd.hostKey.type} ${sshd.hostKey.blob.toString('base64')}`]);
    await s.write();
    const e = (await SshTarget.connect({ ...s.opts, confirmHostKey: () => true }).catch(
      (x) => x,
    )) as HostKeyRevokedError;
    expect(e).toBeInstanceOf(HostKeyRevokedError);
    expect(e.code).toBe('HOST_KEY_REVOKED');
    expect(e.message).toContain(`${s.userFile}:2`);
  });

  it('@cert-authority lines are ignored with a note (the host stays unknown)', async () => {
    const ca = await generateKey(join(dir, 'ca_key'));
    const s = setup([`@cert-authority *.example,127.0.0.1 ${ca.type} ${ca.blob.toString('base64')}`]);
    await s.write();
    const e = await SshTarget.connect(s.opts).catch((x) => x);
    expect(e).toBeInstanceOf(HostKeyUnknownError);
    expect(s.logs.some((l) => l.includes('@cert-authority line ignored'))).toBe(true);
  });
});
