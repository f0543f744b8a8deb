// The live run slice following a sweep started from the form: startSweep instead of startRun,
// the live view moving to each next run the sweep's status names (its data from getRun), Start
// held between two runs of the sweep, Stop stopping the sweep, and a reload following it again; and
// Stop while a single run or a sweep is starting (cancelStart with the start's key).
import { describe, expect, it } from 'vitest';
import type { SweepStatus } from '../../../../../shared/api/schemas';
import { fakeApi } from '../../../../helpers/fake-api';
import { createMemoryRing } from '../../../../../renderer/src/live/ring-buffer';
import { connectApiEvents, createAppStore } from '../../../../../renderer/src/state/store';
import { isBusy } from '../../../../../renderer/src/state/live-run-slice';

function setup() {
  const fake = fakeApi({
    listBoards: () => Promise.resolve([{ id: 'local', label: 'This computer', spec: { kind: 'local' as const } }]),
    startSweep: () => Promise.resolve({ sweepId: 'sweep-1', runId: 'r512' }),
    stopSweep: () => Promise.resolve({ ok: true }),
    startRun: () => Promise.resolve({ runId: 'single' }),
    getRun: ({ runId }) =>
      Promise.resolve({
        status: { runId, state: 'running', label: `demo ctx ${runId}` },
        samples: [{ tMs: 100, source: 'procfs', values: { rssBytes: 1e8, tokens: 0 } }],
        events: [],
        analysis: null,
        theory: { bytesPerToken: 640, ctx: runId === 'r512' ? 512 : 2048 },
      }),
  });
  const store = createAppStore({ api: fake.api, ring: createMemoryRing(1000) });
  connectApiEvents(store, fake.api);
  return { ...fake, store };
}

const status = (patch: Partial<SweepStatus>): SweepStatus => ({
  sweepId: 'sweep-1',
  state: 'running',
  sizes: [512, 2048],
  runs: [{ ctx: 512, runId: 'r512' }],
  points: [],
  result: null,
  ...patch,
});

const point512 = { ctx: 512, peakRssBytes: 9e7, exitCode: 0, oomKilled: false, ok: true };

describe('a sweep in the live run slice', () => {
  it('starts a sweep with the sizes of the form, and follows each next run', async () => {
    const { store, api, emit } = setup();
    await store.getState().loadBoards();
    store.getState().setFormField('mode', 'reserved');
    store.getState().setFormField('sweep', '2048, 512');
    await store.getState().startRun();
    expect(api.startRun).not.toHaveBeenCalled();
    expect(api.startSweep).toHaveBeenCalledWith(
      expect.objectContaining({
        sizes: [512, 2048],
        request: expect.objectContaining({ engine: expect.objectContaining({ kind: 'demo' }) }),
      }),
    );
    expect(store.getState().run.runId).toBe('r512');
    expect(store.getState().sweep?.runs).toEqual([{ ctx: 512, runId: 'r512' }]);

    // The first run ends: the sweep is between two runs, Start must still wait.
    emit('runStatus', { runId: 'r512', state: 'done', label: 'demo ctx 512' });
    emit('sweepStatus', status({ points: [point512] }));
    expect(store.getState().run.phase).toBe('done');
    expect(isBusy(store.getState())).toBe(true);
    await store.getState().startRun();
    expect(api.startSweep).toHaveBeenCalledTimes(1);

    // The next size started: the live view moves to it, everything of it from getRun.
    emit(
      'sweepStatus',
      status({
        points: [point512],
        runs: [
          { ctx: 512, runId: 'r512' },
          { ctx: 2048, runId: 'r2048' },
        ],
      }),
    );
    expect(store.getState().run.runId).toBe('r2048');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(api.getRun).toHaveBeenLastCalledWith({ runId: 'r2048' });
    expect(store.getState().run.theory).toEqual({ bytesPerToken: 640, ctx: 2048 });
    // Events of the previous run no longer reach the view.
    emit('runStatus', { runId: 'r512', state: 'failed', label: 'late', error: 'late news' });
    expect(store.getState().run.error).toBeNull();

    emit(
      'sweepStatus',
      status({
        state: 'done',
        runs: [
          { ctx: 512, runId: 'r512' },
          { ctx: 2048, runId: 'r2048' },
        ],
        points: [point512, { ...point512, ctx: 2048, peakRssBytes: 1e8 }],
        result: {
          measuredBytesPerToken: 6510,
          theoryBytesPerToken: 640,
          overheadFactor: 10.2,
          mode: 'reserved',
          maxContextForBudget: null,
          baselineBytes: 8.67e7,
          fitR2: null,
          stoppedEarly: null,
        },
      }),
    );
    emit('runStatus', { runId: 'r2048', state: 'done', label: 'demo ctx 2048' });
    expect(store.getState().sweep?.result?.measuredBytesPerToken).toBe(6510);
    expect(isBusy(store.getState())).toBe(false);
  });

  it('stops the sweep, not only its run, while it runs', async () => {
    const { store, api } = setup();
    await store.getState().loadBoards();
    store.getState().setFormField('sweep', '512, 2048');
    await store.getState().startRun();
    await store.getState().stopRun();
    expect(api.stopSweep).toHaveBeenCalledWith({ sweepId: 'sweep-1' });
    expect(api.stopRun).not.toHaveBeenCalled();
    expect(store.getState().run.phase).toBe('stopping');
  });

  it('ignores the news of another window’s sweep, and forgets its sweep at a single run', async () => {
    const { store, emit, api } = setup();
    await store.getState().loadBoards();
    store.getState().setFormField('sweep', '512, 2048');
    await store.getState().startRun();
    emit('sweepStatus', status({ sweepId: 'sweep-other', runs: [{ ctx: 64, runId: 'x' }] }));
    expect(store.getState().run.runId).toBe('r512');
    emit('runStatus', { runId: 'r512', state: 'done', label: 'demo' });
    emit('sweepStatus', status({ state: 'stopped', points: [point512] }));
    store.getState().setFormField('sweep', '');
    await store.getState().startRun();
    expect(api.startRun).toHaveBeenCalledTimes(1);
    expect(store.getState().sweep).toBeNull();
    expect(store.getState().run.runId).toBe('single');
  });

  it('follows the sweep of the newest run again after a reload', async () => {
    const { store, api } = setup();
    api.listRuns.mockResolvedValueOnce([{ runId: 'r2048', state: 'running', label: 'demo ctx 2048' }]);
    const going = status({
      runs: [
        { ctx: 512, runId: 'r512' },
        { ctx: 2048, runId: 'r2048' },
      ],
      points: [point512],
    });
    api.listSweeps.mockResolvedValueOnce([going]);
    await store.getState().resumeLatestRun();
    expect(store.getState().run.runId).toBe('r2048');
    expect(store.getState().sweep).toEqual(going);
  });
});

