// Saved boards (electron/node/boards/board-store.ts): one JSON file in the app data dir,
// written atomically with mode 0600, and never a secret in it.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  canonicalJson,
  normalizeSavedSpec,
  BoardStore,
  BoardStoreError,
} from '../../../../../electron/node/boards/board-store';

let dir: string;
let store: BoardStore;
const file = () => join(dir, 'boards.json');
const legacyFile = () => join(dir, 'targets.json');
const LEGACY_FIXTURE = join(import.meta.dirname, '../../../../fixtures/boards/targets-json-v1/targets.json');
const board = { kind: 'ssh' as const, host: 'orin.lan', user: 'nvidia', port: 2222 };

beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'kvscope-boards-')), 'app');
  store = new BoardStore({ dir, homeDir: '/home/engineer' });
});
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

describe('saving boards', () => {
  it('writes boards.json with mode 0600 in a 0700 directory, and reads it back', async () => {
    const saved = await store.save({ label: 'Jetson Orin (lab)', spec: board });
    expect(saved.id).toMatch(/^jetson-orin-lab-[0-9a-f]{6}$/);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const json = JSON.parse(readFileSync(file(), 'utf8'));
    expect(json).toEqual({
      version: 2,
      boards: [
        {
          id: saved.id,
          label: 'Jetson Orin (lab)',
          spec: board,
          createdAt: saved.createdAt,
          updatedAt: saved.updatedAt,
        },
      ],
    });
    expect(await new BoardStore({ dir }).list()).toEqual([saved]);
  });

  it('replaces an existing board by id and removes it', async () => {
    const a = await store.save({ label: 'A', spec: board });
    const b = await store.save({ label: 'B', spec: { kind: 'ssh', host: 'pi5.lan' } });
    const edited = await store.save({ id: a.id, label: 'A renamed', spec: { ...board, port: 22 } });
    expect(edited).toMatchObject({ id: a.id, label: 'A renamed', createdAt: a.createdAt, spec: { port: 22 } });
    expect((await store.list()).map((t) => t.label)).toEqual(['A renamed', 'B']);
    await expect(store.save({ id: 'no-such-board', label: 'x', spec: board })).rejects.toThrow(
      /no saved board "no-such-board"/,
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
    expect(readdirSync(dir)).toEqual(['boards.json']);
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
    json.boards.push({
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
    expect(JSON.parse(readFileSync(file(), 'utf8')).boards.map((t: { id: string }) => t.id)).toContain('edited-1');
    expect((await store.list()).some((t) => JSON.stringify(t).includes('hunter2'))).toBe(false);
  });
});

describe('what a board may say', () => {
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
    expect(() => normalizeSavedSpec({ kind: 'ssh', host: 'h; rm -rf /' })).toThrow(BoardStoreError);
    expect(() => normalizeSavedSpec({ kind: 'ssh', host: '-oProxyCommand=x' })).toThrow(/must not start with "-"/);
    expect(() => normalizeSavedSpec({ kind: 'local' })).toThrow(BoardStoreError);
  });

  it('refuses an empty label', async () => {
    await expect(store.save({ label: '   ', spec: board })).rejects.toThrow(/label: .*name is required/);
  });

  it('finds a saved board by its spec whatever the key order', async () => {
    const saved = await store.save({ label: 'orin', spec: board });
    expect((await store.findBySpec({ port: 2222, user: 'nvidia', host: 'orin.lan', kind: 'ssh' }))?.id).toBe(saved.id);
    expect(await store.findBySpec({ ...board, port: 22 })).toBeUndefined();
    expect(canonicalJson({ b: 1, a: { d: undefined, c: 2 } })).toBe('{"a":{"c":2},"b":1}');
  });
});

describe('a damaged or foreign file', () => {
  it('reports invalid JSON instead of overwriting it', async () => {
    await store.save({ label: 'a', spec: board });
    writeFileSync(file(), '{"version": 2, "boards": [');
    await expect(store.list()).rejects.toThrow(/is not valid JSON .*fix it or move it away/);
    await expect(store.save({ label: 'b', spec: board })).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(file(), 'utf8')).toBe('{"version": 2, "boards": [');
  });

  it('does not rewrite a file from a newer version', async () => {
    mkdirSync(dir, { recursive: true });
    const newer = JSON.stringify({ version: 3, boards: [], sites: {} });
    writeFileSync(file(), newer);
    await expect(store.list()).rejects.toThrow(/written by a newer KVScope/);
    await expect(store.save({ label: 'b', spec: board })).rejects.toThrow(/newer KVScope/);
    expect(readFileSync(file(), 'utf8')).toBe(newer);
  });
});

describe('targets.json from before the rename (file version 1)', () => {
  const fixtureIds = ['jetson-orin-lab-622ea2', 'pi-5-via-bastion-801b14'];
  beforeEach(() => {
    mkdirSync(dir, { recursive: true });
    copyFileSync(LEGACY_FIXTURE, legacyFile());
  });

  it('serves its boards while boards.json does not exist, without touching it', async () => {
    expect((await store.list()).map((b) => b.id)).toEqual(fixtureIds);
    expect(await store.get('jetson-orin-lab-622ea2')).toMatchObject({
      label: 'Jetson Orin (lab)',
      spec: {
        kind: 'ssh',
        host: 'orin.lan',
        port: 2222,
        user: 'nvidia',
        identityFile: '/home/engineer/.ssh/id_ed25519',
      },
    });
    expect((await store.notes()).join('\n')).toMatch(/targets\.json: entry 3 ignored .*password/);
    expect(readFileSync(legacyFile(), 'utf8')).toBe(readFileSync(LEGACY_FIXTURE, 'utf8'));
    expect(existsSync(file())).toBe(false);
  });

  it('the first write moves everything to boards.json (the kept invalid entry too) and removes targets.json', async () => {
    const added = await store.save({ label: 'RK3588', spec: { kind: 'ssh', host: 'rk.lan' } });
    expect(existsSync(legacyFile())).toBe(false);
    const json = JSON.parse(readFileSync(file(), 'utf8'));
    expect(json.version).toBe(2);
    expect(json.boards.map((b: { id: string }) => b.id)).toEqual([...fixtureIds, added.id, 'edited-1']);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect((await new BoardStore({ dir }).list()).map((b) => b.id)).toEqual([...fixtureIds, added.id]);
  });

  it('prefers boards.json when both exist', async () => {
    const saved = await new BoardStore({ dir: join(dir, '..', 'other') }).save({ label: 'new', spec: board });
    copyFileSync(join(dir, '..', 'other', 'boards.json'), file());
    copyFileSync(LEGACY_FIXTURE, legacyFile());
    expect((await store.list()).map((b) => b.id)).toEqual([saved.id]);
  });
});
