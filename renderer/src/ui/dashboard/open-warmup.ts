// Runs the path an opened session takes through the page once, on a made-up hour of samples, in a
// store of its own that nothing shows, when the page first falls idle after start-up (ChartWarmup.tsx).
//
// Why: V8 compiles a function when it first runs and optimizes the loops that run long. Opening a
// long session is the first time the page runs its data path (the packed samples fed to the series
// store and the memory ring, the alert rules over every sample, LTTB for the memory chart, the
// throttle rule, the per-pixel downsampling and the canvas painter), and in a freshly loaded page
// each of them starts cold: the same 8-hour session opened a second time in one page took
// ~100 ms less of the page's ~350 ms (bench/ui.bench.ts, 2-core VM). Done here once, at idle, the
// first session a user opens starts warm. The same functions run, with the same kinds of values
// (packed cells of numbers and nulls, Float64Array columns): nothing here is a copy of the path.
//
// Nothing leaves the warm-up store: it is never shown, never connected to the API's events, and
// dropped at the end. Its API is never called (a recorded run is shown without a call).
import { PackedSamplesWriter } from '../../../../shared/api/packed-samples';
import type { KvScopeApi } from '../../../../shared/api/contract';
import type { RunEvent } from '../../../../shared/api/schemas';
import { createMemoryRing } from '../../live/ring-buffer';
import { createAppStore } from '../../state/store';
import type { RecordedRunSnapshot } from '../../state/view-types';
import { throttleFromStore } from './derived';
import { mergeEvents } from './EventsStrip';
import { buildPanelTracks, domainFor } from './panel-model';
import { PointsCache } from './points-cache';
import { TrackPainter, type CanvasLike, type ChartColors } from './track-painter';

/** An hour at 1 Hz: enough for V8 to optimize the loops, ~1/8 of an 8-hour session's work. */
const WARMUP_SECONDS = 3600;
/** The width the warm-up paints at (a wide window's panels). */
const WARMUP_WIDTH_PX = 1200;
const WARMUP_TRIP_C = 95;
const COLORS: ChartColors = {
  grid: '#222a35',
  faint: '#627086',
  throttleBand: 'rgba(255, 93, 93, 0.13)',
  font: 'sans-serif',
};

/**
 * The samples every run has, the way the collectors name them (shared/collectors): the engine's
 * token count and a procfs tick with memory, a temperature, a clock, a rail and the CPU load. The
 * values move (growth, a saw-tooth, a hot and clocked-down stretch) so every branch of the rules runs.
 */
export function warmupSamples(seconds = WARMUP_SECONDS): RecordedRunSnapshot['samples'] {
  const writer = new PackedSamplesWriter();
  for (let s = 0; s < seconds; s++) {
    const tMs = s * 1000;
    const tokens = s * 12;
    const hot = s % 600 > 400;
    writer.add(tMs, 'engine', { tokens });
    writer.add(tMs, 'procfs', {
      rssBytes: 900e6 + tokens * 32768,
      rssAnonBytes: 800e6 + tokens * 32768,
      rssFileBytes: 100e6,
      swapBytes: s % 7 === 0 ? null : (s % 60) * 4096,
      memAvailableBytes: 5e9 - tokens * 32768,
      'temp.cpu.C': (hot ? 96 : 60) + (s % 11) / 3,
      'cpufreq.policy0.KHz': hot ? 1_200_000 : 1_984_000,
      'rail.VDD_IN.mW': 9000 + (s % 17) * 120,
      cpuBusyPct: 70 + (s % 23),
    });
  }
  return writer.finish();
}

export interface WarmupResult {
  /** Samples fed to the series store and the ring. */
  samples: number;
  /** Points of the memory chart's RSS line (LTTB). */
  chartPoints: number;
  /** Throttle intervals the rule found (the made-up run has a hot stretch every 10 minutes). */
  throttleIntervals: number;
  /** Canvas tracks painted (0 without a 2D context, e.g. outside a browser). */
  tracksPainted: number;
}

/**
 * The warm-up itself: `api` only because a store is made with one (never called); `canvas`, a
 * detached canvas to paint into (null: no painting).
 */
export function warmSessionOpenPath(api: KvScopeApi, canvas: CanvasLike | null): WarmupResult {
  const store = createAppStore({ api, ring: createMemoryRing(WARMUP_SECONDS * 2) });
  const events: RunEvent[] = [
    { tMs: 0, kind: 'start', message: 'warm-up' },
    { tMs: WARMUP_SECONDS * 1000, kind: 'exit', message: 'engine exited', data: { code: 0 } },
  ];
  const snapshot: RecordedRunSnapshot = {
    status: { runId: 'kvscope-warmup', state: 'done', label: 'warm-up', engineExitCode: 0 },
    samples: warmupSamples(),
    events,
    analysis: null,
    theory: { bytesPerToken: 32768, ctx: null },
    target: null,
  };
  // As sessions-slice.ts viewSession shows a session: the packed pass, the alert rules, LTTB.
  store.getState().showRecordedRun(snapshot);
  const state = store.getState();
  const seriesStore = state.seriesStore;
  // As Dashboard.tsx derives its panels, then each track painted as TimeChart.tsx's painter does.
  const tripsC = { 'temp.cpu.C': WARMUP_TRIP_C };
  const throttle = throttleFromStore(seriesStore, WARMUP_TRIP_C);
  const merged = mergeEvents(state.run.events, state.dash.uiAlerts, throttle.intervals);
  const tracks = buildPanelTracks({ store: seriesStore, budgetBytes: 2e9, tripsC, roofline: null });
  const domain = domainFor({ follow: true, spanMs: null }, seriesStore.timeRange()) ?? { t0: 0, t1: 1 };
  const cache = new PointsCache();
  let tracksPainted = 0;
  if (canvas) {
    for (const track of Object.values(tracks).flat()) {
      const painter = new TrackPainter(
        canvas,
        () => COLORS,
        () => 1,
        () => undefined,
      );
      painter.setInputs({
        track,
        widthPx: WARMUP_WIDTH_PX,
        throttle: throttle.intervals,
        eventTimes: merged.map((e) => e.tMs),
        vLines: [],
        store: seriesStore,
        cache,
        domain,
        roofline: null,
        promptTokens: 0,
      });
      if (painter.paint()) tracksPainted += 1;
    }
  }
  return {
    samples: seriesStore.get('rssBytes')?.length ?? 0,
    chartPoints: state.chart.rss.length,
    throttleIntervals: throttle.intervals.length,
    tracksPainted,
  };
}
