// A context sweep started through the app's API (startSweep, as the run form does), with the
// demo engine on This computer: its runs one after the other, each announced by a sweepStatus
// event (the window follows them), the result at the end, and the whole sweep recorded into one
// session with its plan — what `kvscope profile --sweep --out` writes. Stopping the sweep ends
// the run going on and runs no further size; a Stop before its first run started (cancelStart)
// ends it at once, with nothing run and nothing recorded.
//
// Expected values, by hand: the demo's default shape (16 layers × 8 KV heads × head dim 64, f16)
// costs 2 (K and V) × 16 × 8 × 64 × 2 B = 32,768 B per context token.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { apiMethods, type EventPayload } from '../../../shared/api/contract';
import type { SweepStatus } from '../../../shared/api/schemas';
import type { TargetFactory } from '../../../electron/node/run/run-service';
import { appServicesInTempHome } from '../../helpers/app-services';
import { HeldTarget } from '../../helpers/held-target';
import { waitFor } from '../../helpers/sshd';
import { sessionSweep } from '../../../shared/report/session-data';
import { unpackSessionData } from '../../../shared/api/packed-samples';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The app's services with a sessions folder of their own, and every sweepStatus they publish. */
function app(targetFactory?: TargetFactory) {
  const { services, home } = appServicesInTempHome('kvscope-sweep-api-', targetFactory);
  dirs.push(home);
  const statuses: SweepStatus[] = [];
  let ended: (status: SweepStatus) => void = () => undefined;
  const end = new Promise<SweepStatus>((resolve) => (ended = resolve));
  services.subscribe((event, payload) => {
    if (event !== 'sweepStatus') return;
    const status = payload as EventPayload<'sweepStatus'>;
    statuses.push(status);
    if (status.state !== 'running') ended(status);
  });
  return { services, statuses, end };
}

/** As the form sends it (the contract's parse fills the defaults, as the bridge does). */
const sweepInput = (sizes: number[], tokens: number) =>
  apiMethods.startSweep.input.parse({
    request: {
      target: { kind: 'local' },
      engine: { kind: 'demo', demo: { mode: 'reserved', tokens, tps: 800, weightsMb: 8 } },
      intervalMs: 50,
      budgetBytes: 256 * 1024 * 1024,
    },
    sizes,
  });

