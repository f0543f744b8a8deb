// The session library in the store (no React, no server): opening a recorded session into the
// dashboard, renaming, deleting only after confirming, and what the tab remembers across a reload.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../../helpers/fake-api';
import { packSamples, packSessionData, type PackedSessionData } from '../../../../../shared/api/packed-samples';
import { previewSessionData } from '../../../../../shared/api/packed-preview';
import type { SessionListing } from '../../../../../shared/api/session-schemas';
import type { Sample } from '../../../../../shared/api/schemas';
import type { TargetFacts } from '../../../../../shared/run/target-facts';
import { createMemoryRing } from '../../../../../renderer/src/live/ring-buffer';
import { snapshotOfStoredRun } from '../../../../../renderer/src/state/sessions-slice';
import { createAppStore } from '../../../../../renderer/src/state/store';
import {
  keepTabMemory,
  leftImport,
  rememberedScreen,
  restoredForm,
  restoredKvForm,
} from '../../../../../renderer/src/state/tab-memory';
import { DEFAULT_KV_FORM } from '../../../../../renderer/src/state/kv-slice';
import { DEFAULT_RUN_FORM } from '../../../../../renderer/src/state/run-form';
import { defined } from '../../../../helpers/defined';
import { sampleStreamArbitrary } from '../../../../helpers/sample-arbitrary';
import { finishedRun, session } from '../../../../helpers/session-fixtures';

const listing = (id: string, name: string): SessionListing => ({
  id,
  name,
  target: 'orin',
  model: 'm.gguf',
  createdAt: '2026-01-01T12:00:00.000Z',
  durationMs: 130500,
  runs: 1,
  state: 'done',
  headline: null,
  sizeBytes: 4096,
  external: false,
  error: null,
});

function setup() {
  let sessions = [listing('s1', 'first'), listing('s2', 'second')];
  const { api } = fakeApi({
    listSessions: () => Promise.resolve({ sessions, openOnStart: null }),
    openSession: ({ id }) =>
      Promise.resolve({
        listing: listing(id, sessions.find((s) => s.id === id)?.name ?? 'first'),
        data: packSessionData(session([finishedRun({ state: 'done', error: null })])),
        preview: false,
      }),
    renameSession: ({ id, name }) => Promise.resolve(listing(id, name)),
    listBoards: () => Promise.resolve([{ id: 'local', label: 'This computer', spec: { kind: 'local' as const } }]),
    startRun: () => Promise.resolve({ runId: 'new-run' }),
    deleteSession: ({ id }) => {
      sessions = sessions.filter((s) => s.id !== id);
      return Promise.resolve({ ok: true });
    },
  });
  const store = createAppStore({ api, ring: createMemoryRing(1000) });
  return { api, store };
}

/** sessionStorage's interface over a Map. */
function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, v),
  };
}

/** The header the KV calculator reads of the tiny test model (../shared/models/README.md). */
const STORIES_HEADER = {
  path: '/models/stories260K.gguf',
  targetId: 'local',
  fileBytes: 1185376,
  shape: { nLayer: 5, nHeadKv: 4, headDimK: 8, headDimV: 8 },
  summary: { architecture: 'llama', nLayer: 5 },
};

