// The latest value of every registered series a run's samples hold (shared/collectors/registry.ts),
// worded with its unit: what the "All series" panel lists. A collector added to the registry shows
// up here without a change in the UI. Pure (no React, no store) so it is tested directly.
import type { SeriesUnit } from '../../../shared/collectors/collector';
import { seriesPresent } from '../../../shared/collectors/registry';
import { seriesName } from '../../../shared/collectors/series-names';
import type { Sample } from '../../../shared/api/schemas';
import { formatSeriesValue } from '../../../shared/format/series-value';

export interface SeriesReadout {
  key: string;
  label: string;
  /** The collector (or the engine) that produces it. */
  sourceId: string;
  unit: SeriesUnit;
  value: string;
}

/** Latest number per sample key, for the keys that ever had one. */
export type LatestValues = Record<string, number>;

/** Keeps the newest number of each key (samples arrive in time order per source). */
export function updateLatest(latest: LatestValues, samples: readonly Sample[]): void {
  // for…in, not Object.entries: an opened session is ~10^5 samples, and the pairs are garbage.
  for (const s of samples) {
    const values = s.values;
    for (const k in values) {
      const v = values[k];
      if (typeof v === 'number') latest[k] = v;
    }
  }
}

/** One readout per registered series present, in registry order. */
export function seriesReadouts(latest: LatestValues): SeriesReadout[] {
  return seriesPresent([{ values: latest }]).map((s) => ({
    key: s.key,
    label: seriesName(s),
    sourceId: s.sourceId,
    unit: s.unit,
    value: formatSeriesValue(s.unit, latest[s.key]),
  }));
}
