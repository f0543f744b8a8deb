// tegrastats (NVIDIA Jetson) → `kind: "tegrastats"` records, one per output line.
//
// Format reference: NVIDIA's "tegrastats Utility / Reported Statistics" tables (L4T 32.x Development
// Guide, DRIVE OS 6 SDK): `RAM X/Y (lfb NxZ)`, `SWAP X/Y (cached Z)`, `IRAM X/Y (lfb Z)`,
// `CPU [X%,Y%]@Z` or `CPU [X%@Z,…]` (`off` for an offline core), `EMC_FREQ X%@Y`, `GR3D_FREQ X%@[Y,…]`,
// `<engine> X%@Y` or `<engine> Y`, `name@XC` temperatures, `<rail> X/Y` power (current/average mW).
// Checked against real lines from: TX1 (L4T 24, oldest: lowercase `cpu [..]@F`, `EMC`/`GR3D` without
// `_FREQ`, `EDP limit`), TX2 (L4T 28 with unitless rails, L4T 32 non-root), TX2 NX (JetPack 4.6,
// `off` cores, no rails), Nano (JetPack 4.6, IRAM, POM_5V_* rails), Xavier NX (JetPack 4.x and 5.1.2
// with timestamp and mW rails), AGX Xavier (JetPack 4.2: rail names `GPU`/`CPU` equal to temperature
// names), Orin Nano (JetPack 6, non-root), AGX Orin (JetPack 5/6: `GR3D_FREQ 0%@[0,0]`, `-256C`
// sensors, duplicate `NC` rails, `NVENC 79%@166`), and JetPack 7 (Thor) shapes written from the
// format: `@[F,F,F]`, `EMC_FREQ @F` without load, `cpu@52.9C/53.1C`, rails `cur/avg/max`.
//
// One small reader per field, like jetson-stats' tegra_parse.py; the line is walked token by token
// so that a token nobody knows is kept in `unknown` instead of derailing the rest.

import { capLines, type LineCapOptions } from './line-cap';
import {
  diagnostic,
  isBlankLine,
  isCommentLine,
  type Diagnostic,
  type LineParser,
  type TegrastatsEngine,
  type TegrastatsRecord,
} from './records';
import {
  LOG_STAMP_RE,
  RECORD_START_RE,
  tokenize,
  digitsEnd,
  allDigits,
  isDatePart,
  isTimePart,
  readUsedTotal,
  readLfbBlocks,
  readSizeClosed,
  readTemp,
  readRail,
  isName,
  isUpperName,
  readPct,
  readLoadFreq,
  readCpuEntry,
} from './tegrastats-fields';

/** Readings at or below this are "sensor off" sentinels (tegrastats prints -256C for a disabled zone). */
export const SENSOR_OFF_AT_OR_BELOW_C = -200;

/** A record split by terminal wrapping is re-joined over at most this many physical lines. */
export const MAX_WRAPPED_LINES = 4;

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
 * Unknown tokens kept verbatim per record (all are counted in `unknownCount`): a real line has a
 * handful at most; a damaged one can have thousands, and listing them all helps no reader.
 */
export const MAX_UNKNOWN_TOKENS = 32;

/** A CPU list spread over more tokens than this is not a CPU list (a 14-core Thor needs one). */
const MAX_CPU_LIST_TOKENS = 64;

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

/** Index of the first token at or after k holding `]` within MAX_CPU_LIST_TOKENS, else -1 (a bounded scan). */
function nextClose(tokens: string[], k: number): number {
  for (let q = k; q < tokens.length && q - k < MAX_CPU_LIST_TOKENS; q++) if ((tokens[q] ?? '').includes(']')) return q;
  return -1;
}

function addUnknown(r: TegrastatsRecord, t: string): void {
  if (r.unknown.length < MAX_UNKNOWN_TOKENS) r.unknown.push(t);
  r.unknownCount++;
}

