// A board whose host key changes while a run's link is down (reinstalled, or someone in the
// middle): the reconnect is refused at once, not retried or silently accepted, and the run fails
// saying why; the board's watchdog then ends the run there, keeping what `kvscope recover` reads.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUN_DEFAULTS } from '../../../electron/node/run/run-controller';
import { RunService } from '../../../electron/node/run/run-service';
import { createTarget } from '../../../electron/node/transport/target-spec';
import { processesMatching } from '../../helpers/cli';
import { generateKey, sessionPids, waitFor } from '../../helpers/sshd';
import { sshDemoRequest, useTrustedSshd } from '../../helpers/ssh-suite';

const ssh = useTrustedSshd({ keyUser: true });

describe('a host key that changes while the link is down', () => {
  it('is refused on reconnect: the run fails naming the new key, and the board ends the run', async () => {
    const service = new RunService(
      () => {},
      (spec) => createTarget(spec),
      { ...RUN_DEFAULTS, watchdogS: 3 },
    );
    try {
      const run = await service.start(sshDemoRequest(ssh, { tokens: 100000, tps: 50 }));
      await waitFor(() => run.tokens > 20, 'tokens', 30_000);
      // The board comes back with another host key (the sshd reads its key file when it starts).
      await ssh.sshd.pause();
      rmSync(ssh.sshd.hostKey.privatePath);
      rmSync(`${ssh.sshd.hostKey.privatePath}.pub`);
      const newKey = await generateKey(ssh.sshd.hostKey.privatePath);
      for (const pid of await sessionPids(ssh.sshd.port)) process.kill(pid, 'SIGKILL');
      await ssh.sshd.resume();
      await run.done;
      expect(run.status.state).toBe('failed');
      expect(run.status.error).toContain('HOST KEY CHANGED');
      expect(run.status.error).toContain(newKey.fingerprint);
      expect(run.events.map((e) => e.kind).filter((k) => k !== 'info')).toEqual(['start', 'disconnect', 'error']);
      const kept = () => (existsSync(run.dir) ? readdirSync(run.dir).sort().join(',') : '');
      await waitFor(
        async () => (await processesMatching(run.dir)).length === 0 && kept() === 'run.json,spool',
        'the watchdog to end the run on the board',
        30_000,
      );
      rmSync(run.dir, { recursive: true });
    } finally {
      await service.dispose();
    }
  });
});
