// Stop before a run's start has answered (RunService.cancelStart, the window's Stop while
// "Starting…"): a board that accepts the TCP connection and never speaks SSH is given up at once
// instead of at the 20 s connect timeout, its connection closed (not left to run into the timeout);
// a real sshd whose host key the app is asking about has its question withdrawn and its connection
// dropped; a launch under way stops at its next step, before the launcher (and so the engine)
// starts, and its run directory is removed. Nothing ran then: no run is left, and the app records
// no (empty) session for it. A sweep stopped while its first run connects ends the same way.
import { existsSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMethods, type ApiEventName } from '../../../shared/api/contract';
import { RunRequestSchema, type RunEvent, type RunStatus } from '../../../shared/api/schemas';
import { USER_STOP_REASON } from '../../../shared/run/run-labels';
import { RunService, RunStartStopped } from '../../../electron/node/run/run-service';
import { createTarget } from '../../../electron/node/transport/target-spec';
import { appServicesInTempHome } from '../../helpers/app-services';
import { HeldTarget } from '../../helpers/held-target';
import { useTrustedSshd } from '../../helpers/ssh-suite';
import { establishedTo, sshTargetSpec, waitFor } from '../../helpers/sshd';

/** A "board" that accepts connections and never sends its SSH banner (a wedged sshd, a half-open link). */
let mute: Server;
const muteSockets: Socket[] = [];
/** The mute board's connections that ended (the client gave them up). */
const muteClosed = new Set<Socket>();

beforeAll(async () => {
  mute = createServer((socket) => {
    muteSockets.push(socket);
    // Read (and drop) what the client sends, so that its end of the connection is seen.
    socket.resume();
    socket.on('close', () => muteClosed.add(socket));
  });
  await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
});

afterAll(() => {
  for (const socket of muteSockets) socket.destroy();
  mute?.close();
});

