// A session on read-only media (an SD card mounted read-only, a read-only share): `kvscope report`
// and `compare` read it. A session is an SQLite file in WAL mode, and SQLite reads one only where
// it can create the -shm beside it; a read-only open failed there with "unable to open database
// file" and the session could not be read at all. Now it is read from memory
// (session-file-guard.ts openReadOnlyDatabase), and a -wal beside it that holds rows is refused in
// one line rather than silently missed. A real read-only bind mount: needs root (skipped otherwise).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot, runCli } from '../../helpers/cli';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-ro-media-'));
const media = join(dir, 'media');
const log = join(projectRoot, 'test/fixtures/tegrastats/agx-orin-64gb-l4t36.4.4/agx_orin_64gb_l4t36.4.4_lesomnus.txt');
const oldSession = join(projectRoot, 'test/fixtures/sessions/v2/demo.kvscope');

function mountReadOnly(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['--bind', media, media], { stdio: 'ignore' });
  } catch {
    return false;
  }
  execFileSync('mount', ['-o', 'remount,ro,bind', media, media], { stdio: 'ignore' });
  return true;
}

let mounted = false;
beforeAll(async () => {
  mkdirSync(media);
  const r = await runCli(['import', 'tegrastats', log, '--out', join(media, 'orin.kvscope')]);
  if (r.code !== 0) throw new Error(`the session could not be imported: ${r.stderr}`);
  copyFileSync(join(media, 'orin.kvscope'), join(media, 'unsaved.kvscope'));
  writeFileSync(join(media, 'unsaved.kvscope-wal'), Buffer.alloc(4096, 1)); // rows SQLite cannot read here
  copyFileSync(oldSession, join(media, 'old.kvscope'));
  mounted = mountReadOnly();
}, 60_000);

afterAll(() => {
  if (mounted) execFileSync('umount', [media]);
  rmSync(dir, { recursive: true, force: true });
});

describe('a session on read-only media', () => {
  it('is reported and compared, and nothing is written beside it', async (context) => {
    if (!mounted) context.skip();
    const before = readdirSync(media).sort();
    const report = await runCli(['report', join(media, 'orin.kvscope'), '--format', 'json', '-o', '-']);
    expect(report.stderr).toBe('kvscope report: json report of 1 run(s) written to stdout\n');
    expect(report.code).toBe(0);
    expect(JSON.parse(report.stdout).runs).toHaveLength(1);
    // An older schema is migrated in memory, as on writable media.
    const old = await runCli(['report', join(media, 'old.kvscope'), '--format', 'md', '-o', join(dir, 'old.md')]);
    expect(old.code).toBe(0);
    expect(readFileSync(join(dir, 'old.md'), 'utf8')).toContain('# KVScope report');
    const compare = await runCli([
      'compare',
      join(media, 'orin.kvscope'),
      join(media, 'old.kvscope'),
      '-o',
      '-',
      '--format',
      'md',
    ]);
    expect(compare.code).toBe(0);
    expect(readdirSync(media).sort()).toEqual(before);
  });

  it('with a -wal holding rows: refused in one line, not read without them', async (context) => {
    if (!mounted) context.skip();
    const r = await runCli(['report', join(media, 'unsaved.kvscope'), '--format', 'json', '-o', '-']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `kvscope report: ${join(media, 'unsaved.kvscope')}: its folder is read-only and its -wal file holds rows SQLite cannot read there: copy the session and its -wal file to a writable folder\n`,
    );
  });
});
