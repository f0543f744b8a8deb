// Numbers for people: the one place where bytes, tokens, milliseconds, °C, kHz and mW become
// text, for the app (renderer/) and every report (shared/report/). Pure: no Node, no DOM and no
// locale, so the same value prints the same text in the app, in every export and on every machine.
//
// One convention for each kind of number:
// - Missing: MISSING ('–', an en dash) for null, undefined, NaN and ±Infinity; a value that is not
//   a finite number is not a measurement. The CLI summary (electron/node/cli/commands/profile.ts)
//   prints the same mark.
// - Negative: an ASCII hyphen-minus before the number ("-2.00 KiB"), so text copied into a
//   spreadsheet or a shell is still a number. A value that rounds to zero has no sign ("0 B").
// - Significant digits: sizes above 1 KiB, seconds, GHz and W get 3 significant digits with the
//   trailing zeros kept, so the text shows its precision ("32.0 KiB" is 32.0 ± 0.05 KiB). A value
//   that rounds up into the next decade or unit is printed there: 1023.96 KiB is "1.00 MiB",
//   99.97 s is "100 s" (not "1024 KiB", "100.0 s").
// - Bytes: IEC binary units as the kernel and llama.cpp print them (B, KiB, MiB, GiB, TiB, PiB,
//   EiB); whole bytes below 1 KiB ("812 B"). From 999.5 to 1023.5 of a unit the text is the whole
//   number ("1,000 MiB" … "1,023 MiB"): 4 digits, but never "0.977 GiB".
// - Counts: whole numbers with comma thousands separators ("41,000"; "41,000 tokens").
// - Rates: tokens per second as the CLI prints them, one decimal below 100 ("15.2 tok/s"), whole
//   above ("1,432 tok/s").
// - Durations: "180 ms" below 1 s, 3 significant digits below 1 min ("3.48 s"), then two whole
//   units ("2 min 5 s", "1 h 5 min", "3 d 4 h"). A time since the run started is a position, not
//   a duration: "12.3 s" with one decimal, so a column of them lines up.
// - Temperatures: one decimal, "45.3 °C".
// - Frequencies: whole MHz below 1 GHz ("600 MHz"), 3 significant digits in GHz above ("1.80 GHz").
// - Power: whole mW below 1 W ("850 mW"), 3 significant digits in W above ("5.20 W").
// - Percentages: a fraction in, whole percent out ("47 %"); changes are signed ("+12.5 %",
//   "-47.0 %", "0.0 %").
// - Factors: two decimals and a multiplication sign after ("1.01×").
// A space separates a number from its unit everywhere, "%" included (SI style).

export const MISSING = '–';

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'] as const;

function finite(n: number | null | undefined): n is number {
  return typeof n === 'number' && Number.isFinite(n);
}

/** "1234567" → "1,234,567" (digits only, no sign, no fraction). */
function groupThousands(digits: string): string {
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits.charAt(i);
  }
  return out;
}

/** |n| with `decimals` fixed decimals and grouped thousands; toFixed switches to "1e+21" above 1e21. */
function unsignedFixed(abs: number, decimals: number): string {
  if (abs >= 1e21)
    return groupThousands(BigInt(Math.round(abs)).toString()) + (decimals > 0 ? `.${'0'.repeat(decimals)}` : '');
  const fixed = abs.toFixed(decimals);
  const dot = fixed.indexOf('.');
  return dot < 0 ? groupThousands(fixed) : `${groupThousands(fixed.slice(0, dot))}${fixed.slice(dot)}`;
}

/** The sign of n as printed: none when the printed digits are all zero. */
function signOf(n: number, printed: string): string {
  return n < 0 && /[1-9]/.test(printed) ? '-' : '';
}

/**
 * v ≥ 0 with 3 significant digits and its trailing zeros: 32 → "32.0", 1.25 → "1.25", 128 → "128".
 * Carries into the next decade: 9.996 → "10.0", 99.97 → "100". From 1000 up, whole and grouped.
 */
