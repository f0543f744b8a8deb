// The dashboard's series come from the same getRun snapshot as the memory chart: one fetch of a
// run (a session's snapshot is megabytes), plus what arrived live while it was on its way.
import { describe, expect, it, vi } from 'vitest';
import type { ApiEventName, EventPayload, KvScopeApi, MethodOutput } from '../../../../../shared/api/contract';
import { packSamples } from '../../../../../shared/api/packed-samples';
import type { RunAnalysis, RunEvent, Sample } from '../../../../../shared/api/schemas';
import { createMemoryRing } from '../../../../../renderer/src/live/ring-buffer';
import { PAGE_TICK_MS } from '../../../../../renderer/src/live/live-config';
import { connectApiEvents, createAppStore, startPageTicker } from '../../../../../renderer/src/state/store';

type Handler = (payload: unknown) => void;

const sample = (tMs: number, rssBytes: number, tempC: number): Sample => ({
  tMs,
  source: 'procfs',
  values: { rssBytes, 'temp.cpu.C': tempC },
});

function setup(getRun: () => Promise<MethodOutput<'getRun'>>) {
  const listeners = new Map<string, Set<Handler>>();
  const api = {
    listRuns: vi.fn((): Promise<MethodOutput<'listRuns'>> =>
      Promise.resolve([{ runId: 'r1', state: 'running', label: 'demo' }]),
    ),
    getRun: vi.fn(getRun),
    on: vi.fn((event: string, handler: Handler) => {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(handler);
      return () => listeners.get(event)!.delete(handler);
    }),
  };
  const emit = <E extends ApiEventName>(event: E, payload: EventPayload<E>) =>
    listeners.get(event)?.forEach((h) => h(payload));
  const store = createAppStore({ api: api as unknown as KvScopeApi, ring: createMemoryRing(100) });
  connectApiEvents(store, api as unknown as KvScopeApi);
  return { store, api, emit };
}

