// The charts of a report, built from a run's stored samples and analysis (or a sweep's): which
// series, which markers, how far the axes reach. The SVG renderer (./svg-chart.ts) only draws them.
import { firstTokenMs, tokenEventsFromSamples, tokensPerSecondOverTime } from '../analysis/throughput';
import { alarmEpisodesOf, isAlarmLevelKey, isAlarmSensorSeries, PMIC_ALARM_NAME } from '../analysis/alarm-sensors';
import { lttb } from '../analysis/lttb';
import type { SweepAnalysis } from '../analysis/sweep';
import type { RunAnalysis, Sample } from '../api/schemas';
import type { ThrottleSummary } from '../analysis/throttle';
import type { TimeSeries } from '../analysis/time-series';
import { registeredSeries } from '../collectors/registry';
import { seriesName } from '../collectors/series-names';
import { formatBytes, formatCount, formatTempC } from '../format/units';
import type { SessionRun } from './session-data';
import { maxOf } from '../util/extremes';

// Sizes and reach, each with its reason.
/** Points per chart series: enough for a smooth line on an A4 page, small enough for a light file. */
export const CHART_POINTS = 400;
/** The chart extends to the OOM horizon when it lies within this many times the tokens observed. */
export const CHART_MAX_EXTEND = 8;
/** The budget line is drawn when the budget is within this factor of the highest sample. */
export const CHART_BUDGET_FACTOR = 3;

export interface ChartSeries {
  name: string;
  /** How it is drawn (svg-chart.ts STYLE): `budget` is any limit line (a budget, a trip point). */
  role: 'rss' | 'anon' | 'theory' | 'budget' | 'projection' | 'fit' | 'temperature' | 'rate';
  points: Array<[number, number]>;
}

export interface ChartMarker {
  x: number;
  kind: string;
  label: string;
}