interface LineParse {
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
 * Read one tegrastats line. Pure; never throws. `partial` is set when the line does not start at a
 * record start (`[timestamp] RAM …`) or stops where a value is still expected.
 */
function readLine(text: string, line: number): LineParse {
  const r = emptyRecord(line);
  let fields = 0;
  // A logger's time in front (`[2018-08-23 16:30:36] : RAM …`): the record's time, then the record.
  // Checked only where a line opens with `[` or a year (`2018-`), never on tegrastats' own lines.
  const lead = text.trimStart();
  if (lead.charCodeAt(0) === 91 /* [ */ || lead.charCodeAt(4) === 45 /* - */) {
    const stamp = LOG_STAMP_RE.exec(text);
    if (stamp) {
      const [whole, date, time, fraction] = stamp;
      r.timestamp = whole.trim();
      r.localTimeIso = `${date}T${time}${fraction ? `.${fraction.padEnd(3, '0').slice(0, 3)}` : ''}`;
      fields++;
      text = text.slice(whole.length);
    }
  }
  const { tokens, more } = tokenize(text);
  const n = tokens.length;
  let incomplete = false;
  let sawCpus = false;
  /** Readings that come after the CPU list in every release: temperatures, rails, `EDP limit`. */
  let tailFields = 0;
  let i = 0;
  const railKeys: { counts: Map<string, number> | null } = { counts: null };
  const engineKeys: { counts: Map<string, number> | null } = { counts: null };

  if (n >= 2 && isDatePart(tokens[0] ?? '') && isTimePart(tokens[1] ?? '')) {
    const d = tokens[0] ?? '';
    const t = tokens[1] ?? '';
    r.timestamp = `${d} ${t}`;
    r.localTimeIso = `${d.slice(6)}-${d.slice(0, 2)}-${d.slice(3, 5)}T${t}`;
    fields++;
    i = 2;
  }
  const first = i;
  r.partial = (tokens[i] ?? '') !== 'RAM';

  while (i < n) {
    const t = tokens[i] ?? '';
    const next = i + 1 < n ? (tokens[i + 1] ?? '') : undefined;

    // Memory: `RAM a/bMB (lfb NxZMB)`, `SWAP a/bMB (cached NMB)`, `IRAM a/bkB (lfb NkB)`.
    if ((t === 'RAM' || t === 'SWAP' || t === 'IRAM') && next !== undefined) {
      const ut = readUsedTotal(next);
      if (ut) {
        const [used, total] = ut;
        if (t === 'RAM') [r.ramUsedBytes, r.ramTotalBytes] = [used, total];
        else if (t === 'SWAP') [r.swapUsedBytes, r.swapTotalBytes] = [used, total];
        else [r.iramUsedBytes, r.iramTotalBytes] = [used, total];
        fields++;
        i += 2;
        const open = tokens[i];
        const inner = tokens[i + 1];
        if (open === '(lfb' || open === '(cached') {
          if (inner === undefined) {
            incomplete = true;
            addUnknown(r, open);
            i += 1;
            continue;
          }
          const lfbBlocks = open === '(lfb' && t === 'RAM' ? readLfbBlocks(inner) : null;
          const single = lfbBlocks ? null : readSizeClosed(inner);
          if (lfbBlocks) [r.ramLfbBlocks, r.ramLfbBlockBytes] = lfbBlocks;
          else if (open === '(lfb' && single !== null && t === 'IRAM') r.iramLfbBytes = single;
          else if (open === '(cached' && single !== null && t === 'SWAP') r.swapCachedBytes = single;
          else addUnknown(r, `${open} ${inner}`);
          i += 2;
        }
        continue;
      }
    }

    // CPU list: `CPU [a%@f,off,…]`, old `cpu [2%,5%]@1734`; a fragment may start at the bare list.
    const bareList = i === first && t.startsWith('[');
    if (t === 'CPU' || t === 'cpu' || bareList) {
      const j = bareList ? i : i + 1;
      if (j < n && (tokens[j] ?? '').startsWith('[')) {
        // The list has no spaces in any release seen, but a paste may add some: join until `]`.
        const close = nextClose(tokens, j);
        if (close >= 0) {
          const list = close === j ? (tokens[j] ?? '') : tokens.slice(j, close + 1).join('');
          const shut = list.indexOf(']');
          const after = list.slice(shut + 1);
          const sharedEnd = after.startsWith('@') ? digitsEnd(after, 1) : 0;
          if (after === '' || (sharedEnd > 1 && sharedEnd === after.length)) {
            const shared = after === '' ? null : Number(after.slice(1));
            const body = list.slice(1, shut);
            sawCpus = true;
            r.cpus = [];
            // A list none of whose entries reads ("[", then bytes up to a "]") is no reading: it
            // must not make a line of noise count as a sample.
            let readable = 0;
            if (body !== '') {
              let from = 0;
              for (let idx = 0; ; idx++) {
                const comma = body.indexOf(',', from);
                // No entry has spaces to trim: the list is made of tokens, which have none.
                const to = comma < 0 ? body.length : comma;
                const c = readCpuEntry(body, from, to, shared);
                if (c === undefined) addUnknown(r, `CPU[${idx}]=${body.slice(from, to)}`);
                else readable++;
                // null means `off`: an entry that does not read is a core whose load and clock are unknown.
                r.cpus.push(c === undefined ? { loadPct: null, freqMHz: null } : c);
                if (comma < 0) break;
                from = comma + 1;
              }
            }
            if (readable > 0) fields++;
            i = close + 1;
            continue;
          }
        } else incomplete = true;
        // Not a list after all: fall through and keep the tokens as unknown below.
      } else if (j >= n && !bareList) {
        incomplete = true;
        addUnknown(r, t);
        i++;
        continue;
      }
    }

    if (t === 'MTS' && i + 4 < n && (tokens[i + 1] ?? '') === 'fg' && (tokens[i + 3] ?? '') === 'bg') {
      const fg = readPct(tokens[i + 2] ?? '');
      const bg = readPct(tokens[i + 4] ?? '');
      if (fg !== null && bg !== null) {
        r.mtsFgPct = fg;
        r.mtsBgPct = bg;
        fields++;
        i += 5;
        continue;
      }
    }

    if (t === 'EDP' && (tokens[i + 1] ?? '') === 'limit' && i + 2 < n && allDigits(tokens[i + 2] ?? '')) {
      r.edpLimitMHz = Number(tokens[i + 2] ?? '');
      fields++;
      tailFields++;
      i += 3;
      continue;
    }

    // Temperatures: `name@42.5C`, JetPack 7 `name@52.9C/53.1C`.
    if (t.endsWith('C') && t.includes('@')) {
      const temp = readTemp(t);
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

    if (isName(t)) {
      if (next === undefined) {
        // A tegrastats field name (upper case, or the old `cpu`) with nothing after it at the end of
        // the line: the record goes on elsewhere (a wrap or a cut paste).
        if (isUpperName(t) || t === 'cpu') incomplete = true;
        addUnknown(r, t);
        i++;
        continue;
      }
      // Power rails: `VDD_IN 1931/1931` (old L4T, mW), `VDD_IN 4744mW/6179mW`, `… cur/avg/max` (JetPack 7).
      const rail = readRail(next);
      if (rail) {
        const key = uniqueKey(r.railsMw, railKeys, t);
        r.railsMw[key] =
          rail.max === null ? { cur: rail.cur, avg: rail.avg } : { cur: rail.cur, avg: rail.avg, max: rail.max };
        fields++;
        tailFields++;
        i += 2;
        continue;
      }
      // An engine, GR3D or EMC is named in upper case in every release; a program's output between
      // the readings (`Found 2 device(s):`) is not an engine "Found" at 2 MHz.
      const lf = isUpperName(t) ? readLoadFreq(next) : null;
      if (lf) {
        const base = t.endsWith('_FREQ') ? t.slice(0, -5) : t;
        if (base === 'GR3D') {
          r.gpuLoadPct = lf.loadPct;
          r.gpuFreqMHz = lf.freqMHz;
          r.gpuFreqsMHz = lf.freqsMHz;
        } else if (base === 'EMC') {
          r.emcLoadPct = lf.loadPct;
          r.emcFreqMHz = lf.freqMHz;
        } else {
          const engine: TegrastatsEngine = {
            on: lf.on,
            loadPct: lf.loadPct,
            freqMHz: lf.freqMHz,
            freqsMHz: lf.freqsMHz,
          };
          r.engines[uniqueKey(r.engines, engineKeys, base)] = engine;
        }
        fields++;
        i += 2;
        continue;
      }
    }

    addUnknown(r, t);
    i++;
  }
  r.unknownCount += more;
  if (!sawCpus && !r.partial) incomplete = true;
  if (incomplete) r.partial = true;
  return { record: r, fields, incomplete, mayContinue: incomplete || tailFields === 0 };
}

/** What a reading of `text` gives: its record, or a diagnostic when nothing in it is readable. */
function output(parsed: LineParse, text: string, line: number): TegrastatsRecord | Diagnostic {
  return parsed.fields === 0 ? diagnostic(line, 'not a tegrastats line', text) : parsed.record;
}

/** Parse one line on its own (no re-joining of wrapped lines): a record, or a diagnostic when nothing in it is readable. */
export function parseTegrastatsLine(text: string, line: number): TegrastatsRecord | Diagnostic {
  return output(readLine(text, line), text, line);
}

/**
 * Streaming parser. A record-start line that stops where a value is still expected (`… CPU ` at the
 * end, an unclosed `[`) is held: if the next line does not start a record it is the rest of the
 * wrapped record and both are read as one. At most MAX_WRAPPED_LINES are joined.
 */
export function createTegrastatsParser(options: LineCapOptions = {}): LineParser<TegrastatsRecord | Diagnostic> {
  let lineNo = 0;
  /** A record start that may go on on the next line, with its reading so far (not read twice). */
  let held: { text: string; line: number; parts: number; parsed: LineParse } | null = null;

  const flushHeld = (): Array<TegrastatsRecord | Diagnostic> => {
    if (!held) return [];
    const { parsed, text, line } = held;
    held = null;
    return [output(parsed, text, line)];
  };

  return capLines(
    {
      push(text: string) {
        lineNo++;
        if (isBlankLine(text) || isCommentLine(text)) return flushHeld();
        const startsRecord = RECORD_START_RE.test(text);
        let out: Array<TegrastatsRecord | Diagnostic>;
        let candidate: { text: string; line: number; parts: number };
        if (held && !startsRecord) {
          // Continuation of a wrapped record. A terminal wrap keeps every character, so the space of a
          // cut between tokens is on one side; a paste may have trimmed it, and a cut inside a token has
          // none. Without a space at the cut, take whichever reading leaves fewer unknown tokens.
          let joined = held.text + text;
          if (!/\s$/.test(held.text) && !/^\s/.test(text)) {
            const spaced = held.text + ' ' + text;
            if (readLine(spaced, held.line).record.unknownCount <= readLine(joined, held.line).record.unknownCount)
              joined = spaced;
          }
          candidate = { text: joined, line: held.line, parts: held.parts + 1 };
          held = null;
          out = [];
        } else {
          out = flushHeld();
          candidate = { text, line: lineNo, parts: 1 };
        }
        const parsed = readLine(candidate.text, candidate.line);
        if (parsed.mayContinue && RECORD_START_RE.test(candidate.text) && candidate.parts < MAX_WRAPPED_LINES) {
          held = { ...candidate, parsed };
          return out;
        }
        out.push(output(parsed, candidate.text, candidate.line));
        return out;
      },
      end() {
        return flushHeld();
      },
    },
    options.maxLineChars,
  );
}