describe('sessions in the store', () => {
  it('opens a recorded run into the dashboard as a finished run, with its analysis and theory', async () => {
    const { store } = setup();
    await store.getState().viewSession('s1');
    const state = store.getState();
    expect(state.viewedSession?.id).toBe('s1');
    expect(state.view).toBe('run');
    expect(state.run.phase).toBe('done');
    expect(state.run.runId).toBe('20260101120000-aaaaaaaa');
    // The fixture's stored numbers (test/helpers/session-fixtures.ts).
    expect(state.run.analysis?.kv.measuredBytesPerToken).toBe(33110);
    expect(state.run.theory).toEqual({ bytesPerToken: 32768, ctx: 4096, trainedCtx: null });
    expect(state.chart.rss.length).toBeGreaterThan(0);
    // The time panels draw from the dashboard's series store: the session's samples are in it.
    const stored = finishedRun({ state: 'done', error: null }).samples;
    const rssSamples = stored.filter((s) => typeof s.values.rssBytes === 'number');
    expect(rssSamples.length).toBeGreaterThan(1);
    expect(state.seriesStore.get('rssBytes')?.length).toBe(rssSamples.length);
    const times = stored.map((s) => s.tMs);
    expect(state.seriesStore.timeRange()).toEqual([Math.min(...times), Math.max(...times)]);
  });

  it('a run started while a recorded session is on screen replaces it (the read-only banner goes)', async () => {
    const { store } = setup();
    await store.getState().loadBoards();
    await store.getState().viewSession('s1');
    expect(store.getState().viewedSession?.id).toBe('s1');
    await store.getState().startRun();
    expect(store.getState().formErrors).toEqual({});
    expect(store.getState().viewedSession).toBeNull();
    expect(store.getState().run.runId).toBe('new-run');
  });

  it('refuses to replace a run that is going', async () => {
    const { store } = setup();
    store.setState({ run: { ...store.getState().run, runId: 'live', phase: 'running' } });
    await store.getState().viewSession('s1');
    expect(store.getState().viewedSession).toBeNull();
    expect(store.getState().sessionActionError).toMatch(/stop it before opening/);
    expect(store.getState().run.runId).toBe('live');
  });

  it('Cancel in the Import log dialog stops the import by its key; its failure is not said in a dialog opened since', async () => {
    const { api, store } = setup();
    let fail: (error: Error) => void = () => undefined;
    api.importSessionLog.mockImplementation(() => new Promise((_, reject) => (fail = reject)));
    api.cancelImport.mockImplementation(() => {
      fail(new Error('import cancelled: nothing was imported'));
      return Promise.resolve({ ok: true });
    });
    store.getState().openFileDialog('import');
    const submitted = store.getState().submitFileDialog({ path: '/logs/tegrastats.log', kind: 'tegrastats' });
    const importKey = api.importSessionLog.mock.calls[0]?.[0].importKey;
    expect(importKey).toMatch(/^[\w-]{8,64}$/);
    expect(store.getState().fileDialog).toMatchObject({ working: true, importKey });
    store.getState().closeFileDialog();
    expect(api.cancelImport).toHaveBeenCalledWith({ importKey });
    // Import log… again before the first import has said it stopped.
    store.getState().openFileDialog('import');
    await submitted;
    expect(store.getState().fileDialog).toEqual({ mode: 'import', working: false, error: null });
    expect(store.getState().viewedSession).toBeNull();
    // Open file… has nothing to cancel: closing it asks nothing.
    api.addSessionFile.mockImplementation(() => new Promise(() => undefined));
    store.getState().closeFileDialog();
    store.getState().openFileDialog('open');
    void store.getState().submitFileDialog({ path: '/sessions/a.kvscope' });
    store.getState().closeFileDialog();
    expect(api.cancelImport).toHaveBeenCalledTimes(1);
  });

  it('deletes only after the confirmation, and renames through the API', async () => {
    const { store, api } = setup();
    await store.getState().loadSessions();
    store.getState().askDelete('s2');
    expect(store.getState().confirmDelete?.name).toBe('second');
    store.getState().cancelDelete();
    expect(api.deleteSession).not.toHaveBeenCalled();
    store.getState().askDelete('s2');
    await store.getState().confirmDeleteSession();
    expect(api.deleteSession).toHaveBeenCalledWith({ id: 's2' });
    expect(store.getState().sessions.map((s) => s.id)).toEqual(['s1']);

    store.getState().startRename('s1');
    store.getState().setRenameText('   ');
    await store.getState().commitRename();
    expect(store.getState().renaming?.error).toBe('a name is required');
    // Past the contract's limit: said on the field in its words, the API is not asked.
    store.getState().setRenameText('x'.repeat(121));
    await store.getState().commitRename();
    expect(store.getState().renaming?.error).toBe('at most 120 characters');
    // A tab or a line break pasted inside a name: refused, where trimming does not take it away.
    for (const name of ['f16\tbaseline', 'f16\nbaseline', 'f16\u007fbaseline']) {
      store.getState().setRenameText(name);
      await store.getState().commitRename();
      expect(store.getState().renaming?.error, JSON.stringify(name)).toBe(
        'one line of text: no tab, line break or other control character',
      );
    }
    expect(api.renameSession).not.toHaveBeenCalled();
    store.getState().setRenameText('f16 baseline');
    await store.getState().commitRename();
    expect(store.getState().renaming).toBeNull();
    expect(store.getState().sessions[0]?.name).toBe('f16 baseline');
  });

  it('shows a recorded run (packed) exactly as the same run attached live through getRun (objects)', async () => {
    const listedAs = listing('s1', 'first');
    await fc.assert(
      fc.asyncProperty(sampleStreamArbitrary, async (samples) => {
        const run = finishedRun({ state: 'done', error: null, samples });
        const packed = packSessionData(session([run]));
        const opened = createAppStore({
          api: fakeApi({ openSession: () => Promise.resolve({ listing: listedAs, data: packed, preview: false }) }).api,
          ring: createMemoryRing(1000),
        });
        const { status, ...rest } = snapshotOfStoredRun(defined(packed.runs[0], 'run 0'));
        const attached = createAppStore({
          api: fakeApi({
            listRuns: () => Promise.resolve([status]),
            listSweeps: () => Promise.resolve([]),
            getRun: () => Promise.resolve({ ...rest, status, samples }),
          }).api,
          ring: createMemoryRing(1000),
        });
        await opened.getState().viewSession('s1');
        await attached.getState().resumeLatestRun();
        const shown = (store: typeof opened) => {
          const { chart, run: live, seriesStore } = store.getState();
          const series = seriesStore.keys().sort();
          return {
            chart,
            readouts: live.series,
            phase: live.phase,
            series: series.map((key) => [key, seriesStore.get(key)?.length, seriesStore.get(key)?.lastT]),
            range: seriesStore.timeRange(),
          };
        };
        expect(opened.getState().viewedSession?.id).toBe('s1');
        expect(shown(opened)).toEqual(shown(attached));
      }),
      { numRuns: 60 },
    );
  });

  it("keeps the recording board's thermal zones for the dashboard's trip points, not the selected board's", async () => {
    const zone = (type: string, tripC: number) => ({
      zone: 'thermal_zone0',
      type,
      tempC: 50,
      unreadable: false,
      trips: [{ name: 'trip_point_0', type: 'passive', tempC: tripC }],
    });
    const open = async (runTarget: TargetFacts | null) => {
      // Sessions read back give every run the session's facts (readSession); a run may hold its own.
      const packed = packSessionData(
        session([finishedRun()], { label: 'orangepi5', thermal: [zone('soc-thermal', 85)] }),
      );
      packed.runs = packed.runs.map((r) => ({ ...r, target: runTarget }));
      const store = createAppStore({
        api: fakeApi({
          openSession: () => Promise.resolve({ listing: listing('s1', 'hot'), data: packed, preview: false }),
        }).api,
        ring: createMemoryRing(1000),
      });
      await store.getState().viewSession('s1');
      return store.getState().run.recordedTarget?.thermal;
    };
    // The run's own facts first, else its session's.
    expect(await open({ thermal: [zone('cpu-thermal', 95)] })).toEqual([zone('cpu-thermal', 95)]);
    expect(await open(null)).toEqual([zone('soc-thermal', 85)]);
  });

  it('shows a stored run without a summary (the app was killed) with its recomputed numbers', () => {
    const run = { ...finishedRun(), summary: null, state: 'running' as const };
    const snapshot = snapshotOfStoredRun({ ...run, samples: packSamples(run.samples) });
    expect(snapshot.status.state).toBe('done');
    expect(snapshot.status.engineExitCode).toBeNull();
  });
});