describe('a sweep through the API', () => {
  it('runs each size in turn, announces each run, ends with the fit, and records one session', async () => {
    const { services, statuses, end } = app();
    const { sweepId, runId } = await services.handlers.startSweep(sweepInput([1024, 512], 100));
    const final = await end;

    // Each run announced as it started; the second after the first one's point was in.
    expect(statuses[0]?.runs).toEqual([{ ctx: 512, runId }]);
    const secondStarted = statuses.find((s) => s.runs.length === 2);
    expect(secondStarted?.points.map((p) => p.ctx)).toEqual([512]);
    expect(final.sweepId).toBe(sweepId);
    expect(final.state).toBe('done');
    expect(final.sizes).toEqual([512, 1024]);
    expect(final.runs.map((r) => r.ctx)).toEqual([512, 1024]);
    expect(final.points.map((p) => [p.ctx, p.ok, p.oomKilled])).toEqual([
      [512, true, false],
      [1024, true, false],
    ]);
    expect(final.result?.theoryBytesPerToken).toBe(32768);
    expect(final.result?.mode).toBe('reserved');
    expect(final.result?.stoppedEarly).toBeNull();
    // The demo reserves ctx × 32,768 B up front: the fit over two sizes finds it (32,616–33,008 B
    // measured here over runs; RSS noise of a few hundred KiB spread over 512 tokens).
    expect(Math.abs((final.result?.measuredBytesPerToken ?? 0) / 32768 - 1)).toBeLessThan(0.1);
    // Each run is a run of the app, ended.
    for (const r of final.runs) expect((await services.handlers.getRun({ runId: r.runId })).status.state).toBe('done');
    expect(await services.handlers.listSweeps({})).toEqual([final]);

    await services.dispose();
    // One session holds the sweep: both runs and the plan, the same fit the window showed.
    const { sessions } = await services.handlers.listSessions({});
    expect(sessions).toHaveLength(1);
    const { data } = await services.handlers.openSession({ id: sessions[0]!.id });
    expect(data.runs.map((r) => r.id)).toEqual(final.runs.map((r) => r.runId));
    expect(data.meta.sweep).toEqual({ sizes: [512, 1024], failedStarts: [], interrupted: false });
    const stored = sessionSweep(unpackSessionData(data))?.summary;
    expect(stored?.measuredBytesPerToken).toBe(final.result?.measuredBytesPerToken);
    expect(stored?.points.map((p) => p.peakRssBytes)).toEqual(final.points.map((p) => p.peakRssBytes));
  }, 120_000);

  it('stopSweep ends the run going on and runs no further size', async () => {
    const { services, statuses, end } = app();
    // 100,000 tokens at 800 tok/s: two minutes, far longer than the test waits before stopping.
    const { sweepId, runId } = await services.handlers.startSweep(sweepInput([512, 1024, 2048], 100_000));
    expect(await services.handlers.stopSweep({ sweepId })).toEqual({ ok: true });
    const final = await end;
    expect(final.state).toBe('stopped');
    expect(final.runs).toEqual([{ ctx: 512, runId }]);
    expect(final.points.map((p) => p.ctx)).toEqual([512]);
    expect(final.result?.stoppedEarly).toBe('interrupted');
    expect(statuses.some((s) => s.runs.length > 1)).toBe(false);
    // A stopped sweep cannot be stopped again; an unknown one neither.
    expect(await services.handlers.stopSweep({ sweepId })).toEqual({ ok: false });
    expect(await services.handlers.stopSweep({ sweepId: 'sweep-none' })).toEqual({ ok: false });
    // The run's own stop is the user's, as a single run's Stop is: the window badges it STOPPED,
    // the session list says stopped (it said 'interrupted', read as a run that finished).
    const stops = (await services.handlers.getRun({ runId })).events.filter((e) => e.kind === 'stop');
    expect(stops.map((e) => e.message)).toEqual(['stopped by user']);
    await services.dispose();
    const { sessions } = await services.handlers.listSessions({});
    expect(sessions.map((s) => s.state)).toEqual(['stopped']);
    const { data } = await services.handlers.openSession({ id: sessions[0]!.id });
    expect(data.meta.sweep).toEqual({ sizes: [512, 1024, 2048], failedStarts: [], interrupted: true });
  }, 120_000);

  it('cancelStart while the first run launches ends the sweep as stopped: nothing ran, no next size, no session', async () => {
    const targets: HeldTarget[] = [];
    const { services, statuses, end } = app(() => {
      const target = new HeldTarget();
      targets.push(target);
      return Promise.resolve(target);
    });
    const started = services.handlers.startSweep({ ...sweepInput([512, 1024], 100_000), startKey: 'sweep-start-1' });
    started.catch(() => {});
    // The first run's directory exists and its first upload waits on the "link".
    const first = await waitFor(() => targets[0], 'the first run connecting');
    await first.uploading;
    expect(await services.handlers.cancelStart({ startKey: 'sweep-start-1' })).toEqual({ ok: true });
    first.release();
    await expect(started).rejects.toThrow("stopped before the sweep's first run started");
    const final = await end;
    expect(final.state).toBe('stopped');
    expect(final.runs).toEqual([]);
    expect(final.points).toEqual([]);
    expect(statuses.every((s) => s.runs.length === 0)).toBe(true);
    // No later size was even connected to.
    expect(targets).toHaveLength(1);
    expect(first.written.some((p) => p.endsWith('launcher.sh'))).toBe(false);
    expect(await services.handlers.listRuns({})).toEqual([]);
    expect(await services.handlers.cancelStart({ startKey: 'sweep-start-1' })).toEqual({ ok: false });
    await services.dispose();
    expect((await services.handlers.listSessions({})).sessions).toEqual([]);
  }, 60_000);

  it('stopSweep while the first run launches (a window that reloaded meanwhile) stops that start too', async () => {
    const target = new HeldTarget();
    const { services, end } = app(() => Promise.resolve(target));
    const started = services.handlers.startSweep(sweepInput([512, 1024], 100_000));
    started.catch(() => {});
    await target.uploading;
    const [sweep] = await services.handlers.listSweeps({});
    expect(await services.handlers.stopSweep({ sweepId: sweep?.sweepId ?? '' })).toEqual({ ok: true });
    target.release();
    await expect(started).rejects.toThrow("stopped before the sweep's first run started");
    expect((await end).runs).toEqual([]);
    expect(target.written.some((p) => p.endsWith('launcher.sh'))).toBe(false);
    await services.dispose();
  }, 60_000);

  it('closing the app stops the sweep’s run and starts no next size', async () => {
    const { services, end } = app();
    const { runId } = await services.handlers.startSweep(sweepInput([512, 1024], 100_000));
    await services.dispose();
    const final = await end;
    expect(final.state).toBe('stopped');
    expect(final.runs).toEqual([{ ctx: 512, runId }]);
    const run = await services.handlers.getRun({ runId });
    expect(run.status.state).toBe('done');
    expect(run.events.filter((e) => e.kind === 'stop').map((e) => e.message)).toEqual(['app closing']);
  }, 120_000);

  it('refuses an engine command without {ctx}, in the app’s words', async () => {
    const { services, statuses } = app();
    await expect(
      services.handlers.startSweep(
        apiMethods.startSweep.input.parse({
          request: { target: { kind: 'local' }, engine: { kind: 'command', command: 'sleep 1' } },
          sizes: [512, 1024],
        }),
      ),
    ).rejects.toThrow('the engine command needs {ctx} where each context size goes');
    expect(statuses).toEqual([]);
    await services.dispose();
  });
});
