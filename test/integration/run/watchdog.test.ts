// The launcher's watchdog (electron/node/run/run-scripts.ts watchdogSh) on its own, under the
// target's /bin/sh: a stand-in engine (a sleep), the heartbeat file the client rewrites, and a
// `sleep` first on PATH that logs each call before it sleeps, so the test sees how often the
// watchdog wakes without timing anything.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WATCHDOG_POLL_S, watchdogSh } from '../../../electron/node/run/run-scripts';
import { waitFor } from '../../helpers/sshd';

const REAL_SLEEP = spawnSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).stdout.trim();

interface Watched {
  dir: string;
  engine: ChildProcess;
  watchdog: ChildProcess;
  sleeps(): string[];
  events(): string;
}

const started: Watched[] = [];

function startWatchdog(watchdogS: number): Watched {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-watchdog-'));
  const bin = join(dir, 'bin');
  spawnSync('mkdir', [bin]);
  writeFileSync(
    join(bin, 'sleep'),
    `#!/bin/sh\necho "$1" >> ${JSON.stringify(join(dir, 'sleeps'))}\nexec ${REAL_SLEEP} "$@"\n`,
  );
  chmodSync(join(bin, 'sleep'), 0o755);
  writeFileSync(join(dir, 'hb'), '0\n');
  const engine = spawn(REAL_SLEEP, ['600'], { stdio: 'ignore' });
  // The launcher's ev and tree kill, reduced to what the watchdog needs of them.
  const script = [
    `EP=${engine.pid}; WATCHDOG_S=${watchdogS}`,
    'ev() { echo "$*" >> events; }',
    'kvscope_tree_kill() { kill -"$2" "$1" 2>/dev/null; return 0; }',
    watchdogSh,
    'WD=$!; echo "$WD" > wd.pid; wait "$WD"',
  ].join('\n');
  const watchdog = spawn('/bin/sh', ['-c', script], {
    cwd: dir,
    stdio: 'ignore',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` },
  });
  const w: Watched = {
    dir,
    engine,
    watchdog,
    sleeps: () => (existsSync(join(dir, 'sleeps')) ? readFileSync(join(dir, 'sleeps'), 'utf8').trim().split('\n') : []),
    events: () => (existsSync(join(dir, 'events')) ? readFileSync(join(dir, 'events'), 'utf8') : ''),
  };
  started.push(w);
  return w;
}

const alive = (pid: number) => spawnSync('kill', ['-0', String(pid)]).status === 0;

afterEach(() => {
  for (const w of started.splice(0)) {
    w.engine.kill('SIGKILL');
    w.watchdog.kill('SIGKILL');
    rmSync(w.dir, { recursive: true, force: true });
  }
});

describe('the launcher watchdog', () => {
  it(`looks at the heartbeat every ${WATCHDOG_POLL_S} s, not every second, and leaves the engine alone while it beats`, async () => {
    const w = startWatchdog(120);
    let beat = 0;
    const beating = setInterval(() => writeFileSync(join(w.dir, 'hb'), `${++beat}\n`), 1000);
    try {
      await waitFor(() => w.sleeps().length >= 2, 'two looks', 3 * WATCHDOG_POLL_S * 1000);
    } finally {
      clearInterval(beating);
    }
    expect(w.sleeps().slice(0, 2)).toEqual([String(WATCHDOG_POLL_S), String(WATCHDOG_POLL_S)]);
    expect(alive(w.engine.pid!)).toBe(true);
    expect(w.events()).toBe('');
  });

  it('ends the engine once the heartbeat stops, looking at most every WATCHDOG_S when that is shorter', async () => {
    const w = startWatchdog(2);
    await waitFor(
      () => !alive(w.engine.pid!) || w.engine.exitCode !== null || w.engine.signalCode !== null,
      'engine ended',
      20_000,
    );
    expect(w.events()).toBe('watchdog seconds=2\n');
    expect(existsSync(join(w.dir, 'watchdog.fired'))).toBe(true);
    // Every look slept WATCHDOG_S (2 s, shorter than the usual poll), then the kill's grace sleep.
    expect(w.sleeps()[0]).toBe('2');
  });

  it('ended by the launcher while it sleeps, its sleep ends with it (no process left behind)', async () => {
    const w = startWatchdog(120);
    await waitFor(() => w.sleeps().length >= 1 && existsSync(join(w.dir, 'wd.pid')), 'first look', 10_000);
    const sleeper = () =>
      spawnSync('pgrep', ['-f', `^${REAL_SLEEP} ${WATCHDOG_POLL_S}$`], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n')
        .filter(Boolean)
        .filter((pid) => cwdOf(pid) === w.dir);
    await waitFor(() => sleeper().length === 1, 'the watchdog sleeping', 10_000);
    const wd = readFileSync(join(w.dir, 'wd.pid'), 'utf8').trim();
    spawnSync('kill', [wd]);
    await waitFor(() => sleeper().length === 0, 'its sleep gone', 2000);
    expect(alive(w.engine.pid!)).toBe(true);
  });
});

function cwdOf(pid: string): string | null {
  const r = spawnSync('readlink', [`/proc/${pid}/cwd`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}