describe('a compared session that goes', () => {
  it('leaves the comparison when deleted here, at once, and when the list shows it gone from another tab', async () => {
    const { store, api } = setup();
    await store.getState().loadSessions();
    store.getState().compareSessions(['s1', 's2']);
    await vi.waitFor(() => expect(store.getState().compared.s2?.status).toBe('ready'));
    store.getState().askDelete('s2');
    const deleting = store.getState().confirmDeleteSession();
    await vi.waitFor(() => expect(api.deleteSession).toHaveBeenCalled());
    await deleting;
    expect(store.getState().compareIds).toEqual(['s1']);
    expect(Object.keys(store.getState().compared)).toEqual(['s1']);

    expect(store.getState().compareVanished).toEqual([]); // deleted here: the user knows

    // s1 deleted elsewhere: the next list drops it from the picks too, and the comparison says so
    // (it left without a word: three picked, two shown).
    api.listSessions.mockResolvedValue({ sessions: [], openOnStart: null });
    await store.getState().loadSessions();
    expect(store.getState().compareIds).toEqual([]);
    expect(store.getState().compared).toEqual({});
    expect(store.getState().compareVanished).toEqual(['first']);
    // A new pick starts afresh.
    api.listSessions.mockResolvedValue({ sessions: [listing('s2', 'second')], openOnStart: null });
    await store.getState().loadSessions();
    store.getState().toggleCompare('s2');
    expect(store.getState().compareVanished).toEqual([]);
  });
});

