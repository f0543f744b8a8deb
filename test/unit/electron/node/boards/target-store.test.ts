// Saved targets (electron/node/boards/target-store.ts): one JSON file in the app data dir,
// written atomically with mode 0600, and never a secret in it.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  canonicalJson,
  normalizeSavedSpec,
  TargetStore,
  TargetStoreError,
} from '../../../../../electron/node/boards/target-store';

let dir: string;
let store: TargetStore;
const file = () => join(dir, 'targets.json');
const board = { kind: 'ssh' as const, host: 'orin.lan', user: 'nvidia', port: 2222 };

beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'kvscope-targets-')), 'app');
  store = new TargetStore({ dir, homeDir: '/home/engineer' });
});
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

describe('saving targets', () => {
  it('writes targets.json with mode 0600 in a 0700 directory, and reads it back', async () => {
    const saved = await store.save({ label: 'Jetson Orin (lab)', spec: board });
    expect(saved.id).toMatch(/^jetson-orin-lab-[0-9a-f]{6}$/);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const json = JSON.parse(readFileSync(file(), 'utf8'));
    expect(json).toEqual({
      version: 1,
      targets: [
        {
          id: saved.id,
          label: 'Jetson Orin (lab)',
          spec: board,
          createdAt: saved.createdAt,
          updatedAt: saved.updatedAt,
        },
      ],
    });
    expect(await new TargetStore({ dir }).list()).toEqual([saved]);
  });

  it('replaces an existing target by id and removes it', async () => {
    const a = await store.save({ label: 'A', spec: board });
    const b = await store.save({ label: 'B', spec: { kind: 'ssh', host: 'pi5.lan' } });
    const edited = await store.save({ id: a.id, label: 'A renamed', spec: { ...board, port: 22 } });
    expect(edited).toMatchObject({ id: a.id, label: 'A renamed', createdAt: a.createdAt, spec: { port: 22 } });
    expect((await store.list()).map((t) => t.label)).toEqual(['A renamed', 'B']);
    await expect(store.save({ id: 'no-such-target', label: 'x', spec: board })).rejects.toThrow(
      /no saved target "no-such-target"/,
    );
    expect(await store.remove(b.id)).toBe(true);
    expect(await store.remove(b.id)).toBe(false);
    expect((await store.list()).map((t) => t.id)).toEqual([a.id]);
  });

  it('replaces the file by rename: a reader of the old file sees the old content whole, no temp file stays', async () => {
    await store.save({ label: 'first', spec: board });
    const before = readFileSync(file(), 'utf8');
    const oldInode = statSync(file()).ino;
    const reader = await open(file(), 'r');
    try {
      await store.save({ label: 'second', spec: { kind: 'ssh', host: 'rk3588.lan' } });
      // In-place rewriting would have truncated what the open handle reads.
      expect(await reader.readFile('utf8')).toBe(before);
    } finally {
      await reader.close();
    }
    expect(statSync(file()).ino).not.toBe(oldInode);
    expect(readdirSync(dir)).toEqual(['targets.json']);
  });

  it('serialises concurrent saves: none is lost', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        store.save({ label: `board ${i}`, spec: { kind: 'ssh', host: `b${i}.lan` } }),
      ),
    );
    const labels = (await store.list()).map((t) => t.label).sort();
    expect(labels).toEqual(Array.from({ length: 12 }, (_, i) => `board ${i}`).sort());
    expect(new Set((await store.list()).map((t) => t.id)).size).toBe(12);
  });

  it('tightens the mode of a file another tool created readable by others', async () => {
    await store.save({ label: 'a', spec: board });
    chmodSync(file(), 0o644);
    await store.save({ label: 'b', spec: board });
    expect(statSync(file()).mode & 0o777).toBe(0o600);
  });
});

