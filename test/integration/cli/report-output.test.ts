// `-o` of `kvscope report` and `kvscope compare` naming a session: the input itself, or another
// recording reached by tab completion. The report went over it (the session was gone, replaced
// by Markdown or JSON); now the command refuses with one line and the file is byte for byte what
// it was (electron/node/session/report-files.ts). Needs `npm run build` (the demo engine bundle).
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promisify } from 'node:util';
import { shellJoin } from '../../../shared/util/shell';
import { FAST_DEMO_ARGS, kvscopeBin, runCli } from '../../helpers/cli';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-report-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  const r = await runCli(['profile', 'local', '--demo', '--tokens', '20', ...FAST_DEMO_ARGS, '--out', at('a.kvscope')]);
  if (r.code !== 0) throw new Error(`the demo session could not be recorded: ${r.stderr}`);
  // A second recording whose name does not say it is one (the comparison's -o must end in .md).
  copyFileSync(at('a.kvscope'), at('b.md'));
}, 60_000);

describe('a report is never written over a session', () => {
  it.each([
    ['report of a session over itself', () => ['report', at('a.kvscope'), '--format', 'json', '-o', at('a.kvscope')]],
    ['report over another session', () => ['report', at('a.kvscope'), '--format', 'md', '-o', at('b.md')]],
    ['comparison over one of its sessions', () => ['compare', at('a.kvscope'), at('b.md'), '-o', at('b.md')]],
  ])('%s: one line, status 1, the session untouched', async (_what, args) => {
    const before = { a: readFileSync(at('a.kvscope')), b: readFileSync(at('b.md')) };
    const r = await runCli(args());
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/is a KVScope session: not writing a report over it\n$/);
    expect(readFileSync(at('a.kvscope')).equals(before.a)).toBe(true);
    expect(readFileSync(at('b.md')).equals(before.b)).toBe(true);
    // Telling a session from a report left nothing beside it (a read-only SQLite open leaves a -wal and -shm).
    expect(readdirSync(dir).filter((f) => /-(?:wal|shm)$/.test(f))).toEqual([]);
  });

  it('a report over an earlier report is still written (only sessions are kept)', async () => {
    const first = await runCli(['report', at('a.kvscope'), '--format', 'md', '-o', at('r.md')]);
    expect(first.code, first.stderr).toBe(0);
    const again = await runCli(['report', at('a.kvscope'), '--format', 'json', '-o', at('r.md')]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(readFileSync(at('r.md'), 'utf8'))).toHaveProperty('runs');
  });
});

describe('a report -o that cannot be written', () => {
  // Said in the words of the path: it was Node's "ENOENT: no such file or directory, open '…'",
  // which names the report file the write was to create as the missing one.
  it.each([
    [
      'report into a folder that does not exist',
      () => ['report', at('a.kvscope'), '-o', at('gone/r.html')],
      'gone/r.html: its folder does not exist',
    ],
    ['report onto a folder', () => ['report', at('a.kvscope'), '--format', 'md', '-o', dir], `${dir}: is a directory`],
    [
      'report onto a full disk',
      () => ['report', at('a.kvscope'), '--format', 'md', '-o', '/dev/full'],
      '/dev/full: no space left on device',
    ],
    [
      'comparison into a folder that does not exist',
      () => ['compare', at('a.kvscope'), at('a.kvscope'), '-o', at('gone/c.md')],
      'gone/c.md: its folder does not exist',
    ],
    // procfs answers ENOENT to a create in a folder that is there: it said "its folder does not exist".
    [
      'report into /proc',
      () => ['report', at('a.kvscope'), '-o', '/proc/kvscope-report.html'],
      '/proc/kvscope-report.html: its folder takes no new file (a file system such as /proc or /sys)',
    ],
    [
      'report onto a symbolic link to nowhere',
      () => {
        symlinkSync(at('gone/target.html'), at('dangling.html'));
        return ['report', at('a.kvscope'), '-o', at('dangling.html')];
      },
      'dangling.html: it is a symbolic link to a place where no file can be made',
    ],
  ])('%s: one line, status 1', async (_what, args, reason) => {
    const r = await runCli(args());
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^kvscope (report|compare): cannot write /);
    expect(r.stderr.trimEnd().endsWith(reason)).toBe(true);
  });
});

describe('a folder given as the session', () => {
  it.each([
    ['report', () => ['report', dir, '--format', 'md', '-o', at('r.md')]],
    ['compare', () => ['compare', at('a.kvscope'), dir, '-o', at('c.md')]],
  ])('%s: one line naming it (SQLite said "disk I/O error")', async (command, args) => {
    const r = await runCli(args());
    expect([r.code, r.stderr]).toEqual([1, `kvscope ${command}: ${dir} is a directory, not a session\n`]);
  });
});

// `-o -` is stdout (the Unix convention; `parse -` reads stdin): it wrote a file named "-". Run in a
// folder of its own, which must stay empty: nothing but the report on stdout, no file anywhere.
describe('-o - writes to stdout', () => {
  const cwd = at('cwd');
  beforeAll(() => mkdirSync(cwd));

  it.each([
    ['report md', ['report', 'a.kvscope', '--format', 'md'], 'r.md'],
    ['report csv', ['report', 'a.kvscope', '--format', 'csv'], 'r.csv'],
    ['compare md', ['compare', 'a.kvscope', 'b.md', '--format', 'md'], 'c.md'],
    ['compare html', ['compare', 'a.kvscope', 'b.md', '-f', 'html'], 'c.html'],
  ])('%s: stdout is the file -o <file> writes, nothing else', async (_what, args, file) => {
    const inDir = (words: string[]) => words.map((w) => (w.endsWith('.kvscope') || w === 'b.md' ? at(w) : w));
    const toFile = await runCli([...inDir(args), '-o', at(`out-${file}`)]);
    expect(toFile.code, toFile.stderr).toBe(0);
    const toStdout = await runCli([...inDir(args), '-o', '-'], { cwd });
    expect(toStdout.code, toStdout.stderr).toBe(0);
    expect(toStdout.stdout).toBe(readFileSync(at(`out-${file}`), 'utf8'));
    expect(toStdout.stderr).toMatch(/ written to stdout\n$/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a PDF goes to stdout when stdout is a pipe', async () => {
    const r = await runCli(['report', at('a.kvscope'), '--format', 'pdf', '-o', '-'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith('%PDF-')).toBe(true);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a PDF is refused in one line when stdout is a terminal (script(1) gives it a pty)', async () => {
    const command = shellJoin([process.execPath, kvscopeBin, 'report', at('a.kvscope'), '--format', 'pdf', '-o', '-']);
    const r = await promisify(execFile)('script', ['-qec', command, '/dev/null'], { cwd }).catch(
      (error: { code: number; stdout: string }) => error,
    );
    expect(r).toMatchObject({ code: 2 });
    expect(r.stdout.trim()).toBe(
      'kvscope report: -o -: a PDF is binary and stdout is a terminal; redirect it (-o - > report.pdf) or give -o <file.pdf>',
    );
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.each([
    ['report', ['report', 'a.kvscope'], 'html|md|csv|json|pdf|perfetto|prometheus'],
    ['compare', ['compare', 'a.kvscope', 'a.kvscope'], 'md|html|pdf'],
  ])('%s -o - without --format: one line, status 2', async (command, args, formats) => {
    const r = await runCli([...args.map((w) => (w.endsWith('.kvscope') ? at(w) : w)), '-o', '-'], { cwd });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `kvscope ${command}: --format is required (${formats}): -o - (stdout) has no file name to say which\n`,
    ]);
  });
});
