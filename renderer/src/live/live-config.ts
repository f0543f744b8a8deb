// Fixed sizes of the live view, with their reasons (docs/DEVELOPING.md: one place for thresholds).

/**
 * Samples kept for the chart. 2^18 rows × 5 Float64 columns ≈ 10 MB; a 100 ms sampler fills it
 * in ~7 hours, after which the oldest samples leave the chart (the session keeps them all).
 */
export const RING_CAPACITY = 1 << 18;

/**
 * The page's tick: the store (and so React) sees new samples 4 times a second, never per sample
 * (zustand "transient updates"). The live-run slice's chart and readouts and the dashboard's
 * series and alerts are published in the same tick (state/store.ts startPageTicker): one React
 * render and one frame per tick. Two timers of their own had the page lay out, paint and
 * hit-test the resting cursor twice as often in a live run.
 */
export const PAGE_TICK_MS = 250;

/**
 * recharts needs ~1.5 s to paint 5,000 raw points here (docs/DEVELOPING.md, "The test machine"): LTTB down to this many per
 * series. 500 is about one point per 2 px of the chart's width, where LTTB keeps the curve's shape,
 * and keeps opening an 8-hour session within issue 9's 300 ms first paint (bench/ui.bench.ts).
 */
export const MAX_POINTS_PER_SERIES = 500;

/** Engine output lines kept for the log panel. */
export const OUTPUT_TAIL_LINES = 300;

/** Run events kept for the event list. */
export const MAX_EVENTS = 500;

/** A budget further above the data than this factor is not drawn to scale unless asked for. */
export const BUDGET_SCALE_FACTOR = 3;
