// A series as the analyses read it: one key's values in time order, whether from a run's samples
// (seriesOfSamples) or the dashboard's columnar buffers (renderer/src/ui/dashboard/series-store.ts).
// Pure.
import type { Sample } from '../api/schemas';

export interface TimeSeries {
  readonly t: ArrayLike<number>;
  readonly v: ArrayLike<number>;
  readonly length: number;
}

/** Each key's finite values of `samples`, in time order. */
export function seriesOfSamples(samples: readonly Sample[]): Map<string, { t: number[]; v: number[]; length: number }> {
  const byKey = new Map<string, { t: number[]; v: number[]; length: number }>();
  const sorted = samples.filter((s) => Number.isFinite(s.tMs)).sort((a, b) => a.tMs - b.tMs);
  for (const s of sorted)
    for (const [k, x] of Object.entries(s.values)) {
      if (typeof x !== 'number' || !Number.isFinite(x)) continue;
      let series = byKey.get(k);
      if (!series) byKey.set(k, (series = { t: [], v: [], length: 0 }));
      series.t.push(s.tMs);
      series.v.push(x);
      series.length += 1;
    }
  return byKey;
}
