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

import {
  diagnostic,
  isBlankLine,
  isCommentLine,
  type Diagnostic,
  type LineParser,
  type TegrastatsEngine,
  type TegrastatsRecord,
} from './records';

/** Readings at or below this are "sensor off" sentinels (tegrastats prints -256C for a disabled zone). */
export const SENSOR_OFF_AT_OR_BELOW_C = -200;

/** A record split by terminal wrapping is re-joined over at most this many physical lines. */
export const MAX_WRAPPED_LINES = 4;

const UNIT_BYTES: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

function unitBytes(unit: string): number {
  return UNIT_BYTES[unit.toLowerCase()] ?? NaN;
}

const TIMESTAMP_RE = /^(\d\d)-(\d\d)-(\d{4}) (\d\d):(\d\d):(\d\d)$/;
const RECORD_START_RE = /^\s*(?:\d\d-\d\d-\d{4}\s+\d\d:\d\d:\d\d\s+)?RAM\s/;
const NAME_RE = /^[A-Za-z][A-Za-z0-9_]*$/;
const USED_TOTAL_RE = /^(\d+)\/(\d+)(kB|MB|GB)$/i;
const TEMP_RE = /^([A-Za-z][\w.-]*)@(-?\d+(?:\.\d+)?)C(?:\/(-?\d+(?:\.\d+)?)C)?$/;
const RAIL_RE = /^(-?\d+)(?:mW)?\/(-?\d+)(?:mW)?(?:\/(-?\d+)(?:mW)?)?$/;
const CPU_LIST_RE = /^\[([^\]]*)\](?:@(\d+))?$/;
const CPU_ENTRY_RE = /^(\d+)%(?:@(\d+))?$/;
// Load/clock forms: `off`, `N%`, `N%@F`, `N%@[F,…]`, `@F`, `@[F,…]`, bare `F` (MHz).
const LOAD_FREQ_RE = /^(?:(\d+)%)?(?:@(?:(\d+)|\[(\d+(?:,\d+)*)\]))?$/;
const BARE_MHZ_RE = /^\d+$/;

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
    partial: false,
  };
}

interface LoadFreq {
  on: boolean;
  loadPct: number | null;
  freqMHz: number | null;
  freqsMHz: number[] | null;
}

/** `off`, `N%`, `N%@F`, `N%@[F,F]`, `@F`, `@[F,F,F]`, bare `F` → load and clock; null if none of these. */
function readLoadFreq(token: string): LoadFreq | null {
  if (token === 'off') return { on: false, loadPct: null, freqMHz: null, freqsMHz: null };
  if (BARE_MHZ_RE.test(token)) return { on: true, loadPct: null, freqMHz: Number(token), freqsMHz: null };
  const m = LOAD_FREQ_RE.exec(token);
  if (!m || (m[1] === undefined && m[2] === undefined && m[3] === undefined)) return null;
  const freqs = m[3] !== undefined ? m[3].split(',').map(Number) : null;
  const freq = m[2] !== undefined ? Number(m[2]) : freqs ? Math.max(...freqs) : null;
  return { on: true, loadPct: m[1] !== undefined ? Number(m[1]) : null, freqMHz: freq, freqsMHz: freqs };
}

