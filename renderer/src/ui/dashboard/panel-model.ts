// From the series store to what each panel draws, in two parts. The layout (which tracks, which
// series in them, labels, colours, reference lines) changes only when a series appears or a
// setting changes, and is what React renders (legends, readouts, one canvas per track). The
// points of a series (min/max per pixel of the visible window, in the display unit) change with
// every sample and view, and are computed in the frame that draws them, through PointsCache
// (points-cache.ts), so an unchanged series costs nothing. Pure: tested without React.
import { PMIC_ALARM_LEVELS_C } from '../../../../shared/analysis/alarm-sensors';
import type { RooflineParams } from '../../../../shared/analysis/roofline';
import { naturalOrder } from '../../../../shared/util/natural-order';
import { minMaxPerPixel, type PlotPoints } from './downsample';
import { ceilingOverTime, rollingTokensPerSecond } from './derived';
import type { CachedPoints, PointsCache } from './points-cache';
import {
  describeSeriesList,
  displayUnit,
  toDisplay,
  trackTitle,
  type PanelId,
  type SeriesInfo,
  type SeriesUnit,
} from './series-catalog';
import type { SeriesStore } from './series-store';

export interface Domain {
  t0: number;
  t1: number;
}

export interface TrackSeries {
  key: string;
  label: string;
  color: string;
  dashed?: boolean;
  /** The unit the store holds it in (converted to the track's display unit when drawn). */
  sourceUnit: SeriesUnit | 'tokens-per-second';
}

export interface RefLine {
  y: number;
  label: string;
  color: string;
}

export interface VLine {
  tMs: number;
  label: string;
  color: string;
}

export interface TrackModel {
  id: string;
  title: string;
  unit: SeriesUnit | 'tokens-per-second';
  series: TrackSeries[];
  refLines: RefLine[];
  /**
   * Its series are alarm levels, not readings (shared/analysis/alarm-sensors.ts): the y range holds
   * every reference line (the alarm levels), the readout says which alarm is raised.
   */
  alarmLevel?: true;
}

/** Colours by position in a track (readable on the dark and the light theme). */
export const SERIES_PALETTE = ['#4c9bff', '#f0a020', '#2fb87e', '#c77dff', '#ff6b6b', '#18b5c9', '#d4b000', '#ff8fcf'];
/** Fixed colours for series people compare across runs (the memory chart uses the same). */
const FIXED_COLORS: Record<string, string> = {
  rssBytes: '#4c9bff',
  rssAnonBytes: '#f0a020',
  rssFileBytes: '#2fb87e',
  tokensPerSecond: '#4c9bff',
  ceiling: '#c77dff',
};
export const BUDGET_COLOR = '#ff5d5d';

/**
 * The colours of one track's series: a series people compare across runs keeps its fixed colour,
 * and the others take the palette's colours in order, skipping those the fixed ones hold (PSS drew
 * in RSS's blue beside it). A track of more series than free colours repeats them.
 */
export function trackColors(keys: readonly string[]): string[] {
  const fixed = keys.map((k) => FIXED_COLORS[k]);
  const taken = new Set(fixed.filter((c): c is string => c !== undefined));
  const free = SERIES_PALETTE.filter((c) => !taken.has(c));
  const pool = free.length > 0 ? free : SERIES_PALETTE;
  let next = 0;
  return fixed.map((c) => c ?? pool[next++ % pool.length] ?? '#888');
}

export interface PanelInputs {
  store: SeriesStore;
  budgetBytes: number | null;
  /** Trip point per temperature series key, °C. */
  tripsC: Record<string, number>;
  roofline: RooflineParams | null;
}

export type PanelTracks = Record<Exclude<PanelId, 'events'>, TrackModel[]>;

/** Which series exist and where they go. */
export function catalog(store: SeriesStore): SeriesInfo[] {
  return describeSeriesList(store.keys());
}

/** Changes exactly when buildPanelTracks' answer can change for the same settings (a series appeared). */
export function layoutSignature(store: SeriesStore): string {
  return `${store.keys().join('\n')}\n${hasTokenRate(store)}`;
}

/** A token count of at least 1 at two points or more: the tokens/s track has something to draw. */
function hasTokenRate(store: SeriesStore): boolean {
  const tokens = store.get('tokens');
  return !!tokens && tokens.length >= 2 && (tokens.v[tokens.length - 1] ?? 0) >= 1;
}

