// How collectors' lines reach the run's spool: a collector whose script tags its own lines
// (CollectorDefinition.tagsOwnLines: `say`, `emit()`, `tag_lines` of
// shared/collectors/collector-script.ts) writes `C <id> <text>` straight into the spool, with no
// tagging awk of the launcher's beside it; the others' stdout goes through that awk (TAG_LINES_AWK). Both keep the
// spool's rules: every line a spool line, past SPOOL_MAX lines counted (the procfs sampler's
// "gone" line kept), and a script that ends while the engine runs said by `! stopped`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launcherScript, runConf, type LaunchedCollector } from '../../../electron/node/run/run-scripts';
import { TAG_LINES_AWK } from '../../../shared/collectors/collector-script';
import { parseSpoolLine } from '../../../shared/collectors/run-spool';
import { pmapCollector } from '../../../shared/collectors/pmap-collector';
import { procfsCollector } from '../../../shared/collectors/procfs-collector';

const work = mkdtempSync(join(tmpdir(), 'kvscope-spool-lines-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A collector without `tagsOwnLines`: three plain lines, then, a second later (its tagging awk is
 * looked for meanwhile), it ends while the engine still runs.
 */
const PLAIN_SH = 'echo "H v=1"; echo "one"; echo "two"; sleep 1; exit 3\n';

/** Every awk running now in directory `cwd`: its command line and the KVSCOPE_TAG of its environment. */
function runningAwks(cwd: string): { argv: string; tag: string | undefined }[] {
  const out: { argv: string; tag: string | undefined }[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!argv[0]?.endsWith('awk') || readlinkSync(`/proc/${pid}/cwd`) !== cwd) continue;
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      const tag = env.find((e) => e.startsWith('KVSCOPE_TAG='))?.slice('KVSCOPE_TAG='.length);
      out.push({ argv: argv.join(' '), tag });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The launcher's tagging awk (TAG_LINES_AWK) of the collector `tag`, among the awks seen. */
function taggingAwks(awks: { argv: string; tag: string | undefined }[], tag: string) {
  return awks.filter((a) => a.tag === tag && a.argv.includes(TAG_LINES_AWK));
}

/** Runs the launcher to its end as the run controller does; returns its spool's lines and the awks seen meanwhile. */
async function launch(
  name: string,
  engineCommand: string,
  spoolMaxBytes: number,
): Promise<{ spool: string[]; awks: { argv: string; tag: string | undefined }[] }> {
  const dir = join(work, `kvscope-${name}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'launcher.sh'), launcherScript());
  writeFileSync(join(dir, 'procfs.sh'), procfsCollector.script ?? '');
  writeFileSync(join(dir, 'plain.sh'), PLAIN_SH);
  const collectors: LaunchedCollector[] = [
    { id: 'procfs', intervalS: 0.1, args: [], tagsOwnLines: procfsCollector.tagsOwnLines === true },
    { id: 'plain', intervalS: 0.1, args: [] },
  ];
  writeFileSync(join(dir, 'run.conf'), runConf({ engineCommand, collectors, watchdogS: 0, spoolMaxBytes }));
  const child = spawn('sh', ['launcher.sh', dir], { cwd: dir, stdio: 'ignore' });
  const done = new Promise<void>((resolve) => child.on('close', () => resolve()));
  // The awks of this run's pipelines, looked at while the engine runs.
  await new Promise((r) => setTimeout(r, 700));
  const awks = runningAwks(dir);
  await done;
  return { spool: readFileSync(join(dir, 'spool'), 'utf8').split('\n').filter(Boolean), awks };
}

describe('collector lines into the spool', () => {
  it('a self-tagging collector writes its tagged lines itself, the launcher tags the others', async () => {
    const { spool, awks } = await launch('tags', 'sleep 2.5', 1_000_000);
    for (const line of spool) expect(parseSpoolLine(line).tag, line).not.toBe('diagnostic');
    const procfs = spool.filter((l) => l.startsWith('C procfs '));
    expect(procfs[0]).toMatch(/^C procfs H v=1 pid=\d+ pagesize=\d+ /);
    expect(procfs.filter((l) => /^C procfs S t=[\d.]+ pid=\d+ /.test(l)).length).toBeGreaterThanOrEqual(5);
    expect(procfs.at(-1)).toMatch(/^C procfs S t=[\d.]+ gone=1$/);
    // The plain collector, through the launcher's awk, and its end while the engine ran.
    expect(spool.filter((l) => l.startsWith('C plain '))).toEqual([
      'C plain H v=1',
      'C plain one',
      'C plain two',
      expect.stringMatching(/^C plain ! stopped code=3 t=[\d.]+$/),
    ]);
    // No tagging awk for procfs (its own awk reads the ticks and tags its lines); one for plain.
    expect(taggingAwks(awks, 'procfs')).toEqual([]);
    expect(taggingAwks(awks, 'plain')).toHaveLength(1);
    expect(awks.filter((a) => a.tag === 'procfs' && a.argv.includes('pid=')).length).toBeGreaterThanOrEqual(1);
  });

  it('past SPOOL_MAX a self-tagging collector counts its lines, and still says the engine is gone', async () => {
    const { spool } = await launch('cap', 'sleep 1.5', 1500);
    const procfs = spool.filter((l) => l.startsWith('C procfs '));
    const dropped = spool.find((l) => l.startsWith('X 0 dropped stream=procfs '));
    const lines = Number(/ lines=(\d+)$/.exec(dropped ?? '')?.[1]);
    // ~400 bytes a tick at 10 Hz for 1.5 s: a few fit under 1,500 bytes, the rest are counted.
    expect(lines).toBeGreaterThanOrEqual(5);
    expect(procfs.reduce((n, l) => n + l.length + 1, 0)).toBeLessThan(1500 + 200);
    expect(procfs.at(-1)).toMatch(/^C procfs S t=[\d.]+ gone=1$/);
    for (const line of spool) expect(parseSpoolLine(line).tag, line).not.toBe('diagnostic');
  });
});

describe('emit() of a multi-line reading', () => {
  it("tags every line of pmap's table, in one write per tick", async () => {
    const script = join(work, 'pmap.sh');
    writeFileSync(script, pmapCollector.script ?? '');
    const watched = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const out = await new Promise<string>((resolve, reject) => {
        const child = spawn(
          'timeout',
          [
            '1.2',
            'strace',
            '-f',
            '-s',
            '65536',
            '-e',
            'trace=write',
            '-o',
            join(work, 'pmap.strace'),
            'sh',
            script,
            String(watched.pid),
            '0.5',
          ],
          {
            env: { ...process.env, KVSCOPE_TAG: 'pmap', KVSCOPE_SPOOL_MAX: '0' },
            stdio: ['ignore', 'pipe', 'ignore'],
          },
        );
        let text = '';
        child.stdout.on('data', (d) => (text += d));
        child.on('error', reject);
        child.on('close', () => resolve(text));
      });
      const lines = out.split('\n').filter(Boolean);
      expect(lines[0]).toBe('C pmap H v=1 source=smaps');
      expect(lines.filter((l) => /^C pmap total kB \d+ \d+ \d+$/.test(l)).length).toBeGreaterThanOrEqual(1);
      for (const l of lines) expect(l.startsWith('C pmap '), l).toBe(true);
      // Each tick's table left in one write(2): as many writes to stdout of a "t=" as tables.
      const writes = readFileSync(join(work, 'pmap.strace'), 'utf8')
        .split('\n')
        .filter((l) => /write\(1, "C pmap t=/.test(l));
      expect(writes.length).toBe(lines.filter((l) => l.startsWith('C pmap t=')).length);
      for (const w of writes.filter((l) => !/ same\\n"/.test(l))) expect(w).toMatch(/total kB/);
    } finally {
      watched.kill();
    }
  });
});
