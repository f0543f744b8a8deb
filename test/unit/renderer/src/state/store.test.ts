// The app store without React: a vanilla zustand store over a fake KvScopeApi.
import { describe, expect, it, vi } from 'vitest';
import type { MethodOutput } from '../../../../../shared/api/contract';
import { fakeApi } from '../../../../helpers/fake-api';
import type { RunAnalysis, Sample } from '../../../../../shared/api/schemas';
import { createMemoryRing } from '../../../../../renderer/src/live/ring-buffer';
import { OUTPUT_TAIL_LINES } from '../../../../../renderer/src/live/live-config';
import { connectApiEvents, createAppStore } from '../../../../../renderer/src/state/store';

/** The methods the store calls on its own: boards at start, runs. */
function storeApi() {
  return fakeApi({
    appInfo: () => Promise.resolve({ version: '0.1.0', shell: 'web' as const, platform: 'linux' }),
    listBoards: () =>
      Promise.resolve([
        { id: 'local', label: 'This computer', spec: { kind: 'local' as const } },
        { id: 'orin', label: 'Jetson Orin', spec: { kind: 'ssh' as const, host: 'orin.lan' } },
      ]),
    startRun: () => Promise.resolve({ runId: 'r1' }),
    stopRun: () => Promise.resolve({ ok: true }),
    listRuns: () => Promise.resolve([]),
    getRun: ({ runId }) =>
      Promise.resolve({
        status: { runId, state: 'running', label: 'demo' },
        samples: [],
        events: [],
        analysis: null,
        theory: { bytesPerToken: 32768, ctx: 4096 },
      }),
  });
}

function setup(maxPointsPerSeries?: number) {
  const fake = storeApi();
  const ring = createMemoryRing(1000);
  const store = createAppStore({ api: fake.api, ring, maxPointsPerSeries });
  connectApiEvents(store, fake.api);
  return { ...fake, ring, store };
}

const sample = (tMs: number, tokens: number, rssBytes: number): Sample => ({
  tMs,
  source: 'procfs',
  values: { rssBytes, rssAnonBytes: rssBytes / 2, rssFileBytes: rssBytes / 2, tokens },
});

const analysis: RunAnalysis = {
  kv: {
    theoryBytesPerToken: 32768,
    measuredBytesPerToken: 33100,
    overheadFactor: 1.01,
    mode: 'growth',
    baselineBytes: 80e6,
  },
  budgetBytes: 2 ** 31,
  oomHorizonTokens: 62000,
  maxSafeContextTokens: 62000,
  throughput: { ttftMs: 120, prefillTokensPerSecond: 250, decodeTokensPerSecond: 980, tokens: 2000 },
  lastRssBytes: 150e6,
  peakRssBytes: 151e6,
};

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('board list slice', () => {
  it('loads the boards and selects the first one', async () => {
    const { store } = setup();
    await store.getState().loadBoards();
    const state = store.getState();
    expect(state.boardsStatus).toBe('ready');
    expect(state.boards.map((b) => b.label)).toEqual(['This computer', 'Jetson Orin']);
    expect(state.selectedBoardId).toBe('local');
    state.selectBoard('orin');
    expect(store.getState().selectedBoardId).toBe('orin');
    store.getState().selectBoard('nonexistent');
    expect(store.getState().selectedBoardId).toBe('orin');
  });

  it('keeps the error text when listing fails', async () => {
    const { store, api } = setup();
    api.listBoards.mockRejectedValueOnce(new Error('ssh config unreadable'));
    await store.getState().loadBoards();
    expect(store.getState().boardsStatus).toBe('error');
    expect(store.getState().boardsError).toBe('ssh config unreadable');
  });
});

describe('run form slice', () => {
  it('updates a field and clears its error', async () => {
    const { store, api } = setup();
    await store.getState().loadBoards();
    store.getState().setFormField('layers', 'x');
    await store.getState().startRun();
    expect(api.startRun).not.toHaveBeenCalled();
    expect(store.getState().formErrors.layers).toBe('a whole number from 1 to 512');
    store.getState().setFormField('layers', '32');
    expect(store.getState().formErrors.layers).toBeUndefined();
    expect(store.getState().form.layers).toBe('32');
  });
});

