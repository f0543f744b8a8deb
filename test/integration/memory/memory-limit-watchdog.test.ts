// The run's memory cgroup outlives no run: the CLI is SIGKILLed mid-run, the target's watchdog
// (KVSCOPE_WATCHDOG_S) ends the engine, and the launcher, which outlives the app, removes the
// group (electron/node/run/run-scripts.ts). Real cgroup v1 memory controller, as root.
import { existsSync, readdirSync, rmSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processesMatching, startEndlessDemo } from '../../helpers/cli';
import { waitFor } from '../../helpers/sshd';

/** This process's v1 memory group: the launcher, started by the CLI we start, is in it too. */
function ownMemoryGroup(): string {
  const line = readFileSync('/proc/self/cgroup', 'utf8')
    .split('\n')
    .find((l) => l.split(':')[1]?.split(',').includes('memory'));
  const path = line?.split(':')[2] ?? '';
  return `/sys/fs/cgroup/memory${path === '/' ? '' : path}`;
}

describe('--memory-limit when the app dies', () => {
  it('the watchdog ends the engine and the launcher removes the cgroup', { timeout: 60_000 }, async () => {
    const { child: cli, runDir } = await startEndlessDemo([
      'local',
      ...['--tps', '50', '--weights-mb', '8', '--memory-limit', '300MiB'],
    ]);
    const group = `${ownMemoryGroup()}/${basename(runDir)}`;
    await waitFor(() => existsSync(group), `the cgroup ${group}`);
    // The engine is a member of it. Not necessarily the first listed, nor at once: the shell that joins the group
    // execs the engine after, and a member in the middle of its exec, or ended, has an empty cmdline (a CI run).
    const cmdline = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        return '';
      }
    };
    const enginePid = await waitFor(
      () =>
        readFileSync(`${group}/cgroup.procs`, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map(Number)
          .find((pid) => cmdline(pid).includes('demo-engine')),
      'the demo engine in the cgroup',
    );

    cli.kill('SIGKILL');
    await waitFor(() => !existsSync(group), 'the cgroup to be removed', 20_000);
    expect(existsSync(`/proc/${enginePid}`)).toBe(false);
    // The launcher ends right after (the watchdog removes the run directory too).
    await waitFor(async () => (await processesMatching(runDir)).length === 0, 'the launcher to end', 20_000);
    // The watchdog keeps what `kvscope recover` needs (run-scripts.ts RECOVERY) and nothing else.
    await waitFor(
      () => existsSync(runDir) && readdirSync(runDir).sort().join(',') === 'run.json,spool',
      'the run directory to keep only run.json and spool',
      10_000,
    );
    rmSync(runDir, { recursive: true, force: true });
  });
});
