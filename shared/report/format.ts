// Number formatting for reports: deterministic (no locale), units in binary prefixes as the
// kernel and llama.cpp print them (KiB, MiB, GiB), thousands separated by commas.

const DASH = '–';
const BINARY = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

function finite(n: number | null | undefined): n is number {
  return typeof n === 'number' && Number.isFinite(n);
}

/** 41000 → "41,000"; 1234.5 with digits=1 → "1,234.5". */
export function formatCount(n: number | null | undefined, digits = 0): string {
  if (!finite(n)) return DASH;
  const fixed = Math.abs(n).toFixed(digits);
  const [int, frac] = fixed.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = n < 0 && Number(fixed) !== 0 ? '−' : '';
  return `${sign}${grouped}${frac ? `.${frac}` : ''}`;
}

/** Three significant digits, trailing zeros dropped: 32.33 → "32.3", 128 → "128", 17.0 → "17". */
function sig3(v: number): string {
  const digits = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return String(Number(v.toFixed(digits)));
}

/** 32768 → "32 KiB", 17408 → "17 KiB", 2147483648 → "2 GiB", 812 → "812 B". */
export function formatBytes(n: number | null | undefined): string {
  if (!finite(n)) return DASH;
  const sign = n < 0 ? '−' : '';
  let v = Math.abs(n);
  let unit = 0;
  while (v >= 1024 && unit < BINARY.length - 1) {
    v /= 1024;
    unit += 1;
  }
  // 1023.9 KiB rounds to "1024 KiB": show it as the next unit.
  if (unit < BINARY.length - 1 && Number(sig3(v)) >= 1024) {
    v /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${sign}${Math.round(v)} B` : `${sign}${sig3(v)} ${BINARY[unit]}`;
}

/** "32.3 KiB (33,110 B)": the readable size and the exact count. */
export function formatBytesExact(n: number | null | undefined): string {
  if (!finite(n)) return DASH;
  return Math.abs(n) < 1024 ? formatBytes(n) : `${formatBytes(n)} (${formatCount(n)} B)`;
}

/** 1.0104 → "×1.01". */
export function formatFactor(n: number | null | undefined): string {
  return finite(n) ? `×${n.toFixed(2)}` : DASH;
}

/** 0.471 → "47 %" (fraction in, percent out). */
export function formatPercent(fraction: number | null | undefined, digits = 0): string {
  return finite(fraction) ? `${formatCount(fraction * 100, digits)} %` : DASH;
}

/** Signed percentage change from a to b: "+12.5 %", "−47.0 %"; "–" when a is 0 or either is missing. */
export function formatDeltaPercent(a: number | null | undefined, b: number | null | undefined): string {
  const d = deltaFraction(a, b);
  if (d === null) return DASH;
  const text = formatCount(Math.abs(d) * 100, 1);
  return d > 0 ? `+${text} %` : d < 0 ? `−${text} %` : '0.0 %';
}

/** (b − a) / |a|, or null. */
export function deltaFraction(a: number | null | undefined, b: number | null | undefined): number | null {
  if (!finite(a) || !finite(b) || a === 0) return null;
  return (b - a) / Math.abs(a);
}

/** 180 → "180 ms", 3480 → "3.48 s", 125000 → "2 min 5 s". */
export function formatMs(ms: number | null | undefined): string {
  if (!finite(ms)) return DASH;
  if (Math.abs(ms) < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (Math.abs(s) < 60) return `${sig3(s)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}

/** Tokens per second: "15.2 tok/s". */
export function formatRate(tps: number | null | undefined): string {
  return finite(tps) ? `${formatCount(tps, tps >= 100 ? 0 : 1)} tok/s` : DASH;
}

/** Tokens: "41,000 tokens". */
export function formatTokens(n: number | null | undefined): string {
  return finite(n) ? `${formatCount(n)} tokens` : DASH;
}

/** A generic fact value for tables: numbers with separators, booleans as yes/no, objects as JSON. */
export function formatFact(value: unknown): string {
  if (value === null || value === undefined) return DASH;
  if (typeof value === 'number') return formatCount(value, Number.isInteger(value) ? 0 : 2);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** "2026-11-29T09:31:43.351Z" → "2026-11-29 09:31:43 UTC"; anything else as it is. */
export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}
