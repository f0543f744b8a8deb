// The collectors' ticker (shared/collectors/collector-script.ts) run for real: whichever sleeper
// the target has — perl with Time::HiRes, bash 5, or a `sleep` a tick (busybox) — it ticks at the
// interval asked for and ends when its reader goes away.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKER_SH } from '../../../shared/collectors/collector-script';

let dir: string;

/** A PATH holding only these tools (symlinks to this machine's), so the ticker cannot find others. */
function pathWith(name: string, tools: Record<string, string>): string {
  const bin = join(dir, name);
  mkdirSync(bin, { recursive: true });
  for (const [tool, real] of Object.entries(tools)) symlinkSync(real, join(bin, tool));
  return bin;
}

/** Runs `tick` at 0.1 s; returns the process it became (its comm) and the times of its first `ticks` lines. */
async function runTicker(env: NodeJS.ProcessEnv, ticks: number): Promise<{ comm: string; atMs: number[] }> {
  const child = spawn('/bin/sh', ['-c', `I=0.1\n${TICKER_SH}\ntick`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const atMs: number[] = [];
  let comm = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      if (!comm) comm = readFileSync(`/proc/${child.pid}/comm`, 'utf8').trim();
      for (const ch of d.toString()) if (ch === '\n') atMs.push(performance.now());
      // The reader goes away: the ticker must end by itself at its next write.
      if (atMs.length >= ticks) child.stdout.destroy();
    });
    child.on('close', () => resolve());
    child.on('error', reject);
  });
  return { comm, atMs };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kvscope-ticker-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the collectors ticker', () => {
  it.each([
    ['perl with Time::HiRes, preferred', {}, 'perl'],
    ['bash where perl is missing', { PATH: 'nobin', tools: { sh: '/bin/dash', bash: '/bin/bash' } }, 'bash'],
    [
      'a sleep a tick where there is neither',
      { PATH: 'busybox', tools: { sh: '/usr/bin/busybox', sleep: '/usr/bin/busybox' } },
      'sh',
    ],
  ] as const)('%s: ticks 0.1 s apart and ends with its reader', async (_, setup, expectedComm) => {
    const env =
      'tools' in setup ? { PATH: pathWith(setup.PATH, setup.tools) } : { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const { comm, atMs } = await runTicker(env, 6);
    expect(comm).toBe(expectedComm);
    expect(atMs.length).toBeGreaterThanOrEqual(6);
    // The first line comes at once, then one a tick: five gaps span at least 0.4 s (0.1 s each, a
    // late wake-up can only make a gap longer, and a catch-up tick shorter only after a late one).
    expect(atMs[5]! - atMs[0]!).toBeGreaterThanOrEqual(400);
  });

  it('KVSCOPE_TICKER=bash skips perl even where it is installed', async () => {
    const { comm } = await runTicker({ PATH: process.env.PATH ?? '/usr/bin:/bin', KVSCOPE_TICKER: 'bash' }, 2);
    expect(comm).toBe('bash');
  });
});
