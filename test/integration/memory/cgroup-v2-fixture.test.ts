// The cgroup v2 code paths, on a tree laid out like /sys/fs/cgroup (test/fixtures/cgroup/v2-tree;
// this VM mounts cgroup v1, see docs/DEVELOPING.md, "The test machine"): the cgroup collector's script reads the
// engine's group from a fixture /proc, and the launcher makes the run's memory cgroup for
// --memory-limit, moves the engine into it and says so — or says in one line why it cannot.
// The scripts take their roots as arguments (run.conf CGROOT; the collector's 3rd and 4th), which
// is what points them here.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launcherScript, runConf } from '../../../electron/node/run/run-scripts';
import { cgroupCollector } from '../../../shared/collectors/cgroup-collector';
import { createCgroupParser } from '../../../shared/collectors/cgroup-parser';
import type { CollectorRecord } from '../../../shared/collectors/collector';
import { V2_TREE_SAMPLE } from '../../helpers/cgroup-fixtures';
import { projectRoot } from '../../helpers/cli';

const FIXTURE = join(projectRoot, 'test/fixtures/cgroup/v2-tree/root');
const work = mkdtempSync(join(tmpdir(), 'kvscope-cgv2-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function sh(args: string[], cwd?: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

/** A copy of the fixture tree (the launcher writes into it), with `controllers` as the root's. */
function cgroupTree(name: string, controllers?: string): string {
  const root = join(work, name);
  cpSync(FIXTURE, root, { recursive: true });
  if (controllers !== undefined) writeFileSync(join(root, 'cgroup.controllers'), `${controllers}\n`);
  return root;
}

describe('the cgroup collector on a v2 tree', () => {
  const script = join(work, 'cgroup.sh');
  writeFileSync(script, cgroupCollector.script ?? '');
  const PID = '4242';

  function fakeProc(name: string, cgroupLine: string): string {
    const proc = join(work, name);
    mkdirSync(join(proc, PID), { recursive: true });
    writeFileSync(join(proc, PID, 'cgroup'), `${cgroupLine}\n`);
    writeFileSync(join(proc, PID, 'stat'), `${PID} (engine) S 1\n`);
    writeFileSync(join(proc, 'uptime'), '120.50 100.00\n');
    return proc;
  }

  it('finds the engine group from /proc/<pid>/cgroup and reads limit (up the tree), charge, events, stat', async () => {
    const proc = fakeProc('proc-a', '0::/boards.slice/engine');
    // The "engine" ends (its /proc entry goes) after a few ticks: the script exits by itself.
    setTimeout(() => unlinkSync(join(proc, PID, 'stat')), 600);
    const r = await sh([script, PID, '0.1', FIXTURE, proc]);
    expect(r.code).toBe(0);
    const parser = createCgroupParser();
    const records: CollectorRecord[] = r.stdout
      .split('\n')
      .map((l) => parser.push(l))
      .filter((x): x is CollectorRecord => x !== null);
    expect(records[0]).toEqual({ kind: 'header' });
    expect(r.stdout.split('\n')[0]).toBe('H v=1 cg=2 path=/boards.slice/engine');
    const samples = records.slice(1);
    expect(samples.length).toBeGreaterThanOrEqual(2);
    for (const s of samples) expect(s).toEqual(V2_TREE_SAMPLE);
  });

  it('says absent when the memory controller is off, or the engine is in no memory cgroup', async () => {
    const off = await sh([script, PID, '0.1', cgroupTree('no-memory', 'cpu io pids'), fakeProc('proc-b', '0::/x')]);
    expect(off.stdout).toBe(
      `! absent the memory controller is not enabled in ${join(work, 'no-memory')} (cgroup v2)\n`,
    );
    const none = await sh([script, PID, '0.1', FIXTURE, fakeProc('proc-c', '1:name=systemd:/')]);
    expect(none.stdout).toBe(`! absent the engine is in no memory cgroup (${join(work, 'proc-c', PID, 'cgroup')})\n`);
  });
});

describe('the launcher with --memory-limit on a v2 tree', () => {
  /** Runs the launcher as the run controller does, to its end; returns the spool's lines. */
  async function launch(name: string, root: string, engineCommand: string): Promise<string[]> {
    const dir = join(work, `kvscope-${name}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'launcher.sh'), launcherScript());
    writeFileSync(
      join(dir, 'run.conf'),
      runConf({
        engineCommand,
        collectors: [],
        watchdogS: 0,
        spoolMaxBytes: 1_000_000,
        memoryLimitBytes: 300 * 1024 * 1024,
        cgroupRoot: root,
      }),
    );
    const r = await sh(['launcher.sh', dir], dir);
    expect(r.code).not.toBeNull();
    return readFileSync(join(dir, 'spool'), 'utf8').split('\n').filter(Boolean);
  }

  it('makes the group under the root, sets memory.max, and the engine runs inside it', async () => {
    const root = cgroupTree('tree-ok');
    const group = join(root, 'kvscope-ok');
    // The engine shows what it sees, then leaves the group as the kernel would take an exited
    // process out of it (a fixture file does not empty itself).
    const spool = await launch(
      'ok',
      root,
      `echo "pid=$$ max=$(cat ${group}/memory.max) procs=$(cat ${group}/cgroup.procs)"; : > ${group}/cgroup.procs`,
    );
    const said =
      spool
        .find((l) => l.startsWith('O '))
        ?.split(' ')
        .slice(2)
        .join(' ') ?? '';
    const m = /^pid=(\d+) max=(\d+) procs=(\d+)$/.exec(said);
    expect(m?.[2]).toBe(String(300 * 1024 * 1024));
    // The engine itself (the wrapper that became it) is the group's member.
    expect(m?.[3]).toBe(m?.[1]);
    expect(spool.some((l) => / cgroup version=2 limit=314572800 path=.*\/kvscope-ok$/.test(l))).toBe(true);
    expect(spool.some((l) => / exit code=0 /.test(l))).toBe(true);
    // A real cgroup directory goes with rmdir; this one holds the fixture's files, so it stays
    // and the launcher says so.
    expect(spool.some((l) => / cgroup-left path=.*\/kvscope-ok$/.test(l))).toBe(true);
    expect(spool.at(-1)).toMatch(/^X [\d.]+ end$/);
  });

  it('without the memory controller: one line why, and no engine', async () => {
    const root = cgroupTree('tree-off', 'cpu io pids');
    const spool = await launch('off', root, 'echo should-not-run');
    expect(spool.filter((l) => / error /.test(l))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^X [\\d.]+ error reason=memory limit: the memory controller is not enabled in ${root} \\(cgroup v2\\)$`,
        ),
      ),
    ]);
    expect(spool.some((l) => l.startsWith('O ') || / engine /.test(l))).toBe(false);
    expect(existsSync(join(root, 'kvscope-off'))).toBe(false);
  });
});
