// A series' number worded with its unit (shared/collectors/collector.ts SeriesUnit): what the
// dashboard's "All series" panel and the reports' board signals print. Pure.
import type { SeriesUnit } from '../collectors/collector';
import { formatBytes, formatCount, formatFreqKHz, formatMs, formatTempC, MISSING } from './units';

export function formatSeriesValue(unit: SeriesUnit, value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return MISSING;
  switch (unit) {
    case 'bytes':
      return formatBytes(value);
    case 'pct':
      return `${value.toFixed(1)} %`;
    case 'C':
      return formatTempC(value);
    case 'kHz':
      return formatFreqKHz(value);
    case 'MHz':
      return `${Math.round(value)} MHz`;
    case 'mW':
      return `${Math.round(value)} mW`;
    case 'us':
      return formatMs(value / 1000);
    case 'count':
      return formatCount(value, Number.isInteger(value) ? 0 : 2);
  }
}