describe('closing a recorded session', () => {
  it('takes its run off the dashboard: the newest run of the app is shown, or none', async () => {
    const { store, api } = setup();
    await store.getState().viewSession('s1');
    expect(store.getState().run.runId).toBe('20260101120000-aaaaaaaa');
    api.listRuns.mockResolvedValue([]);
    api.listSweeps.mockResolvedValue([]);
    store.getState().leaveSession();
    await vi.waitFor(() => expect(api.listRuns).toHaveBeenCalled());
    const state = store.getState();
    expect(state.viewedSession).toBeNull();
    expect(state.run.runId).toBeNull();
    expect(state.run.phase).toBe('idle');
    expect(state.chart.rss).toHaveLength(0);
  });

  it('does the same when the session on the dashboard is deleted', async () => {
    const { store, api } = setup();
    api.listRuns.mockResolvedValue([{ runId: 'newest', state: 'done', label: 'the newest run' }]);
    api.listSweeps.mockResolvedValue([]);
    api.getRun.mockRejectedValue(new Error('not needed here'));
    await store.getState().loadSessions();
    await store.getState().viewSession('s1');
    store.getState().askDelete('s1');
    await store.getState().confirmDeleteSession();
    await vi.waitFor(() => expect(store.getState().run.runId).toBe('newest'));
    expect(store.getState().viewedSession).toBeNull();
    expect(store.getState().sessions.map((s) => s.id)).toEqual(['s2']);
  });

  it("takes the app's finished run off the dashboard when its session is deleted", async () => {
    const { store, api } = setup();
    api.getRun.mockRejectedValue(new Error('not needed here'));
    await store.getState().loadSessions();
    // The run the app recorded into session s1 ended on the dashboard (never opened from the list).
    await store.getState().attachRun({ runId: 's1', state: 'done', label: 'first' });
    expect(store.getState().run.runId).toBe('s1');
    api.listRuns.mockResolvedValue([{ runId: 'older', state: 'done', label: 'an older run' }]);
    api.listSweeps.mockResolvedValue([]);
    store.getState().askDelete('s1');
    await store.getState().confirmDeleteSession();
    await vi.waitFor(() => expect(store.getState().run.runId).toBe('older'));
    expect(store.getState().sessions.map((s) => s.id)).toEqual(['s2']);
  });

  it('keeps a run going on the dashboard when the session deleted is another one', async () => {
    const { store, api } = setup();
    api.getRun.mockRejectedValue(new Error('not needed here'));
    await store.getState().loadSessions();
    await store.getState().attachRun({ runId: 'live', state: 'running', label: 'live' });
    store.getState().askDelete('s1');
    await store.getState().confirmDeleteSession();
    expect(store.getState().run.runId).toBe('live');
    expect(api.listRuns).not.toHaveBeenCalled();
  });
});

