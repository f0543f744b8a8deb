// SIGTERM/SIGINT against the real CLI (bin/kvscope.mjs in a child process): the first signal
// stops the run cleanly — engine process group ended, session finalised, run directory removed —
// and a second one exits at once (electron/node/cli/cli-signals.ts). Before, a second signal
// killed the CLI by Node's default (no status, no word on stderr), and a signal that came while
// the run was being set up was dropped.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { processesMatching, startCli } from '../../helpers/cli';
import { readSession } from '../../../electron/node/session/session-store';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-signals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An engine that ignores SIGTERM; the marker finds its processes (and only them) in /proc. */
function stuckEngine(marker: string): string {
  return `sh -c 'trap "" TERM; while :; do sleep 1; done; : ${marker}'`;
}

interface Watched {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function watch(child: ChildProcess): Watched {
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stderr: () => stderr, stdout: () => stdout, exited };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const runDirOf = (stderr: string) => /run directory (\S+)/.exec(stderr)?.[1] ?? '';
/** The engine's processes: the marker without the CLI, whose own arguments carry it too. */
const engineProcesses = async (marker: string) =>
  (await processesMatching(marker)).filter((p) => !p.cmdline.includes('kvscope.mjs'));

/** The last stderr line: the one line main.ts prints for a non-zero exit. */
const lastLine = (stderr: string) => stderr.trimEnd().split('\n').pop();

describe('signals stop a run cleanly', () => {
  it('SIGTERM mid-run (demo engine): the summary and the session are written, nothing is left', async () => {
    const out = join(dir, 'demo.kvscope');
    const w = watch(
      startCli(['profile', 'local', '--demo', '--tokens', '100000', '--tps', '200', '--json', '--out', out], {
        TMPDIR: dir,
      }),
    );
    await until('the first progress line', () => /kvscope profile: \d/.test(w.stderr()));
    const runDir = runDirOf(w.stderr());
    expect(existsSync(runDir)).toBe(true);
    w.child.kill('SIGTERM');
    const { code } = await w.exited;
    expect(code).toBe(0);
    expect(w.stderr()).toContain(
      'kvscope profile: interrupted: stopping the run (send the signal again to exit at once)',
    );
    const summary = JSON.parse(w.stdout()) as { events: Array<{ kind: string; message?: string }> };
    expect(summary.events).toContainEqual(expect.objectContaining({ kind: 'stop', message: 'interrupted' }));
    expect(existsSync(runDir)).toBe(false);
    expect(await processesMatching(runDir)).toEqual([]);
    const session = readSession(out);
    expect(session.runs).toHaveLength(1);
    expect(session.runs[0]?.state).toBe('done');
    expect(session.runs[0]?.events.some((e) => e.kind === 'stop')).toBe(true);
  });

  it('SIGINT mid-sweep: the sweep stops as a single run does (its stop line, the summary of what ran)', async () => {
    const w = watch(
      startCli(
        ['profile', 'local', '--demo', '--mode', 'reserved', '--tokens', '100000', '--tps', '200'].concat([
          '--sweep',
          '512,1024,2048',
          '--json',
        ]),
        { TMPDIR: dir },
      ),
    );
    await until('the first progress line', () => /kvscope profile: \d/.test(w.stderr()));
    const runDir = runDirOf(w.stderr());
    w.child.kill('SIGINT');
    const { code } = await w.exited;
    expect(w.stderr()).toContain(
      'kvscope profile: interrupted: stopping the run (send the signal again to exit at once)',
    );
    // One context size ran: too few for a curve, which the sweep says as its failure.
    expect(code).toBe(1);
    expect(lastLine(w.stderr())).toBe(
      'kvscope profile: the sweep measured no memory per context token (see the summary for each run)',
    );
    const summary = JSON.parse(w.stdout()) as { sweep: { points: unknown[] } };
    expect(summary.sweep.points).toHaveLength(1);
    expect(existsSync(runDir)).toBe(false);
  });

  it('SIGINT while the sweep’s first run is connecting: given up at once, nothing ran, one line', async () => {
    // A board that accepts the connection and never sends its SSH banner.
    const mute = createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const port = (mute.address() as { port: number }).port;
    try {
      const w = watch(
        startCli(
          [
            'profile',
            `nobody@127.0.0.1:${port}`,
            '--known-hosts',
            join(dir, 'none'),
            '--demo',
            '--mode',
            'reserved',
          ].concat(['--sweep', '512,1024', '--json']),
        ),
      );
      await until('the connection attempt', () => w.stderr().includes('connecting to host'));
      const signalledAt = Date.now();
      w.child.kill('SIGINT');
      const { code } = await w.exited;
      // Not the 20 s connect timeout, nor the 10 s stop deadline (status 143).
      expect(Date.now() - signalledAt).toBeLessThan(5000);
      expect(code).toBe(1);
      expect(lastLine(w.stderr())).toBe(
        "kvscope profile: interrupted before the sweep's first run started: nothing ran",
      );
      expect(w.stdout()).toBe('');
    } finally {
      mute.close();
    }
  });

  it('an engine that ignores SIGTERM: the first SIGTERM still ends it (SIGKILL after the grace period)', async () => {
    const marker = `kvscope-stuck-${process.pid}-a`;
    const w = watch(startCli(['profile', 'local', '--engine', stuckEngine(marker)], { TMPDIR: dir }));
    await until('the engine', async () => (await engineProcesses(marker)).length > 0 && runDirOf(w.stderr()) !== '');
    const runDir = runDirOf(w.stderr());
    w.child.kill('SIGTERM');
    const { code } = await w.exited;
    expect(code).toBe(0);
    expect(await processesMatching(marker)).toEqual([]);
    expect(existsSync(runDir)).toBe(false);
  });

  it('SIGTERM while the engine is being launched (before its pid is reported) still ends it', async () => {
    const marker = `kvscope-stuck-${process.pid}-c`;
    const w = watch(startCli(['profile', 'local', '--engine', stuckEngine(marker)], { TMPDIR: dir }));
    await until('the run directory', () => runDirOf(w.stderr()) !== '');
    w.child.kill('SIGTERM');
    const { code } = await w.exited;
    expect(code).toBe(0);
    expect(await processesMatching(marker)).toEqual([]);
    expect(existsSync(runDirOf(w.stderr()))).toBe(false);
  });

  it('a second SIGTERM exits at once (status 143, one line); the target watchdog ends the orphan', async () => {
    const marker = `kvscope-stuck-${process.pid}-b`;
    const w = watch(
      startCli(['profile', 'local', '--engine', stuckEngine(marker)], { TMPDIR: dir, KVSCOPE_WATCHDOG_S: '2' }),
    );
    await until('the engine', async () => (await engineProcesses(marker)).length > 0 && runDirOf(w.stderr()) !== '');
    const runDir = runDirOf(w.stderr());
    w.child.kill('SIGTERM');
    await until('the clean stop to begin', () => w.stderr().includes('interrupted: stopping the run'));
    w.child.kill('SIGTERM');
    const { code, signal } = await w.exited;
    expect({ code, signal }).toEqual({ code: 143, signal: null });
    expect(w.stderr()).toContain(
      "kvscope profile: second SIGTERM: exiting now; the target's watchdog ends what is left\n",
    );
    // The engine ignored SIGTERM and the CLI left before its SIGKILL: the target's watchdog ends it.
    await until('the watchdog to end the engine', async () => (await engineProcesses(marker)).length === 0);
    // electron/node/run/run-scripts.ts: the watchdog keeps the spool and run.json for `kvscope recover`.
    await until(
      'the watchdog to clear the run directory',
      () => readdirSync(runDir).sort().join(',') === 'run.json,spool',
    );
  });
});
