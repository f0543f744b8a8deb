// A run left on the loopback SSH target by an app that died: `kvscope profile` is started on it,
// SIGKILLed once tokens flow, and the run goes on (or is ended by the target's watchdog) without
// it. Shared by the recover tests (CLI, browser-mode server, the app's offer in Chromium).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { processesMatching, startCli } from './cli';
import { sshCliTarget, waitFor, type Sshd } from './sshd';

export interface LeftRunTarget {
  sshd: Sshd;
  knownHosts: string;
  intervalMs: number;
}

/** Start `kvscope profile --demo <demo>` on the target, wait for its engine and some tokens, SIGKILL it; returns the run directory. */
export async function killAppMidRun(t: LeftRunTarget, demo: string[], watchdogS: number): Promise<string> {
  const child = startCli(
    [
      'profile',
      ...sshCliTarget(t.sshd, t.knownHosts),
      '--demo',
      '--weights-mb',
      '4',
      '--interval-ms',
      String(t.intervalMs),
      ...demo,
    ],
    { KVSCOPE_WATCHDOG_S: String(watchdogS) },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const dir = await waitFor(() => /run directory (\S+)/.exec(stderr)?.[1], 'run directory', 30_000);
  await waitFor(async () => (await processesMatching(`${dir}/demo-engine.cjs`)).length > 0, 'engine running', 15_000);
  // Some tokens through the app first, so the app really was mid-run.
  await waitFor(() => readFileSync(join(dir, 'spool'), 'utf8').split('\nO ').length > 20, 'tokens', 15_000);
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('close', resolve));
  return dir;
}

/** The launcher wrote its last line and nothing of the run runs any more; returns the spool. */
export async function runEnded(dir: string): Promise<string> {
  await waitFor(
    async () =>
      /^X \S+ end$/m.test(readFileSync(join(dir, 'spool'), 'utf8')) && (await processesMatching(dir)).length === 0,
    'the run to end on the target',
    30_000,
  );
  return readFileSync(join(dir, 'spool'), 'utf8');
}

/** What the spool says, counted here without the code under test. */
export function spoolCounts(spool: string) {
  const lines = spool.split('\n');
  const ticks = lines.filter((l) => l.startsWith('C procfs S t=') && !l.includes('gone=1'));
  const tickTimesS = ticks.map((l) => Number(/t=([\d.]+)/.exec(l)?.[1]));
  return { procfsTicks: ticks.length, tokens: lines.filter((l) => l.startsWith('O ')).length, tickTimesS };
}
