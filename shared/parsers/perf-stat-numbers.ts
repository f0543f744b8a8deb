// Numbers as perf stat prints them. perf calls setlocale(LC_ALL, "") and prints the counter column of
// its human output with printf's `'` flag (thousands grouping of the user's locale), so the same
// count comes out as `1,234,567` (en_US), `1.234.567` (de_DE), `1 234 567` with U+202F (fr_FR since
// glibc 2.28; U+0020 before), `1’234’567` / `1'234'567` (de_CH), `12,34,567` (en_IN, 3;2 grouping).
// Everything else perf prints (the -I time, `# metric`, `(49.98%)`, `( +- 0.21% )`, elapsed seconds,
// every CSV and JSON field) is printed without grouping, but its decimal point is still the
// locale's: `3,998 CPUs utilized`, `(49,98%)`, `2,004 +- 0,004 seconds time elapsed`.
//
// So two readers: parsePerfNumber for the grouped counter column and parsePerfDecimal for the rest.
// The counter column has 0 decimals for counts and 2 for scaled counters (msec, Joules, MiB; perf
// 4.x-6.x, `floor(scale) != scale ? "%'*.2f" : "%'*.0f"` in tools/perf/util/stat-display.c) or 6
// (perf 3.x task-clock): never 3, which is why a lone separator followed by exactly three digits
// (`1.234`, `1,234`) is grouping there, while `3,998` in a metric is a decimal.

/** Thousands separators other than `,` and `.` that a locale's grouping can print (removed). */
const GROUP_CHARS_RE = /['\u2019\u00a0\u202f\u2009 ]/g;
/** A count of 3-digit groups (`1,234,567`; `1.234` is 1234). */
const GROUPED_BY_3 = { ',': /^-?\d{1,3}(?:,\d{3})+$/, '.': /^-?\d{1,3}(?:\.\d{3})+$/ } as const;
/** en_IN's 3;2 grouping: `12,34,567`. */
const GROUPED_INDIAN = /^-?\d{1,2}(?:,\d{2})*,\d{3}$/;
const PLAIN_RE = /^-?\d+(?:\.\d+)?$/;

/** A finite number from a plain `-?digits[.digits]` string; null otherwise (a 400-digit count is Infinity). */
function finite(s: string): number | null {
  if (!PLAIN_RE.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/**
 * A number of perf's human counter column, with or without the locale's thousands grouping
 * (`8,013.48`, `8.013,48`, `1 234 567`, `12,34,567`). Null if not a number. Counts above 2^53
 * (a counter that went backwards and wrapped: `18,446,744,073,709,551,615`) come back rounded to
 * the nearest double.
 */
export function parsePerfNumber(text: string): number | null {
  let s = text.trim().replace(GROUP_CHARS_RE, '');
  if (s === '' || !/^-?[\d.,]+$/.test(s)) return null;
  const lastComma = s.lastIndexOf(',');
  const lastDot = s.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    // Both: the last one is the decimal point, the other the grouping.
    s = lastDot > lastComma ? s.replace(/,/g, '') : s.replace(/\./g, '').replace(',', '.');
  } else if (lastComma >= 0) {
    s = GROUPED_BY_3[','].test(s) || GROUPED_INDIAN.test(s) ? s.replace(/,/g, '') : s.replace(',', '.');
  } else if (lastDot >= 0 && GROUPED_BY_3['.'].test(s)) {
    s = s.replace(/\./g, '');
  }
  return finite(s);
}

/**
 * A number perf printed without grouping (metric, percentage, seconds, CSV and JSON fields): `.` or
 * `,` is the decimal point (`3,998` is 3.998 in a comma locale). Null if not a number.
 */
export function parsePerfDecimal(text: string): number | null {
  const s = text.trim();
  return finite(/^-?\d+,\d+$/.test(s) ? s.replace(',', '.') : s);
}

/** `nan`, `-nan`, `inf`, `-inf` as C's printf writes them: a value perf could not compute. */
export function isNotANumber(text: string): boolean {
  return /^[-+]?(?:nan|inf(?:inity)?)$/i.test(text.trim());
}
