// Numbers for people. Everything inside the app is bytes, tokens, milliseconds; this file is the
// only place they become "1.25 GiB", "41,000 tokens" or "15.2 tokens/s". Missing values are "—".

export const MISSING = '—';

const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;
const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

const isNumber = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** 3 significant digits in binary units: 512 B, 32.0 KiB, 1.25 GiB, 128 MiB. */
export function formatBytes(bytes: number | null | undefined): string {
  if (!isNumber(bytes)) return MISSING;
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${sign}${Math.round(value)} B`;
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${sign}${value.toFixed(digits)} ${BINARY_UNITS[unit]}`;
}

/** Axis ticks: as short as possible ("1.5 GiB", "256 MiB"). */
export function formatBytesShort(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes === 0) return '0';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = value >= 10 || Number.isInteger(value) ? String(Math.round(value)) : value.toFixed(1);
  return `${bytes < 0 ? '-' : ''}${text} ${BINARY_UNITS[unit]}`;
}

export function formatBytesPerToken(bytes: number | null | undefined): string {
  return isNumber(bytes) ? `${formatBytes(bytes)}/token` : MISSING;
}

export function formatCount(n: number | null | undefined): string {
  return isNumber(n) ? grouped.format(Math.round(n)) : MISSING;
}

export function formatTokens(n: number | null | undefined): string {
  return isNumber(n) ? `${grouped.format(Math.round(n))} tokens` : MISSING;
}

export function formatTokensPerSecond(tps: number | null | undefined): string {
  if (!isNumber(tps)) return MISSING;
  return `${tps >= 100 ? Math.round(tps) : tps.toFixed(1)} tokens/s`;
}

export function formatMs(ms: number | null | undefined): string {
  if (!isNumber(ms)) return MISSING;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatFactor(x: number | null | undefined): string {
  return isNumber(x) ? `${x.toFixed(2)}×` : MISSING;
}

/** Axis ticks for token counts: 0, 500, 1.5k, 12k, 1.2M. */
export function formatTokensShort(n: number): string {
  if (!Number.isFinite(n)) return '';
  const abs = Math.abs(n);
  if (abs >= 1e6) return `${(n / 1e6).toFixed(abs >= 1e7 ? 0 : 1)}M`;
  if (abs >= 1e3) return `${(n / 1e3).toFixed(abs >= 1e4 ? 0 : 1)}k`;
  return String(Math.round(n));
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  kib: 1024,
  m: 1e6,
  mb: 1e6,
  mib: 1024 ** 2,
  g: 1e9,
  gb: 1e9,
  gib: 1024 ** 3,
  t: 1e12,
  tb: 1e12,
  tib: 1024 ** 4,
};

export type ParsedSize = { ok: true; bytes: number } | { ok: false; error: string };

/**
 * "2 GiB", "512MiB", "1.5 GB", "4000000000" → bytes. Same units as the CLI's --budget
 * (SI for KB/MB/GB, binary for KiB/MiB/GiB), so a value pasted from one works in the other.
 */
export function parseByteSize(text: string): ParsedSize {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  const unit = m ? SIZE_UNITS[m[2].toLowerCase()] : undefined;
  if (!m || unit === undefined)
    return { ok: false, error: `cannot read "${text.trim()}": use e.g. 2 GiB, 512 MiB or 4000000000` };
  const bytes = Math.round(Number(m[1]) * unit);
  if (bytes <= 0) return { ok: false, error: 'must be more than 0 bytes' };
  return { ok: true, bytes };
}

/**
 * Axis ticks for a byte axis from 0 to at least maxBytes that read as round numbers in the unit
 * the labels use (50 MiB, 100 MiB, 150 MiB … or 0.5 GiB, 1 GiB …): steps of 1, 2, 2.5 or 5 × 10^k units.
 */
export function niceByteTicks(maxBytes: number, targetCount = 5): { ticks: number[]; top: number } {
  if (!Number.isFinite(maxBytes) || maxBytes <= 0) return { ticks: [0], top: 1 };
  const unit = maxBytes >= 1024 ** 3 ? 1024 ** 3 : maxBytes >= 1024 ** 2 ? 1024 ** 2 : maxBytes >= 1024 ? 1024 : 1;
  const raw = maxBytes / unit / targetCount;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude) * unit;
  const ticks: number[] = [];
  for (let v = 0; v < maxBytes + step * 1e-9; v += step) ticks.push(v);
  if (ticks[ticks.length - 1] < maxBytes) ticks.push(ticks[ticks.length - 1] + step);
  return { ticks, top: ticks[ticks.length - 1] };
}

/** CPU clocks as sysfs gives them (kHz): "1.80 GHz", "600 MHz". */
export function formatKHz(kHz: number | null | undefined): string {
  if (!isNumber(kHz)) return MISSING;
  return kHz >= 1_000_000 ? `${(kHz / 1_000_000).toFixed(2)} GHz` : `${Math.round(kHz / 1000)} MHz`;
}

/** devfreq clocks (Hz): "1.30 GHz", "624 MHz". */
export function formatHz(hz: number | null | undefined): string {
  return isNumber(hz) ? formatKHz(hz / 1000) : MISSING;
}

export function formatTempC(tempC: number | null | undefined): string {
  return isNumber(tempC) ? `${tempC.toFixed(1)} °C` : MISSING;
}

/** "3 d 4 h", "5.2 h", "12 min". */
export function formatUptime(sec: number | null | undefined): string {
  if (!isNumber(sec)) return MISSING;
  if (sec >= 86_400) return `${Math.floor(sec / 86_400)} d ${Math.floor((sec % 86_400) / 3600)} h`;
  if (sec >= 3600) return `${(sec / 3600).toFixed(1)} h`;
  return `${Math.max(1, Math.round(sec / 60))} min`;
}