const ssh = useTrustedSshd();
const homes: string[] = [];
afterAll(() => homes.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The app's services (sessions in a folder of their own), with every event they publish. */
function app(targetFactory?: Parameters<typeof appServicesInTempHome>[1]) {
  const { services, home } = appServicesInTempHome('kvscope-cancel-start-', targetFactory);
  homes.push(home);
  const events: Array<[ApiEventName, unknown]> = [];
  services.subscribe((event, payload) => events.push([event, payload]));
  return { services, home, events };
}

const demo = (target: object) =>
  RunRequestSchema.parse({
    target,
    engine: { kind: 'demo', demo: { tokens: 100_000, tps: 50, mode: 'growth', weightsMb: 4 } },
    intervalMs: 100,
  });

describe('a Stop before the start answered', () => {
  it('gives up a board still connecting at once, closes its connection, and a start no longer under way is not found', async () => {
    const service = new RunService(
      () => {},
      (spec, signal) => createTarget(spec, { signal }),
    );
    const port = (mute.address() as { port: number }).port;
    const started = service.start(
      demo({ kind: 'ssh', host: '127.0.0.1', port, user: 'nobody', knownHostsFile: join(tmpdir(), 'none') }),
      { startKey: 'start-mute-1' },
    );
    // The TCP connection is open, the SSH banner never comes: the start is waiting on the board.
    while (muteSockets.length === 0) await new Promise((r) => setTimeout(r, 20));
    const socket = muteSockets.at(-1);
    expect(service.cancelStart('start-mute-1')).toBe(true);
    await expect(started).rejects.toBeInstanceOf(RunStartStopped);
    // The connection attempt is abandoned, not left to run into its 20 s connect timeout.
    await waitFor(() => socket !== undefined && muteClosed.has(socket), "the mute board's connection closed", 2000);
    expect(service.list()).toEqual([]);
    expect(service.cancelStart('start-mute-1')).toBe(false);
    await service.dispose();
  });

  it('stops a launch under way before the engine starts, removes what it uploaded, and leaves no run', async () => {
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
    const started = service.start(demo({ kind: 'local' }), { startKey: 'start-held-1' });
    // The run directory exists; its first upload (the demo engine) waits on the "link".
    await target.uploading;
    expect(service.cancelStart('start-held-1')).toBe(true);
    target.release();
    // Nothing ran: the start is one stopped before the run started, as while connecting.
    await expect(started).rejects.toThrow(new RunStartStopped('stopped before the engine started'));
    expect(service.list()).toEqual([]);

    expect(statuses.map((s) => s.state)).not.toContain('running');
    expect(statuses.at(-1)?.state).toBe('done');
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

describe('a Stop before the start answered, in the app', () => {
  it('closes the host key question of a board still connecting and leaves no connection to it', async () => {
    const { services, home, events } = app();
    // A known_hosts file that does not exist: the board's key is unknown, the app asks the user.
    const target = sshTargetSpec(ssh.sshd, join(home, 'no_known_hosts'));
    const started = services.handlers.startRun(
      apiMethods.startRun.input.parse({ ...demo(target), startKey: 'start-asking-1' }),
    );
    started.catch(() => {});
    await waitFor(() => events.some(([e]) => e === 'hostKeyPrompt'), 'the host key question');
    expect(await establishedTo(ssh.sshd.host, ssh.sshd.port)).toBe(1);

    expect(await services.handlers.cancelStart({ startKey: 'start-asking-1' })).toEqual({ ok: true });
    await expect(started).rejects.toThrow('stopped before the run started');
    // The question is withdrawn from every window, and the connection it held up is gone.
    expect(events.filter(([e]) => e === 'promptClosed').map(([, p]) => (p as { reason: string }).reason)).toEqual([
      'cancelled',
    ]);
    expect(await services.handlers.listPrompts({})).toEqual([]);
    await waitFor(async () => (await establishedTo(ssh.sshd.host, ssh.sshd.port)) === 0, 'no connection left', 2000);
    await services.dispose();
    expect((await services.handlers.listSessions({})).sessions).toEqual([]);
  });

  it('stops a sweep whose first run is still connecting at once: stopped, no size run, its connection closed', async () => {
    const { services, events } = app();
    const port = (mute.address() as { port: number }).port;
    const before = muteSockets.length;
    const request = demo({ kind: 'ssh', host: '127.0.0.1', port, user: 'nobody' });
    const started = services.handlers.startSweep(
      apiMethods.startSweep.input.parse({ request, sizes: [512, 1024], startKey: 'sweep-mute-1' }),
    );
    started.catch(() => {});
    await waitFor(() => muteSockets.length > before, 'the sweep connecting to the mute board');
    const socket = muteSockets.at(-1);
    const stopAt = Date.now();
    expect(await services.handlers.cancelStart({ startKey: 'sweep-mute-1' })).toEqual({ ok: true });
    await expect(started).rejects.toThrow("stopped before the sweep's first run started");
    // At once, not at the 20 s connect timeout; and no next size tried the board.
    expect(Date.now() - stopAt).toBeLessThan(2000);
    await waitFor(() => socket !== undefined && muteClosed.has(socket), "the mute board's connection closed", 2000);
    expect(muteSockets.length).toBe(before + 1);
    const [sweep] = await services.handlers.listSweeps({});
    expect(sweep?.state).toBe('stopped');
    expect(sweep?.runs).toEqual([]);
    expect(
      events.filter(([e]) => e === 'sweepStatus').every(([, s]) => (s as { state: string }).state !== 'failed'),
    ).toBe(true);
    await services.dispose();
    expect((await services.handlers.listSessions({})).sessions).toEqual([]);
  });

  it('records no session for a run stopped during its launch, before the engine started', async () => {
    const target = new HeldTarget();
    const { services } = app(() => Promise.resolve(target));
    const started = services.handlers.startRun(
      apiMethods.startRun.input.parse({ ...demo({ kind: 'local' }), startKey: 'start-held-2' }),
    );
    started.catch(() => {});
    await target.uploading;
    expect(await services.handlers.cancelStart({ startKey: 'start-held-2' })).toEqual({ ok: true });
    target.release();
    // Nothing ran: the start ends as one stopped before the run started, as while connecting.
    await expect(started).rejects.toThrow('stopped before the engine started');
    await services.dispose();
    expect((await services.handlers.listSessions({})).sessions).toEqual([]);
    expect(await services.handlers.listRuns({})).toEqual([]);
  });
});