describe('tab memory', () => {
  it('remembers the import under way, which the reloaded tab takes back once to cancel it', () => {
    const storage = memoryStorage();
    const { api, store } = setup();
    api.importSessionLog.mockImplementation(() => new Promise(() => undefined));
    const stop = keepTabMemory(store, storage);
    expect(leftImport(storage)).toBeNull(); // a new tab: nothing under way
    store.getState().openFileDialog('import');
    void store.getState().submitFileDialog({ path: '/logs/tegrastats.log', kind: 'tegrastats' });
    const importKey = api.importSessionLog.mock.calls[0]?.[0].importKey;
    expect(importKey).toMatch(/^[\w-]{8,64}$/);
    stop(); // the page goes away with the import under way

    expect(leftImport(storage)).toBe(importKey);
    expect(leftImport(storage)).toBeNull(); // taken once: a second reload cancels nothing

    // An import that ended (here: the dialog closed, which cancels it) is forgotten at once.
    const again = setup();
    again.api.importSessionLog.mockImplementation(() => new Promise(() => undefined));
    const stopAgain = keepTabMemory(again.store, storage);
    again.store.getState().openFileDialog('import');
    void again.store.getState().submitFileDialog({ path: '/logs/tegrastats.log', kind: 'tegrastats' });
    again.store.getState().closeFileDialog();
    stopAgain();
    expect(leftImport(storage)).toBeNull();
  });

  it('restores the form and the selected target after a reload, and which target each run ran on', () => {
    const storage = memoryStorage();
    const first = setup().store;
    const stop = keepTabMemory(first, storage);
    first.setState({
      boards: [{ id: 'orin', label: 'Jetson Orin', spec: { kind: 'ssh', host: 'orin.lan' } }],
      selectedBoardId: 'orin',
    });
    first.getState().setFormField('tokens', '12345');
    first.setState({ run: { ...first.getState().run, phase: 'starting' } });
    first.setState({ run: { ...first.getState().run, runId: 'r9', phase: 'running' } });
    stop();

    const reloaded = setup().store;
    keepTabMemory(reloaded, storage)();
    expect(reloaded.getState().form.tokens).toBe('12345');
    expect(reloaded.getState().selectedBoardId).toBe('orin');
    expect(reloaded.getState().runTargets).toEqual({ r9: { targetId: 'orin', label: 'Jetson Orin' } });
  });

  it('shows the session the tab had open again after a reload, in the view it was on', async () => {
    const storage = memoryStorage();
    const first = setup().store;
    const stop = keepTabMemory(first, storage);
    expect(rememberedScreen(storage)).toBeNull(); // a new tab: nothing remembered
    await first.getState().viewSession('s2');
    first.getState().setView('sessions');
    stop();
    expect(rememberedScreen(storage)).toEqual({ view: 'sessions', sessionId: 's2' });

    const { store, api } = setup();
    api.listRuns.mockResolvedValue([{ runId: 'old', state: 'done', label: 'an older run' }]);
    await store.getState().showStartScreen(rememberedScreen(storage));
    expect(api.openSession).toHaveBeenCalledWith({ id: 's2', previewBuckets: expect.any(Number) });
    expect(store.getState().viewedSession?.id).toBe('s2');
    expect(store.getState().run.phase).toBe('done');
    expect(store.getState().view).toBe('sessions');
  });

  it('shows the run going on instead of the remembered session, and the live run when the tab showed it', async () => {
    const { store, api } = setup();
    api.listRuns.mockResolvedValue([{ runId: 'live', state: 'running', label: 'going on' }]);
    api.getRun.mockRejectedValue(new Error('not needed here'));
    api.listSweeps.mockResolvedValue([]);
    await store.getState().showStartScreen({ view: 'run', sessionId: 's1' });
    expect(api.openSession).not.toHaveBeenCalled();
    expect(store.getState().viewedSession).toBeNull();
    expect(store.getState().run.runId).toBe('live');

    // The tab showed the live run: `--open`'s session is not forced on it after a reload.
    const other = setup();
    other.api.listSessions.mockResolvedValue({ sessions: [listing('s1', 'first')], openOnStart: 's1' });
    other.api.listRuns.mockResolvedValue([]);
    await other.store.getState().showStartScreen({ view: 'run', sessionId: null });
    expect(other.api.openSession).not.toHaveBeenCalled();
    // …while a new tab opens it.
    await other.store.getState().showStartScreen(null);
    expect(other.api.openSession).toHaveBeenCalledWith({ id: 's1', previewBuckets: expect.any(Number) });
  });

  it('forgets the remembered session once a start-up showed a run going on instead', async () => {
    const storage = memoryStorage();
    storage.setItem('kvscope.screen.v1', JSON.stringify({ view: 'run', sessionId: 's1' }));
    const { store, api } = setup();
    keepTabMemory(store, storage);
    api.listRuns.mockResolvedValue([{ runId: 'live', state: 'running', label: 'going on' }]);
    api.getRun.mockRejectedValue(new Error('not needed here'));
    api.listSweeps.mockResolvedValue([]);
    await store.getState().showStartScreen(rememberedScreen(storage));
    expect(store.getState().run.runId).toBe('live');
    // The next reload, once that run has ended, shows it again, not the session of two reloads ago.
    expect(rememberedScreen(storage)).toEqual({ view: 'run', sessionId: null });
  });

  it('remembers nothing it cannot read back', () => {
    const storage = memoryStorage();
    storage.setItem('kvscope.screen.v1', JSON.stringify({ view: 'elsewhere', sessionId: 's1' }));
    expect(rememberedScreen(storage)).toBeNull();
    storage.setItem('kvscope.screen.v1', '{not json');
    expect(rememberedScreen(storage)).toBeNull();
    storage.setItem('kvscope.screen.v1', JSON.stringify({ view: 'kv', sessionId: 7 }));
    expect(rememberedScreen(storage)).toEqual({ view: 'kv', sessionId: null });
    // A sweep point: a whole index of a session only.
    storage.setItem('kvscope.screen.v1', JSON.stringify({ view: 'run', sessionId: 's1', runIndex: 1 }));
    expect(rememberedScreen(storage)).toEqual({ view: 'run', sessionId: 's1', runIndex: 1 });
    for (const runIndex of [-1, 1.5, '1']) {
      storage.setItem('kvscope.screen.v1', JSON.stringify({ view: 'run', sessionId: 's1', runIndex }));
      expect(rememberedScreen(storage)).toEqual({ view: 'run', sessionId: 's1' });
    }
  });

  it('compares the same sessions, aligned the same way, after a reload; a session deleted since is dropped', async () => {
    const storage = memoryStorage();
    const first = setup().store;
    const stop = keepTabMemory(first, storage);
    await first.getState().loadSessions();
    first.getState().toggleCompare('s2');
    first.getState().toggleCompare('s1');
    first.getState().setCompareAlign('time');
    first.getState().setView('compare');
    stop();
    expect(rememberedScreen(storage)).toEqual({
      view: 'compare',
      sessionId: null,
      compare: { ids: ['s2', 's1'], align: 'time', names: { s2: 'second', s1: 'first' } },
    });

    // Reloaded with every session there: the same picks in the same order (the first is the reference).
    const again = setup();
    keepTabMemory(again.store, storage);
    again.api.listRuns.mockResolvedValue([]);
    await again.store.getState().showStartScreen(rememberedScreen(storage));
    expect(again.store.getState()).toMatchObject({ view: 'compare', compareIds: ['s2', 's1'], compareAlign: 'time' });
    await vi.waitFor(() => expect(again.store.getState().compared.s1?.status).toBe('ready'));
    expect(again.api.openSession).toHaveBeenCalledWith({ id: 's2' });

    // s2 deleted in another tab meanwhile: s1 alone is picked, and the note names s2 by the name
    // it had (it said "s2", the id: the name had left with the file).
    const later = setup();
    later.api.listSessions.mockResolvedValue({ sessions: [listing('s1', 'first')], openOnStart: null });
    later.api.listRuns.mockResolvedValue([]);
    await later.store.getState().showStartScreen(rememberedScreen(storage));
    expect(later.store.getState().compareIds).toEqual(['s1']);
    expect(later.store.getState().compareVanished).toEqual(['second']);
    expect(later.api.openSession).not.toHaveBeenCalledWith({ id: 's2' });

    // The list could not be read: nothing is picked, and the picks stay remembered for the next reload.
    const offline = setup();
    keepTabMemory(offline.store, storage);
    offline.api.listSessions.mockRejectedValue(new Error('connection lost'));
    offline.api.listRuns.mockResolvedValue([]);
    await offline.store.getState().showStartScreen(rememberedScreen(storage));
    expect(offline.store.getState().compareIds).toEqual([]);
    expect(rememberedScreen(storage)?.compare).toEqual({
      ids: ['s2', 's1'],
      align: 'time',
      names: { s2: 'second', s1: 'first' },
    });
  });

  it('remembers a picked session under its new name after a rename, and names no pick by its id', async () => {
    const storage = memoryStorage();
    const { store } = setup();
    keepTabMemory(store, storage);
    await store.getState().loadSessions();
    store.getState().toggleCompare('s1');
    store.getState().toggleCompare('s2');
    store.getState().startRename('s2');
    store.getState().setRenameText('fan off');
    await store.getState().commitRename();
    expect(rememberedScreen(storage)?.compare?.names).toMatchObject({ s2: 'fan off' });

    // Picks remembered without names (by an older build), s2 deleted since: no note naming an id.
    storage.setItem('kvscope.compare.v1', JSON.stringify({ ids: ['s2', 's1'], align: 'tokens' }));
    const later = setup();
    later.api.listSessions.mockResolvedValue({ sessions: [listing('s1', 'first')], openOnStart: null });
    later.api.listRuns.mockResolvedValue([]);
    await later.store.getState().showStartScreen(rememberedScreen(storage));
    expect(later.store.getState().compareIds).toEqual(['s1']);
    expect(later.store.getState().compareVanished).toEqual([]);
  });

  it("keeps the KV calculator's form across a reload; a value it no longer knows keeps its default", () => {
    const storage = memoryStorage();
    const first = setup().store;
    const stop = keepTabMemory(first, storage);
    first.getState().setKvField('ctx', '32768');
    first.getState().setKvField('kvType', 'q8_0');
    first.getState().setKvField('source', 'gguf');
    first.getState().setKvField('ggufPath', '/models/llama-3.2-1b.gguf');
    stop();
    const reloaded = setup().store;
    keepTabMemory(reloaded, storage)();
    expect(reloaded.getState().kvForm).toEqual({
      ...DEFAULT_KV_FORM,
      ctx: '32768',
      kvType: 'q8_0',
      source: 'gguf',
      ggufPath: '/models/llama-3.2-1b.gguf',
    });
    expect(reloaded.getState().kvHeader).toEqual({ status: 'idle' }); // never read
    expect(restoredKvForm({ kvType: 'q9_9', source: 'cloud', ctx: 8192, nSeq: '4' })).toEqual({
      ...DEFAULT_KV_FORM,
      nSeq: '4',
    });
    expect(restoredKvForm(null)).toEqual(DEFAULT_KV_FORM);
  });

  it('keeps the GGUF header the KV calculator read, for that file only', async () => {
    const storage = memoryStorage();
    const header = STORIES_HEADER;
    const first = setup();
    first.api.readModelHeader.mockResolvedValue(header as never);
    const stop = keepTabMemory(first.store, storage);
    first.store.getState().setKvField('source', 'gguf');
    first.store.getState().setKvField('ggufPath', ' /models/stories260K.gguf ');
    await first.store.getState().readKvHeader();
    stop();

    const reloaded = setup();
    keepTabMemory(reloaded.store, storage)();
    expect(reloaded.store.getState().kvHeader).toEqual({ status: 'ready', header });
    expect(reloaded.api.readModelHeader).not.toHaveBeenCalled();

    // The path typed since is another file: its header is not that one.
    const edited = setup();
    const again = keepTabMemory(edited.store, storage);
    edited.store.getState().setKvField('ggufPath', '/models/other.gguf');
    again();
    const third = setup();
    keepTabMemory(third.store, storage)();
    expect(third.store.getState().kvForm.ggufPath).toBe('/models/other.gguf');
    expect(third.store.getState().kvHeader).toEqual({ status: 'idle' });
  });

  it("drops a header answer for a path the KV calculator's form no longer names", async () => {
    const storage = memoryStorage();
    const header = STORIES_HEADER;
    const { store, api } = setup();
    let answer: (value: never) => void = () => {};
    api.readModelHeader.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const stop = keepTabMemory(store, storage);
    store.getState().setKvField('source', 'gguf');
    store.getState().setKvField('ggufPath', '/models/stories260K.gguf');
    const reading = store.getState().readKvHeader();
    // Another file typed while the first one's header is on its way: that answer is not this file's.
    store.getState().setKvField('ggufPath', '/models/other.gguf');
    answer(header as never);
    await reading;
    expect(store.getState().kvHeader).toEqual({ status: 'idle' });
    stop();
    // Nor is it kept for the reload under the new path.
    const reloaded = setup().store;
    keepTabMemory(reloaded, storage)();
    expect(reloaded.getState().kvHeader).toEqual({ status: 'idle' });

    // A header that was read leaves when the path is changed, and does not come back with spaces.
    api.readModelHeader.mockResolvedValue(header as never);
    await store.getState().readKvHeader();
    expect(store.getState().kvHeader.status).toBe('ready');
    store.getState().setKvField('ggufPath', ' /models/other.gguf ');
    expect(store.getState().kvHeader.status).toBe('ready');
    store.getState().setKvField('ggufPath', '/models/stories260K.gguf');
    expect(store.getState().kvHeader).toEqual({ status: 'idle' });
  });

  it('keeps defaults for fields an older version saved with another type', () => {
    expect(restoredForm({ tokens: 12, kvType: 'q8_0', unknown: 'x' })).toEqual({ ...DEFAULT_RUN_FORM, kvType: 'q8_0' });
    expect(restoredForm('garbage')).toEqual(DEFAULT_RUN_FORM);
  });

  it('keeps the remembered collector settings of known collectors, each well formed', () => {
    const saved = {
      collectors: {
        pmap: { off: false, intervalMs: '2000' },
        perf: { off: 'yes', intervalMs: 5 },
        gone: { off: true, intervalMs: '' },
        ['__proto__']: { off: true, intervalMs: '' },
      },
    };
    expect(restoredForm(saved).collectors).toEqual({
      pmap: { off: false, intervalMs: '2000' },
      perf: { off: false, intervalMs: '' },
    });
    expect(restoredForm({ collectors: null }).collectors).toEqual({});
    expect(restoredForm({ collectors: ['pmap'] }).collectors).toEqual({});
  });
});

