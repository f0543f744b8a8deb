// What each drawn series looks like at the current view, computed at most once per change: the
// min/max-per-pixel points (downsample.ts) of a series are kept with the key they were computed
// for (the series' version, the visible window, the plot width and any extra input such as the
// roofline), and a frame that asks again with the same key gets the same object back without
// touching the series. One entry per series name (at most 2 × width + 2 points each), so the cache's size
// follows the number of series names seen, never the run's length or the number of zooms.
import type { PlotPoints } from './downsample';

export interface PointsKey {
  /** The data the points come from (a SeriesBuffer, compared by identity: a new run has new buffers). */
  source: object | undefined;
  /** Changes whenever the source data changes (SeriesBuffer.version). */
  version: number;
  t0: number;
  t1: number;
  widthPx: number;
  /** Another input the points depend on (compared by identity), e.g. the roofline parameters. */
  extra?: unknown;
}

interface Entry {
  key: PointsKey;
  points: PlotPoints;
  /** Smallest and largest y of the points (the track's y range needs them every draw). */
  yMin: number;
  yMax: number;
}

export interface CachedPoints {
  points: PlotPoints;
  yMin: number;
  yMax: number;
}

const sameKey = (a: PointsKey, b: PointsKey) =>
  a.source === b.source &&
  a.version === b.version &&
  a.t0 === b.t0 &&
  a.t1 === b.t1 &&
  a.widthPx === b.widthPx &&
  a.extra === b.extra;

export class PointsCache {
  private readonly entries = new Map<string, Entry>();
  /** Downsampling passes run (misses): a benchmark and regression-test counter, never reset. */
  computed = 0;

  /** The points of `id` for `key`: the cached ones when the key is unchanged, else compute()'s. */
  get(id: string, key: PointsKey, compute: () => PlotPoints): CachedPoints {
    const hit = this.entries.get(id);
    if (hit && sameKey(hit.key, key)) return hit;
    this.computed += 1;
    const points = compute();
    let yMin = Infinity;
    let yMax = -Infinity;
    for (let i = 0; i < points.count; i++) {
      const y = points.ys[i] ?? 0;
      if (y < yMin) yMin = y;
      if (y > yMax) yMax = y;
    }
    const entry: Entry = { key: { ...key }, points, yMin, yMax };
    this.entries.set(id, entry);
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }
}
