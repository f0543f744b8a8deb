// Every collected series of the run on screen, outside React: one pair of Float64Arrays (time,
// value) per series name, appended as samples arrive and read by the panels a few times per
// second. Any key a collector adds becomes a series with no code change here.
import type { PackedSampleSink } from '../../../../shared/api/packed-samples';
import type { Sample } from '../../../../shared/api/schemas';

/**
 * Points kept per series. 2^19 × 2 Float64 = 8 MiB at most per series; a 10 Hz sampler fills it in
 * ~14.5 hours, a 1 Hz one in 6 days. Past it the oldest half is dropped at once (amortised O(1)).
 */
export const SERIES_MAX_POINTS = 1 << 19;
const INITIAL_POINTS = 1024;

/**
 * Token counts arrive per batch of engine output (up to one per 10 ms spool tick): points closer
 * than this are merged (the newest slides forward), which keeps a rolling tokens/s exact at
 * windows of a second or more and the series 10× smaller.
 */
export const TOKEN_POINT_SPACING_MS = 100;

/** Keys of a sample that are not series: engine bookkeeping. */
const NOT_SERIES: ReadonlySet<string> = new Set(['started']);

/** Whether a sample's key is drawn as a series. */
function isSeriesKey(key: string, fromEngine: boolean): boolean {
  // The sampler repeats the engine's token count at its tick; the engine's own samples are exact.
  return !NOT_SERIES.has(key) && (key !== 'tokens' || fromEngine);
}

export class SeriesBuffer {
  t: Float64Array;
  v: Float64Array;
  length = 0;
  /** Points dropped from the front because the buffer was full. */
  dropped = 0;
  /** Bumps on every change (a point added, replaced or merged): the downsample cache's key (points-cache.ts). */
  version = 0;

  constructor(
    private readonly maxPoints = SERIES_MAX_POINTS,
    private readonly minSpacingMs = 0,
  ) {
    const initial = Math.min(INITIAL_POINTS, maxPoints);
    this.t = new Float64Array(initial);
    this.v = new Float64Array(initial);
  }

  get lastT(): number {
    return this.length > 0 ? (this.t[this.length - 1] ?? -Infinity) : -Infinity;
  }

  /**
   * Appends (tMs, value) when tMs is newer than the last point; the same tMs replaces the value
   * (a tick reported twice). Older points are ignored: live events and getRun overlap.
   */
  push(tMs: number, value: number): boolean {
    const n = this.length;
    const last = this.lastT;
    if (tMs < last) return false;
    this.version += 1;
    if (tMs === last) {
      this.v[n - 1] = value;
      return true;
    }
    // Merge into the newest point when the one before it is within the spacing.
    if (this.minSpacingMs > 0 && n >= 2 && tMs - (this.t[n - 2] ?? -Infinity) < this.minSpacingMs) {
      this.t[n - 1] = tMs;
      this.v[n - 1] = value;
      return true;
    }
    if (n === this.t.length) this.grow();
    this.t[this.length] = tMs;
    this.v[this.length] = value;
    this.length += 1;
    return true;
  }

  /** Room for `more` points after the ones held (up to the cap), in one allocation. */
  reserve(more: number): void {
    const size = Math.min(this.maxPoints, this.length + Math.max(0, Math.floor(more)));
    if (size <= this.t.length) return;
    const t = new Float64Array(size);
    const v = new Float64Array(size);
    t.set(this.t.subarray(0, this.length));
    v.set(this.v.subarray(0, this.length));
    this.t = t;
    this.v = v;
  }

  private grow() {
    if (this.t.length < this.maxPoints) {
      const size = Math.min(this.maxPoints, this.t.length * 2);
      const t = new Float64Array(size);
      const v = new Float64Array(size);
      t.set(this.t);
      v.set(this.v);
      this.t = t;
      this.v = v;
      return;
    }
    const half = this.length >> 1;
    this.t.copyWithin(0, half, this.length);
    this.v.copyWithin(0, half, this.length);
    this.length -= half;
    this.dropped += half;
  }
}

