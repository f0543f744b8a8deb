// `pmap -x <pid>` → one `kind: "pmap"` record per pmap run (a collector concatenates runs).
//
// Columns are read by the header's names, because they differ between implementations:
//   procps 3.2.x   `Address Kbytes RSS Anon Locked Mode Mapping`  (`-` where it cannot tell), footer `total kB N - - -`
//   procps-ng 3.3  `Address Kbytes RSS Dirty Mode Mapping`, dash separator, footer `total kB N N N`
//   procps-ng 4.x  the same with a trailing space after the separator
//   busybox/toybox `Address Kbytes PSS Dirty Swap Mode Mapping` (tabs in the header), footer `total N N N N`
//   plain `pmap`   `address sizeK mode mapping`, footer ` total 2192K` (also `Total:`), `-d` footer `mapped: NK …`
// Addresses are 8 hex digits on 32-bit systems, 16 on 64-bit. Mapping names may contain spaces
// (`[ anon ]`, toybox `[anon:dalvik-main space (region space)]`), so the mapping is the rest of the line.
// Checked against procps-ng 3.3.16 (Ubuntu 20.04/WSL2), procps 3.2.x pastes, busybox in an Alpine
// container (x86_64), busybox on 32-bit ARM (vexpress QEMU) and toybox on arm64 Android.
//
// A record is emitted at the footer; output that ends without one (a cut paste, a killed pmap)
// is flushed at the next `PID:` line, the next header, or the end, with `complete: false`.

import { capLines } from './line-cap';
import {
  diagnostic,
  isBlankLine,
  isCommentLine,
  type Diagnostic,
  type LineParser,
  type PmapMapping,
  type PmapRecord,
} from './records';

export interface PmapParserOptions {
  /** Also return every mapping (`mappingsList`). */
  listMappings?: boolean;
}

type Column = 'Kbytes' | 'RSS' | 'PSS' | 'Dirty' | 'Swap' | 'Anon' | 'Locked';
const NUMERIC_COLUMNS = new Set<string>(['Kbytes', 'RSS', 'PSS', 'Dirty', 'Swap', 'Anon', 'Locked']);

