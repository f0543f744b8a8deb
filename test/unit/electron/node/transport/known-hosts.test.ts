// known_hosts parsing and matching, checked against OpenSSH's own tools (ssh-keygen -F / -H /
// -l) and an HMAC computed here with node:crypto, independently of the code under test.
import { describe, expect, it, beforeAll } from 'vitest';
import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateKey, makeTempDir, type SshKey } from '../../../../helpers/sshd';
import {
  checkHostKey,
  defaultKnownHostsFiles,
  fingerprintSha256,
  hostFieldMatches,
  keyTypeOfBlob,
  knownHostName,
  KnownHostsStore,
  parseKnownHosts,
  verifyHostKey,
  type HostKeyChangedError,
  HostKeyUnknownError,
} from '../../../../../electron/node/transport/known-hosts';
import { defined } from '../../../../helpers/defined';

const run = promisify(execFile);
let dir: string;
let ed: SshKey;
let rsa: SshKey;
let other: SshKey;

beforeAll(async () => {
  dir = await makeTempDir();
  [ed, rsa, other] = await Promise.all([
    generateKey(join(dir, 'ed')),
    generateKey(join(dir, 'rsa'), { type: 'rsa' }),
    generateKey(join(dir, 'other')),
  ]);
});

const b64 = (k: SshKey) => k.blob.toString('base64');

describe('fingerprints and names', () => {
  it('SHA256 fingerprints equal ssh-keygen -l', () => {
    expect(fingerprintSha256(ed.blob)).toBe(ed.fingerprint);
    expect(fingerprintSha256(rsa.blob)).toBe(rsa.fingerprint);
    expect(keyTypeOfBlob(rsa.blob)).toBe('ssh-rsa');
    expect(keyTypeOfBlob(Buffer.from('nonsense'))).toBeNull();
  });

  it('host names as ssh(1) writes them', () => {
    expect(knownHostName('Board.LAN', 22)).toBe('board.lan');
    expect(knownHostName('10.0.0.5', 2222)).toBe('[10.0.0.5]:2222');
    expect(knownHostName('::1', 22)).toBe('::1');
    expect(knownHostName('[::1]', 2222)).toBe('[::1]:2222');
  });
});