describe('a run refused before it started', () => {
  it('is named by what it was to run, not "Run"', async () => {
    const { store, api } = setup();
    api.startRun.mockRejectedValueOnce(new Error('Cannot reach board.local: host name not found'));
    await store.getState().loadBoards();
    store.getState().setFormField('layers', '28');
    store.getState().setFormField('kvType', 'q8_0');
    await store.getState().startRun();
    // The demo's shape as the main side names an unnamed run: 28 layers, the form's 8 KV heads
    // and head dim 64, growth mode.
    expect(store.getState().run).toMatchObject({
      phase: 'failed',
      label: 'demo growth 28L×8H×64 q8_0',
      error: expect.stringContaining('host name not found'),
    });
  });
});

describe('Stop while a single run or a sweep is starting', () => {
  /** A startRun (startSweep) that answers only when the test says (a board connecting), with what the test gives. */
  function starting() {
    let answer!: (outcome: { runId: string } | Error) => void;
    const fake = fakeApi({
      listBoards: () => Promise.resolve([{ id: 'local', label: 'This computer', spec: { kind: 'local' as const } }]),
      startRun: () =>
        new Promise((resolve, reject) => {
          answer = (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome));
        }),
      startSweep: () =>
        new Promise((resolve, reject) => {
          answer = (outcome) =>
            outcome instanceof Error ? reject(outcome) : resolve({ sweepId: 'sweep-1', ...outcome });
        }),
      cancelStart: () => Promise.resolve({ ok: true }),
    });
    const store = createAppStore({ api: fake.api, ring: createMemoryRing(1000) });
    connectApiEvents(store, fake.api);
    return { ...fake, store, answer: (outcome: { runId: string } | Error) => answer(outcome) };
  }

  it('sends cancelStart with the key its startRun carried, and shows a start given up as stopped', async () => {
    const { store, api, answer } = starting();
    await store.getState().loadBoards();
    const started = store.getState().startRun();
    expect(store.getState().run.phase).toBe('starting');
    const startKey = api.startRun.mock.calls[0]?.[0].startKey;
    expect(startKey).toMatch(/^[\w-]{8,64}$/);
    await store.getState().stopRun();
    expect(api.cancelStart).toHaveBeenCalledWith({ startKey });
    expect(store.getState().run.phase).toBe('stopping');

    answer(new Error('stopped before the run started'));
    await started;
    const { run } = store.getState();
    expect(run.phase).toBe('done');
    expect(run.error).toBeNull();
    expect(run.events.map((e) => [e.kind, e.message])).toEqual([
      ['stop', 'stopped by user'],
      ['info', 'stopped before the run started'],
    ]);
    expect(api.stopRun).not.toHaveBeenCalled();
  });

  it('sends cancelStart with the key its startSweep carried, and shows a sweep given up as stopped', async () => {
    const { store, api, answer } = starting();
    await store.getState().loadBoards();
    store.getState().setFormField('mode', 'reserved');
    store.getState().setFormField('sweep', '512, 2048');
    const started = store.getState().startRun();
    expect(store.getState().run.phase).toBe('starting');
    const startKey = api.startSweep.mock.calls[0]?.[0].startKey;
    expect(startKey).toMatch(/^[\w-]{8,64}$/);
    await store.getState().stopRun();
    expect(api.cancelStart).toHaveBeenCalledWith({ startKey });
    expect(store.getState().run.phase).toBe('stopping');

    answer(new Error("stopped before the sweep's first run started"));
    await started;
    const { run, sweep } = store.getState();
    expect(run.phase).toBe('done');
    expect(run.error).toBeNull();
    expect(run.events.map((e) => [e.kind, e.message])).toEqual([
      ['stop', 'stopped by user'],
      ['info', "stopped before the sweep's first run started"],
    ]);
    expect(sweep).toBeNull();
    expect(api.stopSweep).not.toHaveBeenCalled();
  });

  it('still fails a start refused without a Stop', async () => {
    const { store, api, answer } = starting();
    await store.getState().loadBoards();
    const started = store.getState().startRun();
    answer(new Error('connection refused'));
    await started;
    expect(store.getState().run.phase).toBe('failed');
    expect(store.getState().run.error).toBe('connection refused');
    expect(api.cancelStart).not.toHaveBeenCalled();
  });
});