export interface ChartModel {
  title: string;
  xLabel: string;
  /** How x values are printed on the axis. */
  xUnit: 'tokens' | 'seconds' | 'context';
  series: ChartSeries[];
  markers: ChartMarker[];
  /** Spans of x shaded across the plot (the run's throttle intervals), with their legend word. */
  bands?: { label: string; spans: Array<[number, number]> };
  /** How y values are printed on the axis (bytes when absent). */
  yUnit?: 'bytes' | 'C' | 'tokensPerSecond';
  xMax: number;
  yMax: number;
  notes: string[];
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function procfsSamples(samples: readonly Sample[]): Sample[] {
  const own = samples.filter((s) => s.source === 'procfs' && num(s.values.rssBytes) !== null);
  return own.length ? own : samples.filter((s) => num(s.values.rssBytes) !== null);
}

function down(points: Array<[number, number]>): Array<[number, number]> {
  return lttb(
    points,
    CHART_POINTS,
    (p) => p[0],
    (p) => p[1],
  );
}

/** The budget as a flat line across the chart. */
function budgetLine(budget: number, xMax: number): ChartSeries {
  return {
    name: `budget ${formatBytes(budget)}`,
    role: 'budget',
    points: [
      [0, budget],
      [xMax, budget],
    ],
  };
}

export function rssVsTokensChart(run: SessionRun, a: RunAnalysis): ChartModel | null {
  const mem = procfsSamples(run.samples);
  const events = tokenEventsFromSamples(run.samples);
  const tokensOf = (s: Sample): number | null => {
    const own = num(s.values.tokens);
    if (own !== null) return own;
    let n: number | null = null;
    for (const e of events) if (e.tMs <= s.tMs) n = e.tokens;
    return n ?? 0;
  };
  const rss: Array<[number, number]> = [];
  const anon: Array<[number, number]> = [];
  for (const s of mem) {
    const t = tokensOf(s);
    if (t === null) continue;
    rss.push([t, s.values.rssBytes as number]);
    const an = num(s.values.rssAnonBytes);
    if (an !== null) anon.push([t, an]);
  }
  if (rss.length < 2) return null;
  const maxTokens = maxOf(rss.map((p) => p[0]));
  if (maxTokens <= 0 && a.kv.mode !== 'reserved') return null;
  const series: ChartSeries[] = [{ name: 'RSS', role: 'rss', points: down(rss) }];
  if (anon.length >= 2) series.push({ name: 'anonymous RSS', role: 'anon', points: down(anon) });
  const notes: string[] = [];
  const budget = a.budgetBytes;
  const dataMax = maxOf(
    anon.map((p) => p[1]),
    maxOf(rss.map((p) => p[1])),
  );
  let xMax = Math.max(maxTokens, 1);
  // The horizon projection: from the highest decode sample to the budget.
  const horizon = a.oomHorizonTokens;
  if (
    budget !== null &&
    horizon !== null &&
    horizon > maxTokens &&
    horizon <= CHART_MAX_EXTEND * Math.max(maxTokens, 1)
  ) {
    const top = rss.reduce((m, p) => (p[1] > m[1] ? p : m));
    series.push({
      name: `projection to the budget (${formatCount(horizon)} tokens)`,
      role: 'projection',
      points: [top, [horizon, budget]],
    });
    xMax = horizon;
  }
  const theory = a.kv.theoryBytesPerToken;
  const base = a.kv.baselineBytes;
  const onAnon = a.kv.rssMetric === 'rssAnonBytes' && anon.length >= 2;
  if (theory !== null && base !== null) {
    const label = onAnon ? 'theory (on anonymous RSS)' : 'theory';
    if (a.kv.mode === 'reserved') {
      const reserved = a.kv.theoryReservedBytes ?? (run.engine?.ctx ? theory * run.engine.ctx : null);
      if (reserved !== null)
        series.push({
          name: `${label}: baseline + reserved ${formatBytes(reserved)}`,
          role: 'theory',
          points: [
            [0, base + reserved],
            [xMax, base + reserved],
          ],
        });
    } else {
      const end =
        a.kv.mode === 'window' && typeof a.kv.windowTokens === 'number' ? Math.min(a.kv.windowTokens, xMax) : xMax;
      const pts: Array<[number, number]> = [
        [0, base],
        [end, base + theory * end],
      ];
      if (end < xMax) pts.push([xMax, base + theory * end]);
      series.push({ name: `${label}: baseline + tokens × ${formatBytes(theory)}`, role: 'theory', points: pts });
    }
  }
  let yMax = dataMax;
  for (const s of series) for (const p of s.points) if (p[0] <= xMax) yMax = Math.max(yMax, p[1]);
  if (budget !== null) {
    if (budget <= CHART_BUDGET_FACTOR * yMax || series.some((s) => s.role === 'projection')) {
      series.push(budgetLine(budget, xMax));
      yMax = Math.max(yMax, budget);
    } else
      notes.push(`The ${formatBytes(budget)} budget is far above this chart (peak ${formatBytes(a.peakRssBytes)}).`);
  }
  return {
    title: 'RSS against generated tokens',
    xLabel: 'tokens generated',
    xUnit: 'tokens',
    series,
    markers: [],
    xMax,
    yMax: yMax * 1.05,
    notes,
  };
}

export function rssOverTimeChart(run: SessionRun, a: RunAnalysis): ChartModel | null {
  const mem = procfsSamples(run.samples);
  if (mem.length < 2) return null;
  const rss: Array<[number, number]> = mem.map((s) => [s.tMs / 1000, s.values.rssBytes as number]);
  const anon: Array<[number, number]> = [];
  for (const s of mem) {
    const v = num(s.values.rssAnonBytes);
    if (v !== null) anon.push([s.tMs / 1000, v]);
  }
  const lastT = maxOf(
    run.events.map((e) => e.tMs / 1000),
    maxOf(rss.map((p) => p[0])),
  );
  const xMax = Math.max(lastT, 0.001);
  const series: ChartSeries[] = [{ name: 'RSS', role: 'rss', points: down(rss) }];
  if (anon.length >= 2) series.push({ name: 'anonymous RSS', role: 'anon', points: down(anon) });
  let yMax = maxOf(
    anon.map((p) => p[1]),
    maxOf(rss.map((p) => p[1])),
  );
  const budget = a.budgetBytes;
  if (budget !== null && budget <= CHART_BUDGET_FACTOR * yMax) {
    series.push(budgetLine(budget, xMax));
    yMax = Math.max(yMax, budget);
  }
  const first = firstTokenMs(tokenEventsFromSamples(run.samples));
  const markers: ChartMarker[] = [];
  if (first !== null) markers.push({ x: first / 1000, kind: 'token', label: 'first token' });
  for (const e of run.events) {
    if (e.kind === 'start' || e.kind === 'info') continue;
    markers.push({ x: e.tMs / 1000, kind: e.kind, label: e.kind });
  }
  return {
    title: 'RSS over time',
    xLabel: 'seconds since the run started',
    xUnit: 'seconds',
    series,
    markers,
    xMax,
    yMax: yMax * 1.05,
    notes: [],
  };
}

/** Temperature lines a chart draws at most: the sensors that rose highest (a board lists a dozen zones). */
export const MAX_TEMPERATURE_LINES = 6;

/**
 * Temperatures over time: the sensors that rose highest, the trip point the throttle rule used, the
 * throttle intervals shaded. An alarm level (the Jetson PMIC's, ../analysis/alarm-sensors.ts) is
 * not a temperature: not drawn, its fixed 100 °C neither the "highest" sensor nor the reach of the
 * scale; its alarms are marked where they fire. Null without two readings of any temperature.
 */
export function temperatureChart(
  byKey: ReadonlyMap<string, TimeSeries>,
  throttle: ThrottleSummary | null,
): ChartModel | null {
  const lines = registeredSeries(byKey.keys())
    // Readings only: a trip point (kind limit) is where the kernel acts, not a sensor that rose.
    .filter((series) => series.unit === 'C' && series.kind !== 'limit' && !isAlarmSensorSeries(series.key))
    .map((series) => {
      const values = byKey.get(series.key);
      const points: Array<[number, number]> = [];
      for (let i = 0; values && i < values.length; i++) points.push([(values.t[i] ?? 0) / 1000, values.v[i] ?? 0]);
      return { series, points, highest: maxOf(points.map((p) => p[1])) };
    })
    .filter((line) => line.points.length >= 2)
    .sort((a, b) => b.highest - a.highest);
  if (lines.length === 0) return null;
  const drawn = lines.slice(0, MAX_TEMPERATURE_LINES);
  const xMax = maxOf(
    drawn.map((line) => line.points[line.points.length - 1]?.[0] ?? 0),
    0.001,
  );
  const series: ChartSeries[] = drawn.map((line) => ({
    name: seriesName(line.series),
    role: 'temperature',
    points: down(line.points),
  }));
  let yMax = maxOf(drawn.map((line) => line.highest));
  const tripC = throttle?.tripC ?? null;
  if (tripC !== null) {
    series.push({
      name: `trip point ${formatTempC(tripC)}`,
      role: 'budget',
      points: [
        [0, tripC],
        [xMax, tripC],
      ],
    });
    yMax = Math.max(yMax, tripC);
  }
  const spans = (throttle?.intervals ?? []).map((i): [number, number] => [i.startMs / 1000, i.endMs / 1000]);
  const notes =
    lines.length > drawn.length
      ? [`${lines.length - drawn.length} cooler sensors are not drawn; the board signals list every one.`]
      : [];
  const alarmKeys = [...byKey.keys()].filter(isAlarmLevelKey).sort();
  const episodes = alarmEpisodesOf((k) => byKey.get(k), alarmKeys);
  if (alarmKeys.length > 0)
    notes.push(
      `${registeredSeries(alarmKeys).map(seriesName).join(', ')}: the ${PMIC_ALARM_NAME}, a level and not a temperature, is not drawn; ${
        episodes.length > 0 ? 'its alarms are marked' : 'no alarm in the run'
      }.`,
    );
  return {
    title: 'Temperatures over time',
    xLabel: 'seconds since the run started',
    xUnit: 'seconds',
    series,
    markers: episodes.map((e) => ({ x: e.startMs / 1000, kind: 'alert', label: `PMIC alarm ${e.alarm}` })),
    ...(spans.length > 0 ? { bands: { label: 'throttled', spans } } : {}),
    yUnit: 'C',
    xMax,
    yMax: yMax * 1.05,
    notes,
  };
}

/**
 * The tokens/s chart's window: 2 s, a 200th of the decode for a long run (an 8-hour run: 144 s),
 * a 10th for a run shorter than 20 s (a 2 s window would not fit in a short demo twice).
 */
const RATE_WINDOW_MS = 2000;
const RATE_WINDOWS_PER_RUN = 200;
const RATE_WINDOWS_PER_SHORT_RUN = 10;

/**
 * Tokens per second over time (the tokens generated in a sliding window), the throttle intervals
 * shaded: what the board delivered, and what throttling took from it. Null with fewer than three
 * token arrivals.
 */
export function throughputChart(run: SessionRun, throttle: ThrottleSummary | null): ChartModel | null {
  const events = tokenEventsFromSamples(run.samples);
  const first = firstTokenMs(events);
  const last = events[events.length - 1];
  if (events.length < 3 || first === null || !last || last.tMs <= first) return null;
  const spanMs = last.tMs - first;
  const windowMs = Math.round(
    Math.max(Math.min(RATE_WINDOW_MS, spanMs / RATE_WINDOWS_PER_SHORT_RUN), spanMs / RATE_WINDOWS_PER_RUN),
  );
  // A decode of a few milliseconds (a server turn of 8 tokens in 35 ms) has no window to rate over.
  if (windowMs < 1) return null;
  const rates = tokensPerSecondOverTime(events, { windowMs, stepMs: windowMs / 2 });
  if (rates.length < 2) return null;
  const points = rates.map((r): [number, number] => [r.tMs / 1000, r.tokensPerSecond]);
  const spans = (throttle?.intervals ?? []).map((i): [number, number] => [i.startMs / 1000, i.endMs / 1000]);
  return {
    title: 'Tokens per second over time',
    xLabel: 'seconds since the run started',
    xUnit: 'seconds',
    series: [
      { name: `tokens/s over ${formatCount(windowMs / 1000, 2)} s windows`, role: 'rate', points: down(points) },
    ],
    markers: [],
    ...(spans.length > 0 ? { bands: { label: 'throttled', spans } } : {}),
    yUnit: 'tokensPerSecond',
    xMax: maxOf(
      spans.map((span) => span[1]),
      last.tMs / 1000,
    ),
    yMax: maxOf(points.map((p) => p[1])) * 1.05,
    notes: [],
  };
}

/** Peak memory against context size: the measured points, the fit through them, the budget. */
export function sweepChart(analysis: SweepAnalysis): ChartModel {
  const metric = analysis.rssMetric;
  const measuredPts: Array<[number, number]> = analysis.points
    .map(
      (p) =>
        [p.ctx, metric === 'peakAnonRssBytes' ? p.peakAnonRssBytes : p.peakRssBytes] as [
          number,
          number | null | undefined,
        ],
    )
    .filter((p): p is [number, number] => typeof p[1] === 'number');
  const xMax = maxOf(analysis.points.map((p) => p.ctx));
  const series: ChartSeries[] = [
    { name: metric === 'peakAnonRssBytes' ? 'peak anonymous RSS' : 'peak RSS', role: 'rss', points: measuredPts },
  ];
  if (analysis.measuredBytesPerToken !== null && analysis.baselineBytes !== null) {
    series.push({
      name: `fit: ${formatBytes(analysis.measuredBytesPerToken)}/token`,
      role: 'fit',
      points: [
        [0, analysis.baselineBytes],
        [xMax, analysis.baselineBytes + analysis.measuredBytesPerToken * xMax],
      ],
    });
  }
  let yMax = maxOf(
    series.flatMap((s) => s.points.map((p) => p[1])),
    0,
  );
  if (analysis.budgetBytes !== null && analysis.budgetBytes <= CHART_BUDGET_FACTOR * yMax) {
    series.push({
      name: `budget ${formatBytes(analysis.budgetBytes)}`,
      role: 'budget',
      points: [
        [0, analysis.budgetBytes],
        [xMax, analysis.budgetBytes],
      ],
    });
    yMax = Math.max(yMax, analysis.budgetBytes);
  }
  return {
    title: 'Peak memory against context size',
    xLabel: 'context size (tokens)',
    xUnit: 'context',
    series,
    markers: [],
    xMax,
    yMax: yMax * 1.05,
    notes: [],
  };
}
