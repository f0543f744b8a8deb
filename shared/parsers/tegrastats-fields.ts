// One tegrastats line → one record: the field readers behind shared/parsers/tegrastats-parser.ts
// (which adds the streaming: re-joining wrapped lines), over the scanner of
// shared/parsers/tegrastats-scan.ts (code units, tokens, numbers, sizes).
//
// The line's UTF-16 code units are copied once into a typed array (see loadCodeUnits for why); a
// first loop over them notes where each token starts and ends (in two typed arrays made once, not
// per line); then each token is dispatched by its keyword (`RAM`, `CPU`, …) or its shape
// (`name@42C`, `NAME value`) to a reader that takes the code units and the token's bounds, reads
// the numbers digit by digit, and makes a string only for what the record keeps (a sensor, rail or
// engine name, an unknown token). So nothing per token is allocated, and the cost is linear in the
// line (a 1 KiB line costs a few microseconds: bench/parsers.bench.ts).
//
// Loaded as ES modules (the app, the CLI, the bench), a call into the scanner's module costs what
// a call inside this one does; loaded as CommonJS (tsx running a script from outside the package)
// every such call goes through an export getter, ~9 % of the parse in a profile: measure the rate
// with the bench, not from such a script.

import type { TegrastatsCpu, TegrastatsEngine, TegrastatsRail, TegrastatsRecord } from './records';
import {
  CH_AT,
  CH_C,
  CH_CLOSE_BRACKET,
  CH_COLON,
  CH_COMMA,
  CH_DOT,
  CH_MINUS,
  CH_OPEN_BRACKET,
  CH_PERCENT,
  CH_SLASH,
  allDigits,
  decimalIn,
  digitsEnd,
  digitsValue,
  indexIn,
  isLetter,
  isSpace,
  isUpperWordChar,
  isWordChar,
  loadCodeUnits,
  rangeIs,
  scanTokens,
  tokenEnd,
  tokenStart,
  MAX_TOKENS,
  pair,
  readUsedTotal,
  readLfbBlocks,
  readSizeClosed,
} from './tegrastats-scan';

/** Readings at or below this are "sensor off" sentinels (tegrastats prints -256C for a disabled zone). */
export const SENSOR_OFF_AT_OR_BELOW_C = -200;

/**
 * Unknown tokens kept verbatim per record (all are counted in `unknownCount`): a real line has a
 * handful at most; a damaged one can have thousands, and listing them all helps no reader.
 */
export const MAX_UNKNOWN_TOKENS = 32;

/** A CPU list spread over more tokens than this is not a CPU list (a 14-core Thor needs one). */
const MAX_CPU_LIST_TOKENS = 64;

/**
 * Every load tegrastats prints (a core, GR3D, EMC, an engine, MTS) is a share of its unit's time:
 * above 100 % it is a damaged number, not a reading.
 */
const MAX_LOAD_PCT = 100;

/**
 * A time a logger wrote before each line, tegrastats printing none of its own before JetPack 5:
 * `[2018-08-23 16:30:36] : ` (a Python logger), `2024-03-01 10:00:00.123 | `, `2024-03-01T10:00:00+01:00 `
 * (`date -Is` in a shell loop), with or without brackets and a separator. Groups: date, time, fraction.
 */
const LOG_STAMP = String.raw`\[?(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:[.,](\d{1,9}))?(?:Z|[+-]\d\d(?::?\d\d)?)?\]?(?:\s*[:|>-])?\s+`;

/** A logger's time in front of a record (`RAM` follows it); its match ends where the record starts. */
const LOG_STAMP_RE = new RegExp(String.raw`^\s*${LOG_STAMP}(?=RAM\s)`);

/** A record starts with `RAM`, after the JetPack 5+ timestamp or a logger's time when there is one. */
export const RECORD_START_RE = new RegExp(String.raw`^\s*(?:\d\d-\d\d-\d{4}\s+\d\d:\d\d:\d\d\s+|${LOG_STAMP})?RAM\s`);

