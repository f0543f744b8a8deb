// The dashboard: Memory, Throughput, Thermal and clocks, Power and counters and Events on ONE
// time axis with ONE cursor (hover shows every panel's value at that instant; wheel zooms,
// drag selects, Shift+wheel pans, double-click returns to the whole run, for every panel at
// once). Panels collapse and move; the layout is remembered. Data comes from the dashboard
// slice's series store, read 4 times a second; nothing here runs per sample. React renders the
// layout (tracks, legends, readouts), which changes only when a series appears; the points are
// downsampled and drawn on canvas in one animation frame (TimeChart.tsx, track-painter.ts).
import { memo, useMemo, useState } from 'react';
import { alarmEpisodesOf } from '../../../../shared/analysis/alarm-sensors';
import { DEVICE_PRESETS } from '../../../../shared/analysis/presets';
import type { RooflineParams } from '../../../../shared/analysis/roofline';
import { rooflineEfficiency, decodeCeilingTokensPerSecond } from '../../../../shared/analysis/roofline';
import { perTokenSummary } from '../../../../shared/analysis/per-token';
import { clockCeilingsOf, passiveTripsByKey } from '../../../../shared/analysis/throttle';
import { tempKey } from '../../../../shared/collectors/procfs-sampler-parser';
import { formatMs, formatTokens, formatTokensPerSecond } from '../../../../shared/format/units';
import { MemoryChart } from '../MemoryChart';
import { Readouts } from '../Readouts';
import { useAppStore, useAppStoreApi } from '../store-context';
import { AlertSettings } from './AlertSettings';
import { DepthChart } from './DepthChart';
import { oomHorizonTime, perTokenLine, throttleFromStore, tokensAtTime } from './derived';
import { isActivePhase } from '../../state/live-run-slice';
import { SHORTCUTS, useDashboardFollowsRun, useWidth } from './dashboard-hooks';
import { EventsStrip, mergeEvents } from './EventsStrip';
import { loadJson, saveJson } from './persist';
import { Panel, PanelTracks } from './Panel';
import { buildPanelTracks, BUDGET_COLOR, domainFor, layoutSignature, type VLine } from './panel-model';
import { PointsCache } from './points-cache';
import type { PanelId } from './series-catalog';
import { EMPTY_TEXT, powerEmptyText } from './panel-empty-text';

/**
 * The recharts chart reads the store itself: memo keeps the dashboard's 4 Hz re-render from
 * re-rendering it (recharts would redo its whole update for unchanged data).
 */
const MemoMemoryChart = memo(MemoryChart);

const ROOFLINE_KEY = 'kvscope.dashboard.roofline.v1';
const ZOOMS: Array<{ label: string; spanMs: number | null }> = [
  { label: 'Whole run', spanMs: null },
  { label: 'Last 10 min', spanMs: 600_000 },
  { label: 'Last 1 min', spanMs: 60_000 },
];

/**
 * What the decode roofline (bandwidth ÷ bytes read per token) still needs, said where its
 * percentage would be: no ceiling is drawn without it, and an engineer must see why.
 */
function rooflineMissing(boardPicked: boolean, weightBytes: number | null, kvBytesPerToken: number | null): string {
  if (!boardPicked) return 'roofline: pick the board (its memory bandwidth is unknown)';
  if (!kvBytesPerToken) return 'roofline: needs the KV bytes per token (--gguf or the model shape)';
  if (!weightBytes) return 'roofline: needs the model size';
  return 'roofline: no decode speed yet';
}