describe('live run slice', () => {
  it('starts a run with the request built from the form and the selected board', async () => {
    const { store, api } = setup();
    await store.getState().loadBoards();
    store.getState().setFormField('tps', '1000');
    store.getState().setFormField('intervalMs', '100');
    await store.getState().startRun();
    expect(api.startRun).toHaveBeenCalledWith(
      expect.objectContaining({
        target: { kind: 'local' },
        intervalMs: 100,
        engine: expect.objectContaining({ kind: 'demo', demo: expect.objectContaining({ tps: 1000 }) }),
      }),
    );
    const { run } = store.getState();
    expect(run.runId).toBe('r1');
    expect(run.phase).toBe('running');
    expect(run.theory).toEqual({ bytesPerToken: 32768, ctx: 4096 });
  });

  it('Stop pressed while the run is still starting is sent once the run id is known', async () => {
    const { store, api } = setup();
    await store.getState().loadBoards();
    let answer: (v: { runId: string }) => void = () => {};
    api.startRun.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const starting = store.getState().startRun();
    expect(store.getState().run.phase).toBe('starting');
    await store.getState().stopRun();
    expect(store.getState().run.phase).toBe('stopping');
    expect(api.stopRun).not.toHaveBeenCalled();
    answer({ runId: 'r1' });
    await starting;
    expect(api.stopRun).toHaveBeenCalledWith({ runId: 'r1' });
    expect(api.stopRun).toHaveBeenCalledTimes(1);
  });

  it('lands samples in the ring buffer and touches the store only on flush', async () => {
    const { store, emit, ring } = setup();
    await store.getState().loadBoards();
    await store.getState().startRun();
    store.getState().flushChart();
    const updates = vi.fn();
    const unsubscribe = store.subscribe(updates);
    for (let i = 1; i <= 100; i++)
      emit('runSamples', { runId: 'r1', samples: [sample(i * 100, i * 10, 1e8 + i * 1e5)] });
    emit('runAnalysis', { runId: 'r1', analysis });
    emit('runOutput', { runId: 'r1', stream: 'stdout', text: 'token token' });
    expect(updates).not.toHaveBeenCalled();
    expect(ring.size).toBe(100);
    store.getState().flushChart();
    expect(updates).toHaveBeenCalledTimes(1);
    const { chart, run } = store.getState();
    expect(chart.rss).toHaveLength(100);
    expect(chart.xMax).toBe(1000);
    expect(chart.theory).toEqual([
      { x: 10, y: 80e6 + 10 * 32768 },
      { x: 1000, y: 80e6 + 1000 * 32768 },
    ]);
    expect(run.analysis?.kv.measuredBytesPerToken).toBe(33100);
    store.getState().flushChart();
    expect(updates).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  it('downsamples the chart to the configured number of points per series', async () => {
    const { store, emit } = setup(50);
    await store.getState().loadBoards();
    await store.getState().startRun();
    emit('runSamples', {
      runId: 'r1',
      samples: Array.from({ length: 500 }, (_, i) => sample(i + 1, i, 1e8 + i * 1000)),
    });
    store.getState().flushChart();
    expect(store.getState().chart.rss).toHaveLength(50);
    expect(store.getState().chart.samples).toBe(500);
  });

  it('ignores events of other runs', async () => {
    const { store, emit, ring } = setup();
    await store.getState().loadBoards();
    await store.getState().startRun();
    emit('runSamples', { runId: 'other', samples: [sample(1, 1, 1)] });
    emit('runStatus', { runId: 'other', state: 'failed', label: 'x', error: 'boom' });
    expect(ring.size).toBe(0);
    expect(store.getState().run.phase).toBe('running');
  });

  it('keeps events that arrive before startRun answers, and does not count samples twice', async () => {
    const { store, emit, api, ring } = setup();
    await store.getState().loadBoards();
    let answer!: (value: { runId: string }) => void;
    api.startRun.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    let snapshot!: (value: MethodOutput<'getRun'>) => void;
    api.getRun.mockImplementationOnce(() => new Promise((resolve) => (snapshot = resolve)));
    const starting = store.getState().startRun();
    expect(store.getState().run.phase).toBe('starting');
    emit('runStatus', { runId: 'r1', state: 'running', label: 'demo 16L' });
    emit('runSamples', { runId: 'r1', samples: [sample(100, 0, 1e8)] });
    answer({ runId: 'r1' });
    await settle();
    // While getRun is on its way, more samples arrive live.
    emit('runSamples', { runId: 'r1', samples: [sample(300, 20, 1.02e8)] });
    snapshot({
      status: { runId: 'r1', state: 'running', label: 'demo 16L' },
      samples: [sample(100, 0, 1e8), sample(200, 10, 1.01e8)],
      events: [{ tMs: 0, kind: 'start', message: 'started' }],
      analysis: null,
      theory: { bytesPerToken: 32768, ctx: 4096 },
    });
    await starting;
    emit('runSamples', { runId: 'r1', samples: [sample(300, 20, 1.02e8), sample(400, 30, 1.03e8)] });
    expect(Array.from(ring.column('tMs'))).toEqual([100, 200, 300, 400]);
    expect(store.getState().run.label).toBe('demo 16L');
    expect(store.getState().run.events).toHaveLength(1);
  });

  it('shows why a run could not start', async () => {
    const { store, api } = setup();
    await store.getState().loadBoards();
    api.startRun.mockRejectedValueOnce(new Error('invalid input for startRun: engine.demo.layers: Too small'));
    await store.getState().startRun();
    expect(store.getState().run.phase).toBe('failed');
    expect(store.getState().run.error).toBe('invalid input for startRun: engine.demo.layers: Too small');
  });

  it('follows the status to failure and to the engine exit code', async () => {
    const { store, emit } = setup();
    await store.getState().loadBoards();
    await store.getState().startRun();
    emit('runStatus', {
      runId: 'r1',
      state: 'failed',
      label: 'demo',
      error: 'engine exited with code 137 (OOM killed)',
    });
    expect(store.getState().run.phase).toBe('failed');
    expect(store.getState().run.error).toBe('engine exited with code 137 (OOM killed)');

    const second = setup();
    await second.store.getState().loadBoards();
    await second.store.getState().startRun();
    second.emit('runStatus', { runId: 'r1', state: 'done', label: 'demo', engineExitCode: 0 });
    expect(second.store.getState().run.phase).toBe('done');
    expect(second.store.getState().run.engineExitCode).toBe(0);
    expect(second.store.getState().run.error).toBeNull();
  });

  it('stops the run on screen and reports a failed stop', async () => {
    const { store, api } = setup();
    await store.getState().loadBoards();
    await store.getState().startRun();
    await store.getState().stopRun();
    expect(api.stopRun).toHaveBeenCalledWith({ runId: 'r1' });
    expect(store.getState().run.phase).toBe('stopping');
    const other = setup();
    await other.store.getState().loadBoards();
    await other.store.getState().startRun();
    other.api.stopRun.mockRejectedValueOnce(new Error('target unreachable'));
    await other.store.getState().stopRun();
    expect(other.store.getState().run.error).toBe('Stop failed: target unreachable');
  });

  it('does not start a second run while one is active', async () => {
    const { store, api } = setup();
    await store.getState().loadBoards();
    await store.getState().startRun();
    await store.getState().startRun();
    expect(api.startRun).toHaveBeenCalledTimes(1);
  });

  it('collects engine output into lines, across chunk boundaries', async () => {
    const { store, emit } = setup();
    await store.getState().loadBoards();
    await store.getState().startRun();
    emit('runOutput', { runId: 'r1', stream: 'stdout', text: 'llama_print_timings: eval ti' });
    emit('runOutput', { runId: 'r1', stream: 'stdout', text: 'me = 10 ms\nsecond line\r\npartial' });
    emit('runOutput', { runId: 'r1', stream: 'stderr', text: 'warning\n' });
    store.getState().flushChart();
    expect(store.getState().run.output).toEqual([
      { stream: 'stdout', text: 'llama_print_timings: eval time = 10 ms' },
      { stream: 'stdout', text: 'second line' },
      { stream: 'stderr', text: 'warning' },
    ]);
    expect(store.getState().run.outputLines).toBe(3);
  });

  it('keeps the last OUTPUT_TAIL_LINES lines and counts every line printed (their numbers key the view)', async () => {
    const { store, emit } = setup();
    await store.getState().loadBoards();
    await store.getState().startRun();
    const lines = (from: number, n: number) => Array.from({ length: n }, (_, i) => `token ${from + i}\n`).join('');
    emit('runOutput', { runId: 'r1', stream: 'stdout', text: lines(0, OUTPUT_TAIL_LINES + 50) });
    store.getState().flushChart();
    emit('runOutput', { runId: 'r1', stream: 'stdout', text: lines(OUTPUT_TAIL_LINES + 50, 20) });
    store.getState().flushChart();
    const { output, outputLines } = store.getState().run;
    expect(outputLines).toBe(OUTPUT_TAIL_LINES + 70);
    expect(output).toHaveLength(OUTPUT_TAIL_LINES);
    // output[0] is line outputLines − output.length of the run.
    expect(output[0]?.text).toBe(`token ${outputLines - output.length}`);
    expect(output.at(-1)?.text).toBe(`token ${OUTPUT_TAIL_LINES + 69}`);
  });

  it('attaches to the newest active run after a reload, with everything so far from getRun', async () => {
    const { store, api, ring } = setup();
    api.listRuns.mockResolvedValueOnce([
      { runId: 'old', state: 'done', label: 'yesterday' },
      { runId: 'live', state: 'running', label: 'demo now' },
    ]);
    api.getRun.mockResolvedValueOnce({
      status: { runId: 'live', state: 'running', label: 'demo now' },
      samples: [sample(100, 0, 1e8), sample(200, 5, 1.1e8)],
      events: [{ tMs: 0, kind: 'start' }],
      analysis,
      theory: { bytesPerToken: 32768, ctx: 4096 },
    });
    await store.getState().resumeLatestRun();
    store.getState().flushChart();
    const state = store.getState();
    expect(api.getRun).toHaveBeenCalledWith({ runId: 'live' });
    expect(state.run.runId).toBe('live');
    expect(state.run.label).toBe('demo now');
    expect(ring.size).toBe(2);
    expect(state.run.analysis).toEqual(analysis);
    expect(state.chart.rss).toHaveLength(2);
  });

  it('stays idle when there is no run to resume', async () => {
    const { store, api } = setup();
    await store.getState().resumeLatestRun();
    expect(api.getRun).not.toHaveBeenCalled();
    expect(store.getState().run.phase).toBe('idle');
  });
});

describe('the fake API', () => {
  it('is typed by the contract and rejects what a test did not fake', async () => {
    // Compile-time checks (npm run typecheck fails when the contract stops rejecting these):
    // @ts-expect-error listTargets is not a method of the contract (saved boards are listBoards)
    fakeApi({ listTargets: () => Promise.resolve([]) });
    // @ts-expect-error stopRun answers { ok: boolean }
    fakeApi({ stopRun: () => Promise.resolve({ ok: 'yes' }) });
    const { api } = fakeApi({ stopRun: () => Promise.resolve({ ok: true }) });
    await expect(api.stopRun({ runId: 'r1' })).resolves.toEqual({ ok: true });
    await expect(api.computeKv({ layers: 1, kvHeads: 1, headDimK: 1 })).rejects.toThrow(
      'computeKv is not faked in this test',
    );
  });
});
