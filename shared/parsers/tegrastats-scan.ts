// The low level of the tegrastats line reader (shared/parsers/tegrastats-fields.ts): a line's
// UTF-16 code units in a typed array, its tokens' bounds, character classes, and the numbers and
// sizes (`1802/3964MB`, `lfb 2x4MB`) read digit by digit from the code units, without a substring.
// Pure; never throws.

/**
 * Tokens read per line; the rest are only counted (in `unknownCount`). The longest real line (a
 * Thor with every engine and rail) has about 150; a line with thousands is damage.
 */
export const MAX_TOKENS = 1024;

// ---------------------------------------------------------------------------------------------
// Characters

const CH_TAB = 9;
const CH_CR = 13;
const CH_SPACE = 32;
export const CH_PERCENT = 37;
const CH_OPEN_PAREN = 40;
const CH_CLOSE_PAREN = 41;
export const CH_COMMA = 44;
export const CH_MINUS = 45;
export const CH_DOT = 46;
export const CH_SLASH = 47;
export const CH_COLON = 58;
export const CH_AT = 64;
export const CH_C = 67;
export const CH_OPEN_BRACKET = 91;
export const CH_CLOSE_BRACKET = 93;
const CH_UNDERSCORE = 95;
const CH_LOWER_X = 120;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
export function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
export function isWordChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === CH_UNDERSCORE;
}
export function isUpperWordChar(c: number): boolean {
  return (c >= 65 && c <= 90) || isDigit(c) || c === CH_UNDERSCORE;
}

/**
 * What `\s` matches (and `trim` removes): ASCII tab to carriage return and space, then the Unicode
 * spaces. A logger or a paste can bring a no-break space or a BOM into a line.
 */
