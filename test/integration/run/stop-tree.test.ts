// Stop ends the whole process tree the run started (issue 10): GNU timeout puts itself (and so the
// engine) in a process group of its own when it is not the group leader already, so signalling
// the launcher's engine group alone left `timeout 600 <engine>` running behind a wrapper shell —
// and the launcher waiting on the engine's output pipes for ten minutes. Each shape is stopped
// locally and over a real OpenSSH server on loopback; afterwards no process of the tree remains.
// A Stop during the launch ends it before the engine starts, or ends the engine it started.
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoOptionsSchema, RunRequestSchema, type TargetSpec } from '../../../shared/api/schemas';
import { shellJoin, shellQuote } from '../../../shared/util/shell';
import { demoEngineConfig } from '../../../electron/node/demo-engine/demo-config';
import { demoEngineBundle } from '../../../electron/node/demo-engine/demo-engine-bundle';
import { RUN_DEFAULTS, RunController } from '../../../electron/node/run/run-controller';
import { RunService } from '../../../electron/node/run/run-service';
import { LocalTarget } from '../../../electron/node/transport/local-target';
import { createTarget } from '../../../electron/node/transport/target-spec';
import { ensureKeyUser, startSshd, waitFor, type Sshd } from '../../helpers/sshd';
import { processesMatching } from '../../helpers/cli';

let dir: string;
let bundle: string;
let engine: string;
let sshd: Sshd;
let user: string;

beforeAll(async () => {
  // Searchable by the SSH test user: the engine runs as that user over SSH.
  dir = mkdtempSync(join(tmpdir(), 'kvscope-stop-tree-'));
  chmodSync(dir, 0o755);
  bundle = join(dir, 'stop-tree-demo.cjs');
  writeFileSync(bundle, await demoEngineBundle(), { mode: 0o755 });
  // Long enough that only Stop ends it: 100,000 tokens at 50 tokens/s.
  const config = demoEngineConfig(DemoOptionsSchema.parse({ tokens: 100_000, tps: 50, mode: 'growth', weightsMb: 4 }));
  engine = shellJoin([process.execPath, bundle, JSON.stringify(config)]);
  // A board's launcher script: set-up, then the engine under timeout as a child (no exec).
  writeFileSync(join(dir, 'run.sh'), `#!/bin/sh\necho starting >&2\ntimeout 600 ${engine}\necho done >&2\n`, {
    mode: 0o755,
  });
  sshd = await startSshd();
  user = await ensureKeyUser();
  await writeFile(join(dir, 'known_hosts'), sshd.knownHostsLine + '\n');
});

afterAll(async () => {
  // Whatever a failed assertion left behind.
  for (const p of await processesMatching(bundle))
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  await sshd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const targets: Array<{ name: string; spec: () => TargetSpec }> = [
  { name: 'locally', spec: () => ({ kind: 'local' }) },
  {
    name: 'over SSH',
    spec: () => ({
      kind: 'ssh',
      host: sshd.host,
      port: sshd.port,
      user,
      identityFile: sshd.clientKey.privatePath,
      knownHostsFile: join(dir, 'known_hosts'),
    }),
  },
];

const shapes: Array<{ name: string; command: () => string }> = [
  { name: 'timeout 600 <engine>', command: () => `timeout 600 ${engine}` },
  // The shell forks timeout (a compound command cannot be exec'd): timeout leads a new group.
  {
    name: "sh -c '…; timeout 600 <engine>; …'",
    command: () => `sh -c ${shellQuote(`: start; timeout 600 ${engine}; : end`)}`,
  },
  { name: 'sh run.sh (timeout inside)', command: () => `sh ${shellQuote(join(dir, 'run.sh'))}` },
];

describe('Stop ends every process of the run', () => {
  for (const t of targets)
    for (const shape of shapes)
      it(`${shape.name} ${t.name}: after Stop no process of the tree remains`, { timeout: 60_000 }, async () => {
        const service = new RunService(
          () => {},
          (spec) => createTarget(spec),
        );
        try {
          const run = await service.start(
            RunRequestSchema.parse({ target: t.spec(), engine: { kind: 'command', command: shape.command() } }),
          );
          await waitFor(() => run.samples.some((s) => s.source === 'procfs'), 'a memory sample', 30_000);
          // The engine and timeout both carry the bundle's path on their command lines.
          const before = await processesMatching(bundle);
          expect(before.some((p) => p.cmdline.startsWith('timeout'))).toBe(true);
          await run.stop();
          expect(run.status.state).not.toBe('running');
          await waitFor(async () => (await processesMatching(bundle)).length === 0, 'no process of the tree', 10_000);
          expect(await processesMatching(run.dir)).toEqual([]);
        } finally {
          await service.dispose();
        }
      });
});

describe('Stop during the launch', () => {
  const request = () =>
    RunRequestSchema.parse({ target: { kind: 'local' }, engine: { kind: 'command', command: engine } });
  const controller = (target: LocalTarget, states: string[]) =>
    new RunController(
      target,
      request(),
      `20261201120000-${Math.random().toString(16).slice(2, 10).padEnd(8, '0')}`,
      {
        onSamples: () => {},
        onEvent: () => {},
        onStatus: (status) => states.push(status.state),
        onOutput: () => {},
        onAnalysis: () => {},
      },
      RUN_DEFAULTS,
    );

  it('right after Start: the launch goes no further, no engine starts (the run never reads as running)', async () => {
    const states: string[] = [];
    const run = controller(new LocalTarget(), states);
    // Stop pressed right after Start, while the run directory is being made.
    const starting = run.start();
    const stopping = run.stop();
    await starting;
    await stopping;
    expect(states).not.toContain('running');
    expect(run.status.state).toBe('done');
    expect(run.enginePid).toBeNull();
    expect(await processesMatching(bundle)).toEqual([]);
    expect(run.dir && existsSync(run.dir)).toBeFalsy();
  });

  it(
    'once the launcher started: waits for the launch and ends the engine it started (never running)',
    { timeout: 60_000 },
    async () => {
      const states: string[] = [];
      let run: RunController | null = null;
      const stop: { done: Promise<void> | null } = { done: null };
      /** This computer, where the Stop comes the moment the launcher has been started, before the launch answers. */
      class StopAtLaunch extends LocalTarget {
        override async exec(...args: Parameters<LocalTarget['exec']>): ReturnType<LocalTarget['exec']> {
          const result = await super.exec(...args);
          if (args[0].includes('launcher.sh') && run) stop.done = run.stop();
          return result;
        }
      }
      run = controller(new StopAtLaunch(), states);
      await run.start();
      expect(stop.done).not.toBeNull();
      await stop.done;
      expect(states).not.toContain('running');
      expect(run.status.state).not.toBe('running');
      // The engine was launched (its pid known) and ended with the rest of the tree.
      expect(run.enginePid).not.toBeNull();
      await waitFor(async () => (await processesMatching(bundle)).length === 0, 'no process of the tree', 10_000);
      expect(await processesMatching(run.dir)).toEqual([]);
    },
  );
});