export function buildPanelTracks(input: PanelInputs): PanelTracks {
  const { store } = input;
  const out: PanelTracks = { memory: [], throughput: [], thermal: [], power: [] };
  const byTrack = new Map<string, { panel: Exclude<PanelId, 'events'>; infos: SeriesInfo[] }>();
  for (const info of catalog(store)) {
    const entry = byTrack.get(info.track) ?? { panel: info.panel, infos: [] };
    entry.infos.push(info);
    byTrack.set(info.track, entry);
  }
  for (const [track, { panel, infos }] of byTrack) {
    infos.sort((a, b) => naturalOrder(a.key, b.key));
    const refLines: RefLine[] = [];
    if (track === 'process-memory' && input.budgetBytes !== null)
      refLines.push({ y: input.budgetBytes, label: 'budget', color: BUDGET_COLOR });
    if (track === 'temperature') {
      const trips = new Set<number>();
      for (const info of infos) {
        const trip = input.tripsC[info.key];
        if (trip !== undefined) trips.add(trip);
      }
      for (const trip of trips) refLines.push({ y: trip, label: `trip ${trip} °C`, color: BUDGET_COLOR });
    }
    const alarmLevel = track === 'alarm-level';
    if (alarmLevel)
      PMIC_ALARM_LEVELS_C.forEach((y, i) =>
        refLines.push({ y, label: `alarm ${i + 1}: ${y} °C`, color: BUDGET_COLOR }),
      );
    const colors = trackColors(infos.map((info) => info.key));
    out[panel].push({
      id: track,
      title: trackTitle(track),
      unit: displayUnit(infos[0]?.unit ?? 'count'),
      refLines,
      ...(alarmLevel ? { alarmLevel: true as const } : {}),
      series: infos.map((info, i) => ({
        key: info.key,
        label: info.label,
        color: colors[i] ?? '#888',
        sourceUnit: info.unit,
      })),
    });
  }
  const order = [
    'process-memory',
    'system-memory',
    'memory-pressure',
    'temperature',
    'alarm-level',
    'limits',
    'clocks',
    'load',
  ];
  for (const tracks of Object.values(out))
    tracks.sort((a, b) => ((order.indexOf(a.id) + 99) % 99) - ((order.indexOf(b.id) + 99) % 99));

  if (hasTokenRate(store))
    out.throughput.push({
      id: 'tokens-per-second',
      title: 'Tokens/s',
      unit: 'tokens-per-second',
      refLines: [],
      series: [
        {
          key: TOKENS_PER_SECOND,
          label: 'tokens/s (2 s window)',
          color: FIXED_COLORS.tokensPerSecond ?? '#4c9bff',
          sourceUnit: 'tokens-per-second',
        },
        ...(input.roofline
          ? [
              {
                key: CEILING,
                label: 'roofline ceiling',
                color: FIXED_COLORS.ceiling ?? '#c77dff',
                dashed: true,
                sourceUnit: 'tokens-per-second' as const,
              },
            ]
          : []),
      ],
    });
  return out;
}

/** Keys of the derived series (computed from the token count, not held in the store). */
export const TOKENS_PER_SECOND = 'tokensPerSecond';
export const CEILING = 'ceiling';

export interface PointsInputs {
  store: SeriesStore;
  cache: PointsCache;
  domain: Domain;
  /** Width of the plot area in pixels (downsampling target). */
  plotWidthPx: number;
  roofline: RooflineParams | null;
  promptTokens: number;
}

/**
 * The points of one drawn series at the view, in its track's display unit: from the cache when
 * neither the series nor the view changed since the last frame.
 */
export function seriesPoints(series: TrackSeries, input: PointsInputs): CachedPoints {
  const { store, cache, domain, plotWidthPx } = input;
  const { t0, t1 } = domain;
  if (series.key === TOKENS_PER_SECOND || series.key === CEILING) {
    const tokens = store.get('tokens');
    const key = { source: tokens, version: tokens?.version ?? -1, t0, t1, widthPx: plotWidthPx };
    if (series.key === TOKENS_PER_SECOND)
      return cache.get(series.key, key, () => rollingTokensPerSecond(tokens, t0, t1, plotWidthPx));
    return cache.get(series.key, { ...key, extra: input.roofline }, () =>
      ceilingOverTime(tokens, input.roofline, input.promptTokens, t0, t1, plotWidthPx),
    );
  }
  const b = store.get(series.key);
  const unit = series.sourceUnit;
  return cache.get(series.key, { source: b, version: b?.version ?? -1, t0, t1, widthPx: plotWidthPx }, () => {
    const points = b ? minMaxPerPixel(b.t, b.v, b.length, t0, t1, plotWidthPx) : emptyPoints();
    if (unit === 'tokens-per-second' || displayUnit(unit) === unit) return points;
    const ys = new Float64Array(points.count);
    for (let i = 0; i < points.count; i++) ys[i] = toDisplay(unit, points.ys[i] ?? 0);
    return { xs: points.xs, ys, count: points.count };
  });
}

function emptyPoints(): PlotPoints {
  return { xs: new Float64Array(0), ys: new Float64Array(0), count: 0 };
}

/** The visible window: the whole run, its last spanMs (following), or a fixed window. */
export function domainFor(
  view: { follow: true; spanMs: number | null } | { follow: false; t0: number; t1: number },
  range: [number, number] | null,
): Domain | null {
  if (!view.follow) return view.t1 > view.t0 ? { t0: view.t0, t1: view.t1 } : null;
  if (!range) return null;
  const [lo, hi] = range;
  const t1 = Math.max(hi, lo + 1000);
  return { t0: view.spanMs === null ? lo : Math.max(lo, t1 - view.spanMs), t1 };
}
