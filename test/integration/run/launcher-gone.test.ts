// A run whose launcher on the board dies without its `end` line (killed by the board's OOM
// daemon or a user's kill -9, or unable to write to a full disk): the app ends the run as failed
// with what the spool held, instead of following a spool nobody writes any more for ever. The
// killed launcher may stay a zombie here (its parent is this machine's init, which need not reap
// it): the follow stream (tail --pid) takes a zombie for alive, the launcher check does not.
import { readFileSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RunRequestSchema } from '../../../shared/api/schemas';
import { RunService } from '../../../electron/node/run/run-service';
import { createTarget } from '../../../electron/node/transport/target-spec';
import { processesMatching } from '../../helpers/cli';
import { defined } from '../../helpers/defined';
import { sampleKeys, spooledSamples } from '../../helpers/spool-replay';
import { sshTargetSpec, waitFor } from '../../helpers/sshd';
import { useTrustedSshd } from '../../helpers/ssh-suite';

const ssh = useTrustedSshd({ keyUser: true });

describe('a launcher that dies on the board', () => {
  it('killed with SIGKILL mid-run: the run fails saying so, keeps every spooled sample, and leaves no engine', async () => {
    process.env.KVSCOPE_KEEP_RUN_DIR = '1'; // the spool, to compare the run against
    const service = new RunService(
      () => {},
      (spec) => createTarget(spec),
    );
    try {
      const run = await service.start(
        RunRequestSchema.parse({
          target: sshTargetSpec(ssh.sshd, ssh.knownHosts, ssh.user),
          engine: { kind: 'demo', demo: { weightsMb: 4, tokens: 100000, tps: 50 } },
          intervalMs: 100,
        }),
      );
      await waitFor(() => run.tokens > 20, 'tokens', 30_000);
      // The launcher's subshells (its collectors' loops) carry its command line too; with pids
      // wrapping (pid_max 32768 here) one of them may come first: the launcher is the match whose
      // parent is not one.
      const matches = await processesMatching(`launcher.sh ${run.dir}`);
      const parentOf = (pid: number) =>
        Number(
          readFileSync(`/proc/${pid}/stat`, 'utf8')
            .replace(/^.*\) /s, '')
            .split(' ')[1],
        );
      const launcher = defined(matches.find((m) => !matches.some((o) => o.pid === parentOf(m.pid))));
      process.kill(launcher.pid, 'SIGKILL');
      await run.done;
      expect(run.status.state).toBe('failed');
      expect(run.status.error).toMatch(/launcher on the target \(pid \d+\) ended without ending the run/);
      expect(run.events.filter((e) => e.kind === 'error').map((e) => e.message)).toEqual([run.status.error]);
      await waitFor(async () => (await processesMatching(run.dir)).length === 0, 'no engine left', 15_000);
      // Every spooled line up to the end, once: the run recovered from the spool begins with the
      // same samples. (Its collectors went on appending until the engine was gone, so the spool
      // holds more; the live run's last sample may be a token tick the spool's next line adds to.)
      const live = sampleKeys(run.samples).slice(0, -1);
      expect(live.length).toBeGreaterThan(20);
      expect(sampleKeys(await spooledSamples(run.dir)).slice(0, live.length)).toEqual(live);
      rmSync(run.dir, { recursive: true });
    } finally {
      delete process.env.KVSCOPE_KEEP_RUN_DIR;
      await service.dispose();
    }
  }, 90_000);
});
