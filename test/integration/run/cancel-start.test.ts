// Stop before a run's start has answered (RunService.cancelStart, the window's Stop while
// "Starting…"): a board that accepts the TCP connection and never speaks SSH is given up at once
// instead of at the 20 s connect timeout, with nothing left behind; a launch under way stops at its
// next step, before the launcher (and so the engine) starts, and its run directory is removed.
import { existsSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunRequestSchema, type RunEvent, type RunStatus } from '../../../shared/api/schemas';
import { USER_STOP_REASON } from '../../../shared/run/run-labels';
import { RunService, RunStartStopped } from '../../../electron/node/run/run-service';
import { LocalTarget } from '../../../electron/node/transport/local-target';
import { createTarget } from '../../../electron/node/transport/target-spec';

/** A "board" that accepts connections and never sends its SSH banner (a wedged sshd, a half-open link). */
let mute: Server;
const muteSockets: Socket[] = [];

beforeAll(async () => {
  mute = createServer((socket) => muteSockets.push(socket));
  await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
});

afterAll(() => {
  for (const socket of muteSockets) socket.destroy();
  mute?.close();
});

const demo = (target: object) =>
  RunRequestSchema.parse({
    target,
    engine: { kind: 'demo', demo: { tokens: 100_000, tps: 50, mode: 'growth', weightsMb: 4 } },
    intervalMs: 100,
  });

/** This computer, with the launch's uploads held until `release()`: a slow link, at a known step. */
class HeldTarget extends LocalTarget {
  readonly written: string[] = [];
  private opened!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.opened = resolve));
  private arrived!: () => void;
  /** Resolves when the launch's first upload is waiting at the gate. */
  readonly uploading = new Promise<void>((resolve) => (this.arrived = resolve));
  release() {
    this.opened();
  }
  override async writeFile(path: string, data: string | Buffer, mode?: number): Promise<void> {
    this.arrived();
    await this.gate;
    this.written.push(path);
    return super.writeFile(path, data, mode);
  }
}

describe('a Stop before the start answered', () => {
  it('gives up a board still connecting at once, and a start no longer under way is not found', async () => {
    const service = new RunService(() => {}, createTarget);
    const port = (mute.address() as { port: number }).port;
    const started = service.start(
      demo({ kind: 'ssh', host: '127.0.0.1', port, user: 'nobody', knownHostsFile: join(tmpdir(), 'none') }),
      undefined,
      'start-mute-1',
    );
    // The TCP connection is open, the SSH banner never comes: the start is waiting on the board.
    while (muteSockets.length === 0) await new Promise((r) => setTimeout(r, 20));
    expect(service.cancelStart('start-mute-1')).toBe(true);
    await expect(started).rejects.toBeInstanceOf(RunStartStopped);
    expect(service.list()).toEqual([]);
    expect(service.cancelStart('start-mute-1')).toBe(false);
    await service.dispose();
  });

  it('stops a launch under way before the engine starts, and removes what it uploaded', async () => {
    const target = new HeldTarget();
    const statuses: RunStatus[] = [];
    const events: RunEvent[] = [];
    const service = new RunService(
      (type, payload) => {
        if (type === 'runStatus') statuses.push(payload as RunStatus);
        if (type === 'runEvent') events.push((payload as { event: RunEvent }).event);
      },
      () => Promise.resolve(target),
    );
    const started = service.start(demo({ kind: 'local' }), undefined, 'start-held-1');
    // The run directory exists; its first upload (the demo engine) waits on the "link".
    await target.uploading;
    expect(service.cancelStart('start-held-1')).toBe(true);
    target.release();
    const run = await started;
    await run.done;

    expect(run.status.state).toBe('done');
    expect(statuses.map((s) => s.state)).not.toContain('running');
    expect(events.filter((e) => e.kind === 'stop').map((e) => e.message)).toEqual([USER_STOP_REASON]);
    // Only the upload under way when Stop came was written: no launcher, no run.conf, no engine.
    expect(target.written.map((p) => p.split('/').at(-1))).toHaveLength(1);
    expect(target.written.some((p) => p.endsWith('launcher.sh'))).toBe(false);
    const runDir = target.written[0]?.split('/').slice(0, -1).join('/') ?? '';
    expect(runDir).toMatch(/kvscope-/);
    expect(existsSync(runDir)).toBe(false);
    await service.dispose();
  });
});
