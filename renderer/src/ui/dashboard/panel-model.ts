// From the series store to what each panel draws: tracks grouped by unit, every series
// downsampled to the visible window and the chart's width, with the reference lines of the
// panel (budget, trip points, roofline ceiling). Pure: tested without React.
import type { RooflineParams } from '../../../../shared/analysis/roofline';
import { minMaxPerPixel, type PlotPoints } from './downsample';
import { ceilingOverTime, rollingTokensPerSecond } from './derived';
import { describeSeries, displayUnit, toDisplay, trackTitle, type PanelId, type SeriesInfo } from './series-catalog';
import type { SeriesStore } from './series-store';
import type { Domain, RefLine, TrackModel } from './TimeChart';

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

export interface PanelInputs {
  store: SeriesStore;
  domain: Domain;
  /** Width of the plot area in pixels (downsampling target). */
  plotWidthPx: number;
  budgetBytes: number | null;
  /** Trip point per temperature series key, °C. */
  tripsC: Record<string, number>;
  roofline: RooflineParams | null;
  promptTokens: number;
}

export type PanelTracks = Record<Exclude<PanelId, 'events'>, TrackModel[]>;

function scaled(points: PlotPoints, info: SeriesInfo): PlotPoints {
  if (displayUnit(info.unit) === info.unit) return points;
  const ys = new Float64Array(points.count);
  for (let i = 0; i < points.count; i++) ys[i] = toDisplay(info.unit, points.ys[i] ?? 0);
  return { xs: points.xs, ys, count: points.count };
}

/** Which series exist and where they go. */
export function catalog(store: SeriesStore): SeriesInfo[] {
  return store
    .keys()
    .map((k) => describeSeries(k))
    .filter((s): s is SeriesInfo => s !== null);
}

export function buildPanelTracks(input: PanelInputs): PanelTracks {
  const { store, domain, plotWidthPx } = input;
  const out: PanelTracks = { memory: [], throughput: [], thermal: [], power: [] };
  const byTrack = new Map<string, { panel: Exclude<PanelId, 'events'>; infos: SeriesInfo[] }>();
  for (const info of catalog(store)) {
    const entry = byTrack.get(info.track) ?? { panel: info.panel, infos: [] };
    entry.infos.push(info);
    byTrack.set(info.track, entry);
  }
  for (const [track, { panel, infos }] of byTrack) {
    infos.sort((a, b) => a.key.localeCompare(b.key));
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
    out[panel].push({
      id: track,
      title: trackTitle(track),
      unit: displayUnit(infos[0]?.unit ?? 'count'),
      refLines,
      series: infos.map((info, i) => {
        const b = store.get(info.key);
        const points = b ? minMaxPerPixel(b.t, b.v, b.length, domain.t0, domain.t1, plotWidthPx) : emptyPoints();
        return {
          key: info.key,
          label: info.label,
          color: FIXED_COLORS[info.key] ?? SERIES_PALETTE[i % SERIES_PALETTE.length] ?? '#888',
          points: scaled(points, info),
        };
      }),
    });
  }
  const order = ['process-memory', 'system-memory', 'memory-pressure', 'temperature', 'clocks', 'load'];
  for (const tracks of Object.values(out))
    tracks.sort((a, b) => ((order.indexOf(a.id) + 99) % 99) - ((order.indexOf(b.id) + 99) % 99));

  const tokens = store.get('tokens');
  const rate = rollingTokensPerSecond(tokens, domain.t0, domain.t1, plotWidthPx);
  if (rate.count > 0) {
    const ceiling = ceilingOverTime(tokens, input.roofline, input.promptTokens, domain.t0, domain.t1, plotWidthPx);
    out.throughput.push({
      id: 'tokens-per-second',
      title: 'Tokens/s',
      unit: 'tokens-per-second',
      refLines: [],
      series: [
        {
          key: 'tokensPerSecond',
          label: 'tokens/s (2 s window)',
          color: FIXED_COLORS.tokensPerSecond ?? '#4c9bff',
          points: rate,
        },
        ...(ceiling.count > 0
          ? [
              {
                key: 'ceiling',
                label: 'roofline ceiling',
                color: FIXED_COLORS.ceiling ?? '#c77dff',
                points: ceiling,
                dashed: true,
              },
            ]
          : []),
      ],
    });
  }
  return out;
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
