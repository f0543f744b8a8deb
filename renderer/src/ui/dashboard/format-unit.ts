// Values of any series unit for people, through shared/format/units.ts (the one place numbers
// become text until shared/format/ lands).
import { alarmReadingText, isAlarmLevelKey } from '../../../../shared/analysis/alarm-sensors';
import { formatBytesShort } from '../../../../shared/format/axis';
import { formatBytes, formatCount, MISSING } from '../../../../shared/format/units';
import type { SeriesUnit } from './series-catalog';

const fixed = (v: number, digits: number) => (Math.abs(v) >= 100 ? Math.round(v).toString() : v.toFixed(digits));

/** A value already in its display unit (series-catalog.ts toDisplay). */
export function formatUnit(unit: SeriesUnit | 'tokens-per-second', value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return MISSING;
  switch (unit) {
    case 'bytes':
      return formatBytes(value);
    case 'celsius':
      return `${value.toFixed(1)} °C`;
    case 'khz':
    case 'hz':
    case 'mhz':
      return `${Math.round(value)} MHz`;
    case 'mw':
      return `${Math.round(value)} mW`;
    case 'mj':
      return `${fixed(value, 1)} mJ`;
    case 'percent':
      return `${fixed(value, 1)} %`;
    case 'count':
      return formatCount(value);
    case 'per-second':
      return `${formatCount(value)}/s`;
    case 'tokens-per-second':
      return `${fixed(value, 1)} tokens/s`;
  }
}

/**
 * A series' value in a readout: the value of an alarm-level series (shared/analysis/alarm-sensors.ts,
 * the Jetson PMIC's die zone) as the alarm it says, with the number it reads ("no alarm, reads
 * 100.0 °C"); any other as formatUnit gives it.
 */
export function formatReading(
  unit: SeriesUnit | 'tokens-per-second',
  key: string,
  value: number | null | undefined,
): string {
  if (isAlarmLevelKey(key) && typeof value === 'number' && Number.isFinite(value)) return alarmReadingText(value);
  return formatUnit(unit, value);
}

/** Axis ticks: short. */
export function formatTick(unit: SeriesUnit | 'tokens-per-second', value: number): string {
  if (unit === 'bytes') return formatBytesShort(value);
  if (unit === 'celsius') return `${Math.round(value)}°`;
  if (unit === 'percent') return `${Math.round(value)}%`;
  if (Math.abs(value) >= 10_000) return `${Math.round(value / 1000)}k`;
  return Math.abs(value) >= 10 || Number.isInteger(value) ? String(Math.round(value)) : value.toFixed(1);
}

/** Run time for the axis and the cursor: 0:42, 12:05, 1:02:03. */
export function formatRunTime(tMs: number): string {
  const total = Math.max(0, Math.floor(tMs / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/**
 * Evenly spaced "nice" ticks (1, 2, 5 × 10^k) over [min, max], counted in `scale`: for bytes the
 * binary unit of the range (byteScaleOf), so a byte axis reads 50 MiB, 100 MiB — not 48 and 95 MiB.
 */
export function niceTicks(min: number, max: number, count = 4, scale = 1): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / scale / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw) * scale;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) out.push(v);
  return out;
}

/** The binary unit (1, KiB, MiB, GiB, TiB in bytes) of the larger end of a byte range. */
export function byteScaleOf(min: number, max: number): number {
  const top = Math.max(Math.abs(min), Math.abs(max));
  let scale = 1;
  while (top >= scale * 1024 && scale < 1024 ** 4) scale *= 1024;
  return scale;
}

/** Time ticks in ms: steps of 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min, 1 h… */
export function timeTicks(t0: number, t1: number, count = 6): number[] {
  const span = t1 - t0;
  if (!(span > 0)) return [t0];
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400].map((s) => s * 1000);
  const step = steps.find((s) => span / s <= count) ?? span / count;
  const out: number[] = [];
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) out.push(t);
  return out;
}