export function Dashboard() {
  const store = useAppStoreApi();
  useDashboardFollowsRun(store);
  const theme = useAppStore((s) => s.dash.theme);
  const version = useAppStore((s) => s.dash.version);
  const view = useAppStore((s) => s.dash.view);
  const order = useAppStore((s) => s.dash.layout.order);
  const runEvents = useAppStore((s) => s.run.events);
  const uiAlerts = useAppStore((s) => s.dash.uiAlerts);
  const analysis = useAppStore((s) => s.run.analysis);
  const budgetBytes = useAppStore((s) => s.run.analysis?.budgetBytes ?? s.run.budgetBytes);
  const runId = useAppStore((s) => s.run.runId);
  const live = useAppStore((s) => isActivePhase(s.run.phase));
  const markerError = useAppStore((s) => s.dash.markerError);
  const probe = useAppStore((s) => (s.selectedBoardId ? s.probes[s.selectedBoardId] : undefined));
  const seriesStore = useAppStore((s) => s.seriesStore);
  const [ref, width] = useWidth<HTMLDivElement>();
  // The downsampled points of every drawn series, reused while neither the series nor the view changed.
  const [pointsCache] = useState(() => new PointsCache());
  const [presetId, setPresetId] = useState(() => {
    const v = loadJson(ROOFLINE_KEY);
    return typeof v === 'string' ? v : '';
  });
  const preset = DEVICE_PRESETS.find((p) => p.id === presetId) ?? null;

  // A recorded run's own board; a live run's is the selected one (its probe).
  const recordedTarget = useAppStore((s) => s.run.recordedTarget);
  const board = recordedTarget ?? (probe?.status === 'done' ? probe.result.probe : null);
  const zones = useMemo(() => board?.thermal ?? [], [board]);
  const clockCeilings = useMemo(() => clockCeilingsOf(board), [board]);
  const tripsC = useMemo(() => {
    const trips = passiveTripsByKey(zones, tempKey);
    if (preset)
      for (const key of seriesStore.keys())
        if (/^temp\..*\.C$/.test(key) && !(key in trips)) trips[key] = preset.thermalTripC;
    return trips;
    // The series store mutates in place; `version` is its change counter (new zones appear with samples).
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version stands for the store's contents
  }, [zones, preset, seriesStore, version]);

  // The weights one token reads: the model's size, else the memory resident before the cache
  // (shared/analysis/run-analysis.ts weightBytesPerToken, mmap'd weights included).
  const weightBytes = analysis?.throughput.weightBytes ?? null;
  const kvBytesPerToken = analysis?.kv.theoryBytesPerToken ?? null;
  const roofline = useMemo<RooflineParams | null>(
    () =>
      preset && weightBytes && kvBytesPerToken
        ? {
            bandwidthBytesPerSecond: preset.memBandwidthGBs * 1e9,
            weightBytesPerToken: weightBytes,
            kvBytesAtDepth: kvBytesPerToken,
          }
        : null,
    [preset, weightBytes, kvBytesPerToken],
  );

  const domain = domainFor(view, seriesStore.timeRange());
  // The layout changes when a series appears, not with every sample: its signature says when.
  const layout = layoutSignature(seriesStore);
  const hasDomain = domain !== null;
  const tracks = useMemo(
    () => (hasDomain ? buildPanelTracks({ store: seriesStore, budgetBytes, tripsC, roofline }) : null),
    // The store mutates in place: layout is the signature of the series it holds.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- layout stands for the store's series
    [seriesStore, layout, hasDomain, budgetBytes, tripsC, roofline],
  );
  const minTripC = Object.values(tripsC).length ? Math.min(...Object.values(tripsC)) : null;
  const throttle = useMemo(
    () => throttleFromStore(seriesStore, minTripC, clockCeilings),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version stands for the store's contents (mutated in place)
    [seriesStore, version, minTripC, clockCeilings],
  );
  const alarms = useMemo(
    () => alarmEpisodesOf((k) => seriesStore.get(k), seriesStore.keys()),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version stands for the store's contents (mutated in place)
    [seriesStore, version],
  );
  const events = useMemo(
    () => mergeEvents(runEvents, uiAlerts, throttle.intervals, alarms),
    [runEvents, uiAlerts, throttle, alarms],
  );
  // Sums over every sample: a session's preview (shared/api/packed-preview.ts) holds only some.
  const preview = useAppStore((s) => s.viewedPreview !== null);
  const perToken = useMemo(() => {
    const line = perTokenLine(perTokenSummary((k) => seriesStore.get(k), seriesStore.keys()));
    return line && preview ? 'IPC, misses and energy per token: reading every sample…' : line;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version stands for the store's contents (mutated in place)
  }, [seriesStore, version, preview]);
  const eventTimes = useMemo(() => events.filter((e) => e.kind !== 'info').map((e) => e.tMs), [events]);

  const tokens = seriesStore.get('tokens');
  const range = seriesStore.timeRange();
  const nowT = range?.[1] ?? 0;
  const tokensNow = tokens ? tokensAtTime(tokens, nowT) : 0;
  const decode = analysis?.throughput.decodeTokensPerSecond ?? null;
  const oomT = oomHorizonTime(nowT, tokensNow, analysis?.oomHorizonTokens, decode);
  const vLines: Record<string, VLine[]> =
    oomT !== null ? { 'process-memory': [{ tMs: oomT, label: 'OOM horizon', color: BUDGET_COLOR }] } : {};
  const ceilingNow = roofline ? decodeCeilingTokensPerSecond(roofline, tokensNow) : null;
  const efficiency = rooflineEfficiency(decode, ceilingNow);
  const lost = throttle.cost;

  const common = {
    domain: domain ?? { t0: 0, t1: 1 },
    widthPx: width,
    throttle: throttle.intervals,
    eventTimes,
    store: seriesStore,
    cache: pointsCache,
    roofline,
    promptTokens: 0,
    vLines,
  };
  const content: Record<PanelId, { empty: string | null; summary?: JSX.Element; body: JSX.Element | null }> = {
    memory: {
      // The RSS-against-tokens chart (renderer/src/ui/MemoryChart.tsx) comes first and says itself
      // what to do when nothing was measured; the time tracks follow once samples exist.
      empty: null,
      summary: (
        <span className="muted small" data-testid="oom-summary">
          OOM horizon {formatTokens(analysis?.oomHorizonTokens)}
          {/* A countdown only while the engine runs: a finished run or an opened session never gets there. */}
          {live && oomT !== null && oomT > nowT ? ` · in about ${formatMs(oomT - nowT)}` : ''}
        </span>
      ),
      body: (
        <>
          <MemoMemoryChart />
          {tracks && tracks.memory.length > 0 && <PanelTracks panel="memory" tracks={tracks.memory} {...common} />}
        </>
      ),
    },
    throughput: {
      empty: tracks && tracks.throughput.length > 0 ? null : EMPTY_TEXT.throughput,
      summary: (
        <span className="muted small" data-testid="throughput-summary">
          TTFT {formatMs(analysis?.throughput.ttftMs)} · prefill{' '}
          {formatTokensPerSecond(analysis?.throughput.prefillTokensPerSecond)} · decode {formatTokensPerSecond(decode)}
          {' · '}
          {efficiency !== null
            ? `${Math.round(efficiency * 100)} % of the roofline`
            : rooflineMissing(preset !== null, weightBytes, kvBytesPerToken)}
        </span>
      ),
      body: tracks && (
        <>
          <label className="roofline-select small">
            Roofline board{' '}
            <select
              value={presetId}
              onChange={(e) => {
                setPresetId(e.target.value);
                saveJson(ROOFLINE_KEY, e.target.value);
              }}
              data-testid="roofline-board"
            >
              <option value="">none</option>
              {DEVICE_PRESETS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({p.memBandwidthGBs} GB/s)
                </option>
              ))}
            </select>
          </label>
          <PanelTracks panel="throughput" tracks={tracks.throughput} {...common} />
          <DepthChart tokens={tokens} roofline={roofline} width={width} />
        </>
      ),
    },
    thermal: {
      empty: tracks && tracks.thermal.length > 0 ? null : EMPTY_TEXT.thermal,
      summary:
        throttle.intervals.length > 0 ? (
          <span className="muted small" data-testid="throttle-summary">
            {throttle.intervals.length} throttle interval{throttle.intervals.length === 1 ? '' : 's'}
            {lost?.insideTokensPerSecond != null &&
              lost.outsideTokensPerSecond != null &&
              ` · ${formatTokensPerSecond(lost.outsideTokensPerSecond - lost.insideTokensPerSecond)} lost while throttled`}
          </span>
        ) : undefined,
      body: tracks && <PanelTracks panel="thermal" tracks={tracks.thermal} {...common} />,
    },
    power: {
      empty: tracks && tracks.power.length > 0 ? null : powerEmptyText(seriesStore.keys()),
      summary: perToken ? (
        <span className="muted small" data-testid="power-summary">
          {perToken}
        </span>
      ) : undefined,
      body: tracks && <PanelTracks panel="power" tracks={tracks.power} {...common} />,
    },
    events: {
      empty: events.length > 0 ? null : EMPTY_TEXT.events,
      body: <EventsStrip events={events} domain={domain} widthPx={width} />,
    },
  };

  return (
    <div className="dashboard" data-testid="dashboard" data-series-bytes={seriesStore.bytes}>
      <div className="dash-track-width" ref={ref} aria-hidden="true" data-testid="track-width" />
      <div className="dash-toolbar" role="toolbar" aria-label="Dashboard">
        <div className="zoom-group" role="group" aria-label="Time window">
          {ZOOMS.map((z) => (
            <button
              key={z.label}
              type="button"
              className="button-secondary button-small"
              aria-pressed={view.follow && view.spanMs === z.spanMs}
              onClick={() => store.getState().setTimeView({ follow: true, spanMs: z.spanMs })}
            >
              {z.label}
            </button>
          ))}
          {!view.follow && (
            <span className="muted small" data-testid="zoomed">
              zoomed · double-click a chart to reset
            </span>
          )}
        </div>
        <button
          type="button"
          className="button-secondary button-small"
          disabled={!runId || !live}
          onClick={() => void store.getState().addMarker()}
          title={`Add a marker at the latest sample of the running run (${SHORTCUTS.marker.keys})`}
          data-testid="add-marker"
        >
          Marker
        </button>
        <AlertSettings />
        <button
          type="button"
          className="button-secondary button-small"
          onClick={() =>
            store.getState().setTheme(theme === 'system' ? 'light' : theme === 'light' ? 'dark' : 'system')
          }
          data-testid="theme-toggle"
          aria-label={`Theme: ${theme}`}
        >
          Theme: {theme}
        </button>
        <span className="muted small shortcuts-hint">
          Start {SHORTCUTS.start.keys} · Stop {SHORTCUTS.stop.keys} · Marker {SHORTCUTS.marker.keys}
        </span>
      </div>
      {markerError && (
        <p className="banner banner-warn" role="status" data-testid="marker-error">
          {markerError}
        </p>
      )}
      <Readouts />
      {order.map((id, index) => (
        <Panel
          key={id}
          id={id}
          index={index}
          count={order.length}
          empty={content[id].empty}
          summary={content[id].summary}
        >
          {content[id].body}
        </Panel>
      ))}
    </div>
  );
}
