// The dashboard's state: every collected series of the run on screen in a SeriesStore outside
// React (fed from runSamples events and from the getRun snapshot that live-run-slice.ts fetches
// once for both: a session's snapshot is megabytes),
// the shared time view (zoom, pan, cursor), the remembered layout, theme and alert thresholds,
// the alerts the dashboard raises with the user's thresholds, and markers.
import type { EventPayload } from '../../../shared/api/contract';
import { feedPackedSamples } from '../../../shared/api/packed-samples';
import type { RunEvent } from '../../../shared/api/schemas';
import {
  alertToRunEvent,
  DEFAULT_ALERT_THRESHOLDS,
  evaluateAlerts,
  INITIAL_ALERT_STATE,
  sanitizeThresholds,
  type AlertRule,
  type AlertState,
  type AlertThresholds,
} from '../../../shared/analysis/alerts';
import { engineExitOfStatus, type EngineExit } from '../../../shared/run/engine-exit';
import { tokensAtTime } from '../ui/dashboard/derived';
import { DEFAULT_PANEL_ORDER, type PanelId } from '../ui/dashboard/series-catalog';
import { SeriesStore } from '../ui/dashboard/series-store';
import { loadJson, loadTimeView, saveJson, saveTimeView, STORAGE_KEYS } from '../ui/dashboard/persist';
import { isActivePhase } from './live-run-slice';
import { errorText } from './slices';
import type { DashboardLayout, DashboardSlice, DashboardState, ThemeChoice } from './dashboard-types';
import type { AppState, GetState, SetState, StoreDeps } from './types';

/**
 * The rules evaluate() below judges with the user's thresholds, from the series every run has:
 * the run raises these too (electron/node/run/memory-tick-events.ts, with the thresholds its
 * request carried: those of its start), and the dashboard's alerts stand for those
 * (EventsStrip.tsx mergeEvents), so a threshold changed mid-run applies at once. The other rules
 * (near a trip point, throttling) are the run's alone: a change to them applies from the next run.
 */
export const DASHBOARD_ALERT_RULES: ReadonlySet<AlertRule> = new Set<AlertRule>([
  'rss-budget',
  'oom-horizon',
  'swap-in',
  'engine-exited',
]);

/** Dashboard alert events kept (the run keeps its own). */
const MAX_UI_ALERTS = 200;

function loadLayout(): DashboardLayout {
  const raw = loadJson(STORAGE_KEYS.layout) as Partial<DashboardLayout> | null;
  const known = new Set<string>(DEFAULT_PANEL_ORDER);
  const order = Array.isArray(raw?.order) ? raw.order.filter((id): id is PanelId => known.has(id)) : [];
  for (const id of DEFAULT_PANEL_ORDER) if (!order.includes(id)) order.push(id);
  const collapsed: Partial<Record<PanelId, boolean>> = {};
  if (raw?.collapsed && typeof raw.collapsed === 'object')
    for (const id of DEFAULT_PANEL_ORDER) if (raw.collapsed[id] === true) collapsed[id] = true;
  return { order, collapsed };
}

function loadTheme(): ThemeChoice {
  const raw = loadJson(STORAGE_KEYS.theme);
  return raw === 'light' || raw === 'dark' ? raw : 'system';
}

/**
 * The status code or signal of a run's exit event (run-controller.ts writes both; a session
 * recorded before the signal was written has sh's 128 + N in code).
 */
function engineExitOf(exit: RunEvent): EngineExit {
  const data = exit.data as { code?: unknown; signal?: unknown } | undefined;
  if (typeof data?.signal === 'string') return { code: null, signal: data.signal };
  return engineExitOfStatus(typeof data?.code === 'number' ? data.code : null);
}

