// Chart axes: round tick steps and the short labels that go under them, for the live charts
// (renderer/src/ui/MemoryChart.tsx) and the report's SVG charts (shared/report/svg-chart.ts).
// Tooltips and tables use the full formatters of ./units.

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'] as const;

/** 1-2-2.5-5 steps giving about `target` ticks over [0, max]: 41000 → 10000, 10 → 2. */
export function niceStep(max: number, target = 5): number {
  if (!(max > 0)) return 1;
  const raw = max / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

/** Ticks 0, step, 2·step … up to the first one at or past max, which is the axis' top. */
function ticksUpTo(max: number, step: number): { ticks: number[]; top: number } {
  const ticks: number[] = [];
  let v = 0;
  for (; v < max + step * 1e-9; v += step) ticks.push(v);
  if (v - step < max) ticks.push(v);
  return { ticks, top: ticks[ticks.length - 1] ?? 1 };
}

/**
 * Ticks for a byte axis from 0 to at least maxBytes that are round numbers of the unit of the
 * largest value (50 MiB, 100 MiB, 150 MiB … or 0.5 GiB, 1 GiB …).
 */
export function niceByteTicks(maxBytes: number, targetCount = 5): { ticks: number[]; top: number } {
  if (!Number.isFinite(maxBytes) || maxBytes <= 0) return { ticks: [0], top: 1 };
  let unit = 1;
  while (maxBytes >= unit * 1024 && unit < 1024 ** (BYTE_UNITS.length - 1)) unit *= 1024;
  return ticksUpTo(maxBytes, niceStep(maxBytes / unit, targetCount) * unit);
}

/**
 * Ticks for a plain axis (seconds, tokens) from 0 to at least max, in 1-2-2.5-5 steps: 9.3 → 0, 2,
 * … 10. With `integers` (counts: tokens) a step is a whole number: 1 at least, 2.5 becomes 3.
 */
export function niceLinearTicks(max: number, targetCount = 5, integers = false): { ticks: number[]; top: number } {
  if (!Number.isFinite(max) || max <= 0) return { ticks: [0], top: 1 };
  const step = niceStep(max, targetCount);
  return ticksUpTo(max, integers ? Math.max(1, Math.ceil(step)) : step);
}

/** Axis labels as short as possible: 0 → "0", 50 MiB → "50 MiB", 1.5 GiB → "1.5 GiB". */
export function formatBytesShort(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes === 0) return '0';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = value >= 10 || Number.isInteger(value) ? String(Math.round(value)) : value.toFixed(1);
  return `${bytes < 0 ? '-' : ''}${text} ${BYTE_UNITS[unit] ?? 'B'}`;
}

const COUNT_SUFFIXES = ['', 'k', 'M', 'G'] as const;

/**
 * Axis labels for token counts, at most three significant digits and no trailing zero, so a round
 * tick reads as itself: 500 → "500", 1500 → "1.5k", 1250 → "1.25k", 12500 → "12.5k", 12000 →
 * "12k", 1.2e6 → "1.2M" (not "13k" for 12,500 nor "1.3k" for 1,250).
 */
export function formatTokensShort(n: number): string {
  if (!Number.isFinite(n)) return '';
  let unit = 0;
  let value = Number(n.toPrecision(3));
  while (Math.abs(value) >= 1000 && unit < COUNT_SUFFIXES.length - 1) {
    unit += 1;
    value = Number((n / 1000 ** unit).toPrecision(3));
  }
  return `${value}${COUNT_SUFFIXES[unit]}`;
}