const PID_RE = /^\s*(\d+):\s+(.*?)\s*$/;
const HEADER_RE = /^\s*Address\s+Kbytes\b/;
const ADDRESS = '([0-9a-fA-F]{8,16})';
const MODE_RE = /^[r-][w-][x-][-spR]{0,2}$/;
const PLAIN_ROW_RE = new RegExp(`^\\s*${ADDRESS}\\s+(\\d+)K\\s+(\\S+)(?:\\s+(.*?))?\\s*$`);
const SEPARATOR_RE = /^\s*-{4,}(?:\s+-{4,})*\s*$/;
const TOTAL_RE = /^\s*[Tt]otal:?\s+(?:kB\s+)?(.*?)\s*$/;
const MAPPED_RE = /^\s*mapped:\s+(\d+)K\b/;
const ANON_NAME_RE = /^\[\s*(?:anon|heap|stack)\b|^\[anon[:_]/;

interface Snapshot {
  line: number;
  pid: number | null;
  command: string | null;
  columns: Column[] | null;
  rowRe: RegExp | null;
  rows: PmapMapping[];
}

function rowRegex(columns: Column[]): RegExp {
  return new RegExp(`^\\s*${ADDRESS}${'\\s+(\\d+|-)'.repeat(columns.length)}\\s+(\\S+)(?:\\s+(.*?))?\\s*$`);
}

function num(text: string | undefined): number | null {
  if (text === undefined || text === '-' || !/^\d+K?$/.test(text)) return null;
  return Number(text.replace(/K$/, ''));
}

function sum(rows: PmapMapping[], pick: (m: PmapMapping) => number | null): number | null {
  let total = 0;
  let any = false;
  for (const r of rows) {
    const v = pick(r);
    if (v !== null) {
      total += v;
      any = true;
    }
  }
  return any ? total : null;
}

export function createPmapParser(options: PmapParserOptions = {}): LineParser<PmapRecord | Diagnostic> {
  let lineNo = 0;
  let snap: Snapshot | null = null;

  const start = (line: number, pid: number | null, command: string | null): Snapshot => ({
    line,
    pid,
    command,
    columns: null,
    rowRe: null,
    rows: [],
  });

  const finish = (s: Snapshot, footer: Partial<Record<Column, number | null>> | null): PmapRecord => {
    const cols = new Set(s.columns ?? ['Kbytes']);
    const pick = (col: Column, fromRow: (m: PmapMapping) => number | null): number | null => {
      if (!cols.has(col)) return null;
      const f = footer?.[col];
      return f !== undefined && f !== null ? f : sum(s.rows, fromRow);
    };
    const anonRows = s.rows.filter((m) => m.anonymous);
    let anonKb: number | null = null;
    let anonFrom: PmapRecord['anonFrom'] = null;
    const anonColumn = pick('Anon', (m) => m.anonKb);
    if (anonColumn !== null) {
      anonKb = anonColumn;
      anonFrom = 'column';
    } else if (sum(s.rows, (m) => m.rssKb ?? m.pssKb) !== null) {
      // Resident sizes are known (procps 3.2 prints `-` instead): those of anonymous mappings.
      anonKb = sum(anonRows, (m) => m.rssKb ?? m.pssKb) ?? 0;
      anonFrom = 'mappings';
    }
    let largestAnonKb: number | null = null;
    for (const m of anonRows) {
      const v = m.rssKb ?? m.pssKb ?? (cols.has('RSS') || cols.has('PSS') ? null : m.sizeKb);
      if (v !== null && (largestAnonKb === null || v > largestAnonKb)) largestAnonKb = v;
    }
    const record: PmapRecord = {
      kind: 'pmap',
      line: s.line,
      pid: s.pid,
      command: s.command,
      totalKb: pick('Kbytes', (m) => m.sizeKb) ?? 0,
      rssKb: pick('RSS', (m) => m.rssKb),
      pssKb: pick('PSS', (m) => m.pssKb),
      dirtyKb: pick('Dirty', (m) => m.dirtyKb),
      swapKb: pick('Swap', (m) => m.swapKb),
      anonKb,
      anonFrom,
      largestAnonKb,
      mappings: s.rows.length,
      complete: footer !== null,
    };
    if (options.listMappings) record.mappingsList = s.rows;
    return record;
  };

  const flushIncomplete = (): PmapRecord[] => {
    const s = snap;
    snap = null;
    return s && s.rows.length > 0 ? [finish(s, null)] : [];
  };

  const readRow = (s: Snapshot, text: string): PmapMapping | null => {
    if (s.rowRe && s.columns) {
      const m = s.rowRe.exec(text);
      if (!m || !MODE_RE.test(m[2 + s.columns.length])) return null;
      const v = (col: Column) => {
        const k = s.columns!.indexOf(col);
        return k < 0 ? null : num(m[2 + k]);
      };
      const mapping = m[3 + s.columns.length] ?? '';
      const sizeKb = v('Kbytes');
      if (sizeKb === null) return null;
      return {
        address: m[1],
        sizeKb,
        rssKb: v('RSS'),
        pssKb: v('PSS'),
        dirtyKb: v('Dirty'),
        swapKb: v('Swap'),
        anonKb: v('Anon'),
        mode: m[2 + s.columns.length],
        mapping,
        anonymous: mapping === '' || ANON_NAME_RE.test(mapping),
      };
    }
    const p = PLAIN_ROW_RE.exec(text);
    if (!p || !MODE_RE.test(p[3])) return null;
    const mapping = p[4] ?? '';
    return {
      address: p[1],
      sizeKb: Number(p[2]),
      rssKb: null,
      pssKb: null,
      dirtyKb: null,
      swapKb: null,
      anonKb: null,
      mode: p[3],
      mapping,
      anonymous: mapping === '' || ANON_NAME_RE.test(mapping),
    };
  };

  const push = (text: string): Array<PmapRecord | Diagnostic> => {
    if (isBlankLine(text) || isCommentLine(text)) return [];

    const pid = PID_RE.exec(text);
    if (pid && !HEADER_RE.test(text)) {
      const out = flushIncomplete();
      snap = start(lineNo, Number(pid[1]), pid[2]);
      return out;
    }

    if (HEADER_RE.test(text)) {
      const out: PmapRecord[] = [];
      if (!snap || snap.rows.length > 0 || snap.columns) {
        out.push(...flushIncomplete());
        snap = start(lineNo, null, null);
      }
      const names = text.trim().split(/\s+/).slice(1);
      const numeric = names.filter((c) => NUMERIC_COLUMNS.has(c)) as Column[];
      // Only numeric columns sit between Address and Mode; anything else means a layout we do not know.
      const modeAt = names.indexOf('Mode');
      if (modeAt === numeric.length && numeric[0] === 'Kbytes') {
        snap.columns = numeric;
        snap.rowRe = rowRegex(numeric);
        return out;
      }
      return [...out, diagnostic(lineNo, 'pmap header with unknown columns', text)];
    }

    if (SEPARATOR_RE.test(text)) return [];

    const mapped = MAPPED_RE.exec(text);
    const total = TOTAL_RE.exec(text);
    if (mapped || total) {
      if (!snap) return [diagnostic(lineNo, 'pmap footer without a map', text)];
      const footer: Partial<Record<Column, number | null>> = {};
      if (mapped) footer.Kbytes = Number(mapped[1]);
      else {
        const values = total![1].split(/\s+/).filter(Boolean);
        const cols = snap.columns ?? ['Kbytes'];
        if (values.length !== cols.length || values.some((v) => v !== '-' && !/^\d+K?$/.test(v))) {
          return [diagnostic(lineNo, 'pmap footer does not match the header', text)];
        }
        cols.forEach((c, k) => (footer[c] = num(values[k])));
      }
      const record = finish(snap, footer);
      snap = null;
      return [record];
    }

    if (/^\s*[0-9a-fA-F]{8,16}\s/.test(text)) {
      snap ??= start(lineNo, null, null);
      const row = readRow(snap, text);
      if (row) {
        snap.rows.push(row);
        return [];
      }
      return [diagnostic(lineNo, 'unreadable pmap row', text)];
    }
    return [diagnostic(lineNo, 'not a pmap line', text)];
  };

  return capLines({
    push(text: string) {
      lineNo++;
      return push(text);
    },
    end() {
      return flushIncomplete();
    },
  });
}