export function createDashboardSlice(set: SetState, get: GetState, deps: StoreDeps): DashboardSlice {
  const seriesStore = new SeriesStore();
  let runId: string | null = null;
  let publishedVersion = -1;
  let alertState: AlertState = INITIAL_ALERT_STATE;
  let alertedThrough = -Infinity;
  let alertThresholds: AlertThresholds | null = null;
  /** The run's events the alert rules last looked at: an exit can come after the last sample. */
  let judgedEvents: readonly RunEvent[] | null = null;
  /** The engine's exit was judged (once per run: a threshold change must not raise it again). */
  let exitJudged = false;

  const setDash = (patch: Partial<DashboardState>) => set((s: AppState) => ({ dash: { ...s.dash, ...patch } }));

  /** The run on screen changed (Start, a reload, a session opened): start afresh. */
  /** The alert rules judge the run again from its first sample (the alerts they raised go). */
  const rejudgeAlerts = () => {
    alertState = INITIAL_ALERT_STATE;
    alertedThrough = -Infinity;
    judgedEvents = null;
    exitJudged = false;
    setDash({ uiAlerts: [] });
  };

  const followRun = (id: string | null) => {
    runId = id;
    seriesStore.clear();
    rejudgeAlerts();
    // A reload shows the window this tab was looking at (persist.ts); a new run starts on the whole run.
    const view = (id !== null ? loadTimeView(id) : null) ?? { follow: true, spanMs: null };
    setDash({ runId: id, cursorTMs: null, view, markerError: null });
  };

  /** The dashboard's alert rules over the points that arrived since the last tick. */
  const evaluate = (state: AppState) => {
    const thresholds = state.dash.thresholds;
    if (thresholds !== alertThresholds) {
      // Changed thresholds re-judge from here on (what already fired stays in the strip).
      alertThresholds = thresholds;
      alertState = INITIAL_ALERT_STATE;
    }
    judgedEvents = state.run.events;
    const rss = seriesStore.get('rssBytes');
    const tokens = seriesStore.get('tokens');
    const swap = seriesStore.get('swapBytes');
    const fresh: RunEvent[] = [];
    // A run with no memory sample (an engine that failed at once) still has an exit to judge.
    for (let i = 0; rss && i < rss.length; i++) {
      const tMs = rss.t[i] ?? 0;
      if (tMs <= alertedThrough) continue;
      const out = evaluateAlerts(
        alertState,
        {
          tMs,
          rssBytes: rss.v[i],
          budgetBytes: state.run.budgetBytes ?? state.run.analysis?.budgetBytes ?? null,
          tokens: tokens ? tokensAtTime(tokens, tMs) : null,
          oomHorizonTokens: state.run.analysis?.oomHorizonTokens ?? null,
          engineSwapBytes: swap?.v[i] ?? null,
        },
        thresholds,
      );
      alertState = out.state;
      for (const alert of out.alerts) fresh.push(alertToRunEvent(alert));
      alertedThrough = tMs;
    }
    const exit = state.run.events.find((e) => e.kind === 'exit');
    if (exit && !exitJudged) {
      exitJudged = true;
      const stopped = state.run.events.some((e) => e.kind === 'stop');
      const out = evaluateAlerts(
        alertState,
        { tMs: exit.tMs, engineExit: { ...engineExitOf(exit), stoppedByUser: stopped } },
        thresholds,
      );
      alertState = out.state;
      for (const alert of out.alerts) fresh.push(alertToRunEvent(alert));
    }
    if (fresh.length > 0) setDash({ uiAlerts: [...get().dash.uiAlerts, ...fresh].slice(-MAX_UI_ALERTS) });
  };

  return {
    seriesStore,
    dash: {
      version: 0,
      runId: null,
      view: { follow: true, spanMs: null },
      cursorTMs: null,
      layout: loadLayout(),
      theme: loadTheme(),
      thresholds: sanitizeThresholds(loadJson(STORAGE_KEYS.alerts) ?? DEFAULT_ALERT_THRESHOLDS),
      uiAlerts: [],
      markerError: null,
    },

    handleDashboardEvent(event, payload) {
      if (event !== 'runSamples') return;
      const { runId: of, samples } = payload as EventPayload<'runSamples'>;
      if (of !== runId) return; // before the run id is known, getRun brings these
      seriesStore.ingest(samples);
    },

    receiveRunSnapshot(id, snapshotSamples, liveSamples) {
      if (get().run.runId !== runId) followRun(get().run.runId);
      if (id !== runId) return;
      // The snapshot and what arrived live since it was asked for replace what was drawn (the same
      // points, plus any a reconnect had missed).
      seriesStore.clear();
      seriesStore.ingest(snapshotSamples);
      seriesStore.ingest(liveSamples);
      // Paint a run opened from getRun now, not at the next tick.
      get().flushDashboard();
    },

    receiveRecordedRun(id, samples, alsoFeed, options) {
      if (get().run.runId !== runId) followRun(get().run.runId);
      if (id !== runId) return;
      if (options?.again) rejudgeAlerts();
      seriesStore.clear();
      // One pass over the packed samples feeds the series and whatever the live-run slice keeps.
      feedPackedSamples(samples, [seriesStore.packedSink(), ...alsoFeed]);
      get().flushDashboard();
    },

    flushDashboard() {
      const state = get();
      if (state.run.runId !== runId) followRun(state.run.runId);
      if (seriesStore.version !== publishedVersion) {
        publishedVersion = seriesStore.version;
        evaluate(get());
        setDash({ version: seriesStore.version });
      } else if (state.run.events !== judgedEvents) evaluate(state);
    },

    setCursor(tMs) {
      // Whole milliseconds, like the samples' times: the instant every readout looks up is the
      // instant it shows (no value found at 999.6 ms and shown as "at 1.0 s", data-tms 1000).
      const at = tMs === null ? null : Math.round(tMs);
      if (get().dash.cursorTMs !== at) setDash({ cursorTMs: at });
    },
    setTimeView(view) {
      if (runId !== null) saveTimeView(runId, view);
      setDash({ view });
    },
    togglePanel(id) {
      const { layout } = get().dash;
      const next = { ...layout, collapsed: { ...layout.collapsed, [id]: !layout.collapsed[id] } };
      saveJson(STORAGE_KEYS.layout, next);
      setDash({ layout: next });
    },
    movePanel(id, delta) {
      const { layout } = get().dash;
      const order = [...layout.order];
      const i = order.indexOf(id);
      const j = i + delta;
      const other = order[j];
      if (i < 0 || other === undefined) return;
      order[j] = id;
      order[i] = other;
      const next = { ...layout, order };
      saveJson(STORAGE_KEYS.layout, next);
      setDash({ layout: next });
    },
    setTheme(theme) {
      saveJson(STORAGE_KEYS.theme, theme);
      setDash({ theme });
    },
    setThresholds(thresholds) {
      const clean = sanitizeThresholds(thresholds);
      saveJson(STORAGE_KEYS.alerts, clean);
      setDash({ thresholds: clean });
    },
    async addMarker(label) {
      const { runId: id, phase } = get().run;
      if (!id) {
        setDash({ markerError: 'Start a run first: a marker belongs to a run.' });
        return;
      }
      // The server refuses too (create-app-services.ts): the session would not keep it.
      if (!isActivePhase(phase)) {
        setDash({ markerError: 'This run has ended: a marker marks a moment of a running run.' });
        return;
      }
      try {
        const event = await deps.api.addMarker({ runId: id, ...(label ? { label } : {}) });
        // The runEvent event brings it too; the live slice drops the duplicate by time, kind and text.
        get().handleApiEvent('runEvent', { runId: id, event });
        setDash({ markerError: null });
      } catch (error) {
        setDash({ markerError: `Marker not added: ${errorText(error)}` });
      }
    },
  };
}
