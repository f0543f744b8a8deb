// `pmap -x <pid>` → one `kind: "pmap"` record per pmap run (a collector concatenates runs).
//
// Columns are read by the header's names, because they differ between implementations:
//   procps 3.2.x   `Address Kbytes RSS Anon Locked Mode Mapping`  (`-` where it cannot tell), footer `total kB N - - -`
//   procps 3.2.8   `Address Kbytes RSS Dirty Mode Mapping`, but on 32-bit still the 5-group separator and the
//                  footer `total kB N - - -` (one more `-` than the header has columns)
//   procps-ng 3.3  `Address Kbytes RSS Dirty Mode Mapping`, dash separator, footer `total kB N N N`
//   procps-ng 4.x  the same with a trailing space after the separator
//   busybox/toybox `Address Kbytes PSS Dirty Swap Mode Mapping` (tabs in the header), footer `total N N N N`
//   plain `pmap`   `address sizeK mode mapping`, footer ` total 2192K` (also `Total:`)
//   `pmap -d`      `Address Kbytes Mode Offset Device Mapping`, footer `mapped: NK writeable/private: NK shared: NK`
//   `pmap -X/-XX`  (procps-ng ≥ 3.3) `Address Perm Offset Device Inode Size Rss Pss … Mapping` — one column
//                  per smaps field, which fields depends on the kernel and the version (`THPeligible`,
//                  `ProtectionKey`, `Pss_Dirty` …); footer a `====` rule and a row of totals ending in `KB`.
//                  -XX adds `VmFlags` before Mapping: several two-letter words (`rd wr mr mw me ac sd`),
//                  right-aligned under its header, and no total in the footer.
//   `-q`           (procps-ng, busybox, toybox) no header and no footer: the layout is told by the row itself.
// Errors: procps-ng prints only the `PID:` line when it cannot open maps/smaps (another user's process);
// busybox `PID: no such process`; toybox `pmap: no /proc/PID/cmdline`; a kernel thread (and, on old
// kernels, a process whose maps read empty) gives a table with no mapping and a total of 0. Each is a
// diagnostic: a 0 kB "reading" of a process that has memory would be a lie.
// Addresses are 8 hex digits on 32-bit systems, 16 on 64-bit. Mapping names may contain spaces
// (`[ anon ]`, toybox `[anon:dalvik-main space (region space)]`), so the mapping is the rest of the line.
// Checked against procps-ng 3.3.16 (Ubuntu 20.04/WSL2), procps 3.2.x pastes, busybox in an Alpine
// container (x86_64), busybox on 32-bit ARM (vexpress QEMU), toybox on arm64 Android, and procps-ng
// 4.0.2 in its 12 languages on Debian 12.
//
// Outside the C locale procps-ng translates the header, the footer and `[ anon ]`: read by their
// place and shape (shared/parsers/pmap-locale.ts).
//
// A record is emitted at the footer; output that ends without one (a cut paste, a killed pmap)
// is flushed at the next `PID:` line, the next header, or the end, with `complete: false`.

import { capNumberedLines, type LineCapOptions } from './line-cap';
import {
  isProcpsAnonName,
  localizedMappedTotal,
  localizedPlainTotal,
  localizedSmapsNames,
  localizedTableTotals,
  unpadHex,
} from './pmap-locale';
import {
  diagnostic,
  isBlankLine,
  isCommentLine,
  type Diagnostic,
  type LineParser,
  type PmapMapping,
  type PmapRecord,
} from './records';

export interface PmapParserOptions extends LineCapOptions {
  /** Also return every mapping (`mappingsList`). */
  listMappings?: boolean;
}

type Column = 'Kbytes' | 'RSS' | 'PSS' | 'Dirty' | 'Swap' | 'Anon' | 'Locked';
const NUMERIC_COLUMNS = new Set<string>(['Kbytes', 'RSS', 'PSS', 'Dirty', 'Swap', 'Anon', 'Locked']);