function sig3(v: number): string {
  const decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  const text = v.toFixed(decimals);
  if (decimals > 0 && Number(text) >= 10 ** (3 - decimals)) return v.toFixed(decimals - 1);
  return decimals === 0 ? unsignedFixed(v, 0) : text;
}

/** n with `decimals` decimals and comma thousands: 41000 → "41,000"; (1234.5, 1) → "1,234.5"; -5 → "-5". */
export function formatCount(n: number | null | undefined, decimals = 0): string {
  if (!finite(n)) return MISSING;
  const text = unsignedFixed(Math.abs(n), decimals);
  return `${signOf(n, text)}${text}`;
}

/** Split |bytes| into a value below 1024 and its IEC unit, after rounding (see sig3). */
function bytesParts(abs: number): { text: string; unit: (typeof BYTE_UNITS)[number] } {
  let v = abs;
  let unit = 0;
  while (v >= 1024 && unit < BYTE_UNITS.length - 1) {
    v /= 1024;
    unit += 1;
  }
  let text = unit === 0 ? String(Math.round(v)) : sig3(v);
  // 1023.6 B → "1024 B", 1023.96 KiB → "1024 KiB": print it in the next unit instead.
  if (unit < BYTE_UNITS.length - 1 && Number(text.replace(/,/g, '')) >= 1024) {
    v /= 1024;
    unit += 1;
    text = sig3(v);
  }
  return { text, unit: BYTE_UNITS[unit] ?? 'B' };
}

/** 512 → "512 B", 32768 → "32.0 KiB", 1.25 GiB → "1.25 GiB", 128 MiB → "128 MiB", -2048 → "-2.00 KiB". */
export function formatBytes(bytes: number | null | undefined): string {
  if (!finite(bytes)) return MISSING;
  const { text, unit } = bytesParts(Math.abs(bytes));
  return `${signOf(bytes, text)}${text} ${unit}`;
}

/** "32.3 KiB (33,110 B)": the readable size and the exact count; below 1 KiB only the bytes. */
export function formatBytesExact(bytes: number | null | undefined): string {
  if (!finite(bytes)) return MISSING;
  return Math.abs(bytes) < 1024 ? formatBytes(bytes) : `${formatBytes(bytes)} (${formatCount(bytes)} B)`;
}

/** 32768 → "32.0 KiB/token". */
export function formatBytesPerToken(bytes: number | null | undefined): string {
  return finite(bytes) ? `${formatBytes(bytes)}/token` : MISSING;
}

/** 41000 → "41,000 tokens", 1 → "1 token". */
export function formatTokens(n: number | null | undefined): string {
  if (!finite(n)) return MISSING;
  const text = formatCount(n);
  return `${text} ${text === '1' ? 'token' : 'tokens'}`;
}

/** 15.24 → "15.2 tok/s", 99.97 → "100 tok/s", 1432.25 → "1,432 tok/s". */
export function formatTokensPerSecond(tps: number | null | undefined): string {
  if (!finite(tps)) return MISSING;
  const abs = Math.abs(tps);
  const text = abs >= 99.95 ? unsignedFixed(abs, 0) : abs.toFixed(1);
  return `${signOf(tps, text)}${text} tok/s`;
}

/** 180 → "180 ms", 3480 → "3.48 s", 125000 → "2 min 5 s", 3.9e6 → "1 h 5 min", 2.75e8 → "3 d 4 h". */
export function formatMs(ms: number | null | undefined): string {
  if (!finite(ms)) return MISSING;
  const text = unsignedDuration(Math.abs(ms));
  return `${signOf(ms, text)}${text}`;
}

