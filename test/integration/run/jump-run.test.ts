// A run on a board reached through a jump host whose connection drops twice (the jump's sshd
// session killed): the whole chain is rebuilt and the run keeps every spooled sample exactly once.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunRequestSchema } from '../../../shared/api/schemas';
import { RunService } from '../../../electron/node/run/run-service';
import { createTarget } from '../../../electron/node/transport/target-spec';
import { processesMatching } from '../../helpers/cli';
import {
  generateKey,
  makeTempDir,
  sessionPids,
  startAgent,
  startSshd,
  waitFor,
  writeKnownHosts,
} from '../../helpers/sshd';
import type { Sshd, SshAgent } from '../../helpers/sshd';
import { sampleKeys, spooledSamples } from '../../helpers/spool-replay';

let jump: Sshd;
let board: Sshd;
let agent: SshAgent;
let dir: string;

beforeAll(async () => {
  dir = await makeTempDir('kvscope-jump-run-');
  // One key in an agent for both hops, as a field engineer's ssh-agent holds it.
  const key = await generateKey(join(dir, 'id_ed25519'));
  [jump, board] = await Promise.all([
    startSshd({ authorizedKeys: [key.publicLine] }),
    startSshd({ listenAddress: '127.0.0.2', authorizedKeys: [key.publicLine] }),
  ]);
  agent = await startAgent(dir);
  await agent.add(key.privatePath);
});
afterAll(async () => {
  await Promise.all([jump?.stop(), board?.stop(), agent?.stop()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a run through a jump host that drops', () => {
  it('reconnects through it each time and keeps every spooled sample once', async () => {
    process.env.KVSCOPE_KEEP_RUN_DIR = '1'; // the spool, to compare the run against
    const knownHosts = await writeKnownHosts(join(dir, 'known_hosts'), [jump.knownHostsLine, board.knownHostsLine]);
    const service = new RunService(
      () => {},
      (spec) => createTarget(spec, { agentSocket: agent.socket }),
    );
    try {
      const run = await service.start(
        RunRequestSchema.parse({
          target: {
            kind: 'ssh',
            host: board.host,
            port: board.port,
            user: board.user,
            knownHostsFile: knownHosts,
            jump: [`${jump.user}@${jump.host}:${jump.port}`],
          },
          engine: { kind: 'demo', demo: { weightsMb: 4, tokens: 800, tps: 100 } },
          intervalMs: 100,
        }),
      );
      for (const [i, atTokens] of [150, 450].entries()) {
        await waitFor(() => run.tokens >= atTokens, `${atTokens} tokens`, 60_000);
        for (const pid of await sessionPids(jump.port)) process.kill(pid, 'SIGKILL');
        await waitFor(() => run.events.filter((e) => e.kind === 'reconnect').length > i, 'reconnect', 60_000);
      }
      await run.done;
      expect(run.events.map((e) => e.kind).filter((k) => k === 'disconnect' || k === 'reconnect')).toEqual([
        'disconnect',
        'reconnect',
        'disconnect',
        'reconnect',
      ]);
      expect([run.status.state, run.tokens, run.lostSamples]).toEqual(['done', 800, 0]);
      expect(sampleKeys(run.samples)).toEqual(sampleKeys(await spooledSamples(run.dir)));
      await waitFor(async () => (await processesMatching(run.dir)).length === 0, 'no run process left', 15_000);
      rmSync(run.dir, { recursive: true });
    } finally {
      delete process.env.KVSCOPE_KEEP_RUN_DIR;
      await service.dispose();
    }
  });
});
