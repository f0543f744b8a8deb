// The run on screen: start/stop, attach to a run already going (window reload), and the API
// events of that run. Fast data never goes straight into the store: samples land in the ring
// buffer, output and analysis wait in this closure, and flushChart() (called a few times per
// second) turns them into one store update with an LTTB-downsampled chart.
import type { ApiEventName, EventPayload } from '../../../shared/api/contract';
import type { PackedSampleSink } from '../../../shared/api/packed-samples';
import {
  RunRequestSchema,
  type RunAnalysis,
  type RunEvent,
  type RunStatus,
  type Sample,
  type SweepStatus,
} from '../../../shared/api/schemas';
import { defaultRunLabel, USER_STOP_REASON } from '../../../shared/run/run-labels';
import { buildChartSeries, EMPTY_CHART } from '../live/chart-series';
import { MAX_EVENTS, MAX_POINTS_PER_SERIES, OUTPUT_TAIL_LINES } from '../live/live-config';
import { seriesReadouts, updateLatest, type LatestValues } from '../live/series-readouts';
import { buildRunRequest } from './run-form';
import { errorText } from './slices';
import type { LiveRun, LiveRunSlice, OutputLine, RunPhase, SliceCreator } from './types';

/** A packed sample's value of key index k (its values start at cells[at]); undefined when its shape lacks the key (k < 0). */
const cellAt = (cells: ReadonlyArray<number | null>, at: number, k: number) => (k < 0 ? undefined : cells[at + k]);

export const IDLE_RUN: LiveRun = {
  runId: null,
  phase: 'idle',
  label: null,
  error: null,
  engineExitCode: null,
  analysis: null,
  theory: null,
  events: [],
  output: [],
  outputLines: 0,
  budgetBytes: null,
  windowTokens: null,
  series: [],
  recordedTarget: null,
};

const ACTIVE: ReadonlySet<RunPhase> = new Set(['starting', 'running', 'stopping']);
export const isActivePhase = (phase: RunPhase) => ACTIVE.has(phase);
/** Stop was refused: the run goes on as far as the app knows, and Stop can be pressed again. */
const stopFailed = (run: LiveRun, error: unknown): LiveRun => ({
  ...run,
  phase: run.phase === 'stopping' ? 'running' : run.phase,
  error: `Stop failed: ${errorText(error)}`,
});
/** How far a run has gone: a status of a lower rank than the phase shown is older news. */
const PHASE_RANK: Readonly<Record<RunPhase, number>> = {
  idle: 0,
  starting: 1,
  running: 2,
  stopping: 3,
  done: 4,
  failed: 4,
};
/** A run is going on, or a sweep between two of its runs: Start waits, Stop stops. */
export const isBusy = (state: { run: LiveRun; sweep: SweepStatus | null }) =>
  isActivePhase(state.run.phase) || state.sweep?.state === 'running';

/** Events that arrive between pressing Start and learning the run id are held, up to this many. */
const MAX_EARLY_EVENTS = 10_000;

