// `kvscope recover` prints what it recovered on stdout (a line per run, or --json): a run's label
// is the start of its command line, and a run directory left by an older KVScope holds it as
// typed. Its secrets are masked there as in profile's output and the session.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from '../../helpers/cli';
import { runEnded } from '../../helpers/left-run';
import { makeTempDir, waitFor } from '../../helpers/sshd';

const SECRET = 'tok-Zq96recover';

const COMMAND = `API_TOKEN=${SECRET} sh -c 'echo started; sleep 1.5'`;

/** A run of COMMAND left in `tmp` by a killed app, its manifest as an older KVScope wrote it (the label as typed). */
async function leaveRun(tmp: string): Promise<void> {
  const child = startCli(['profile', 'local', '--engine', COMMAND, '--interval-ms', '100'], { TMPDIR: tmp });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const dir = await waitFor(() => /run directory (\S+)/.exec(stderr)?.[1], 'run directory', 30_000);
  await waitFor(() => readFileSync(join(dir, 'spool'), 'utf8').includes('\nO '), 'the engine output', 15_000);
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('close', resolve));
  await runEnded(dir);
  const manifest = join(dir, 'run.json');
  writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), label: COMMAND }));
}

describe('kvscope recover: secrets of a left run', () => {
  it('the label an older KVScope stored unmasked is masked in the lines and in --json', async () => {
    const [tmp1, tmp2] = await Promise.all([
      makeTempDir('kvscope-recover-secrets-'),
      makeTempDir('kvscope-recover-secrets-'),
    ]);
    await Promise.all([leaveRun(tmp1), leaveRun(tmp2)]);
    const lines = await runCli(['recover', 'local', '--out', join(tmp1, 'out')], { env: { TMPDIR: tmp1 } });
    expect(lines.code).toBe(0);
    expect(lines.stdout).toMatch(/^recovered \S+ \(API_TOKEN=\*\*\* sh -c/m);
    expect([lines.stdout.includes(SECRET), lines.stderr.includes(SECRET)]).toEqual([false, false]);
    const json = await runCli(['recover', 'local', '--json', '--out', join(tmp2, 'out')], { env: { TMPDIR: tmp2 } });
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { runs: Array<{ label: string }> }).runs.map((r) => r.label)).toEqual([
      `API_TOKEN=*** sh -c 'echo started; sleep 1.5'`,
    ]);
  });
});
