// Fixed sizes of the live view, with their reasons (docs/DEVELOPING.md: one place for thresholds).

/**
 * Samples kept for the chart. 2^18 rows × 5 Float64 columns ≈ 10 MB; a 100 ms sampler fills it
 * in ~7 hours, after which the oldest samples leave the chart (the session keeps them all).
 */
export const RING_CAPACITY = 1 << 18;

/** The store (and so React) sees new samples 4 times a second, never per sample (zustand "transient updates"). */
export const CHART_TICK_MS = 250;

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
