// tegrastats line → tokens → field values: the character-level readers behind
// shared/parsers/tegrastats-parser.ts (which walks the tokens and fills the record).

import type { TegrastatsCpu } from './records';

// The line is read in one pass: split into tokens by one regular expression, and each token read by
// small character-level readers (no regex per token, no split-and-rejoin, no substring per number),
// so the cost is linear in the line and a 1 KiB line costs a few microseconds (bench/parsers.bench.ts).

/**
 * A time a logger wrote before each line, tegrastats printing none of its own before JetPack 5:
 * `[2018-08-23 16:30:36] : ` (a Python logger), `2024-03-01 10:00:00.123 | `, `2024-03-01T10:00:00+01:00 `
 * (`date -Is` in a shell loop), with or without brackets and a separator. Groups: date, time, fraction.
 */
const LOG_STAMP = String.raw`\[?(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:[.,](\d{1,9}))?(?:Z|[+-]\d\d(?::?\d\d)?)?\]?(?:\s*[:|>-])?\s+`;

/** A logger's time in front of a record (`RAM` follows it); its match ends where the record starts. */
export const LOG_STAMP_RE = new RegExp(String.raw`^\s*${LOG_STAMP}(?=RAM\s)`);

/** A record starts with `RAM`, after the JetPack 5+ timestamp or a logger's time when there is one. */
export const RECORD_START_RE = new RegExp(String.raw`^\s*(?:\d\d-\d\d-\d{4}\s+\d\d:\d\d:\d\d\s+|${LOG_STAMP})?RAM\s`);

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Whitespace-separated tokens; `(` also starts a token (`IRAM 0/252kB(lfb 252kB)` has no space
 * before the parenthesis on some releases).
 */
export function tokenize(text: string): { tokens: string[]; more: number } {
  // One regular expression, run by V8's compiled matcher: about twice the speed of a character loop
  // in JavaScript, which was the parser's largest cost (bench/parsers.bench.ts, the corpus rate).
  const tokens = text.match(TOKEN_RE) ?? [];
  const more = Math.max(0, tokens.length - MAX_TOKENS);
  if (more > 0) tokens.length = MAX_TOKENS;
  return { tokens, more };
}