/** `N%` spanning c[from, to) → N; null otherwise. */
function readPct(c: Uint16Array, from: number, to: number): number | null {
  const e = digitsEnd(c, from, to);
  if (e === from || e !== to - 1 || (c[e] ?? 0) !== CH_PERCENT) return null;
  const pct = digitsValue(c, from, e);
  return pct > MAX_LOAD_PCT ? null : pct;
}

// ---------------------------------------------------------------------------------------------
// Names

/** `^[A-Za-z]\w*$` over c[from, to). */
function isName(c: Uint16Array, from: number, to: number): boolean {
  if (to === from || !isLetter(c[from] ?? 0)) return false;
  for (let k = from + 1; k < to; k++) if (!isWordChar(c[k] ?? 0)) return false;
  return true;
}

/** `^[A-Z][A-Z0-9_]*$` over c[from, to): how tegrastats spells its field names. */
function isUpperName(c: Uint16Array, from: number, to: number): boolean {
  if (to === from) return false;
  const c0 = c[from] ?? 0;
  if (c0 < 65 || c0 > 90) return false;
  for (let k = from + 1; k < to; k++) if (!isUpperWordChar(c[k] ?? 0)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Temperatures, rails, loads and clocks

/** `name@42.5C` / JetPack 7 `name@52.9C/53.1C` spanning c[from, to) → name, value, max; null if not of that form. */
function readTemp(
  c: Uint16Array,
  text: string,
  from: number,
  to: number,
): { name: string; c: number; maxC: number | null } | null {
  const at = indexIn(c, CH_AT, from, to);
  if (at <= from || !isLetter(c[from] ?? 0)) return null;
  for (let k = from + 1; k < at; k++) {
    const unit = c[k] ?? 0;
    if (!(isWordChar(unit) || unit === CH_DOT || unit === CH_MINUS)) return null;
  }
  const slash = indexIn(c, CH_SLASH, at, to);
  const firstEnd = slash < 0 ? to : slash;
  if ((c[firstEnd - 1] ?? 0) !== CH_C) return null;
  const value = decimalIn(c, at + 1, firstEnd - 1);
  if (value === null) return null;
  if (slash < 0) return { name: text.slice(from, at), c: value, maxC: null };
  if ((c[to - 1] ?? 0) !== CH_C) return null;
  const maxC = decimalIn(c, slash + 1, to - 1);
  return maxC === null ? null : { name: text.slice(from, at), c: value, maxC };
}

/**
 * Rail values `cur/avg`, `curmW/avgmW`, `cur/avg/max` (JetPack 7) spanning c[from, to), as the
 * record keeps them; null if not of that form. Every value has `mW` or none has: tegrastats prints one form per release, so
 * `2412mW/24` is a line cut in its last value (a log copied while tegrastats wrote it), not an
 * average of 24 mW.
 */
function readRail(c: Uint16Array, from: number, to: number): TegrastatsRail | null {
  let cur = 0;
  let avg = 0;
  let max: number | null = null;
  let count = 0;
  let withUnit = 0;
  let k = from;
  for (;;) {
    const negative = k < to && (c[k] ?? 0) === CH_MINUS;
    if (negative) k++;
    const e = digitsEnd(c, k, to);
    if (e === k) return null;
    const value = negative ? -digitsValue(c, k, e) : digitsValue(c, k, e);
    if (count === 0) cur = value;
    else if (count === 1) avg = value;
    else max = value;
    count++;
    k = e;
    if (k + 2 <= to && (c[k] ?? 0) === 109 /* m */ && (c[k + 1] ?? 0) === 87 /* W */) {
      k += 2;
      withUnit++;
    }
    if (withUnit !== 0 && withUnit !== count) return null;
    if (k === to) break;
    if ((c[k] ?? 0) !== CH_SLASH || count === 3) return null;
    k++;
  }
  if (count < 2) return null;
  return max === null ? { cur, avg } : { cur, avg, max };
}

/**
 * `off`, `N%`, `N%@F`, `N%@[F,F]`, `@F`, `@[F,F,F]`, bare `F` spanning c[from, to) → its load and
 * clock, the object an engine keeps in the record; null if none of these.
 */
function readLoadFreq(c: Uint16Array, from: number, to: number): TegrastatsEngine | null {
  if (rangeIs(c, from, to, 'off')) return { on: false, loadPct: null, freqMHz: null, freqsMHz: null };
  if (to === from) return null;
  let k = from;
  let loadPct: number | null = null;
  const e = digitsEnd(c, from, to);
  if (e === to) return { on: true, loadPct: null, freqMHz: digitsValue(c, from, e), freqsMHz: null };
  if (e > from) {
    if ((c[e] ?? 0) !== CH_PERCENT) return null;
    loadPct = digitsValue(c, from, e);
    if (loadPct > MAX_LOAD_PCT) return null;
    k = e + 1;
  }
  if (k === to) return { on: true, loadPct, freqMHz: null, freqsMHz: null };
  if ((c[k] ?? 0) !== CH_AT) return null;
  k++;
  if (k < to && (c[k] ?? 0) === CH_OPEN_BRACKET) {
    if ((c[to - 1] ?? 0) !== CH_CLOSE_BRACKET) return null;
    const freqs: number[] = [];
    let max = -Infinity;
    let p = k + 1;
    for (;;) {
      const d = digitsEnd(c, p, to);
      if (d === p) return null;
      const f = digitsValue(c, p, d);
      freqs.push(f);
      if (f > max) max = f;
      if (d === to - 1) break;
      if ((c[d] ?? 0) !== CH_COMMA) return null;
      p = d + 1;
    }
    return { on: true, loadPct, freqMHz: max, freqsMHz: freqs };
  }
  const d = digitsEnd(c, k, to);
  if (d === k || d !== to) return null;
  return { on: true, loadPct, freqMHz: digitsValue(c, k, d), freqsMHz: null };
}

/**
 * The CPU list entry c[from, to): `N%@F`, `N%` (clock shared, after the list), `off`; undefined if
 * unreadable. Read in place in the list, as a list has up to 14 entries.
 */
function readCpuEntry(
  c: Uint16Array,
  from: number,
  to: number,
  shared: number | null,
): TegrastatsCpu | null | undefined {
  if (rangeIs(c, from, to, 'off')) return null;
  const d = digitsEnd(c, from, to);
  if (d === from || d === to || (c[d] ?? 0) !== CH_PERCENT) return undefined;
  const loadPct = digitsValue(c, from, d);
  if (loadPct > MAX_LOAD_PCT) return undefined;
  if (d + 1 === to) return { loadPct, freqMHz: shared };
  if ((c[d + 1] ?? 0) !== CH_AT) return undefined;
  const f = digitsEnd(c, d + 2, to);
  if (f === d + 2 || f !== to) return undefined;
  return { loadPct, freqMHz: digitsValue(c, d + 2, to) };
}

// ---------------------------------------------------------------------------------------------
// The line

function emptyRecord(line: number): TegrastatsRecord {
  return {
    kind: 'tegrastats',
    line,
    timestamp: null,
    localTimeIso: null,
    ramUsedBytes: null,
    ramTotalBytes: null,
    ramLfbBlocks: null,
    ramLfbBlockBytes: null,
    swapUsedBytes: null,
    swapTotalBytes: null,
    swapCachedBytes: null,
    iramUsedBytes: null,
    iramTotalBytes: null,
    iramLfbBytes: null,
    cpus: [],
    gpuLoadPct: null,
    gpuFreqMHz: null,
    gpuFreqsMHz: null,
    emcLoadPct: null,
    emcFreqMHz: null,
    mtsFgPct: null,
    mtsBgPct: null,
    edpLimitMHz: null,
    tempsC: {},
    tempsMaxC: {},
    sensorsOff: [],
    railsMw: {},
    engines: {},
    unknown: [],
    unknownCount: 0,
    partial: false,
  };
}

/**
 * Next free key for a repeated name (`NC`, `NC#2`, `NC#3`…). The last suffix per name is kept in
 * `seen` (made on the first repeat), so a line of thousands of repeats is not rescanned each time.
 */
function uniqueKey(map: Record<string, unknown>, seen: { counts: Map<string, number> | null }, name: string): string {
  if (!Object.prototype.hasOwnProperty.call(map, name)) return name;
  seen.counts ??= new Map();
  let k = (seen.counts.get(name) ?? 1) + 1;
  while (Object.prototype.hasOwnProperty.call(map, `${name}#${k}`)) k++;
  seen.counts.set(name, k);
  return `${name}#${k}`;
}

/** Keeps text[from, to) as an unknown token (the first MAX_UNKNOWN_TOKENS verbatim), counts it always. */
function addUnknown(r: TegrastatsRecord, text: string, from: number, to: number): void {
  if (r.unknown.length < MAX_UNKNOWN_TOKENS) r.unknown.push(text.slice(from, to));
  r.unknownCount++;
}

/** Like addUnknown, for text made up by the reader (`CPU[3]=x`, `(lfb x`). */
function addUnknownText(r: TegrastatsRecord, text: string): void {
  if (r.unknown.length < MAX_UNKNOWN_TOKENS) r.unknown.push(text);
  r.unknownCount++;
}

/** Token `i` is `DD-DD-DDDD` (the JetPack 5+ date). */
function isDateToken(c: Uint16Array, i: number): boolean {
  const a = tokenStart[i] ?? 0;
  return (
    (tokenEnd[i] ?? 0) - a === 10 &&
    (c[a + 2] ?? 0) === CH_MINUS &&
    (c[a + 5] ?? 0) === CH_MINUS &&
    allDigits(c, a, a + 2) &&
    allDigits(c, a + 3, a + 5) &&
    allDigits(c, a + 6, a + 10)
  );
}

/** Token `i` is `DD:DD:DD` (the JetPack 5+ time). */
function isTimeToken(c: Uint16Array, i: number): boolean {
  const a = tokenStart[i] ?? 0;
  return (
    (tokenEnd[i] ?? 0) - a === 8 &&
    (c[a + 2] ?? 0) === CH_COLON &&
    (c[a + 5] ?? 0) === CH_COLON &&
    allDigits(c, a, a + 2) &&
    allDigits(c, a + 3, a + 5) &&
    allDigits(c, a + 6, a + 8)
  );
}

/** The keywords that start a reading of more than one token, or that no other reading may take. */
const enum Keyword {
  None,
  Ram,
  Swap,
  Iram,
  Cpu,
  Mts,
  Edp,
}

/** Which keyword token c[from, to) is: dispatch on its length, then its letters. */
function keywordOf(c: Uint16Array, from: number, to: number): Keyword {
  switch (to - from) {
    case 3:
      if (rangeIs(c, from, to, 'RAM')) return Keyword.Ram;
      if (rangeIs(c, from, to, 'CPU') || rangeIs(c, from, to, 'cpu')) return Keyword.Cpu;
      if (rangeIs(c, from, to, 'MTS')) return Keyword.Mts;
      if (rangeIs(c, from, to, 'EDP')) return Keyword.Edp;
      return Keyword.None;
    case 4:
      if (rangeIs(c, from, to, 'SWAP')) return Keyword.Swap;
      if (rangeIs(c, from, to, 'IRAM')) return Keyword.Iram;
      return Keyword.None;
    default:
      return Keyword.None;
  }
}

/** Index of the first token at or after k holding `]` within MAX_CPU_LIST_TOKENS, else -1 (a bounded scan). */
function nextClose(c: Uint16Array, n: number, k: number): number {
  for (let q = k; q < n && q - k < MAX_CPU_LIST_TOKENS; q++)
    if (indexIn(c, CH_CLOSE_BRACKET, tokenStart[q] ?? 0, tokenEnd[q] ?? 0) >= 0) return q;
  return -1;
}

/**
 * Reads the CPU list in tokens j…close (`[` opens token j, the first `]` is in token `close`) of
 * `line` (its code units in c) into r.cpus: how many of its entries read, or -1 when what follows
 * the `]` is not `@F` (the shared clock of old releases) or nothing, which makes it no list at all.
 */
function readCpuList(r: TegrastatsRecord, c: Uint16Array, line: string, j: number, close: number): number {
  let from = tokenStart[j] ?? 0;
  let to = tokenEnd[j] ?? 0;
  /** The list's text, and where its first character is in c. */
  let text = line;
  let textAt = 0;
  if (close !== j) {
    // Rare (a paste that put spaces into the list): the tokens are read joined, their code units
    // copied one after the other past the line's end in c (loadCodeUnits left room for them).
    textAt = line.length;
    to = textAt;
    text = '';
    for (let q = j; q <= close; q++) {
      const a = tokenStart[q] ?? 0;
      const b = tokenEnd[q] ?? 0;
      c.copyWithin(to, a, b);
      to += b - a;
      text += line.slice(a, b);
    }
    from = textAt;
  }
  const shut = indexIn(c, CH_CLOSE_BRACKET, from, to);
  let shared: number | null = null;
  if (shut + 1 < to) {
    if ((c[shut + 1] ?? 0) !== CH_AT) return -1;
    const sharedEnd = digitsEnd(c, shut + 2, to);
    if (sharedEnd === shut + 2 || sharedEnd !== to) return -1;
    shared = digitsValue(c, shut + 2, to);
  }
  r.cpus = [];
  let readable = 0;
  if (shut === from + 1) return 0;
  let entry = from + 1;
  for (let idx = 0; ; idx++) {
    const comma = indexIn(c, CH_COMMA, entry, shut);
    // No entry has spaces to trim: the list is made of tokens, which have none.
    const end = comma < 0 ? shut : comma;
    const cpu = readCpuEntry(c, entry, end, shared);
    if (cpu === undefined) addUnknownText(r, `CPU[${idx}]=${text.slice(entry - textAt, end - textAt)}`);
    else readable++;
    // null means `off`: an entry that does not read is a core whose load and clock are unknown.
    r.cpus.push(cpu === undefined ? { loadPct: null, freqMHz: null } : cpu);
    if (comma < 0) break;
    entry = comma + 1;
  }
  return readable;
}

export interface LineParse {
  record: TegrastatsRecord;
  /** Fields read (anything at all). */
  fields: number;
  /** The line stops where a value is still expected (a terminal wrap or a cut paste). */
  incomplete: boolean;
  /**
   * The record may go on on the next line even though nothing dangles: every release prints a CPU
   * list, and after it temperatures, rails or (TX1) `EDP limit`; a record start without them was
   * most likely cut at a token boundary.
   */
  mayContinue: boolean;
}

/**
 * Read one tegrastats line. Pure (its scratch arrays are overwritten per call); never throws.
 * `partial` is set when the line does not start at a record start (`[timestamp] RAM …`) or stops
 * where a value is still expected.
 */
export function readLine(text: string, line: number): LineParse {
  const r = emptyRecord(line);
  let fields = 0;
  let from = 0;
  // A logger's time in front (`[2018-08-23 16:30:36] : RAM …`): the record's time, then the record.
  // Checked only where a line opens with `[` or a year (`2018-`), never on tegrastats' own lines.
  let lead = 0;
  while (lead < text.length && isSpace(text.charCodeAt(lead))) lead++;
  if (text.charCodeAt(lead) === CH_OPEN_BRACKET || text.charCodeAt(lead + 4) === CH_MINUS) {
    const stamp = LOG_STAMP_RE.exec(text);
    if (stamp) {
      const [whole, date, time, fraction] = stamp;
      r.timestamp = whole.trim();
      r.localTimeIso = `${date}T${time}${fraction ? `.${fraction.padEnd(3, '0').slice(0, 3)}` : ''}`;
      fields++;
      from = whole.length;
    }
  }
  const c = loadCodeUnits(text);
  const total = scanTokens(c, from, text.length);
  const n = Math.min(total, MAX_TOKENS);
  let incomplete = false;
  let sawCpus = false;
  /** Readings that come after the CPU list in every release: temperatures, rails, `EDP limit`. */
  let tailFields = 0;
  let i = 0;
  const railKeys: { counts: Map<string, number> | null } = { counts: null };
  const engineKeys: { counts: Map<string, number> | null } = { counts: null };

  if (n >= 2 && isDateToken(c, 0) && isTimeToken(c, 1)) {
    const d = text.slice(tokenStart[0], tokenEnd[0]);
    const t = text.slice(tokenStart[1], tokenEnd[1]);
    r.timestamp = `${d} ${t}`;
    r.localTimeIso = `${d.slice(6)}-${d.slice(0, 2)}-${d.slice(3, 5)}T${t}`;
    fields++;
    i = 2;
  }
  const first = i;
  r.partial = !(i < n && rangeIs(c, tokenStart[i] ?? 0, tokenEnd[i] ?? 0, 'RAM'));

  while (i < n) {
    const ts = tokenStart[i] ?? 0;
    const te = tokenEnd[i] ?? 0;
    const hasNext = i + 1 < n;
    const ns = hasNext ? (tokenStart[i + 1] ?? 0) : 0;
    const ne = hasNext ? (tokenEnd[i + 1] ?? 0) : 0;
    // A fragment of a wrapped record may start at the bare CPU list.
    const bareList = i === first && (c[ts] ?? 0) === CH_OPEN_BRACKET;
    const keyword = bareList ? Keyword.Cpu : keywordOf(c, ts, te);

    // The keyword readings. Each either reads its tokens and goes on to the next token (`continue`),
    // or falls through to the generic readings below, which keep what nobody reads as unknown.
    switch (keyword) {
      case Keyword.Ram:
      case Keyword.Swap:
      case Keyword.Iram: {
        // Memory: `RAM a/bMB (lfb NxZMB)`, `SWAP a/bMB (cached NMB)`, `IRAM a/bkB (lfb NkB)`.
        if (!hasNext || !readUsedTotal(c, ns, ne)) break;
        if (keyword === Keyword.Ram) [r.ramUsedBytes, r.ramTotalBytes] = [pair.first, pair.second];
        else if (keyword === Keyword.Swap) [r.swapUsedBytes, r.swapTotalBytes] = [pair.first, pair.second];
        else [r.iramUsedBytes, r.iramTotalBytes] = [pair.first, pair.second];
        fields++;
        i += 2;
        if (i >= n) continue;
        const os = tokenStart[i] ?? 0;
        const oe = tokenEnd[i] ?? 0;
        const lfb = rangeIs(c, os, oe, '(lfb');
        if (!lfb && !rangeIs(c, os, oe, '(cached')) continue;
        if (i + 1 >= n) {
          incomplete = true;
          addUnknown(r, text, os, oe);
          i += 1;
          continue;
        }
        const is = tokenStart[i + 1] ?? 0;
        const ie = tokenEnd[i + 1] ?? 0;
        if (lfb && keyword === Keyword.Ram && readLfbBlocks(c, is, ie)) {
          [r.ramLfbBlocks, r.ramLfbBlockBytes] = [pair.first, pair.second];
        } else {
          const single = readSizeClosed(c, is, ie);
          if (lfb && single !== null && keyword === Keyword.Iram) r.iramLfbBytes = single;
          else if (!lfb && single !== null && keyword === Keyword.Swap) r.swapCachedBytes = single;
          else addUnknownText(r, `${text.slice(os, oe)} ${text.slice(is, ie)}`);
        }
        i += 2;
        continue;
      }

      case Keyword.Cpu: {
        // CPU list: `CPU [a%@f,off,…]`, old `cpu [2%,5%]@1734`.
        const j = bareList ? i : i + 1;
        if (j >= n) {
          incomplete = true;
          addUnknown(r, text, ts, te);
          i++;
          continue;
        }
        if ((c[tokenStart[j] ?? 0] ?? 0) !== CH_OPEN_BRACKET) break;
        // The list has no spaces in any release seen, but a paste may add some: join until `]`.
        const close = nextClose(c, n, j);
        if (close < 0) {
          incomplete = true;
          break;
        }
        const readable = readCpuList(r, c, text, j, close);
        // Not a list after all: the tokens are kept as unknown below.
        if (readable < 0) break;
        sawCpus = true;
        // A list none of whose entries reads ("[", then bytes up to a "]") is no reading: it must
        // not make a line of noise count as a sample.
        if (readable > 0) fields++;
        i = close + 1;
        continue;
      }

      case Keyword.Mts: {
        // `MTS fg 0% bg 0%` (TX1, TX2 on L4T 28).
        if (i + 4 >= n || !rangeIs(c, tokenStart[i + 1] ?? 0, tokenEnd[i + 1] ?? 0, 'fg')) break;
        if (!rangeIs(c, tokenStart[i + 3] ?? 0, tokenEnd[i + 3] ?? 0, 'bg')) break;
        const fg = readPct(c, tokenStart[i + 2] ?? 0, tokenEnd[i + 2] ?? 0);
        const bg = readPct(c, tokenStart[i + 4] ?? 0, tokenEnd[i + 4] ?? 0);
        if (fg === null || bg === null) break;
        r.mtsFgPct = fg;
        r.mtsBgPct = bg;
        fields++;
        i += 5;
        continue;
      }

      case Keyword.Edp: {
        // `EDP limit 1734` (TX1).
        if (i + 2 >= n || !rangeIs(c, ns, ne, 'limit')) break;
        const vs = tokenStart[i + 2] ?? 0;
        const ve = tokenEnd[i + 2] ?? 0;
        if (!allDigits(c, vs, ve)) break;
        r.edpLimitMHz = digitsValue(c, vs, ve);
        fields++;
        tailFields++;
        i += 3;
        continue;
      }

      case Keyword.None:
        break;
    }

    // Temperatures: `name@42.5C`, JetPack 7 `name@52.9C/53.1C`.
    if ((c[te - 1] ?? 0) === CH_C) {
      const temp = readTemp(c, text, ts, te);
      if (temp) {
        if (temp.c <= SENSOR_OFF_AT_OR_BELOW_C) r.sensorsOff.push(temp.name);
        else {
          r.tempsC[temp.name] = temp.c;
          if (temp.maxC !== null) r.tempsMaxC[temp.name] = temp.maxC;
        }
        fields++;
        tailFields++;
        i++;
        continue;
      }
    }

    if (isName(c, ts, te)) {
      if (!hasNext) {
        // A tegrastats field name (upper case, or the old `cpu`) with nothing after it at the end of
        // the line: the record goes on elsewhere (a wrap or a cut paste).
        if (isUpperName(c, ts, te) || rangeIs(c, ts, te, 'cpu')) incomplete = true;
        addUnknown(r, text, ts, te);
        i++;
        continue;
      }
      // Power rails: `VDD_IN 1931/1931` (old L4T, mW), `VDD_IN 4744mW/6179mW`, `… cur/avg/max` (JetPack 7).
      const rail = readRail(c, ns, ne);
      if (rail) {
        const key = uniqueKey(r.railsMw, railKeys, text.slice(ts, te));
        r.railsMw[key] = rail;
        fields++;
        tailFields++;
        i += 2;
        continue;
      }
      // An engine, GR3D or EMC is named in upper case in every release; a program's output between
      // the readings (`Found 2 device(s):`) is not an engine "Found" at 2 MHz.
      const lf = isUpperName(c, ts, te) ? readLoadFreq(c, ns, ne) : null;
      if (lf) {
        // `GR3D_FREQ` and `GR3D` (TX1) are one reading, as are `EMC_FREQ` and `EMC`.
        const baseEnd = te - ts > 5 && rangeIs(c, te - 5, te, '_FREQ') ? te - 5 : te;
        if (rangeIs(c, ts, baseEnd, 'GR3D')) {
          r.gpuLoadPct = lf.loadPct;
          r.gpuFreqMHz = lf.freqMHz;
          r.gpuFreqsMHz = lf.freqsMHz;
        } else if (rangeIs(c, ts, baseEnd, 'EMC')) {
          r.emcLoadPct = lf.loadPct;
          r.emcFreqMHz = lf.freqMHz;
        } else {
          r.engines[uniqueKey(r.engines, engineKeys, text.slice(ts, baseEnd))] = lf;
        }
        fields++;
        i += 2;
        continue;
      }
    }

    addUnknown(r, text, ts, te);
    i++;
  }
  r.unknownCount += total - n;
  if (!sawCpus && !r.partial) incomplete = true;
  if (incomplete) r.partial = true;
  return { record: r, fields, incomplete, mayContinue: incomplete || tailFields === 0 };
}