describe('parseKnownHosts', () => {
  // QA: a binary given as --known-hosts printed 3,705 warning lines.
  it('says at most a few notes per file, then how many more lines it ignored', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `garbage${i}`).join('\n');
    const { entries, notes } = parseKnownHosts(text, 'kh');
    expect(entries).toEqual([]);
    expect(notes).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `kh:${i + 1}: expected "hosts keytype key", line ignored`),
      'kh: 990 more lines ignored (is it a known_hosts file?)',
    ]);
  });

  it('plain, lists, markers, comments, several keys per host; bad lines noted, never thrown', () => {
    const text = [
      '# comment',
      '',
      `board.lan,10.0.0.5 ${ed.type} ${b64(ed)} a comment`,
      `board.lan ${rsa.type} ${b64(rsa)}`,
      `@revoked * ${other.type} ${b64(other)}`,
      `@cert-authority *.lan ${other.type} ${b64(other)}`,
      `@bogus x ${ed.type} ${b64(ed)}`,
      'only-two fields',
      `mismatch ssh-rsa ${b64(ed)}`,
      `bad ${ed.type} !!!notbase64`,
      '|1|short|hash ssh-ed25519 AAAA',
    ].join('\n');
    const { entries, notes } = parseKnownHosts(text, 'kh');
    expect(entries.map((e) => [e.line, e.marker ?? '', e.keyType, e.hashed])).toEqual([
      [3, '', 'ssh-ed25519', false],
      [4, '', 'ssh-rsa', false],
      [5, 'revoked', 'ssh-ed25519', false],
      [6, 'cert-authority', 'ssh-ed25519', false],
    ]);
    expect(notes.map((n) => n.split(':')[1])).toEqual(['6', '7', '8', '9', '10', '11']);
    expect(notes.join('\n')).toContain('@cert-authority line ignored');
    expect(notes.join('\n')).not.toContain(b64(ed)); // no key material in notes
  });

  it('hashed entries made by ssh-keygen -H match the names ssh-keygen -F finds', async () => {
    const file = join(dir, 'to_hash');
    const names = ['board.lan', '[10.0.0.5]:2222', '192.168.7.2', '[::1]:22022'];
    await writeFile(file, names.map((n) => `${n} ${ed.type} ${b64(ed)}`).join('\n') + '\n');
    await run('ssh-keygen', ['-H', '-f', file]);
    const hashedText = await readFile(file, 'utf8');
    const { entries } = parseKnownHosts(hashedText, file);
    expect(entries).toHaveLength(4);
    expect(entries.every((e) => e.hashed)).toBe(true);
    for (const [i, name] of names.entries()) {
      const entry = defined(entries[i], `entry ${i}`);
      expect(hostFieldMatches(entry.hosts, name)).toBe(true);
      // OpenSSH agrees about which line names that host
      const { stdout } = await run('ssh-keygen', ['-F', name, '-f', file]);
      expect(stdout).toContain(entry.hosts);
    }
    expect(entries.some((e) => hostFieldMatches(e.hosts, 'board.lan.evil'))).toBe(false);
    expect(entries.some((e) => hostFieldMatches(e.hosts, '10.0.0.5'))).toBe(false); // [host]:port only
  });

  it('a hashed name is HMAC-SHA1(salt, name), computed here independently', () => {
    const salt = randomBytes(20);
    const mac = createHmac('sha1', salt).update('[127.0.0.1]:2222').digest();
    const field = `|1|${salt.toString('base64')}|${mac.toString('base64')}`;
    expect(hostFieldMatches(field, '[127.0.0.1]:2222')).toBe(true);
    expect(hostFieldMatches(field, '[127.0.0.1]:2223')).toBe(false);
    expect(hostFieldMatches(field, '[127.0.0.1]:2222'.toUpperCase())).toBe(true); // names compare lower-case
  });

  it('patterns: *, ?, !negation, agreeing with ssh-keygen -F', async () => {
    const lines = [
      `*.lan,!evil.lan ${ed.type} ${b64(ed)}`,
      `board-?? ${rsa.type} ${b64(rsa)}`,
      `[10.0.0.*]:2222 ${other.type} ${b64(other)}`,
    ];
    const file = join(dir, 'patterns');
    await writeFile(file, lines.join('\n') + '\n');
    const { entries } = parseKnownHosts(lines.join('\n'), file);
    for (const name of ['a.lan', 'evil.lan', 'board-01', 'board-1', '[10.0.0.9]:2222', '10.0.0.9', 'lan']) {
      const ours = entries.filter((e) => hostFieldMatches(e.hosts, name)).map((e) => e.line);
      const theirs = await run('ssh-keygen', ['-F', name, '-f', file]).then(
        (r) =>
          r.stdout
            .split('\n')
            .filter((l) => l.startsWith('# Host'))
            .map((l) => Number(/line (\d+)/.exec(l)?.[1])),
        () => [] as number[],
      );
      expect(ours, name).toEqual(theirs);
    }
  });
});

describe('checkHostKey', () => {
  const entries = () =>
    parseKnownHosts(
      [
        `[board]:2222 ${ed.type} ${b64(ed)}`,
        `[board]:2222 ${rsa.type} ${b64(rsa)}`,
        `board ${other.type} ${b64(other)}`,
        `@revoked * ${rsa.type} ${b64(rsa)}`,
      ].join('\n'),
      'kh',
    ).entries;

  it('known / unknown / changed / revoked', () => {
    expect(checkHostKey(entries(), 'board', 2222, ed.blob).status).toBe('known');
    expect(checkHostKey(entries(), 'board', 22, other.blob).status).toBe('known');
    expect(checkHostKey(entries(), 'elsewhere', 22, ed.blob).status).toBe('unknown');
    const changed = checkHostKey(entries(), 'board', 22, ed.blob);
    expect(changed.status).toBe('changed');
    expect(changed.status === 'changed' && changed.oldEntries.map((e) => e.line)).toEqual([3]);
    expect(checkHostKey(entries(), 'board', 2222, rsa.blob).status).toBe('revoked');
  });

  it('a changed key names an old entry of the same type first', () => {
    const c = checkHostKey(
      parseKnownHosts([`h ${rsa.type} ${b64(rsa)}`, `h ${ed.type} ${b64(ed)}`].join('\n'), 'kh').entries,
      'h',
      22,
      other.blob,
    );
    expect(c.status === 'changed' && c.oldEntries.map((e) => e.line)).toEqual([2, 1]);
  });
});