function uniqueKey(map: Record<string, unknown>, name: string): string {
  if (!(name in map)) return name;
  for (let k = 2; ; k++) if (!(`${name}#${k}` in map)) return `${name}#${k}`;
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
  // `IRAM 0/252kB(lfb 252kB)`: no space before the parenthesis on some releases.
  const tokens = text
    .replace(/\(/g, ' (')
    .trim()
    .split(/\s+/)
    .filter((t) => t.length > 0);
  let fields = 0;
  let incomplete = false;
  let sawCpus = false;
  let i = 0;
  const n = tokens.length;

  if (n >= 2 && /^\d\d-\d\d-\d{4}$/.test(tokens[0]) && /^\d\d:\d\d:\d\d$/.test(tokens[1])) {
    const m = TIMESTAMP_RE.exec(`${tokens[0]} ${tokens[1]}`);
    if (m) {
      r.timestamp = `${tokens[0]} ${tokens[1]}`;
      r.localTimeIso = `${m[3]}-${m[1]}-${m[2]}T${m[4]}:${m[5]}:${m[6]}`;
      fields++;
    }
    i = 2;
  }
  r.partial = tokens[i] !== 'RAM';

  const unknown = (t: string) => r.unknown.push(t);

  while (i < n) {
    const t = tokens[i];
    const next = i + 1 < n ? tokens[i + 1] : undefined;

    // Memory: `RAM a/bMB (lfb NxZMB)`, `SWAP a/bMB (cached NMB)`, `IRAM a/bkB (lfb NkB)`.
    if ((t === 'RAM' || t === 'SWAP' || t === 'IRAM') && next !== undefined) {
      const m = USED_TOTAL_RE.exec(next);
      if (m) {
        const unit = unitBytes(m[3]);
        const used = Number(m[1]) * unit;
        const total = Number(m[2]) * unit;
        if (t === 'RAM') [r.ramUsedBytes, r.ramTotalBytes] = [used, total];
        else if (t === 'SWAP') [r.swapUsedBytes, r.swapTotalBytes] = [used, total];
        else [r.iramUsedBytes, r.iramTotalBytes] = [used, total];
        fields++;
        i += 2;
        const open = tokens[i];
        const inner = tokens[i + 1];
        if ((open === '(lfb' || open === '(cached') && inner === undefined) {
          incomplete = true;
          unknown(open);
          i += 1;
          continue;
        }
        if ((open === '(lfb' || open === '(cached') && inner !== undefined) {
          const lfbBlocks = /^(\d+)x(\d+)(kB|MB|GB)\)$/i.exec(inner);
          const single = /^(\d+)(kB|MB|GB)\)$/i.exec(inner);
          if (open === '(lfb' && lfbBlocks && t === 'RAM') {
            r.ramLfbBlocks = Number(lfbBlocks[1]);
            r.ramLfbBlockBytes = Number(lfbBlocks[2]) * unitBytes(lfbBlocks[3]);
          } else if (open === '(lfb' && single && t === 'IRAM') {
            r.iramLfbBytes = Number(single[1]) * unitBytes(single[2]);
          } else if (open === '(cached' && single && t === 'SWAP') {
            r.swapCachedBytes = Number(single[1]) * unitBytes(single[2]);
          } else {
            unknown(`${open} ${inner}`);
          }
          i += 2;
        }
        continue;
      }
    }

    // CPU list: `CPU [a%@f,off,…]`, old `cpu [2%,5%]@1734`; a fragment may start at the bare list.
    if (t === 'CPU' || t === 'cpu' || (i === (r.timestamp ? 2 : 0) && t.startsWith('['))) {
      let j = t.startsWith('[') ? i : i + 1;
      if (j < n && tokens[j].startsWith('[')) {
        // The list has no spaces in any release seen, but a paste may add some: join until `]`.
        let list = tokens[j];
        while (!list.includes(']') && j + 1 < n) list += tokens[++j];
        const m = CPU_LIST_RE.exec(list);
        if (m) {
          sawCpus = true;
          const shared = m[2] !== undefined ? Number(m[2]) : null;
          r.cpus =
            m[1] === ''
              ? []
              : m[1].split(',').map((entry, idx) => {
                  const e = entry.trim();
                  if (e === 'off') return null;
                  const c = CPU_ENTRY_RE.exec(e);
                  if (!c) {
                    unknown(`CPU[${idx}]=${e}`);
                    return null;
                  }
                  return { loadPct: Number(c[1]), freqMHz: c[2] !== undefined ? Number(c[2]) : shared };
                });
          fields++;
          i = j + 1;
          continue;
        }
        if (!list.includes(']')) incomplete = true;
        // Not a list after all: fall through and keep the tokens as unknown below.
      } else if (j >= n && (t === 'CPU' || t === 'cpu')) {
        incomplete = true;
        unknown(t);
        i++;
        continue;
      }
    }

    if (t === 'MTS' && i + 4 < n && tokens[i + 1] === 'fg' && tokens[i + 3] === 'bg') {
      const fg = /^(\d+)%$/.exec(tokens[i + 2]);
      const bg = /^(\d+)%$/.exec(tokens[i + 4]);
      if (fg && bg) {
        r.mtsFgPct = Number(fg[1]);
        r.mtsBgPct = Number(bg[1]);
        fields++;
        i += 5;
        continue;
      }
    }

    if (t === 'EDP' && tokens[i + 1] === 'limit' && i + 2 < n && BARE_MHZ_RE.test(tokens[i + 2])) {
      r.edpLimitMHz = Number(tokens[i + 2]);
      fields++;
      i += 3;
      continue;
    }

    // Temperatures: `name@42.5C`, JetPack 7 `name@52.9C/53.1C`.
    if (t.includes('@') && t.endsWith('C')) {
      const m = TEMP_RE.exec(t);
      if (m) {
        const v = Number(m[2]);
        if (v <= SENSOR_OFF_AT_OR_BELOW_C) r.sensorsOff.push(m[1]);
        else {
          r.tempsC[m[1]] = v;
          if (m[3] !== undefined) r.tempsMaxC[m[1]] = Number(m[3]);
        }
        fields++;
        i++;
        continue;
      }
    }

    if (NAME_RE.test(t)) {
      if (next === undefined) {
        // A tegrastats field name (upper case, or the old `cpu`) with nothing after it at the end of
        // the line: the record goes on elsewhere (a wrap or a cut paste).
        if (/^[A-Z][A-Z0-9_]*$/.test(t) || t === 'cpu') incomplete = true;
        unknown(t);
        i++;
        continue;
      }
      // Power rails: `VDD_IN 1931/1931` (old L4T, mW), `VDD_IN 4744mW/6179mW`, `… cur/avg/max` (JetPack 7).
      const rail = RAIL_RE.exec(next);
      if (rail) {
        const key = uniqueKey(r.railsMw, t);
        r.railsMw[key] = { cur: Number(rail[1]), avg: Number(rail[2]) };
        if (rail[3] !== undefined) r.railsMw[key].max = Number(rail[3]);
        fields++;
        i += 2;
        continue;
      }
      const lf = readLoadFreq(next);
      if (lf) {
        const base = t.replace(/_FREQ$/, '');
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
          r.engines[uniqueKey(r.engines, base)] = engine;
        }
        fields++;
        i += 2;
        continue;
      }
    }

    unknown(t);
    i++;
  }
  if (!sawCpus && !r.partial) incomplete = true;
  if (incomplete) r.partial = true;
  const tail =
    Object.keys(r.tempsC).length +
    r.sensorsOff.length +
    Object.keys(r.railsMw).length +
    (r.edpLimitMHz !== null ? 1 : 0);
  return { record: r, fields, incomplete, mayContinue: incomplete || tail === 0 };
}

