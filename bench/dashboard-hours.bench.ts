// The dashboard's standing cost late in a long live run: each look (4 a second, PAGE_TICK_MS)
// that finds new samples recomputes what depends on the whole run — the throttle intervals and the
// tokens/s they cost (derived.ts throttleFromStore), the RSS-against-tokens chart's series
// (live/chart-series.ts buildChartSeries over the memory ring) and every time track's per-pixel
// points over the whole run (downsample.ts minMaxPerPixel, the "Whole run" view following the
// run's end). Measured in node on the renderer's own code, with the series a run at 1 Hz and at
// 10 Hz holds after 1 and 8 hours (12 series, as the UI bench's session), so the figure says how
// the live view scales with the run's length; the Chromium live bench (ui.bench.ts) measures the
// first minute in the page.
import { buildChartSeries } from '../renderer/src/live/chart-series';
import { PAGE_TICK_MS, RING_CAPACITY } from '../renderer/src/live/live-config';
import { createMemoryRing } from '../renderer/src/live/ring-buffer';
import { rollingTokensPerSecond, throttleFromStore } from '../renderer/src/ui/dashboard/derived';
import { minMaxPerPixel } from '../renderer/src/ui/dashboard/downsample';
import { SeriesStore } from '../renderer/src/ui/dashboard/series-store';
import type { Sample } from '../shared/api/schemas';
import type { BenchRow } from './bench-util';
import { runSamplesAt } from './run-samples';

/** A track's width in CSS pixels on a laptop screen (the UI bench's page is 1280 wide). */
const WIDTH_PX = 1200;
/** The memory chart's points per series (live-run-slice.ts MAX_POINTS_PER_SERIES). */
const CHART_POINTS = 500;
const REPEATS = 7;
/** Calls before the timed ones: the code optimised, as a page minutes into a run has it. */
const WARM_UPS = 5;

function filled(seconds: number, hz: number) {
  const store = new SeriesStore();
  const ring = createMemoryRing(RING_CAPACITY);
  const n = seconds * hz;
  const batch: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const [engine, procfs] = runSamplesAt(i, hz);
    if (!engine || !procfs) continue;
    batch.push(engine, procfs);
    const v = procfs.values;
    ring.push({
      tMs: procfs.tMs,
      tokens: engine.values.tokens,
      rssBytes: v.rssBytes,
      rssAnonBytes: v.rssAnonBytes,
      rssFileBytes: v.rssFileBytes,
    });
    if (batch.length >= 20_000) {
      store.ingest(batch);
      batch.length = 0;
    }
  }
  store.ingest(batch);
  return { store, ring, n };
}

/** Median ms of `f` over REPEATS calls after WARM_UPS. */
function timeMs(f: () => unknown): number {
  for (let k = 0; k < WARM_UPS; k++) f();
  const times: number[] = [];
  for (let k = 0; k < REPEATS; k++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(REPEATS / 2)] ?? NaN;
}

export function benchDashboardHours(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [hours, hz] of [
    [1, 1],
    [8, 1],
    [1, 10],
    [8, 10],
  ] as const) {
    const { store, ring, n } = filled(hours * 3600, hz);
    const [t0, t1] = store.timeRange() ?? [0, 1];
    const throttle = timeMs(() => throttleFromStore(store, 85, {}));
    const chart = timeMs(() => buildChartSeries(ring, { analysis: null }, CHART_POINTS));
    const tracks = timeMs(() => {
      for (const key of store.keys()) {
        const s = store.get(key);
        if (s) minMaxPerPixel(s.t, s.v, s.length, t0, t1, WIDTH_PX);
      }
      rollingTokensPerSecond(store.get('tokens'), t0, t1, WIDTH_PX);
    });
    const look = throttle + chart + tracks;
    // A look recomputes only when samples arrived since the last one.
    const looksPerSecond = Math.min(hz, 1000 / PAGE_TICK_MS);
    rows.push({
      name: `live look after ${hours} h at ${hz} Hz (${n} samples a series)`,
      value: `${look.toFixed(1)} ms`,
      note: `throttle ${throttle.toFixed(1)} ms, memory chart series ${chart.toFixed(1)} ms, ${store.keys().length} tracks' points at ${WIDTH_PX} px ${tracks.toFixed(1)} ms; ${looksPerSecond} looks a second with new samples → ${((look * looksPerSecond) / 10).toFixed(1)} % of the page's main thread (before React and the canvas); median of ${REPEATS}, node, this machine`,
    });
  }
  return Promise.resolve(rows);
}
