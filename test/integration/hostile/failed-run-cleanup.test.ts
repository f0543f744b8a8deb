// A run that fails early removes what it created on the target, over the loopback SSH target and
// locally: a server that exits at once, a port that never answers, a setup that fails (no GGUF
// there). Before, an in-flight heartbeat write re-created `hb` while the run directory was being
// removed, and a failed setup's removal was dropped when the run's SSH target closed.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';
import { useTrustedSshd } from '../../helpers/ssh-suite';

const CASES: Array<{ name: string; args: string[]; stderr: RegExp }> = [
  {
    name: 'a server that exits at once (port 0)',
    args: ['--engine', "sh -c 'echo bye; exit 3'", '--server-url', 'http://127.0.0.1:0/v1'],
    stderr: /server mode: the server ended before it answered \(engine exited with status 3\)\n$/,
  },
  {
    name: 'a port that never answers',
    args: ['--engine', 'sleep 30', '--server-url', 'http://127.0.0.1:1/v1', '--server-timeout', '2s'],
    stderr: /server mode: the server at 127.0.0.1:1 did not answer within 2 s\n$/,
  },
  {
    name: 'a setup that fails (no GGUF at that path)',
    args: ['--engine', 'sleep 30', '--gguf', '/nonexistent/model.gguf'],
    stderr: /cannot read the GGUF header of \/nonexistent\/model.gguf: .*\n$/,
  },
];

/** Run directories (kvscope-<run id>) under `dir`. */
const runDirs = (dir: string) => readdirSync(dir).filter((n) => /^kvscope-\d{14}-[0-9a-f]{8}$/.test(n));

describe('failed runs leave nothing on the target', () => {
  const localTmp = mkdtempSync(join(tmpdir(), 'kvscope-cleanup-'));
  // The SSH sessions get their own TMPDIR, where the run directories go (run-controller.ts).
  const sshTmp = mkdtempSync(join(tmpdir(), 'kvscope-cleanup-ssh-'));
  const ssh = useTrustedSshd({ sshd: { extraConfig: [`SetEnv TMPDIR=${sshTmp}`] } });
  afterAll(() => {
    rmSync(localTmp, { recursive: true, force: true });
    rmSync(sshTmp, { recursive: true, force: true });
  });

  it.each(CASES)('over SSH: $name', async ({ args, stderr }) => {
    const r = await runCli(['profile', ...ssh.cliTarget(), ...args], { timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(stderr);
    expect(runDirs(sshTmp)).toEqual([]);
  });

  it.each(CASES)('locally: $name', async ({ args, stderr }) => {
    const r = await runCli(['profile', 'local', ...args], { timeoutMs: 60_000, env: { TMPDIR: localTmp } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(stderr);
    expect(runDirs(localTmp)).toEqual([]);
  });
});