describe('a status older than the phase shown', () => {
  /** A single run whose getRun snapshot (status 'running') answers only when the test says. */
  function slowSnapshot(stopRun: () => Promise<{ ok: boolean }> = () => Promise.resolve({ ok: true })) {
    let answerSnapshot!: () => void;
    const fake = fakeApi({
      listBoards: () => Promise.resolve([{ id: 'local', label: 'This computer', spec: { kind: 'local' as const } }]),
      startRun: () => Promise.resolve({ runId: 'single' }),
      stopRun,
      getRun: ({ runId }) =>
        new Promise((resolve) => {
          answerSnapshot = () =>
            resolve({
              status: { runId, state: 'running', label: 'demo' },
              samples: [{ tMs: 100, source: 'procfs', values: { rssBytes: 1e8, tokens: 0 } }],
              events: [],
              analysis: null,
              theory: { bytesPerToken: 640, ctx: 2048 },
            });
        }),
    });
    const store = createAppStore({ api: fake.api, ring: createMemoryRing(1000) });
    connectApiEvents(store, fake.api);
    return { ...fake, store, answerSnapshot: () => answerSnapshot() };
  }

  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('keeps Stop pressed when the snapshot asked for before it says "running"', async () => {
    const { store, emit, api, answerSnapshot } = slowSnapshot();
    await store.getState().loadBoards();
    const started = store.getState().startRun();
    await settle();
    emit('runStatus', { runId: 'single', state: 'running', label: 'demo' });
    expect(store.getState().run.phase).toBe('running');
    await store.getState().stopRun();
    expect(api.stopRun).toHaveBeenCalledWith({ runId: 'single' });
    expect(store.getState().run.phase).toBe('stopping');
    answerSnapshot();
    await started;
    await settle();
    expect(store.getState().run.phase).toBe('stopping');
    emit('runStatus', { runId: 'single', state: 'done', label: 'demo' });
    expect(store.getState().run.phase).toBe('done');
  });

  it('keeps an ended run ended when the snapshot answers after its end', async () => {
    const { store, emit, answerSnapshot } = slowSnapshot();
    await store.getState().loadBoards();
    const started = store.getState().startRun();
    await settle();
    emit('runStatus', { runId: 'single', state: 'failed', label: 'demo', error: 'engine exited with code 1' });
    answerSnapshot();
    await started;
    await settle();
    expect(store.getState().run).toMatchObject({ phase: 'failed', error: 'engine exited with code 1' });
  });

  it('lets Stop be pressed again when the stop was refused', async () => {
    const { store, emit, answerSnapshot } = slowSnapshot(() => Promise.reject(new Error('connection lost')));
    await store.getState().loadBoards();
    const started = store.getState().startRun();
    await settle();
    answerSnapshot();
    await started;
    await settle();
    emit('runStatus', { runId: 'single', state: 'running', label: 'demo' });
    await store.getState().stopRun();
    expect(store.getState().run).toMatchObject({ phase: 'running', error: 'Stop failed: connection lost' });
  });
});
