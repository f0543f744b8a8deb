// Whether a run's launcher lives, read from /proc/<pid>/stat (electron/node/run/launcher-liveness.ts):
// real processes on this machine, a real zombie among them.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { launcherState, procStatOf } from '../../../electron/node/run/launcher-liveness';
import { LocalTarget } from '../../../electron/node/transport/local-target';
import { defined } from '../../helpers/defined';
import { waitFor } from '../../helpers/sshd';

const target = new LocalTarget();
const children: number[] = [];
afterEach(() => {
  for (const pid of children.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

function start(script: string): number {
  const child = spawn('/bin/sh', ['-c', script], { stdio: 'ignore' });
  const pid = defined(child.pid);
  children.push(pid);
  return pid;
}

const stateOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];

describe('procStatOf', () => {
  it('counts fields from the last ")" (a command name may hold spaces and parentheses)', () => {
    const line =
      '4242 (a) b (c) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 7654321 2000000 300 18446744073709551615';
    expect(procStatOf(line)).toEqual({ state: 'S', startTicks: '7654321' });
    expect(procStatOf('4242 (sh')).toBeNull();
    expect(procStatOf('4242 (sh) S 1 2')).toBeNull();
  });
});

describe('launcherState', () => {
  it('finds a live process alive, with its start time', async () => {
    const pid = start('exec sleep 30');
    const seen = await launcherState(target, pid, null);
    expect(seen.state).toBe('alive');
    // Field 22 of the stat line, read here by splitting after the command name by hand.
    const fields = defined(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]).split(' ');
    expect(seen).toEqual({ state: 'alive', startTicks: fields[19] });
  });

  it('finds a zombie gone (kill -0 and tail --pid take it for alive)', async () => {
    // The exec'd sleep is the parent of the ended `true` and never reaps it: a real zombie.
    const parent = start('true & exec sleep 30');
    const zombie = await waitFor(
      () => {
        const kids = readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8').trim().split(/\s+/);
        return kids.map(Number).find((pid) => pid > 0 && stateOf(pid) === 'Z');
      },
      'the zombie child',
      10_000,
    );
    expect(() => process.kill(zombie, 0)).not.toThrow();
    expect(await launcherState(target, zombie, null)).toEqual({ state: 'gone' });
  });

  it('finds a pid with no process gone, and a pid started at another time gone (reused)', async () => {
    const pid = start('exec sleep 30');
    const seen = await launcherState(target, pid, null);
    if (seen.state !== 'alive') throw new Error(`expected alive, got ${seen.state}`);
    expect(await launcherState(target, pid, String(Number(seen.startTicks) - 1))).toEqual({ state: 'gone' });
    process.kill(pid, 'SIGKILL');
    // Our own child: node reaps it, so its /proc entry goes.
    await waitFor(() => stateOfSafe(pid) === undefined, 'reaped', 10_000);
    expect(await launcherState(target, pid, seen.startTicks)).toEqual({ state: 'gone' });
  });
});

function stateOfSafe(pid: number): string | undefined {
  try {
    return stateOf(pid);
  } catch {
    return undefined;
  }
}