/** Parse one line on its own (no re-joining of wrapped lines): a record, or a diagnostic when nothing in it is readable. */
export function parseTegrastatsLine(text: string, line: number): TegrastatsRecord | Diagnostic {
  const { record, fields } = readLine(text, line);
  if (fields === 0) return diagnostic(line, 'not a tegrastats line', text);
  return record;
}

/**
 * Streaming parser. A record-start line that stops where a value is still expected (`… CPU ` at the
 * end, an unclosed `[`) is held: if the next line does not start a record it is the rest of the
 * wrapped record and both are read as one. At most MAX_WRAPPED_LINES are joined.
 */
export function createTegrastatsParser(): LineParser<TegrastatsRecord | Diagnostic> {
  let lineNo = 0;
  let held: { text: string; line: number; parts: number } | null = null;

  const flushHeld = (): Array<TegrastatsRecord | Diagnostic> => {
    if (!held) return [];
    const out = parseTegrastatsLine(held.text, held.line);
    held = null;
    return [out];
  };

  return {
    push(text: string) {
      lineNo++;
      if (isBlankLine(text) || isCommentLine(text)) return flushHeld();
      const startsRecord = RECORD_START_RE.test(text);
      const out: Array<TegrastatsRecord | Diagnostic> = [];
      let candidate: { text: string; line: number; parts: number };
      if (held && !startsRecord) {
        // Continuation of a wrapped record. A terminal wrap keeps every character, so the space of a
        // cut between tokens is on one side; a paste may have trimmed it, and a cut inside a token has
        // none. Without a space at the cut, take whichever reading leaves fewer unknown tokens.
        let joined = held.text + text;
        if (!/\s$/.test(held.text) && !/^\s/.test(text)) {
          const spaced = held.text + ' ' + text;
          if (readLine(spaced, held.line).record.unknown.length <= readLine(joined, held.line).record.unknown.length)
            joined = spaced;
        }
        candidate = { text: joined, line: held.line, parts: held.parts + 1 };
        held = null;
      } else {
        out.push(...flushHeld());
        candidate = { text, line: lineNo, parts: 1 };
      }
      const parsed = readLine(candidate.text, candidate.line);
      if (parsed.mayContinue && RECORD_START_RE.test(candidate.text) && candidate.parts < MAX_WRAPPED_LINES) {
        held = candidate;
        return out;
      }
      out.push(
        parsed.fields === 0 ? diagnostic(candidate.line, 'not a tegrastats line', candidate.text) : parsed.record,
      );
      return out;
    },
    end() {
      return flushHeld();
    },
  };
}
