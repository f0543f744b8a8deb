// Runs over a real OpenSSH server on loopback (issue #3): the run survives cut TCP connections
// without losing a sample, and nothing of it outlives Stop, a link that never comes back, or
// a killed app.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RunRequestSchema, type Sample } from '../../../shared/api/schemas';
import { RunService } from '../../../electron/node/run/run-service';
import { RUN_DEFAULTS } from '../../../electron/node/run/run-controller';
import { createTarget } from '../../../electron/node/transport/target-spec';
import { killConnections, sshTargetSpec, waitFor } from '../../helpers/sshd';
import { useTrustedSshd } from '../../helpers/ssh-suite';
import { processesMatching, startEndlessDemo } from '../../helpers/cli';
import { defined } from '../../helpers/defined';

// A login without root's heavy shell profile, like a field engineer's account on a board.
const ssh = useTrustedSshd({ keyUser: true });

function sshSpec() {
  return sshTargetSpec(ssh.sshd, ssh.knownHosts, ssh.user);
}

function demoRequest(demo: Record<string, unknown>, intervalMs = 100) {
  return RunRequestSchema.parse({
    target: sshSpec(),
    engine: { kind: 'demo', demo: { weightsMb: 4, ...demo } },
    intervalMs,
  });
}

const procfs = (samples: Sample[]) => samples.filter((s) => s.source === 'procfs');

describe('runs on an SSH target', () => {
  it('survive two cut connections with every sample kept (lostSamples 0, no gap over two intervals)', async () => {
    const service = new RunService(
      () => {},
      (spec) => createTarget(spec),
    );
    const run = await service.start(demoRequest({ tokens: 1200, tps: 100 }, 200));
    // Cut the TCP connection twice while the engine runs (the kernel answers ECONNABORTED).
    for (const atTokens of [300, 700]) {
      await waitFor(() => run.tokens >= atTokens, `${atTokens} tokens`, 30_000);
      await killConnections(ssh.sshd.host, ssh.sshd.port);
      await waitFor(
        () =>
          run.events.some(
            (e) =>
              e.kind === 'reconnect' &&
              (e.data?.offset as number) > 0 &&
              run.events.filter((x) => x.kind === 'reconnect').length >= (atTokens === 300 ? 1 : 2),
          ),
        'reconnect',
        30_000,
      );
    }
    await run.done;
    await service.dispose();
    const kinds = run.events.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'disconnect')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'reconnect')).toHaveLength(2);
    expect(run.status.state).toBe('done');
    expect(run.lostSamples).toBe(0);
    expect(run.tokens).toBe(1200);
    const t = procfs(run.samples).map((s) => s.tMs);
    // 200 ms ticks on the target's clock: the spool kept every one of them through both cuts
    // (a gap over two intervals would be a lost tick).
    const gaps = t.slice(1).map((v, i) => v - defined(t[i]));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(400);
    expect(t.length).toBeGreaterThanOrEqual(50);
    // Order and uniqueness: resuming at the byte offset repeated nothing.
    expect(new Set(t).size).toBe(t.length);
    expect(t).toEqual([...t].sort((a, b) => a - b));
    expect(run.analysis?.kv.mode).toBe('growth');
  });

  it('Stop ends the engine group on the board and removes the run directory', async () => {
    const service = new RunService(
      () => {},
      (spec) => createTarget(spec),
    );
    const run = await service.start(demoRequest({ tokens: 100000, tps: 50 }));
    await waitFor(() => run.tokens > 10, 'tokens', 30_000);
    expect((await processesMatching(run.dir)).length).toBeGreaterThan(0);
    await run.stop();
    await service.dispose();
    expect(run.exitSignal).toBe('SIGTERM');
    await waitFor(async () => (await processesMatching(run.dir)).length === 0, 'no run processes', 10_000);
    expect(existsSync(run.dir)).toBe(false);
  });

  it('a link that never comes back: the client gives up, the target ends the run by itself', async () => {
    const service = new RunService(
      () => {},
      (spec) => createTarget(spec),
      { ...RUN_DEFAULTS, watchdogS: 3, reconnectGiveUpMs: 4000 },
    );
    const run = await service.start(demoRequest({ tokens: 100000, tps: 50 }));
    await waitFor(() => run.tokens > 10, 'tokens', 30_000);
    await ssh.sshd.pause();
    try {
      await killConnections(ssh.sshd.host, ssh.sshd.port);
      await run.done;
      expect(run.status.state).toBe('failed');
      expect(run.status.error).toMatch(/gave up reconnecting/);
      expect(run.events.map((e) => e.kind)).toContain('disconnect');
      // electron/node/run/run-scripts.ts: the spool and run.json stay for `kvscope recover`.
      await waitFor(
        async () =>
          (await processesMatching(run.dir)).length === 0 &&
          existsSync(run.dir) &&
          readdirSync(run.dir).sort().join(',') === 'run.json,spool',
        'watchdog cleanup',
        20_000,
      );
      rmSync(run.dir, { recursive: true });
    } finally {
      await ssh.sshd.resume();
      await service.dispose();
    }
  });

  it('a killed app leaves nothing running on the board once the watchdog fires, only what recover imports', async () => {
    const { child, runDir: dir } = await startEndlessDemo([...ssh.cliTarget(), '--tps', '50', '--weights-mb', '4']);
    await waitFor(async () => (await processesMatching(`${dir}/demo-engine.cjs`)).length > 0, 'engine running', 15_000);
    child.kill('SIGKILL');
    // electron/node/run/run-scripts.ts: the spool and run.json stay for `kvscope recover`.
    const kept = () => (existsSync(dir) ? readdirSync(dir).sort().join(',') : '');
    await waitFor(
      async () => (await processesMatching(dir)).length === 0 && kept() === 'run.json,spool',
      'watchdog cleanup',
      20_000,
    );
    rmSync(dir, { recursive: true });
  });

  it('"keep running": the engine outlives a killed app, as asked', async () => {
    const { child, runDir: dir } = await startEndlessDemo([
      ...ssh.cliTarget(),
      ...['--tps', '50', '--weights-mb', '4', '--keep-running'],
    ]);
    const engine = await waitFor(
      async () => (await processesMatching(`${dir}/demo-engine.cjs`))[0],
      'engine running',
      15_000,
    );
    const before = (await processesMatching(`${dir}/demo-engine.cjs`)).map((p) => p.pid);
    child.kill('SIGKILL');
    // Three times the watchdog's 2 s: a run without "keep running" would be gone by now.
    await new Promise((r) => setTimeout(r, 6000));
    try {
      expect((await processesMatching(`${dir}/demo-engine.cjs`)).map((p) => p.pid)).toEqual(before);
    } finally {
      process.kill(-engine.pid, 'SIGKILL');
      await waitFor(async () => (await processesMatching(dir)).length === 0, 'cleanup', 10_000);
    }
  });
});