describe('a long session opened from its preview', () => {
  /** A session of `n` procfs ticks and token counts, its preview at 256 slices, and a full answer the test releases. */
  function longSession(n = 4000) {
    const samples = Array.from({ length: n }, (_, i): Sample[] => [
      { tMs: i * 1000, source: 'engine', values: { tokens: i * 12 } },
      {
        tMs: i * 1000,
        source: 'procfs',
        values: {
          // Crosses 80 % of the fixture's 2 GiB budget near i = 2,700, first at a peak of the ripple.
          rssBytes: 9e8 + i * 300_000 + (i % 7) * 1e6,
          'temp.cpu.C': 60 + (i % 13),
          swapBytes: i % 5 === 0 ? null : i,
        },
      },
    ]).flat();
    const full = packSessionData(session([finishedRun({ state: 'done', error: null, samples })]));
    const previewed = previewSessionData(full, 256);
    expect(previewed.preview).toBe(true);
    const releases: Array<() => void> = [];
    const fake = fakeApi({
      openSession: ({ id, previewBuckets }) => {
        const answer = {
          listing: listing(id, 'long'),
          ...(previewBuckets ? previewed : { data: full, preview: false }),
        };
        if (previewBuckets)
          return Promise.resolve(answer as { listing: SessionListing; data: PackedSessionData; preview: boolean });
        return new Promise((resolve, reject) => {
          releases.push(() => (id === 'broken' ? reject(new Error('disk I/O error')) : resolve(answer as never)));
        });
      },
      listBoards: () => Promise.resolve([{ id: 'local', label: 'This computer', spec: { kind: 'local' as const } }]),
      startRun: () => Promise.resolve({ runId: 'new-run' }),
    });
    const store = createAppStore({ api: fake.api, ring: createMemoryRing(100_000) });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    return { ...fake, store, samples, releases, settle };
  }

  it('draws the preview, then every sample in its place, with the same time window', async () => {
    const { store, api, samples, releases, settle } = longSession();
    await store.getState().viewSession('s1');
    expect(api.openSession).toHaveBeenNthCalledWith(1, { id: 's1', previewBuckets: expect.any(Number) });
    expect(api.openSession).toHaveBeenNthCalledWith(2, { id: 's1' });
    const rssCount = samples.filter((s) => typeof s.values.rssBytes === 'number').length;
    expect(store.getState().viewedPreview).toEqual({ sessionId: 's1' });
    expect(store.getState().seriesStore.get('rssBytes')?.length).toBeLessThan(rssCount / 2);
    const ringBefore = store.getState().chart.samples;
    const zoomed = { follow: false, spanMs: 600_000, endMs: 2_000_000 };
    store.getState().setTimeView(zoomed as never);
    releases[0]!();
    await settle();
    const state = store.getState();
    expect(state.viewedPreview).toBeNull();
    expect(state.seriesStore.get('rssBytes')?.length).toBe(rssCount);
    expect(state.seriesStore.get('temp.cpu.C')?.length).toBe(rssCount);
    expect(ringBefore).toBeLessThan(rssCount / 2);
    expect(state.chart.samples).toBe(rssCount);
    expect(state.dash.view).toEqual(zoomed);
    // The alerts are judged again on every sample: the budget alert at the first sample over 80 %.
    const firstOver = samples.find((s) => (s.values.rssBytes ?? 0) >= 0.8 * 2147483648);
    const budgetAlerts = state.dash.uiAlerts.filter((e) => e.data?.rule === 'rss-budget');
    expect(budgetAlerts[0]?.tMs).toBe(firstOver?.tMs);
    expect(state.run.phase).toBe('done');
    expect(state.sessionActionError).toBeNull();
  });

  it('leaves a session opened meanwhile alone', async () => {
    const { store, releases, settle } = longSession();
    await store.getState().viewSession('s1');
    await store.getState().viewSession('s2');
    releases[0]!();
    await settle();
    expect(store.getState().viewedSession?.id).toBe('s2');
    expect(store.getState().viewedPreview).toEqual({ sessionId: 's2' });
    releases[1]!();
    await settle();
    expect(store.getState().viewedPreview).toBeNull();
  });

  it('leaves a run started meanwhile alone', async () => {
    const { store, releases, settle } = longSession();
    await store.getState().loadBoards();
    await store.getState().viewSession('s1');
    await store.getState().startRun();
    releases[0]!();
    await settle();
    expect(store.getState().run.runId).toBe('new-run');
    expect(store.getState().viewedPreview).toBeNull();
    expect(store.getState().sessionActionError).toBeNull();
  });

  it('says that only the preview is drawn when the full samples cannot be read', async () => {
    const { store, releases, settle } = longSession();
    await store.getState().viewSession('broken');
    releases[0]!();
    await settle();
    expect(store.getState().viewedPreview).toEqual({ sessionId: 'broken' });
    expect(store.getState().sessionActionError).toMatch(/^Only a preview of this session is drawn: .*disk I\/O error/);
  });
});