export const createLiveRunSlice: SliceCreator<LiveRunSlice> = (set, get, deps) => {
  const { api, ring } = deps;
  const maxPoints = deps.maxPointsPerSeries ?? MAX_POINTS_PER_SERIES;

  // ---- per-run state outside the store ----
  let lastMemoryTMs = -Infinity;
  let lastTokens = 0;
  let eventKeys = new Set<string>();
  let pendingAnalysis: RunAnalysis | null = null;
  let pendingOutput: OutputLine[] = [];
  /** Lines printed since the last flush (pendingOutput keeps the last OUTPUT_TAIL_LINES of them). */
  let pendingLines = 0;
  const partialLine: Record<OutputLine['stream'], string> = { stdout: '', stderr: '' };
  let syncing: { runId: string; buffered: Sample[] } | null = null;
  let early: Array<[ApiEventName, unknown]> = [];
  /** Stop pressed while the run was still starting (no run id yet): sent as soon as the id is known. */
  let stopWanted = false;
  /**
   * The key of the startRun (or startSweep) not answered yet: Stop meanwhile sends cancelStart
   * with it, so a board still connecting (up to its 20 s connect timeout) or a launch under way
   * stops at once instead of after the start answers (shared/api/contract.ts cancelStart).
   */
  let startKey: string | null = null;
  let flushedRingVersion = -1;
  let chartInputsChanged = false;
  /** Newest value of every series, from every collector: the "All series" panel. */
  let latest: LatestValues = {};
  let latestChanged = false;

  const resetRunState = () => {
    ring.clear();
    lastMemoryTMs = -Infinity;
    lastTokens = 0;
    eventKeys = new Set();
    pendingAnalysis = null;
    pendingOutput = [];
    pendingLines = 0;
    partialLine.stdout = partialLine.stderr = '';
    syncing = null;
    early = [];
    chartInputsChanged = true;
    latest = {};
    latestChanged = true;
  };

  /** One memory row to the ring, once per tMs (strictly increasing), with the newest token count. */
  const memoryRow = (
    tMs: number,
    tokens: number | null | undefined,
    rssBytes: number | null | undefined,
    rssAnonBytes: number | null | undefined,
    rssFileBytes: number | null | undefined,
  ) => {
    if (typeof tokens === 'number' && tokens > lastTokens) lastTokens = tokens;
    if (typeof rssBytes !== 'number' || tMs <= lastMemoryTMs) return;
    lastMemoryTMs = tMs;
    ring.push({ tMs, tokens: typeof tokens === 'number' ? tokens : lastTokens, rssBytes, rssAnonBytes, rssFileBytes });
  };

  /** Memory samples go to the ring once each (tMs strictly increasing), whether live or from getRun. */
  const ingestSamples = (samples: readonly Sample[]) => {
    if (samples.length > 0) {
      updateLatest(latest, samples);
      latestChanged = true;
    }
    for (const { tMs, values } of samples)
      memoryRow(tMs, values.tokens, values.rssBytes, values.rssAnonBytes, values.rssFileBytes);
  };

  /**
   * The same for a recorded run's packed samples, fed in the dashboard's single pass over them.
   * Per shape of the pass: its keys, and per key where its last value is in the cells (-1: none
   * yet). The latest values come from these at the pass's end: one typed write per value on the
   * way instead of a store by key name into the latest values.
   */
  let lastOfShape: Array<{ keys: readonly string[]; lastAt: Int32Array }> = [];
  let passCells: ReadonlyArray<number | null> = [];
  const memorySink: PackedSampleSink = {
    shape(_source, keys) {
      // Where the memory values sit in this shape's cells (-1: the shape has no such key).
      const tokensAt = keys.indexOf('tokens');
      const rssAt = keys.indexOf('rssBytes');
      const anonAt = keys.indexOf('rssAnonBytes');
      const fileAt = keys.indexOf('rssFileBytes');
      const lastAt = new Int32Array(keys.length).fill(-1);
      lastOfShape.push({ keys, lastAt });
      return (tMs, cells, at) => {
        passCells = cells;
        for (let k = 0; k < keys.length; k++) if (typeof cells[at + k] === 'number') lastAt[k] = at + k;
        memoryRow(
          tMs,
          cellAt(cells, at, tokensAt),
          cellAt(cells, at, rssAt),
          cellAt(cells, at, anonAt),
          cellAt(cells, at, fileAt),
        );
      };
    },
    end() {
      // Each key's value from the last sample that had one, whatever its shape: what applying
      // every sample in turn (updateLatest) leaves.
      const where = new Map<string, number>();
      for (const { keys, lastAt } of lastOfShape)
        keys.forEach((key, k) => {
          const at = lastAt[k] ?? -1;
          if (at > (where.get(key) ?? -1)) where.set(key, at);
        });
      for (const [key, at] of where) latest[key] = passCells[at] as number;
      if (where.size > 0) latestChanged = true;
      lastOfShape = [];
      passCells = [];
    },
  };

  const addEvents = (events: readonly RunEvent[]) => {
    const fresh = events.filter((event) => {
      const key = `${event.tMs}|${event.kind}|${event.message ?? ''}`;
      if (eventKeys.has(key)) return false;
      eventKeys.add(key);
      return true;
    });
    if (fresh.length === 0) return;
    set((state) => ({ run: { ...state.run, events: [...state.run.events, ...fresh].slice(-MAX_EVENTS) } }));
  };

  /**
   * A run's state only goes forward (starting, running, stopping, ended). A status sent before a
   * later one (getRun's snapshot answered after Stop was pressed, or after the run's end was
   * announced) is old news: taking its state back would re-enable Stop, or leave an ended run
   * "running" with nothing more to come.
   */
  const applyStatus = (status: RunStatus) => {
    set((state) => {
      if (PHASE_RANK[status.state] < PHASE_RANK[state.run.phase]) return {};
      return {
        run: {
          ...state.run,
          phase: status.state,
          label: status.label || state.run.label,
          error: status.state === 'failed' ? (status.error ?? state.run.error ?? 'run failed') : (status.error ?? null),
          engineExitCode: status.engineExitCode ?? state.run.engineExitCode,
        },
      };
    });
  };

  const appendOutput = (stream: OutputLine['stream'], text: string) => {
    const parts = (partialLine[stream] + text).split('\n');
    partialLine[stream] = parts.pop() ?? '';
    for (const line of parts) pendingOutput.push({ stream, text: line.replace(/\r$/, '') });
    pendingLines += parts.length;
    if (pendingOutput.length > OUTPUT_TAIL_LINES) pendingOutput = pendingOutput.slice(-OUTPUT_TAIL_LINES);
  };

  /**
   * Replaces what the ring holds with getRun's snapshot plus whatever arrived live meanwhile, and
   * hands the same snapshot to the dashboard (dashboard-slice.ts): one fetch of a possibly large run.
   */
  const syncRun = async (runId: string) => {
    syncing = { runId, buffered: [] };
    const mine = syncing;
    try {
      const snapshot = await api.getRun({ runId });
      if (get().run.runId !== runId || syncing !== mine) return;
      ring.clear();
      lastMemoryTMs = -Infinity;
      ingestSamples(snapshot.samples);
      ingestSamples(mine.buffered);
      addEvents(snapshot.events);
      if (snapshot.analysis) pendingAnalysis = snapshot.analysis;
      // The budget and the analysis before the dashboard takes the samples: its alert rules judge
      // each sample once, against them (a tab opened on a run had no budget alert).
      set((state) => ({
        run: {
          ...state.run,
          theory: snapshot.theory,
          budgetBytes: state.run.budgetBytes ?? snapshot.analysis?.budgetBytes ?? null,
          analysis: snapshot.analysis ?? state.run.analysis,
        },
      }));
      applyStatus(snapshot.status);
      get().receiveRunSnapshot(runId, snapshot.samples, mine.buffered);
    } catch (error) {
      // Without a snapshot the live stream still works; samples sent before the run id was known are missing.
      if (syncing === mine) {
        ingestSamples(mine.buffered);
        get().receiveRunSnapshot(runId, [], mine.buffered);
      }
      console.warn(`kvscope: getRun failed: ${errorText(error)}`);
    } finally {
      if (syncing === mine) {
        syncing = null;
        chartInputsChanged = true;
        // Draw the snapshot now, not at the next tick.
        get().flushChart();
      }
    }
  };

  const stopOneRun = async () => {
    const { runId, phase } = get().run;
    if (!isActivePhase(phase)) return;
    set((s) => ({ run: { ...s.run, phase: 'stopping' } }));
    if (!runId) {
      stopWanted = true;
      // ok: false is a start that has just answered: its id arrives and stopWanted stops it.
      if (startKey)
        await api
          .cancelStart({ startKey })
          .catch((error: unknown) => set((s) => ({ run: { ...s.run, error: `Stop failed: ${errorText(error)}` } })));
      return;
    }
    try {
      await api.stopRun({ runId });
    } catch (error) {
      set((s) => ({ run: stopFailed(s.run, error) }));
    }
  };

  /**
   * A sweep's news: the status replaces the one on screen, and when it names a run that is not the
   * one on screen (the next context size started), the live view moves to that run: everything of
   * it comes from getRun, the previous one stays in the sweep's session.
   */
  const followSweep = (status: SweepStatus) => {
    const current = get().sweep;
    if (!current || current.sweepId !== status.sweepId) return;
    set({ sweep: status });
    const latest = status.runs.at(-1);
    const { run } = get();
    if (!latest || latest.runId === run.runId || run.runId === null) return;
    resetRunState();
    // 'starting' without an id, then the id: what tab-memory.ts reads as "this tab started a run".
    set({
      chart: EMPTY_CHART,
      run: { ...IDLE_RUN, phase: 'starting', budgetBytes: run.budgetBytes, windowTokens: run.windowTokens },
    });
    set((s) => ({ run: { ...s.run, runId: latest.runId } }));
    void syncRun(latest.runId);
  };

  const slice: LiveRunSlice = {
    run: IDLE_RUN,
    sweep: null,
    chart: EMPTY_CHART,

    async startRun() {
      const state = get();
      if (isBusy(state)) return;
      const target = state.boards.find((b) => b.id === state.selectedBoardId)?.spec ?? null;
      const form = buildRunRequest(state.form, target);
      if (!form.ok) {
        set((s) => ({ formErrors: form.errors, refusedStarts: s.refusedStarts + 1 }));
        return;
      }
      // The run judges its own alerts (near a trip point, throttling…) with the user's settings too.
      const built = { ...form, request: { ...form.request, alertThresholds: state.dash.thresholds } };
      resetRunState();
      stopWanted = false;
      const demo = built.request.engine.kind === 'demo' ? built.request.engine.demo : null;
      set({
        formErrors: {},
        chart: EMPTY_CHART,
        sweep: null,
        // A new run replaces the recorded session on screen (it stays in the Sessions list).
        viewedSession: null,
        viewedRuns: null,
        viewedPreview: null,
        run: {
          ...IDLE_RUN,
          phase: 'starting',
          budgetBytes: built.request.budgetBytes ?? null,
          windowTokens: demo?.mode === 'window' ? (demo.window ?? null) : null,
        },
      });
      // A Stop before the start answers sends cancelStart with this key (stopOneRun).
      const key = crypto.randomUUID();
      startKey = key;
      const answered = () => (startKey = null);
      try {
        let runId: string;
        if (built.sweepSizes) {
          const { server: _none, ...request } = built.request;
          const sizes = built.sweepSizes;
          const started = await api.startSweep({ request, sizes, startKey: key }).finally(answered);
          runId = started.runId;
          // The sweep as known so far; its sweepStatus events (held until now, or still to come) replace it.
          set((s) => ({
            sweep: s.sweep ?? {
              sweepId: started.sweepId,
              state: 'running',
              sizes,
              runs: [{ ctx: sizes[0] ?? 0, runId }],
              points: [],
              result: null,
            },
          }));
        } else {
          runId = (await api.startRun({ ...built.request, startKey: key }).finally(answered)).runId;
        }
        set((s) => ({ run: { ...s.run, runId: s.run.runId ?? runId } }));
        if (stopWanted) {
          stopWanted = false;
          const sweepId = get().sweep?.sweepId;
          await (sweepId ? api.stopSweep({ sweepId }) : api.stopRun({ runId })).catch((error: unknown) =>
            set((s) => ({ run: { ...s.run, error: `Stop failed: ${errorText(error)}` } })),
          );
        }
        const held = early;
        early = [];
        const sync = syncRun(runId);
        for (const [event, payload] of held) slice.handleApiEvent(event, payload as never);
        await sync;
      } catch (error) {
        // A run refused before it had a status (an unreachable board) is still named by what it was to run.
        const parsed = RunRequestSchema.safeParse(built.request);
        const label = parsed.success ? (parsed.data.label ?? defaultRunLabel(parsed.data)) : null;
        if (stopWanted) {
          // Stopped before the run existed (cancelStart): a stopped run, with what the app said.
          stopWanted = false;
          const events = [
            { tMs: 0, kind: 'stop' as const, message: USER_STOP_REASON },
            { tMs: 0, kind: 'info' as const, message: errorText(error) },
          ];
          set((s) => ({ run: { ...s.run, label: s.run.label ?? label, phase: 'done', events } }));
          return;
        }
        set((s) => ({ run: { ...s.run, label: s.run.label ?? label, phase: 'failed', error: errorText(error) } }));
      }
    },

    async stopRun() {
      const { sweep } = get();
      if (sweep?.state === 'running') {
        set((s) => ({ run: { ...s.run, phase: isActivePhase(s.run.phase) ? 'stopping' : s.run.phase } }));
        try {
          await api.stopSweep({ sweepId: sweep.sweepId });
        } catch (error) {
          set((s) => ({ run: stopFailed(s.run, error) }));
        }
        return;
      }
      await stopOneRun();
    },

    showRecordedRun(snapshot) {
      if (isActivePhase(get().run.phase)) return false;
      // A recorded run (sessions-slice.ts) shown like one that just ended: same ring, chart and readouts.
      resetRunState();
      // The budget and the analysis first: the dashboard's alert rules judge the samples against them.
      set({
        chart: EMPTY_CHART,
        run: {
          ...IDLE_RUN,
          runId: snapshot.status.runId,
          label: snapshot.status.label,
          theory: snapshot.theory,
          budgetBytes: snapshot.analysis?.budgetBytes ?? null,
          analysis: snapshot.analysis,
          recordedTarget: snapshot.target ?? {},
        },
      });
      addEvents(snapshot.events);
      pendingAnalysis = snapshot.analysis;
      applyStatus(snapshot.status);
      // The dashboard's panels draw from their own series store (dashboard-slice.ts): one pass feeds both.
      get().receiveRecordedRun(snapshot.status.runId, snapshot.samples, [memorySink]);
      slice.flushChart();
      return true;
    },

    replaceRecordedSamples(runId, samples) {
      const { run } = get();
      if (run.runId !== runId || isActivePhase(run.phase)) return false;
      // The memory chart and the readouts start again from these samples; events, analysis and
      // theory are the run's and stay.
      ring.clear();
      lastMemoryTMs = -Infinity;
      lastTokens = 0;
      latest = {};
      latestChanged = true;
      chartInputsChanged = true;
      get().receiveRecordedRun(runId, samples, [memorySink], { again: true });
      slice.flushChart();
      return true;
    },

    clearRecordedRun() {
      if (isActivePhase(get().run.phase)) return false;
      resetRunState();
      set({ chart: EMPTY_CHART, sweep: null, run: IDLE_RUN });
      return true;
    },

    async attachRun(status) {
      resetRunState();
      set({ chart: EMPTY_CHART, run: { ...IDLE_RUN, runId: status.runId, phase: status.state, label: status.label } });
      applyStatus(status);
      await syncRun(status.runId);
    },

    async resumeLatestRun() {
      try {
        // Without the sweeps (a failed call) the run still shows; only its sweep's progress is missing.
        const [runs, sweeps] = await Promise.all([
          api.listRuns({}),
          Promise.resolve()
            .then(() => api.listSweeps({}))
            .catch(() => []),
        ]);
        const newest = runs.filter((r) => isActivePhase(r.state)).at(-1) ?? runs.at(-1);
        if (!newest || get().run.phase !== 'idle') return;
        // A sweep this run belongs to is followed again (its next runs, its result).
        const sweep = sweeps.find((sw) => sw.runs.some((r) => r.runId === newest.runId)) ?? null;
        set({ sweep });
        await slice.attachRun(newest);
      } catch (error) {
        console.warn(`kvscope: listRuns failed: ${errorText(error)}`);
      }
    },

    async resyncRun() {
      const { runId } = get().run;
      if (runId) await syncRun(runId);
    },

    handleApiEvent(event, payload) {
      const { runId, phase } = get().run;
      if (event === 'sweepStatus' && get().sweep) return followSweep(payload as EventPayload<'sweepStatus'>);
      const payloadRunId = (payload as { runId?: string }).runId;
      if (runId === null) {
        // Between Start and the run id: hold on, it may be ours.
        if ((phase === 'starting' || phase === 'stopping') && early.length < MAX_EARLY_EVENTS)
          early.push([event, payload]);
        return;
      }
      if (payloadRunId !== runId) return;
      switch (event) {
        case 'runStatus':
          applyStatus(payload as EventPayload<'runStatus'>);
          break;
        case 'runSamples': {
          const { samples } = payload as EventPayload<'runSamples'>;
          // Samples flow only once the run is launched: its 'running' status may have been lost
          // between Start and the run id (more early events than are held) — samples say it.
          if (phase === 'starting') set((s) => ({ run: { ...s.run, phase: 'running' } }));
          if (syncing?.runId === runId) syncing.buffered.push(...samples);
          else ingestSamples(samples);
          break;
        }
        case 'runEvent':
          addEvents([(payload as EventPayload<'runEvent'>).event]);
          break;
        case 'runAnalysis':
          pendingAnalysis = (payload as EventPayload<'runAnalysis'>).analysis;
          break;
        case 'runOutput': {
          const { stream, text } = payload as EventPayload<'runOutput'>;
          appendOutput(stream, text);
          break;
        }
      }
    },

    flushChart() {
      const state = get();
      let run = state.run;
      if (pendingAnalysis) {
        run = { ...run, analysis: pendingAnalysis, budgetBytes: run.budgetBytes ?? pendingAnalysis.budgetBytes };
        pendingAnalysis = null;
        chartInputsChanged = true;
      }
      if (latestChanged) {
        run = { ...run, series: seriesReadouts(latest) };
        latestChanged = false;
      }
      if (pendingOutput.length > 0) {
        run = {
          ...run,
          output: [...run.output, ...pendingOutput].slice(-OUTPUT_TAIL_LINES),
          outputLines: run.outputLines + pendingLines,
        };
        pendingOutput = [];
        pendingLines = 0;
      }
      let chart = state.chart;
      if (ring.version !== flushedRingVersion || chartInputsChanged) {
        chart = buildChartSeries(
          ring,
          {
            analysis: run.analysis,
            theoryBytesPerToken: run.theory?.bytesPerToken,
            ctx: run.theory?.ctx,
            windowTokens: run.windowTokens,
          },
          maxPoints,
        );
        flushedRingVersion = ring.version;
        chartInputsChanged = false;
      }
      if (run !== state.run || chart !== state.chart) set({ run, chart });
    },
  };
  return slice;
};
