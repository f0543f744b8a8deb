// The human tables of `perf stat --metric-only` and `--topdown` (perf 4.8+; print_metric_headers and
// print_metric_only in tools/perf/util/stat-display.c): one line of metric names, then rows holding only
// values, `[time] [aggr [cpus]] value value …`, each value right-aligned under its name. The names are
// printed `%*s ` in columns of metric_only_len, so when a name is wider than the column only one blank
// separates it from the next, and the values do not stay under their names: the header is split by how
// many values the first row holds, not by position. A -M metric's name is printed as `unit  name` (two
// blanks: `GHz  PowerBUS_Frequency_0`, `%  tma_retiring`).
//
// With -I the header is a `#` line, `#           time GHz  PowerBUS_Frequency_0 …`, and perf prints it
// again every 25 rows; the totals at the end (` Performance counter stats for …:`) come as a row without
// the time. Without -I the header is a plain line right under ` Performance counter stats for …:`.
// Checked against real POWER9 captures (test/fixtures/perf/power9-perf5.8-metric-only).
import { hasCpuCount, isAggrId } from './perf-stat-fields';
import { isNotANumber, parsePerfDecimal } from './perf-stat-numbers';
import type { PerfMetricRecord } from './records';

export interface HumanTableHeader {
  line: number;
  text: string;
  /** The header after its `# time` (or the whole line): the metric names, unsplit. */
  cells: string;
  /** A `# time …` header: rows start with the -I time. */
  timed: boolean;
  /** Each column's name and unit, fixed by the first row that fits. */
  columns: Array<{ name: string; unit: string | null }> | null;
}

/** The -I time as perf prints it, `%6lu.%09lu`: nine decimals, which no metric value has. */
const INTERVAL_TIME_RE = /^\d+\.\d{9}$/;
/** A metric value: `%8.1f`, `%.2f`, `23.8%` (perf 4.x `--topdown`), decimal comma in some locales. */
const VALUE_RE = /^-?\d+(?:[.,]\d+)?%?$/;

/** `#           time <names>` (-I); not the counters' `#  time  counts unit events`. */
export function readCommentTableHeader(text: string, line: number): HumanTableHeader | null {
  const cells = /^\s*#\s*time\s+(\S.*)$/.exec(text)?.[1]?.trim();
  if (cells === undefined || /\bcounts\s+(?:unit\s+)?events$/.test(cells)) return null;
  return { line, text, cells, timed: true, columns: null };
}

/** A line that may be the header of a table without -I: names, `%`, `_`, `.`, `-`, `/`, `()` and blanks. */
export function readPlainTableHeader(text: string, line: number): HumanTableHeader | null {
  const cells = text.trim();
  if (!/^[\p{L}%][\p{L}\p{N}%_./() -]*$/u.test(cells)) return null;
  return { line, text, cells, timed: false, columns: null };
}

/** The header's names split into `n` columns, or null when no reading of it gives `n`. */
function splitColumns(cells: string, n: number): Array<{ name: string; unit: string | null }> | null {
  const named = (names: string[]) => names.map((name) => ({ name, unit: null }));
  // Words and the blanks between them: [word, blanks, word, blanks, …].
  const parts = cells.split(/(\s+)/);
  const words = parts.filter((_, k) => k % 2 === 0);
  if (words.length === n) return named(words);
  // Names that hold blanks (`bad speculation`, `insn per cycle`), two blanks or more apart.
  const wide = cells.split(/\s{2,}/);
  if (wide.length === n) return named(wide);
  if (words.length !== 2 * n) return null;
  // `unit  name` pairs: two blanks inside a pair, one or more between pairs; a flattened `% name % name`.
  const pairs = Array.from({ length: n }, (_, k) => ({
    unit: words[2 * k] ?? '',
    inside: parts[4 * k + 1] ?? '',
    name: words[2 * k + 1] ?? '',
  }));
  if (pairs.every((p) => p.inside === '  ' || p.unit === '%'))
    return pairs.map((p) => ({ name: p.name, unit: p.unit }));
  return null;
}

/**
 * A row under `h` → one metric record per value, or null when the line is not a row of this table. The
 * first row that fits fixes the columns; later rows must hold as many values.
 */
export function readHumanTableRow(h: HumanTableHeader, text: string, line: number): PerfMetricRecord[] | null {
  const tokens = text.trim().split(/\s+/);
  let k = 0;
  let tSec: number | null = null;
  if (h.timed && INTERVAL_TIME_RE.test(tokens[0] ?? '')) {
    tSec = Number(tokens[0]);
    k = 1;
  }
  let aggr: string | null = null;
  const id = tokens[k];
  if (id !== undefined && isAggrId(id)) {
    aggr = id;
    k++;
    if (hasCpuCount(id) && /^\d+$/.test(tokens[k] ?? '') && k < tokens.length - 1) k++;
  }
  const values = tokens.slice(k);
  if (values.length === 0 || !values.every((v) => VALUE_RE.test(v) || isNotANumber(v))) return null;
  const columns = h.columns ?? splitColumns(h.cells, values.length);
  if (columns?.length !== values.length) return null;
  h.columns = columns;
  return values.map((v, c) => {
    const pct = v.endsWith('%');
    const column = columns[c] ?? { name: '', unit: null };
    const record: PerfMetricRecord = {
      kind: 'perf-metric',
      line,
      tSec,
      name: column.name,
      value: isNotANumber(v) ? null : parsePerfDecimal(pct ? v.slice(0, -1) : v),
      unit: pct ? '%' : column.unit,
    };
    if (aggr !== null) record.aggr = aggr;
    return record;
  });
}