function unsignedDuration(ms: number): string {
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  const seconds = sig3(s);
  if (Number(seconds) < 60) return `${seconds} s`;
  // Round the total first, then split it: 119.6 s is "2 min 0 s", never "1 min 60 s".
  const totalS = Math.round(s);
  if (totalS < 3600) return `${Math.floor(totalS / 60)} min ${totalS % 60} s`;
  const totalMin = Math.round(s / 60);
  if (totalMin < 24 * 60) return `${Math.floor(totalMin / 60)} h ${totalMin % 60} min`;
  const totalH = Math.round(s / 3600);
  return `${formatCount(Math.floor(totalH / 24))} d ${totalH % 24} h`;
}

/** A duration given in seconds (uptime): 90 → "1 min 30 s". */
export function formatSeconds(sec: number | null | undefined): string {
  return finite(sec) ? formatMs(sec * 1000) : MISSING;
}

/** Time since the run started, one decimal so a column lines up: 12345 → "12.3 s", 0 → "0.0 s". */
export function formatRunTimeMs(tMs: number | null | undefined): string {
  return finite(tMs) ? `${formatCount(tMs / 1000, 1)} s` : MISSING;
}

/** 45.26 → "45.3 °C", -5 → "-5.0 °C". */
export function formatTempC(tempC: number | null | undefined): string {
  return finite(tempC) ? `${formatCount(tempC, 1)} °C` : MISSING;
}

/** 600 → "600 MHz", 1800 → "1.80 GHz", 999.7 → "1.00 GHz". */
export function formatFreqMHz(mhz: number | null | undefined): string {
  if (!finite(mhz)) return MISSING;
  const abs = Math.abs(mhz);
  const text = Math.round(abs) < 1000 ? `${Math.round(abs)} MHz` : `${sig3(abs / 1000)} GHz`;
  return `${signOf(mhz, text)}${text}`;
}

/** CPU clocks as cpufreq's sysfs gives them (kHz): 1800000 → "1.80 GHz", 600000 → "600 MHz". */
export function formatFreqKHz(kHz: number | null | undefined): string {
  return finite(kHz) ? formatFreqMHz(kHz / 1000) : MISSING;
}

/** devfreq clocks (Hz): 1.3e9 → "1.30 GHz", 624e6 → "624 MHz". */
export function formatFreqHz(hz: number | null | undefined): string {
  return finite(hz) ? formatFreqMHz(hz / 1e6) : MISSING;
}

/** 850 → "850 mW", 5200 → "5.20 W", 999.6 → "1.00 W". */
export function formatPowerMw(mw: number | null | undefined): string {
  if (!finite(mw)) return MISSING;
  const abs = Math.abs(mw);
  const text = Math.round(abs) < 1000 ? `${Math.round(abs)} mW` : `${sig3(abs / 1000)} W`;
  return `${signOf(mw, text)}${text}`;
}

/** A fraction as a percentage: 0.471 → "47 %"; (0.4712, 1) → "47.1 %". */
export function formatPercent(fraction: number | null | undefined, decimals = 0): string {
  return finite(fraction) ? `${formatCount(fraction * 100, decimals)} %` : MISSING;
}

/** A change as a signed percentage: 0.125 → "+12.5 %", -0.47 → "-47.0 %", 0.00001 → "0.0 %". */
export function formatSignedPercent(fraction: number | null | undefined, decimals = 1): string {
  if (!finite(fraction)) return MISSING;
  const text = formatCount(fraction * 100, decimals);
  return `${fraction > 0 && /[1-9]/.test(text) ? '+' : ''}${text} %`;
}

/** (b − a) / |a|, or null when a is 0 or either is missing. */
export function deltaFraction(a: number | null | undefined, b: number | null | undefined): number | null {
  if (!finite(a) || !finite(b) || a === 0) return null;
  return (b - a) / Math.abs(a);
}

/** The signed change from a to b: (32768, 17408) → "-46.9 %"; MISSING when a is 0 or either is missing. */
export function formatDeltaPercent(a: number | null | undefined, b: number | null | undefined): string {
  return formatSignedPercent(deltaFraction(a, b));
}

/** 1.0123 → "1.01×". */
export function formatFactor(x: number | null | undefined): string {
  return finite(x) ? `${formatCount(x, 2)}×` : MISSING;
}
