// `kvscope recover` on the local target: runs left long ago are listed with their age, a live run
// is listed as running and left alone, and the next launcher removes leftovers older than
// LEFTOVER_RUN_DAYS (electron/node/run/run-scripts.ts) while keeping younger ones.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEFTOVER_RUN_DAYS } from '../../../electron/node/run/run-scripts';
import { runCli, startCli } from '../../helpers/cli';
import { makeTempDir, waitFor } from '../../helpers/sshd';

const DAY_S = 86_400;

/** A run directory as a dead app leaves it, its spool last written `daysAgo` days ago. */
function leftover(tmp: string, name: string, daysAgo: number): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  // A launcher pid that cannot exist (above the kernel's pid_max).
  writeFileSync(join(dir, 'spool'), 'X 100.00 start launcher=99999999\nX 101.00 end\n');
  execFileSync('touch', ['-d', `${daysAgo} days ago`, join(dir, 'spool')]);
  return dir;
}

interface Listed {
  runs: Array<{ state: string; dir: string; ageS: number | null; reason?: string }>;
}

describe('kvscope recover: listing and leftovers', () => {
  it('lists old runs with their age, leaves a live run alone, and the next launcher removes runs past the age limit', async () => {
    const tmp = await makeTempDir('kvscope-recover-local-');
    const old = leftover(tmp, 'kvscope-old', LEFTOVER_RUN_DAYS + 1);
    const young = leftover(tmp, 'kvscope-young', 3);

    // Both listed with their age; neither has a run.json (an older KVScope's run): left in place.
    const before = await runCli(['recover', 'local', '--json', '--out', join(tmp, 'out')], { env: { TMPDIR: tmp } });
    expect(before.code).toBe(1);
    expect(before.stderr).toBe('kvscope recover: 2 run(s) could not be recovered (listed above)\n');
    const listed = (JSON.parse(before.stdout) as Listed).runs.sort((a, b) => a.dir.localeCompare(b.dir));
    expect(listed.map((r) => [r.dir, r.state])).toEqual([
      [old, 'failed'],
      [young, 'failed'],
    ]);
    expect(listed[0]?.reason).toMatch(/no run\.json/);
    expect(Math.abs((listed[0]?.ageS ?? 0) - (LEFTOVER_RUN_DAYS + 1) * DAY_S)).toBeLessThan(120);
    expect(Math.abs((listed[1]?.ageS ?? 0) - 3 * DAY_S)).toBeLessThan(120);
    expect(existsSync(old) && existsSync(young)).toBe(true);

    // A live run in the same TMPDIR: its launcher clears the old leftover, not the young one.
    const child = startCli(['profile', 'local', '--demo', '--tokens', '100000', '--tps', '50', '--weights-mb', '4'], {
      TMPDIR: tmp,
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    try {
      const dir = await waitFor(() => /run directory (\S+)/.exec(stderr)?.[1], 'run directory', 30_000);
      await waitFor(() => !existsSync(old), 'the old leftover to go', 15_000);
      expect(existsSync(young)).toBe(true);

      const during = await runCli(['recover', 'local', '--out', join(tmp, 'out')], { env: { TMPDIR: tmp } });
      expect(during.stdout).toMatch(
        new RegExp(`^running +${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} .*left alone$`, 'm'),
      );
      expect(during.stdout).toMatch(/^failed +\S+kvscope-young \(last written 3 days ago\): no run\.json/m);
      expect(existsSync(dir)).toBe(true);
    } finally {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('close', resolve));
    }
  });
});
