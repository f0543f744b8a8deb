// --memory-limit for a user who may not make a memory cgroup: a real SSH login on loopback as the
// plain user kvscope-key (test/helpers/sshd.ts) to this VM's cgroup v1 memory controller, which
// only root may write. The run fails before the engine starts, with one line saying why.
import { describe, expect, it } from 'vitest';
import { runCliFailing } from '../../helpers/cli';
import { useTrustedSshd } from '../../helpers/ssh-suite';

const ssh = useTrustedSshd({ keyUser: true });

describe('--memory-limit without the right to make a memory cgroup', () => {
  it('fails with one line on stderr and runs nothing', async () => {
    const stderr = await runCliFailing([
      'profile',
      ...ssh.cliTarget(),
      ...['--engine', 'echo engine-ran', '--memory-limit', '100MiB', '--json'],
    ]);
    expect(stderr.trimEnd().split('\n').at(-1)).toBe(
      'kvscope profile: memory limit: cannot make a memory cgroup in /sys/fs/cgroup/memory: run as root (cgroup v1)',
    );
    expect(stderr).not.toContain('engine-ran');
  });
});