export class SeriesStore {
  private readonly map = new Map<string, SeriesBuffer>();
  /** Changes whenever a point is added or the store is cleared: readers skip work when it did not. */
  version = 0;
  private minT = Infinity;
  private maxT = -Infinity;

  constructor(private readonly maxPoints = SERIES_MAX_POINTS) {}

  ingest(samples: readonly Sample[]): void {
    for (const sample of samples) {
      if (!Number.isFinite(sample.tMs)) continue;
      const engine = sample.source === 'engine';
      let added = false;
      // for…in, not Object.entries: a session's snapshot is ~10^5 samples, and the pairs are garbage.
      const values = sample.values;
      for (const key in values) {
        const value = values[key];
        if (typeof value !== 'number' || !Number.isFinite(value) || !isSeriesKey(key, engine)) continue;
        if (this.bufferOf(key).push(sample.tMs, value)) added = true;
      }
      if (added) this.noteTime(sample.tMs);
    }
  }

  /**
   * The same ingestion for packed samples (an opened session, shared/api/packed-samples.ts): the
   * shape's series keys are picked once, then each sample's values go straight from the cells to
   * the buffers, with no Sample object on the way.
   */
  packedSink(): PackedSampleSink {
    return {
      shape: (source, keys, count) => {
        const engine = source === 'engine';
        const wanted = keys.flatMap((key, k) => (isSeriesKey(key, engine) ? [{ key, k }] : []));
        if (wanted.length === 0) return null;
        // Resolved on the first finite value: a key whose values are all null makes no series.
        // Sized then for every sample of the shape (at most one point each).
        const buffers: Array<SeriesBuffer | undefined> = wanted.map(() => undefined);
        const resolve = (key: string) => {
          const buffer = this.bufferOf(key);
          buffer.reserve(count);
          return buffer;
        };
        return (tMs, cells, valuesAt) => {
          if (!Number.isFinite(tMs)) return;
          let added = false;
          for (let w = 0; w < wanted.length; w++) {
            const { key, k } = wanted[w] as { key: string; k: number };
            const value = cells[valuesAt + k];
            if (typeof value !== 'number' || !Number.isFinite(value)) continue;
            const buffer = (buffers[w] ??= resolve(key));
            if (buffer.push(tMs, value)) added = true;
          }
          if (added) this.noteTime(tMs);
        };
      },
    };
  }

  private bufferOf(key: string): SeriesBuffer {
    let buffer = this.map.get(key);
    if (!buffer) {
      buffer = new SeriesBuffer(this.maxPoints, key === 'tokens' ? TOKEN_POINT_SPACING_MS : 0);
      this.map.set(key, buffer);
    }
    return buffer;
  }

  private noteTime(tMs: number) {
    if (tMs < this.minT) this.minT = tMs;
    if (tMs > this.maxT) this.maxT = tMs;
    this.version += 1;
  }

  get(key: string): SeriesBuffer | undefined {
    return this.map.get(key);
  }

  keys(): string[] {
    return [...this.map.keys()];
  }

  /** First and last time with any point, or null when empty. */
  timeRange(): [number, number] | null {
    return this.minT <= this.maxT ? [this.minT, this.maxT] : null;
  }

  /** Total points held (for the status line and the benchmark). */
  get points(): number {
    let n = 0;
    for (const b of this.map.values()) n += b.length;
    return n;
  }

  /** Bytes of the buffers (their capacity, not only the points held): the heap the series take. */
  get bytes(): number {
    let n = 0;
    for (const b of this.map.values()) n += b.t.byteLength + b.v.byteLength;
    return n;
  }

  clear(): void {
    this.map.clear();
    this.minT = Infinity;
    this.maxT = -Infinity;
    this.version += 1;
  }
}