describe('no secret in the store', () => {
  it.each([
    ['password', { ...board, password: 'hunter2' }, /Unrecognized key.*password/],
    ['passphrase', { ...board, passphrase: 'hunter2' }, /Unrecognized key.*passphrase/],
    [
      'passwordEnv (reads the app environment)',
      { ...board, passwordEnv: 'AWS_SECRET_ACCESS_KEY' },
      /Unrecognized key.*passwordEnv/,
    ],
    [
      'acceptNewHostKey (skips the fingerprint dialog)',
      { ...board, acceptNewHostKey: true },
      /Unrecognized key.*acceptNewHostKey/,
    ],
  ])('refuses a spec with %s and writes nothing', async (_name, spec, message) => {
    await expect(store.save({ label: 'x', spec })).rejects.toThrow(message);
    expect(() => statSync(file())).toThrow();
  });

  it('ignores a hand-edited entry with a password (not served), but keeps it in the file', async () => {
    const ok = await store.save({ label: 'ok', spec: board });
    const json = JSON.parse(readFileSync(file(), 'utf8'));
    json.targets.push({
      id: 'edited-1',
      label: 'edited',
      spec: { ...board, password: 'hunter2' },
      createdAt: 'x',
      updatedAt: 'x',
    });
    writeFileSync(file(), JSON.stringify(json));
    expect((await store.list()).map((t) => t.id)).toEqual([ok.id]);
    expect((await store.notes()).join('\n')).toMatch(/entry 2 ignored .*password/);
    await store.save({ label: 'another', spec: board });
    expect(JSON.parse(readFileSync(file(), 'utf8')).targets.map((t: { id: string }) => t.id)).toContain('edited-1');
    expect((await store.list()).some((t) => JSON.stringify(t).includes('hunter2'))).toBe(false);
  });
});

describe('what a target may say', () => {
  it('expands ~ in paths, drops empty optional fields, and trims', () => {
    expect(
      normalizeSavedSpec(
        {
          kind: 'ssh',
          host: ' orin.lan ',
          user: '',
          identityFile: '~/.ssh/id_ed25519',
          knownHostsFile: '/etc/ssh/ssh_known_hosts',
          jump: [' bastion ', ''],
        },
        '/home/e',
      ),
    ).toEqual({
      kind: 'ssh',
      host: 'orin.lan',
      identityFile: '/home/e/.ssh/id_ed25519',
      knownHostsFile: '/etc/ssh/ssh_known_hosts',
      jump: ['bastion'],
    });
  });

  it('refuses relative paths, bad jump hosts, shell-looking hosts and a local spec', () => {
    expect(() => normalizeSavedSpec({ kind: 'ssh', host: 'h', identityFile: 'id_rsa' })).toThrow(
      /identityFile: "id_rsa" must be an absolute path/,
    );
    expect(() => normalizeSavedSpec({ kind: 'ssh', host: 'h', jump: ['user@bastion:99999'] })).toThrow(
      /jump: .*port must be 1–65535/,
    );
    expect(() => normalizeSavedSpec({ kind: 'ssh', host: 'h; rm -rf /' })).toThrow(TargetStoreError);
    expect(() => normalizeSavedSpec({ kind: 'ssh', host: '-oProxyCommand=x' })).toThrow(/must not start with "-"/);
    expect(() => normalizeSavedSpec({ kind: 'local' })).toThrow(TargetStoreError);
  });

  it('refuses an empty label', async () => {
    await expect(store.save({ label: '   ', spec: board })).rejects.toThrow(/label: .*name is required/);
  });

  it('finds a saved target by its spec whatever the key order', async () => {
    const saved = await store.save({ label: 'orin', spec: board });
    expect((await store.findBySpec({ port: 2222, user: 'nvidia', host: 'orin.lan', kind: 'ssh' }))?.id).toBe(saved.id);
    expect(await store.findBySpec({ ...board, port: 22 })).toBeUndefined();
    expect(canonicalJson({ b: 1, a: { d: undefined, c: 2 } })).toBe('{"a":{"c":2},"b":1}');
  });
});

describe('a damaged or foreign file', () => {
  it('reports invalid JSON instead of overwriting it', async () => {
    await store.save({ label: 'a', spec: board });
    writeFileSync(file(), '{"version": 1, "targets": [');
    await expect(store.list()).rejects.toThrow(/is not valid JSON .*fix it or move it away/);
    await expect(store.save({ label: 'b', spec: board })).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(file(), 'utf8')).toBe('{"version": 1, "targets": [');
  });

  it('does not rewrite a file from a newer version', async () => {
    mkdirSync(dir, { recursive: true });
    const newer = JSON.stringify({ version: 2, targets: [], boards: {} });
    writeFileSync(file(), newer);
    await expect(store.list()).rejects.toThrow(/written by a newer KVScope/);
    await expect(store.save({ label: 'b', spec: board })).rejects.toThrow(/newer KVScope/);
    expect(readFileSync(file(), 'utf8')).toBe(newer);
  });
});