export function isSpace(c: number): boolean {
  // Most characters are printable ASCII, which two comparisons rule out.
  if (c > CH_SPACE && c < 0xa0) return false;
  if (c <= CH_SPACE) return c === CH_SPACE || (c >= CH_TAB && c <= CH_CR);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

// ---------------------------------------------------------------------------------------------
// Code units: the line is read from a typed array, not with charCodeAt. A line usually arrives as
// a slice of a larger string (a chunk split at newlines), and V8's charCodeAt on a sliced string
// costs about as much again as on a flat one: reading the line that way cost ~25 % of the rate.

/** Lines up to this long are copied into the two arrays below, which are kept; a longer one gets its own. */
const KEPT_CAPACITY = 2 * 64 * 1024;
let keptUnits = new Uint16Array(1024);
let keptBytes = new Uint8Array(1024);

// shared/ sees no DOM or Node types: TextEncoder is looked up on globalThis (Node, Electron and
// browsers have it), and a loop over charCodeAt stands in if it is missing.
interface AsciiEncoder {
  encodeInto(text: string, into: Uint8Array): { read: number; written: number };
}
const encoder = (() => {
  const Ctor = (globalThis as unknown as { TextEncoder?: new () => AsciiEncoder }).TextEncoder;
  return Ctor ? new Ctor() : null;
})();

/**
 * The UTF-16 code units of `text` at [0, text.length) of the array returned, with as much room
 * again after them (readCpuList joins a list's tokens there). Valid until the next call.
 */
export function loadCodeUnits(text: string): Uint16Array {
  const length = text.length;
  const need = 2 * length;
  let units = keptUnits;
  let bytes = keptBytes;
  if (need > units.length) {
    const size = Math.max(need, 2 * units.length);
    units = new Uint16Array(size);
    bytes = new Uint8Array(size);
    if (size <= KEPT_CAPACITY) [keptUnits, keptBytes] = [units, bytes];
  }
  // The native encoder copies an ASCII line (every real one) faster than any loop here: when each
  // character took one byte, the bytes are the code units.
  const encoded = encoder?.encodeInto(text, bytes);
  if (encoded?.read === length && encoded.written === length) units.set(bytes.subarray(0, length));
  else for (let k = 0; k < length; k++) units[k] = text.charCodeAt(k);
  return units;
}

/** Code units turned into a string per String.fromCharCode call (well below any engine's argument limit). */
const CHARS_PER_CALL = 8192;

/** Number(text of c[from, to)), for the rare number too long to read digit by digit exactly. */
function numberIn(c: Uint16Array, from: number, to: number): number {
  let text = '';
  for (let k = from; k < to; k += CHARS_PER_CALL)
    text += String.fromCharCode(...c.subarray(k, Math.min(to, k + CHARS_PER_CALL)));
  return Number(text);
}

// ---------------------------------------------------------------------------------------------
// Tokens: runs of characters other than whitespace and `(`, where `(` also starts a token
// (`IRAM 0/252kB(lfb 252kB)` has no space before the parenthesis on some releases).

/** Bounds of the current line's tokens: token k is line[tokenStart[k], tokenEnd[k]). Reused per line. */
export const tokenStart = new Int32Array(MAX_TOKENS);
export const tokenEnd = new Int32Array(MAX_TOKENS);

/**
 * Notes the tokens of c[from, length) in tokenStart/tokenEnd; returns how many there are, the ones
 * past MAX_TOKENS included (those are counted, not noted).
 */
export function scanTokens(c: Uint16Array, from: number, length: number): number {
  let count = 0;
  let k = from;
  while (k < length) {
    if (isSpace(c[k] ?? 0)) {
      k++;
      continue;
    }
    const start = k;
    // The first character is part of the token whatever it is (a `(` included); the token goes on
    // to the next whitespace or `(`.
    k++;
    while (k < length) {
      const unit = c[k] ?? 0;
      if (unit === CH_OPEN_PAREN || isSpace(unit)) break;
      k++;
    }
    if (count < MAX_TOKENS) {
      tokenStart[count] = start;
      tokenEnd[count] = k;
    }
    count++;
  }
  return count;
}

/** c[from, to) is `word` exactly. */
export function rangeIs(c: Uint16Array, from: number, to: number, word: string): boolean {
  if (to - from !== word.length) return false;
  for (let k = 0; k < word.length; k++) if ((c[from + k] ?? 0) !== word.charCodeAt(k)) return false;
  return true;
}

/** Index of the first `code` in c[from, to), else -1 (never looks past `to`: a token is read, not the line). */
export function indexIn(c: Uint16Array, code: number, from: number, to: number): number {
  for (let k = from; k < to; k++) if ((c[k] ?? 0) === code) return k;
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Numbers

/** End index of the run of digits starting at `k`, at most `end` (k itself when there is none). */
export function digitsEnd(c: Uint16Array, k: number, end: number): number {
  while (k < end && isDigit(c[k] ?? 0)) k++;
  return k;
}

/** c[from, to) is one or more digits. */
export function allDigits(c: Uint16Array, from: number, to: number): boolean {
  return to > from && digitsEnd(c, from, to) === to;
}

/** Digits up to this many are read exactly by digitsValue (every step stays below 2^53). */
const MAX_EXACT_DIGITS = 15;

/** 10^0 … 10^15, written out: each is a double exactly (10 ** k need not be correctly rounded). */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * The number the digits c[from, to) spell (a run digitsEnd found), the same as
 * `Number()` of their text without making the substring: a line has about forty numbers, and
 * making a substring only to parse it cost more than the parsing.
 */
export function digitsValue(c: Uint16Array, from: number, to: number): number {
  if (to - from > MAX_EXACT_DIGITS) return numberIn(c, from, to);
  let v = 0;
  for (let k = from; k < to; k++) v = v * 10 + ((c[k] ?? 0) - 48);
  return v;
}

/** A decimal `-?D+(.D+)?` spanning c[from, to) exactly, as Number reads it; null otherwise. */
export function decimalIn(c: Uint16Array, from: number, to: number): number | null {
  const negative = from < to && (c[from] ?? 0) === CH_MINUS;
  const k = negative ? from + 1 : from;
  const e = digitsEnd(c, k, to);
  if (e === k) return null;
  let end = e;
  if (e < to && (c[e] ?? 0) === CH_DOT) {
    end = digitsEnd(c, e + 1, to);
    if (end === e + 1) return null;
  }
  if (end !== to) return null;
  const fractionDigits = end === e ? 0 : end - e - 1;
  if (e - k + fractionDigits > MAX_EXACT_DIGITS) return numberIn(c, from, to);
  // All the digits as one integer over a power of ten: both are exact doubles, so the one division
  // rounds to the nearest double, which is what Number gives for the text.
  const scale = POW10[fractionDigits] ?? NaN;
  const digits = digitsValue(c, k, e) * scale + (fractionDigits === 0 ? 0 : digitsValue(c, e + 1, end));
  const value = digits / scale;
  return negative ? -value : value;
}

// ---------------------------------------------------------------------------------------------
// Sizes: `RAM a/bMB (lfb NxZMB)`, `SWAP a/bMB (cached NMB)`, `IRAM a/bkB (lfb NkB)`

/** `kB`/`MB`/`GB`/`B` (any case) → bytes; NaN otherwise. */
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

/** unitBytes of c[from, to), without a substring for the ASCII units tegrastats prints. */
function unitBytesIn(c: Uint16Array, from: number, to: number): number {
  const length = to - from;
  if (length < 1 || length > 2) {
    // Lower-casing never shortens a string, so no longer text is a unit.
    return NaN;
  }
  const a = c[from] ?? 0;
  const b = c[to - 1] ?? 0;
  // Outside ASCII, toLowerCase has its own cases (the Kelvin sign `K` lower-cases to `k`).
  if (a > 127 || b > 127) return unitBytes(length === 1 ? String.fromCharCode(a) : String.fromCharCode(a, b));
  const last = b | 0x20; // ASCII letters to lower case
  if (last !== 98 /* b */) return NaN;
  if (length === 1) return 1;
  switch (a | 0x20) {
    case 107 /* k */:
      return 1024;
    case 109 /* m */:
      return 1024 ** 2;
    case 103 /* g */:
      return 1024 ** 3;
    default:
      return NaN;
  }
}

/** Values a reader hands back without a new array: set by readUsedTotal and readLfbBlocks. */
export const pair = { first: 0, second: 0 };

/** `a/bMB` spanning c[from, to) → pair (used, total in bytes) and true; false if not of that form. */
export function readUsedTotal(c: Uint16Array, from: number, to: number): boolean {
  const e1 = digitsEnd(c, from, to);
  if (e1 === from || e1 === to || (c[e1] ?? 0) !== CH_SLASH) return false;
  const e2 = digitsEnd(c, e1 + 1, to);
  if (e2 === e1 + 1) return false;
  const unit = unitBytesIn(c, e2, to);
  if (Number.isNaN(unit)) return false;
  const used = digitsValue(c, from, e1);
  const total = digitsValue(c, e1 + 1, e2);
  // More in use than there is: a damaged number, not a reading.
  if (used > total) return false;
  pair.first = used * unit;
  pair.second = total * unit;
  return true;
}

/** `NxZMB)` spanning c[from, to) → pair (N, Z in bytes) and true; false if not of that form. */
export function readLfbBlocks(c: Uint16Array, from: number, to: number): boolean {
  const e1 = digitsEnd(c, from, to);
  if (e1 === from || e1 === to || (c[e1] ?? 0) !== CH_LOWER_X) return false;
  const e2 = digitsEnd(c, e1 + 1, to);
  if (e2 === e1 + 1 || (c[to - 1] ?? 0) !== CH_CLOSE_PAREN) return false;
  const unit = unitBytesIn(c, e2, to - 1);
  if (Number.isNaN(unit)) return false;
  pair.first = digitsValue(c, from, e1);
  pair.second = digitsValue(c, e1 + 1, e2) * unit;
  return true;
}

/** `NMB)` spanning c[from, to) → bytes; null if not of that form. */
export function readSizeClosed(c: Uint16Array, from: number, to: number): number | null {
  const e = digitsEnd(c, from, to);
  if (e === from || (c[to - 1] ?? 0) !== CH_CLOSE_PAREN) return null;
  const unit = unitBytesIn(c, e, to - 1);
  return Number.isNaN(unit) ? null : digitsValue(c, from, e) * unit;
}
