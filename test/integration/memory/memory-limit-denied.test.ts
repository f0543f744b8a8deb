// --memory-limit for a user who may not make a memory cgroup: a real SSH login on loopback as the
// plain user kvscope-key (test/helpers/sshd.ts) to this VM's cgroup v1 memory controller, which
// only root may write. The run fails before the engine starts, with one line saying why.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';
import { ensureKeyUser, startSshd, type Sshd } from '../../helpers/sshd';

let sshd: Sshd;
let target = '';
let knownHosts = '';

beforeAll(async () => {
  sshd = await startSshd();
  const user = await ensureKeyUser();
  target = `${user}@${sshd.host}:${sshd.port}`;
  knownHosts = join(sshd.dir, 'known_hosts');
  await writeFile(knownHosts, sshd.knownHostsLine + '\n');
});
afterAll(() => sshd?.stop());

describe('--memory-limit without the right to make a memory cgroup', () => {
  it('fails with one line on stderr and runs nothing', async () => {
    const r = await runCli([
      'profile',
      target,
      '--identity',
      sshd.clientKey.privatePath,
      '--known-hosts',
      knownHosts,
      '--engine',
      'echo engine-ran',
      '--memory-limit',
      '100MiB',
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      'kvscope profile: memory limit: cannot make a memory cgroup in /sys/fs/cgroup/memory: run as root (cgroup v1)',
    );
    expect(r.stderr).not.toContain('engine-ran');
  });
});