// Matched against the line trimmed at both ends (no trailing `\s*` next to a `.*`: see line-cap.ts).
const PID_RE = /^(\d+):(?:\s+(\S.*))?$/;
const HEADER_RE = /^\s*Address\s+Kbytes\b/;
/** `pmap -X` / `-XX` header. */
const SMAPS_HEADER_RE = /^\s*Address\s+Perm\s+Offset\s+Device\s+Inode\s/;
/** pmap -X pads addresses with spaces, not zeros, on some versions: any hex width there. */
const X_ADDRESS_RE = /^[\da-f]{1,16}$/i;
const MODE_RE = /^[r-][w-][x-][-spR]{0,2}$/;
const SEPARATOR_RE = /^(?:-{4,}(?:\s+-{4,})*|=+(?:\s+=+)*)$/;
const TOTAL_RE = /^[Tt]otal:?(?=\s)/;
/** `-d` footer; procps 3.2.0–3.2.5 printed it without the colon (`mapped 1736K    writeable/private: …`). */
const MAPPED_RE = /^\s*mapped:?\s+(\d+)K\b/;
const ANON_NAME_RE = /^\[\s*(?:anon|heap|stack)\b|^\[anon[:_]/;
/** 8 hex digits (32-bit), 16 (64-bit), or more zeros before them (ka_GE, see pmap-locale.ts). */
const ROW_START_RE = /^\s*0*[\da-f]{8,16}\s/i;
/** One `VmFlags` word (mnemonics of two lowercase letters, fs/proc/task_mmu.c). */
const VM_FLAG_RE = /^[a-z]{2}$/;
/** An error line of the tool itself (`pmap: no /proc/1/cmdline`, `pmap: Unknown format in smaps file!`). */
const TOOL_ERROR_RE = /^pmap:\s/;
/** -d's Offset (16 hex digits) and Device (`major:minor`, `%03x:%05x`). */
const D_OFFSET_RE = /^0*[\da-f]{16}$/i;
const D_DEVICE_RE = /^[\da-f]{3}:[\da-f]{5}$/i;

/** `pmap -X` column names → the record's columns (-XX's two dirty columns add up to Dirty). */
const SMAPS_COLUMNS: Record<string, Column> = {
  Size: 'Kbytes',
  Rss: 'RSS',
  Pss: 'PSS',
  Shared_Dirty: 'Dirty',
  Private_Dirty: 'Dirty',
  Anonymous: 'Anon',
  Swap: 'Swap',
  Locked: 'Locked',
};

/**
 * Columns of a row printed without a header (`-q`, or a paste of the last lines), told by how many numbers
 * precede the mode: 3 → procps-ng `-x` (Kbytes RSS Dirty); 4 → busybox/toybox `-x` (Kbytes PSS Dirty Swap),
 * or procps 3.2.0–3.2.7 `-x` when the last three are `-` (Kbytes RSS Anon Locked); 5 → SUSE's patched pmap
 * (SLES 11 procps 3.2.7 with `K` on every number, openSUSE 15 procps-ng 3.3.12 without): Kbytes RSS PSS Dirty Swap.
 */
function quietColumns(values: string[]): Column[] | null {
  if (values.length === 3) return ['Kbytes', 'RSS', 'Dirty'];
  if (values.length === 5) return ['Kbytes', 'RSS', 'PSS', 'Dirty', 'Swap'];
  if (values.length !== 4) return null;
  return values.slice(1).every((v) => v === '-')
    ? ['Kbytes', 'RSS', 'Anon', 'Locked']
    : ['Kbytes', 'PSS', 'Dirty', 'Swap'];
}

/** Layout of the rows under a header. */
interface Layout {
  /** `x`: numeric columns, then Mode, then `afterMode` columns (Offset, Device), then Mapping. `X`: pmap -X. */
  kind: 'x' | 'X';
  /** x: the numeric columns in order. X: every numeric column between Inode and Mapping, by its name. */
  names: string[];
  afterMode: number;
  /** X with `VmFlags` (-XX): where its header ends in the header line (its values end there too), else null. */
  flagsEnd: number | null;
  /** X with `VmFlags`: its words come before Mapping (where flagsEnd says, or every flag-shaped word). */
  vmFlags: boolean;
}

interface Snapshot {
  line: number;
  /** The line that opened it (the diagnostic's text when no mapping follows). */
  text: string;
  pid: number | null;
  command: string | null;
  /** Record columns the layout has (for totals); null for plain `pmap` (Kbytes only). */
  columns: Column[] | null;
  layout: Layout | null;
  rows: PmapMapping[];
  /** Opened by a `PID:` line and nothing read since: the next line may be a header in any language. */
  headerDue: boolean;
  /** -X under a translated header: its names still end with the translated "Mapping", cut at the first row. */
  cutNamesAtRow: boolean;
  /** The `---- ----` rule under the rows was read: -x's footer comes next. */
  ruled: boolean;
}

/** Tokens a row is split into at most: more columns than any pmap prints (-XX has about 25). */
const MAX_ROW_TOKENS = 64;

/** The first whitespace-separated tokens of `t` and where each starts (the mapping keeps its own spacing). */
function tokensAt(t: string): { tokens: string[]; starts: number[] } {
  const tokens: string[] = [];
  const starts: number[] = [];
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  while (tokens.length < MAX_ROW_TOKENS && (m = re.exec(t))) {
    tokens.push(m[0]);
    starts.push(m.index);
  }
  return { tokens, starts };
}

/** An en or em dash: a paste that went through a blog's typography (WordPress's wptexturize). */
const SMART_DASH_RE = /[\u2013\u2014]/;

/**
 * wptexturize turns `---` into an em dash, `--` into an en dash and a lone ` - ` into ` – `, so a pasted pmap
 * shows modes `r-x–`, `rw—`, `r—-`, the separator `——– ——-` and the footer `total kB 8232 – – -` (linoxide's
 * CentOS 6 post). Undone before the line is read (an en dash in a file name would be changed too); diagnostics
 * keep the line as it came.
 */
function undoSmartDashes(text: string): string {
  if (!SMART_DASH_RE.test(text)) return text;
  return text
    .replace(/(^|\s)[\u2013\u2014](?=\s|$)/g, '$1-')
    .replace(/\u2014/g, '---')
    .replace(/\u2013/g, '--');
}

function num(text: string | undefined): number | null {
  if (text === undefined || text === '-' || !/^\d+K?$/.test(text)) return null;
  return Number(text.replace(/K$/, ''));
}

/** The record's columns among -X's names. */
function smapsColumns(names: readonly string[]): Column[] {
  return [...new Set(names.map((c) => SMAPS_COLUMNS[c]).filter((c): c is Column => c !== undefined))];
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
  /** The number of the line being read (push sets it; the readers in this closure report it). */
  let lineNo = 0;
  let snap: Snapshot | null = null;

  const start = (line: number, pid: number | null, command: string | null, text: string): Snapshot => ({
    line,
    text,
    pid,
    command,
    columns: null,
    layout: null,
    rows: [],
    headerDue: pid !== null,
    cutNamesAtRow: false,
    ruled: false,
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

  const flushIncomplete = (): Array<PmapRecord | Diagnostic> => {
    const s = snap;
    snap = null;
    if (!s) return [];
    // A `PID:` line or a header with no mapping under it: the output was cut — said, not dropped.
    return s.rows.length > 0 ? [finish(s, null)] : [diagnostic(s.line, 'pmap output without mappings', s.text)];
  };

  const mappingRow = (
    address: string,
    mode: string,
    mapping: string,
    values: Partial<Record<Column, number | null>>,
  ): PmapMapping | null => {
    const sizeKb = values.Kbytes ?? null;
    if (sizeKb === null || !MODE_RE.test(mode)) return null;
    return {
      address: unpadHex(address),
      sizeKb,
      rssKb: values.RSS ?? null,
      pssKb: values.PSS ?? null,
      dirtyKb: values.Dirty ?? null,
      swapKb: values.Swap ?? null,
      anonKb: values.Anon ?? null,
      mode,
      mapping,
      anonymous: mapping === '' || ANON_NAME_RE.test(mapping) || isProcpsAnonName(mapping),
    };
  };

  /** -XX: the tokens from `k` on that are VmFlags words, by the header's position, else every flag-shaped one. */
  const flagsCount = (layout: Layout, text: string, tokens: string[], starts: number[], offset: number, k: number) => {
    let n = 0;
    const end = layout.flagsEnd;
    if (end !== null && (text[end] === undefined || /\s/.test(text[end] ?? ''))) {
      while (k + n < tokens.length && (starts[k + n] ?? 0) + offset < end) n++;
      if (tokens.slice(k, k + n).every((w) => VM_FLAG_RE.test(w))) return n;
    }
    for (n = 0; k + n < tokens.length && VM_FLAG_RE.test(tokens[k + n] ?? ''); n++);
    return n;
  };

  /** `text` is the line as printed, `t` the same trimmed (the header's VmFlags position is in `text`). */
  const readRow = (s: Snapshot, text: string, t: string): PmapMapping | null => {
    const { tokens, starts } = tokensAt(t);
    const address = tokens[0] ?? '';
    const rest = (k: number) => (k < tokens.length ? t.slice(starts[k]) : '');
    const layout = s.layout;
    if (layout?.kind === 'X') {
      // Address Perm Offset Device Inode <one number per name> [VmFlags words] Mapping
      const n = layout.names.length;
      if (tokens.length < 5 + n) return null;
      const values: Partial<Record<Column, number | null>> = {};
      for (let k = 0; k < n; k++) {
        const col = SMAPS_COLUMNS[layout.names[k] ?? ''];
        const v = num(tokens[5 + k]);
        if (v === null) return null;
        if (col) values[col] = (values[col] ?? 0) + v;
      }
      const flags = !layout.vmFlags ? 0 : flagsCount(layout, text, tokens, starts, text.indexOf(t), 5 + n);
      return mappingRow(address, tokens[1] ?? '', rest(5 + n + flags), values);
    }
    if (layout) {
      const n = layout.names.length;
      if (tokens.length < 2 + n + layout.afterMode) return null;
      const values: Partial<Record<Column, number | null>> = {};
      for (let k = 0; k < n; k++) {
        const v = tokens[1 + k];
        if (v !== '-' && num(v) === null) return null;
        values[layout.names[k] as Column] = num(v);
      }
      return mappingRow(address, tokens[1 + n] ?? '', rest(2 + n + layout.afterMode), values);
    }
    // Plain `pmap`: `address sizeK mode mapping`.
    const size = tokens[1] ?? '';
    if (tokens.length < 3 || !size.endsWith('K') || num(size) === null) return null;
    return mappingRow(address, tokens[2] ?? '', rest(3), { Kbytes: num(size) });
  };

  /** A row under no header (`-q`, or a paste that starts below it): the layout its shape tells, else null. */
  const quietLayout = (t: string): Layout | null => {
    const tokens = t.split(/\s+/, 8);
    const modeAt = tokens.findIndex((w, k) => k > 0 && MODE_RE.test(w));
    if (modeAt < 2) return null;
    const values = tokens.slice(1, modeAt);
    if (!values.every((v) => v === '-' || num(v) !== null)) return null;
    // One `sizeK` column is plain `pmap`; several columns all with `K` are SUSE's (see quietColumns).
    if (values.length === 1 && values[0]?.endsWith('K')) return null;
    // `pmap -d -q`: Kbytes, the mode, then Offset and Device.
    if (values.length === 1 && D_OFFSET_RE.test(tokens[modeAt + 1] ?? '') && D_DEVICE_RE.test(tokens[modeAt + 2] ?? ''))
      return { kind: 'x', names: ['Kbytes'], afterMode: 2, flagsEnd: null, vmFlags: false };
    const names = quietColumns(values);
    return names ? { kind: 'x', names, afterMode: 0, flagsEnd: null, vmFlags: false } : null;
  };

  /** A header line: a new snapshot (unless the `PID:` line just opened one) with its layout. */
  const header = (text: string, t: string): Array<PmapRecord | Diagnostic> => {
    const out: Array<PmapRecord | Diagnostic> = [];
    if (!snap || snap.rows.length > 0 || snap.layout) {
      out.push(...flushIncomplete());
      snap = start(lineNo, null, null, text);
    }
    const names = t.split(/\s+/).slice(1);
    if (SMAPS_HEADER_RE.test(text)) {
      const all = names.slice(4, names[names.length - 1] === 'Mapping' ? -1 : undefined);
      const flagsAt = all.indexOf('VmFlags');
      // VmFlags comes last (procps-ng pmap.c prints it after the smaps numbers); it has no total.
      const cols = flagsAt === all.length - 1 ? all.slice(0, -1) : all;
      if (cols.includes('Size') && !cols.includes('VmFlags')) {
        const flagsEnd = flagsAt < 0 ? null : text.lastIndexOf('VmFlags') + 'VmFlags'.length;
        snap.layout = { kind: 'X', names: cols, afterMode: 0, flagsEnd, vmFlags: flagsAt >= 0 };
        snap.columns = smapsColumns(cols);
        return out;
      }
    } else {
      const numeric = names.filter((c) => NUMERIC_COLUMNS.has(c)) as Column[];
      // Only numeric columns sit between Address and Mode (then, with -d, Offset and Device); anything
      // else means a layout we do not know.
      const modeAt = names.indexOf('Mode');
      const after = names.slice(modeAt + 1, names[names.length - 1] === 'Mapping' ? -1 : undefined);
      if (
        modeAt === numeric.length &&
        numeric[0] === 'Kbytes' &&
        after.every((c) => c === 'Offset' || c === 'Device')
      ) {
        snap.layout = { kind: 'x', names: numeric, afterMode: after.length, flagsEnd: null, vmFlags: false };
        snap.columns = numeric;
        return out;
      }
    }
    // Said once here; the rows under it are then read (and reported) as rows without a header.
    snap = null;
    return [...out, diagnostic(lineNo, 'pmap header with unknown columns', text)];
  };

  /**
   * The line after `PID:` that is no row, footer or English header, in words without digits: procps-ng's
   * header in another language (pmap-locale.ts). -X: its numeric columns by the kernel's names (the
   * translated "Mapping" after them cut at the first row, cutNamesAtRow); -x and -d: the rows tell the
   * columns (procps' fixed order), as under no header. False when the line does not look like one.
   */
  const localizedHeader = (s: Snapshot, text: string, t: string): boolean => {
    if (/\d/.test(t) || t.split(/\s+/).length < 4) return false;
    const names = localizedSmapsNames(t);
    if (!names) return true;
    const flagsAt = names.indexOf('VmFlags');
    const cols = flagsAt < 0 ? names : names.slice(0, flagsAt);
    // pmap pads the header by bytes: past a word in another script its positions are not the rows'.
    const ascii = !/[^\x20-\x7e]/.test(text);
    const flagsEnd = flagsAt < 0 || !ascii ? null : text.lastIndexOf('VmFlags') + 'VmFlags'.length;
    s.layout = { kind: 'X', names: cols, afterMode: 0, flagsEnd, vmFlags: flagsAt >= 0 };
    s.columns = smapsColumns(cols);
    s.cutNamesAtRow = flagsAt < 0;
    return true;
  };

  /** The first -X row under a translated header has one number per column: the names past them are the "Mapping" word(s). */
  const cutNames = (s: Snapshot, layout: Layout, t: string) => {
    const tokens = t.split(/\s+/, 5 + layout.names.length);
    let n = 0;
    while (n < layout.names.length - 1 && num(tokens[5 + n]) !== null) n++;
    layout.names = layout.names.slice(0, n);
    s.columns = smapsColumns(layout.names);
    s.cutNamesAtRow = false;
  };

  /**
   * A footer in another language (pmap-locale.ts), by the layout of the rows above it: -x's totals
   * (only after its `----` rule), -d's three sizes, plain pmap's total with its unit. Null when the
   * line is none of them.
   */
  const localizedFooter = (s: Snapshot, t: string): Partial<Record<Column, number | null>> | null => {
    const layout = s.layout;
    if (layout?.kind === 'X') return null;
    const kb = !layout ? localizedPlainTotal(t) : layout.afterMode > 0 ? localizedMappedTotal(t) : undefined;
    if (kb !== undefined) return kb === null ? null : { Kbytes: kb };
    const cols = s.columns ?? ['Kbytes'];
    const values = s.ruled ? localizedTableTotals(t, cols.length) : null;
    if (!values) return null;
    const footer: Partial<Record<Column, number | null>> = {};
    cols.forEach((c, k) => (footer[c] = num(values[k])));
    return footer;
  };

  /** Footer values by column; a string when the footer cannot be read (the diagnostic's reason). */
  const footerOf = (s: Snapshot, t: string): Partial<Record<Column, number | null>> | string => {
    const footer: Partial<Record<Column, number | null>> = {};
    if (s.layout?.kind === 'X') {
      // `22544 3588 2208 3588 540 0 0 KB`: one total per column.
      const values = t.split(/\s+/).slice(0, -1);
      if (values.length !== s.layout.names.length || values.some((v) => num(v) === null))
        return 'pmap footer does not match the header';
      s.layout.names.forEach((name, k) => {
        const col = SMAPS_COLUMNS[name];
        if (col) footer[col] = (footer[col] ?? 0) + (num(values[k]) ?? 0);
      });
      return footer;
    }
    let rest = t.replace(TOTAL_RE, '').trim();
    if (rest.startsWith('kB ') || rest === 'kB') rest = rest.slice(2).trim();
    const values = rest === '' ? [] : rest.split(/\s+/);
    const cols = s.columns ?? ['Kbytes'];
    // procps 3.2.8 on 32-bit: `total kB N - - -` under a three-column header; a `-` is "not summed".
    const extra = values.slice(cols.length);
    if (values.length < cols.length || extra.some((v) => v !== '-')) return 'pmap footer does not match the header';
    if (values.slice(0, cols.length).some((v) => v !== '-' && num(v) === null))
      return 'pmap footer does not match the header';
    cols.forEach((c, k) => (footer[c] = num(values[k])));
    return footer;
  };

  /** The open snapshot ends at its footer. */
  const close = (footer: Partial<Record<Column, number | null>>): Array<PmapRecord | Diagnostic> => {
    const s = snap;
    snap = null;
    if (!s) return [];
    if (s.rows.length === 0 && !footer.Kbytes)
      return [diagnostic(s.line, 'pmap table without mappings (a kernel thread, or maps unreadable)', s.text)];
    return [finish(s, footer)];
  };

  const push = (raw: string, line: number): Array<PmapRecord | Diagnostic> => {
    lineNo = line;
    const text = undoSmartDashes(raw);
    if (isBlankLine(text) || isCommentLine(text)) return [];
    const t = text.trim();

    if (HEADER_RE.test(text) || SMAPS_HEADER_RE.test(text)) return header(text, t);
    const pid = PID_RE.exec(t);
    if (pid) {
      const out = flushIncomplete();
      snap = start(lineNo, Number(pid[1]), pid[2] ?? '', raw);
      return out;
    }

    const headerDue = snap?.headerDue === true;
    if (snap) snap.headerDue = false;
    if (SEPARATOR_RE.test(t)) {
      if (snap) snap.ruled = true;
      return [];
    }

    const mapped = MAPPED_RE.exec(text);
    const xTotals = snap?.layout?.kind === 'X' && /^\d[\d\s]*\sKB$/i.test(t);
    if (mapped || xTotals || TOTAL_RE.test(t)) {
      if (!snap) return [diagnostic(lineNo, 'pmap footer without a map', raw)];
      const footer = mapped ? { Kbytes: Number(mapped[1]) } : footerOf(snap, t);
      // `total ko …` (ro_RO): English-looking, read as a translated footer.
      const either = typeof footer === 'string' ? (localizedFooter(snap, t) ?? footer) : footer;
      if (typeof either === 'string') return [diagnostic(lineNo, either, raw)];
      return close(either);
    }
    const translated = snap && snap.rows.length > 0 && !ROW_START_RE.test(text) ? localizedFooter(snap, t) : null;
    if (translated) return close(translated);
    // The tool's own error ends what was open (it comes between two processes' outputs).
    if (TOOL_ERROR_RE.test(t)) return [...flushIncomplete(), diagnostic(lineNo, 'pmap error message', raw)];

    const xRow = snap?.layout?.kind === 'X' && X_ADDRESS_RE.test(t.split(/\s/, 1)[0] ?? '');
    if (ROW_START_RE.test(text) || xRow) {
      snap ??= start(lineNo, null, null, raw);
      if (!snap.layout) {
        const quiet = quietLayout(t);
        if (quiet) {
          snap.layout = quiet;
          snap.columns = quiet.names as Column[];
        }
      }
      if (snap.cutNamesAtRow && snap.layout) cutNames(snap, snap.layout, t);
      const row = readRow(snap, text, t);
      if (row) {
        snap.rows.push(row);
        return [];
      }
      return [diagnostic(lineNo, 'unreadable pmap row', raw)];
    }
    if (headerDue && snap && localizedHeader(snap, text, t)) return [];
    return [diagnostic(lineNo, 'not a pmap line', raw)];
  };

  return capNumberedLines(push, flushIncomplete, options.maxLineChars);
}