/** A token: a run of characters other than `\s` and `(`, or one that starts with `(`. */
const TOKEN_RE = /[^\s(]+|\([^\s(]*/g;

/**
 * Tokens read per line; the rest are only counted (in `unknownCount`). The longest real line (a
 * Thor with every engine and rail) has about 150; a line with thousands is damage.
 */
export const MAX_TOKENS = 1024;

/** End index of the run of digits starting at `k`, at most `end` (k itself when there is none). */
export function digitsEnd(s: string, k: number, end: number = s.length): number {
  while (k < end && isDigit(s.charCodeAt(k))) k++;
  return k;
}

/** Digits up to this many are read exactly by digitsValue (every step stays below 2^53). */
const MAX_EXACT_DIGITS = 15;

/** 10^0 … 10^15, written out: each is a double exactly (10 ** k need not be correctly rounded). */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * The number the digits s[from, to) spell (a run digitsEnd found), the same as
 * `Number(s.slice(from, to))` without making the substring: a line has about forty numbers, and
 * making a substring only to parse it cost more than the parsing.
 */
export function digitsValue(s: string, from: number, to: number): number {
  if (to - from > MAX_EXACT_DIGITS) return Number(s.slice(from, to));
  let v = 0;
  for (let k = from; k < to; k++) v = v * 10 + (s.charCodeAt(k) - 48);
  return v;
}

export function allDigits(s: string): boolean {
  return s.length > 0 && digitsEnd(s, 0) === s.length;
}

/** `DD-DD-DDDD` */
export function isDatePart(s: string): boolean {
  return s.length === 10 && s[2] === '-' && s[5] === '-' && allDigits(s.slice(0, 2) + s.slice(3, 5) + s.slice(6));
}

/** `DD:DD:DD` */
export function isTimePart(s: string): boolean {
  return s.length === 8 && s[2] === ':' && s[5] === ':' && allDigits(s.slice(0, 2) + s.slice(3, 5) + s.slice(6));
}

/** `kB`/`MB`/`GB` (any case) → bytes; NaN otherwise. */
function unitBytes(unit: string): number {
  switch (unit.toLowerCase()) {
    case 'b':
      return 1;
    case 'kb':
      return 1024;
    case 'mb':
      return 1024 ** 2;
    case 'gb':
      return 1024 ** 3;
    default:
      return NaN;
  }
}

/** `a/bMB` → [a, b] in bytes; null if not of that form. */
export function readUsedTotal(t: string): [number, number] | null {
  const e1 = digitsEnd(t, 0);
  if (e1 === 0 || t[e1] !== '/') return null;
  const e2 = digitsEnd(t, e1 + 1);
  if (e2 === e1 + 1) return null;
  const unit = unitBytes(t.slice(e2));
  if (Number.isNaN(unit)) return null;
  const used = digitsValue(t, 0, e1);
  const total = digitsValue(t, e1 + 1, e2);
  // More in use than there is: a damaged number, not a reading.
  return used > total ? null : [used * unit, total * unit];
}

/** `NxZMB)` → [N, Z bytes]; null if not of that form. */
export function readLfbBlocks(t: string): [number, number] | null {
  const e1 = digitsEnd(t, 0);
  if (e1 === 0 || t[e1] !== 'x') return null;
  const e2 = digitsEnd(t, e1 + 1);
  if (e2 === e1 + 1 || !t.endsWith(')')) return null;
  const unit = unitBytes(t.slice(e2, -1));
  return Number.isNaN(unit) ? null : [digitsValue(t, 0, e1), digitsValue(t, e1 + 1, e2) * unit];
}

/** `NMB)` → bytes; null if not of that form. */
export function readSizeClosed(t: string): number | null {
  const e = digitsEnd(t, 0);
  if (e === 0 || !t.endsWith(')')) return null;
  const unit = unitBytes(t.slice(e, -1));
  return Number.isNaN(unit) ? null : digitsValue(t, 0, e) * unit;
}

/** A decimal `-?D+(.D+)?` spanning s[from, to) exactly, as Number reads it; null otherwise. */
function decimalIn(s: string, from: number, to: number): number | null {
  const negative = s.charCodeAt(from) === 45; /* - */
  const k = negative ? from + 1 : from;
  const e = digitsEnd(s, k);
  if (e === k) return null;
  let end = e;
  if (s.charCodeAt(e) === 46 /* . */) {
    end = digitsEnd(s, e + 1);
    if (end === e + 1) return null;
  }
  if (end !== to) return null;
  const fractionDigits = end === e ? 0 : end - e - 1;
  if (e - k + fractionDigits > MAX_EXACT_DIGITS) return Number(s.slice(from, to));
  // All the digits as one integer over a power of ten: both are exact doubles, so the one division
  // rounds to the nearest double, which is what Number gives for the text.
  const scale = POW10[fractionDigits] ?? NaN;
  const digits = digitsValue(s, k, e) * scale + (fractionDigits === 0 ? 0 : digitsValue(s, e + 1, end));
  const value = digits / scale;
  return negative ? -value : value;
}

/** `name@42.5C` / JetPack 7 `name@52.9C/53.1C` → name, value, max; null if not of that form. */
export function readTemp(t: string): { name: string; c: number; maxC: number | null } | null {
  const at = t.indexOf('@');
  if (at <= 0 || !isNameStart(t.charCodeAt(0))) return null;
  for (let k = 1; k < at; k++) {
    const c = t.charCodeAt(k);
    if (!(isWordChar(c) || c === 46 /* . */ || c === 45) /* - */) return null;
  }
  const slash = t.indexOf('/', at);
  const firstEnd = slash < 0 ? t.length : slash;
  if (t[firstEnd - 1] !== 'C') return null;
  const c = decimalIn(t, at + 1, firstEnd - 1);
  if (c === null) return null;
  if (slash < 0) return { name: t.slice(0, at), c, maxC: null };
  if (!t.endsWith('C')) return null;
  const maxC = decimalIn(t, slash + 1, t.length - 1);
  return maxC === null ? null : { name: t.slice(0, at), c, maxC };
}

/**
 * Rail values `cur/avg`, `curmW/avgmW`, `cur/avg/max` (JetPack 7); null if not of that form. Every
 * value has `mW` or none has: tegrastats prints one form per release, so `2412mW/24` is a line
 * cut in its last value (a log copied while tegrastats wrote it), not an average of 24 mW.
 */
export function readRail(t: string): { cur: number; avg: number; max: number | null } | null {
  let cur = 0;
  let avg = 0;
  let max: number | null = null;
  let count = 0;
  let withUnit = 0;
  let k = 0;
  for (;;) {
    const negative = t.charCodeAt(k) === 45; /* - */
    if (negative) k++;
    const e = digitsEnd(t, k);
    if (e === k) return null;
    const value = negative ? -digitsValue(t, k, e) : digitsValue(t, k, e);
    if (count === 0) cur = value;
    else if (count === 1) avg = value;
    else max = value;
    count++;
    k = e;
    if (t.startsWith('mW', k)) {
      k += 2;
      withUnit++;
    }
    if (withUnit !== 0 && withUnit !== count) return null;
    if (k === t.length) break;
    if (t.charCodeAt(k) !== 47 /* / */ || count === 3) return null;
    k++;
  }
  return count < 2 ? null : { cur, avg, max };
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isWordChar(c: number): boolean {
  return isNameStart(c) || isDigit(c) || c === 95;
}
/** `^[A-Za-z]\w*$` */
export function isName(t: string): boolean {
  if (t.length === 0 || !isNameStart(t.charCodeAt(0))) return false;
  for (let k = 1; k < t.length; k++) if (!isWordChar(t.charCodeAt(k))) return false;
  return true;
}
/** `^[A-Z][A-Z0-9_]*$`: how tegrastats spells its field names. */
export function isUpperName(t: string): boolean {
  if (t.length === 0) return false;
  const c0 = t.charCodeAt(0);
  if (c0 < 65 || c0 > 90) return false;
  for (let k = 1; k < t.length; k++) {
    const c = t.charCodeAt(k);
    if (!((c >= 65 && c <= 90) || isDigit(c) || c === 95)) return false;
  }
  return true;
}

/** `N%` → N; null otherwise. */
/**
 * Every load tegrastats prints (a core, GR3D, EMC, an engine, MTS) is a share of its unit's time:
 * above 100 % it is a damaged number, not a reading.
 */
const MAX_LOAD_PCT = 100;

export function readPct(t: string): number | null {
  const e = digitsEnd(t, 0);
  if (e === 0 || e !== t.length - 1 || t[e] !== '%') return null;
  const pct = digitsValue(t, 0, e);
  return pct > MAX_LOAD_PCT ? null : pct;
}

interface LoadFreq {
  on: boolean;
  loadPct: number | null;
  freqMHz: number | null;
  freqsMHz: number[] | null;
}

/** `off`, `N%`, `N%@F`, `N%@[F,F]`, `@F`, `@[F,F,F]`, bare `F` → load and clock; null if none of these. */
export function readLoadFreq(token: string): LoadFreq | null {
  if (token === 'off') return { on: false, loadPct: null, freqMHz: null, freqsMHz: null };
  if (token.length === 0) return null;
  let k = 0;
  let loadPct: number | null = null;
  const e = digitsEnd(token, 0);
  if (e === token.length) return { on: true, loadPct: null, freqMHz: digitsValue(token, 0, e), freqsMHz: null };
  if (e > 0) {
    if (token[e] !== '%') return null;
    loadPct = digitsValue(token, 0, e);
    if (loadPct > MAX_LOAD_PCT) return null;
    k = e + 1;
  }
  if (k === token.length) return { on: true, loadPct, freqMHz: null, freqsMHz: null };
  if (token[k] !== '@') return null;
  k++;
  if (token[k] === '[') {
    if (!token.endsWith(']')) return null;
    const freqs: number[] = [];
    let max = -Infinity;
    let p = k + 1;
    for (;;) {
      const d = digitsEnd(token, p);
      if (d === p) return null;
      const f = digitsValue(token, p, d);
      freqs.push(f);
      if (f > max) max = f;
      if (d === token.length - 1) break;
      if (token[d] !== ',') return null;
      p = d + 1;
    }
    return { on: true, loadPct, freqMHz: max, freqsMHz: freqs };
  }
  const d = digitsEnd(token, k);
  if (d === k || d !== token.length) return null;
  return { on: true, loadPct, freqMHz: digitsValue(token, k, d), freqsMHz: null };
}

/**
 * The CPU list entry s[from, to): `N%@F`, `N%` (clock shared, after the list), `off`; undefined if
 * unreadable. Read in place in the list, as a list has up to 14 entries.
 */
export function readCpuEntry(
  s: string,
  from: number,
  to: number,
  shared: number | null,
): TegrastatsCpu | null | undefined {
  if (to - from === 3 && s.startsWith('off', from)) return null;
  const d = digitsEnd(s, from, to);
  if (d === from || d === to || s.charCodeAt(d) !== 37 /* % */) return undefined;
  const loadPct = digitsValue(s, from, d);
  if (loadPct > MAX_LOAD_PCT) return undefined;
  if (d + 1 === to) return { loadPct, freqMHz: shared };
  if (s.charCodeAt(d + 1) !== 64 /* @ */) return undefined;
  const f = digitsEnd(s, d + 2, to);
  if (f === d + 2 || f !== to) return undefined;
  return { loadPct, freqMHz: digitsValue(s, d + 2, to) };
}