describe('the dashboard slice', () => {
  it('fills its series from the live slice’s one getRun, with the samples that arrived meanwhile', async () => {
    let answer: (v: MethodOutput<'getRun'>) => void = () => undefined;
    const { store, api, emit } = setup(() => new Promise((resolve) => (answer = resolve)));
    const resumed = store.getState().resumeLatestRun();
    await vi.waitFor(() => expect(api.getRun).toHaveBeenCalledTimes(1));
    // The dashboard follows the run on screen (its ticker does this on a run change).
    store.getState().flushDashboard();
    emit('runSamples', { runId: 'r1', samples: [sample(300, 3e6, 61)] });
    answer({
      status: { runId: 'r1', state: 'running', label: 'demo' },
      samples: [sample(100, 1e6, 60), sample(200, 2e6, 60)],
      events: [],
      analysis: null,
      theory: { bytesPerToken: null, ctx: null },
    });
    await resumed;
    const { seriesStore, dash } = store.getState();
    expect(api.getRun).toHaveBeenCalledTimes(1);
    const rss = seriesStore.get('rssBytes');
    expect(Array.from(rss?.t.subarray(0, rss.length) ?? [])).toEqual([100, 200, 300]);
    expect(seriesStore.get('temp.cpu.C')?.length).toBe(3);
    // Published at once, not at the next tick.
    expect(dash.version).toBe(seriesStore.version);
  });

  it('keeps the live samples when getRun fails', async () => {
    let fail: (e: Error) => void = () => undefined;
    const { store, api, emit } = setup(() => new Promise((_, reject) => (fail = reject)));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const resumed = store.getState().resumeLatestRun();
    await vi.waitFor(() => expect(api.getRun).toHaveBeenCalledTimes(1));
    store.getState().flushDashboard();
    emit('runSamples', { runId: 'r1', samples: [sample(300, 3e6, 61)] });
    fail(new Error('socket closed'));
    await resumed;
    expect(store.getState().seriesStore.get('rssBytes')?.length).toBe(1);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('holds the cursor at whole milliseconds, the unit of the samples it reads', () => {
    const { store } = setup(() => Promise.reject(new Error('unused')));
    // A pixel maps to 999.6 ms: the readout shows "at 1.0 s" and must read the sample at 1000 ms.
    store.getState().setCursor(999.6);
    expect(store.getState().dash.cursorTMs).toBe(1000);
    store.getState().setCursor(1999.4);
    expect(store.getState().dash.cursorTMs).toBe(1999);
    store.getState().setCursor(null);
    expect(store.getState().dash.cursorTMs).toBeNull();
  });

  /** A run on screen (getRun answered) with these samples and events, the dashboard following it. */
  async function runOnScreen(samples: Sample[], events: RunEvent[]) {
    const snapshot: MethodOutput<'getRun'> = {
      status: { runId: 'r1', state: 'running', label: 'demo' },
      samples,
      events,
      analysis: null,
      theory: { bytesPerToken: null, ctx: null },
    };
    const app = setup(() => Promise.resolve(snapshot));
    await app.store.getState().resumeLatestRun();
    app.store.getState().flushDashboard();
    return app;
  }
  const exitAlerts = (events: readonly RunEvent[]) =>
    events.filter((e) => e.kind === 'alert' && (e.data as { rule?: string }).rule === 'engine-exited');

  it.each([
    ['a status', { code: 127 }, 'the engine exited with status 127'],
    ['a signal', { code: 137, signal: 'SIGKILL' }, 'the engine was ended by SIGKILL'],
    // A session recorded before the exit event carried the signal: sh's 128 + N.
    // SIGTERM is 15, and sh reports a death by it as 128 + 15; signal 31 (SIGSYS) has no name of ours.
    ['a signal as sh reports it', { code: 143 }, 'the engine was ended by SIGTERM'],
    ['an unnamed signal as sh reports it', { code: 159 }, 'the engine was ended by signal 31'],
  ])(
    'raises the engine-exited alert for an engine that failed with %s before its first memory sample',
    async (_what, data, message) => {
      const { store } = await runOnScreen([], [{ tMs: 0, kind: 'exit', message: 'engine exited', data }]);
      expect(exitAlerts(store.getState().dash.uiAlerts).map((e) => e.message)).toEqual([message]);
    },
  );

  it('judges an exit that arrives after the last sample, once, whatever the thresholds do next', async () => {
    const { store, emit } = await runOnScreen([sample(100, 1e6, 60)], []);
    emit('runEvent', { runId: 'r1', event: { tMs: 150, kind: 'exit', message: 'exit', data: { code: 3 } } });
    // No sample comes after the exit: the tick alone must judge it.
    store.getState().flushDashboard();
    expect(exitAlerts(store.getState().dash.uiAlerts).map((e) => e.tMs)).toEqual([150]);
    store.getState().setThresholds({ ...store.getState().dash.thresholds, rssBudgetFraction: 0.5 });
    emit('runSamples', { runId: 'r1', samples: [sample(200, 1e6, 60)] });
    store.getState().flushDashboard();
    expect(exitAlerts(store.getState().dash.uiAlerts)).toHaveLength(1);
  });

  describe('on a run that crossed 80 % of its 100 MB budget before the tab saw it', () => {
    // 70, 85, 90 MB of RSS against 100 MB: the alert belongs at the second sample, 200 ms.
    const samples = [sample(100, 70e6, 50), sample(200, 85e6, 50), sample(300, 90e6, 50)];
    const analysis = {
      kv: {
        theoryBytesPerToken: null,
        measuredBytesPerToken: null,
        overheadFactor: null,
        mode: 'growth',
        baselineBytes: null,
      },
      budgetBytes: 100e6,
      oomHorizonTokens: null,
      maxSafeContextTokens: null,
      throughput: { ttftMs: null, prefillTokensPerSecond: null, decodeTokensPerSecond: null, tokens: 0 },
      lastRssBytes: 90e6,
      peakRssBytes: 90e6,
    } satisfies RunAnalysis;
    const budgetAlerts = (events: readonly RunEvent[]) =>
      events.filter((e) => (e.data as { rule?: string }).rule === 'rss-budget').map((e) => e.tMs);

    it('raises the budget alert in a tab that opens on the run (getRun)', async () => {
      const { store } = setup(() =>
        Promise.resolve({
          status: { runId: 'r1', state: 'done', label: 'demo' },
          samples,
          events: [],
          analysis,
          theory: { bytesPerToken: null, ctx: null },
        }),
      );
      await store.getState().resumeLatestRun();
      store.getState().flushDashboard();
      expect(budgetAlerts(store.getState().dash.uiAlerts)).toEqual([200]);
    });

    it('raises the budget alert from the page tick alone, whatever view is shown (no dashboard mounted)', async () => {
      vi.useFakeTimers();
      try {
        const { store, emit } = setup(() =>
          Promise.resolve({
            status: { runId: 'r1', state: 'running', label: 'demo' },
            samples: [],
            events: [],
            analysis,
            theory: { bytesPerToken: null, ctx: null },
          }),
        );
        await store.getState().resumeLatestRun();
        const stop = startPageTicker(store);
        emit('runSamples', { runId: 'r1', samples });
        expect(budgetAlerts(store.getState().dash.uiAlerts)).toEqual([]);
        vi.advanceTimersByTime(PAGE_TICK_MS);
        expect(budgetAlerts(store.getState().dash.uiAlerts)).toEqual([200]);
        stop();
      } finally {
        vi.useRealTimers();
      }
    });

    /** A store showing a recorded run of these samples, as a session opened on the dashboard. */
    function openRecorded(recordedSamples: Sample[]) {
      const { store } = setup(() => Promise.reject(new Error('unused')));
      store.getState().showRecordedRun({
        status: { runId: 'r1', state: 'done', label: 'demo' },
        samples: packSamples(recordedSamples),
        events: [],
        analysis,
        theory: { bytesPerToken: null, ctx: null },
        target: null,
      });
      return store;
    }

    it('raises the budget alert in a recorded session opened on the dashboard', () => {
      const store = openRecorded(samples);
      store.getState().flushDashboard();
      expect(budgetAlerts(store.getState().dash.uiAlerts)).toEqual([200]);
    });

    it("reads out each series' last value in a recorded session, past a last sample without it and across shapes", () => {
      const recorded: Sample[] = [
        { tMs: 0, source: 'procfs', values: { rssBytes: 100 * 2 ** 20, swapBytes: 0 } },
        { tMs: 1000, source: 'procfs', values: { rssBytes: 200 * 2 ** 20, swapBytes: 2 ** 20 } },
        // The sampler missed the swap reading at the last tick: the readout keeps 1 MiB.
        { tMs: 2000, source: 'procfs', values: { rssBytes: 300 * 2 ** 20, swapBytes: null } },
        // Another shape comes last (with an earlier time): as samples applied in turn, its RSS is the latest.
        { tMs: 1500, source: 'procfs', values: { rssBytes: 150 * 2 ** 20 } },
      ];
      const store = openRecorded(recorded);
      const readout = (key: string) => store.getState().run.series.find((s) => s.key === key)?.value;
      expect(readout('swapBytes')).toBe('1.00 MiB');
      expect(readout('rssBytes')).toBe('150 MiB');
    });
  });
});