describe('KnownHostsStore and verifyHostKey', () => {
  it('reads the store and the user file; writes only to the store', async () => {
    const user = join(dir, 'user_kh');
    const store = join(dir, 'app', 'known_hosts');
    await writeFile(user, `[h]:2200 ${ed.type} ${b64(ed)}\n`);
    const s = new KnownHostsStore({ readFiles: [store, user], storeFile: store });
    expect(await s.knownKeyTypes('h', 2200)).toEqual(['ssh-ed25519']);
    expect((await verifyHostKey({ store: s, host: 'h', port: 2200, keyBlob: ed.blob })).status).toBe('known');
    await expect(verifyHostKey({ store: s, host: 'new', port: 22, keyBlob: other.blob })).rejects.toBeInstanceOf(
      HostKeyUnknownError,
    );
    const added = await verifyHostKey({
      store: s,
      host: 'new',
      port: 22,
      keyBlob: other.blob,
      confirmHostKey: () => true,
    });
    expect(added).toEqual({ status: 'added', file: store, line: 1 });
    const added2 = await verifyHostKey({
      store: s,
      host: 'new2',
      port: 2,
      keyBlob: rsa.blob,
      confirmHostKey: () => Promise.resolve(true),
    });
    expect(added2).toEqual({ status: 'added', file: store, line: 2 });
    expect(await readFile(store, 'utf8')).toBe(`new ${other.type} ${b64(other)}\n[new2]:2 ${rsa.type} ${b64(rsa)}\n`);
    expect(await readFile(user, 'utf8')).toBe(`[h]:2200 ${ed.type} ${b64(ed)}\n`);
    const e = (await verifyHostKey({
      store: s,
      host: 'h',
      port: 2200,
      keyBlob: other.blob,
      confirmHostKey: () => true,
    }).catch((x) => x)) as HostKeyChangedError;
    expect(e.code).toBe('HOST_KEY_CHANGED');
    expect(e.oldEntryLocation).toBe(`${user}:1`);
  });

  it('default files: the app store first, then --known-hosts or ~/.ssh/known_hosts and known_hosts2, then the global ones', () => {
    const env = { KVSCOPE_HOME: '/tmp/kvs-home' } as NodeJS.ProcessEnv;
    expect(defaultKnownHostsFiles('/x/kh', env)).toEqual({
      storeFile: '/tmp/kvs-home/known_hosts',
      readFiles: ['/tmp/kvs-home/known_hosts', '/x/kh', '/etc/ssh/ssh_known_hosts', '/etc/ssh/ssh_known_hosts2'],
    });
    const readFiles = defaultKnownHostsFiles(undefined, env, []).readFiles;
    expect(readFiles).toHaveLength(3);
    expect(readFiles[1]).toMatch(/\/\.ssh\/known_hosts$/);
    expect(readFiles[2]).toMatch(/\/\.ssh\/known_hosts2$/);
    // Every file of a UserKnownHostsFile line; `none` reads none.
    expect(defaultKnownHostsFiles(['/a', 'none', '/b'], env, ['/g']).readFiles).toEqual([
      '/tmp/kvs-home/known_hosts',
      '/a',
      '/b',
      '/g',
    ]);
  });

  it('a key held in a global file is known, and another one presented is refused as changed', async () => {
    const global = join(dir, 'global_known_hosts');
    await writeFile(global, `board.example ${ed.publicLine}\n`);
    const files = defaultKnownHostsFiles(join(dir, 'nothing_here'), { KVSCOPE_HOME: join(dir, 'gh') }, [global]);
    const store = new KnownHostsStore(files);
    expect((await store.check('board.example', 22, ed.blob)).status).toBe('known');
    expect((await store.check('board.example', 22, other.blob)).status).toBe('changed');
  });
});
