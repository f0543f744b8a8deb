// perf stat output → `kind: "perf"` counter records, plus `perf-header` (` Performance counter stats
// for 'x':`), `perf-elapsed` (`N seconds time elapsed|user|sys` — summaries, not counters, not
// diagnostics) and `perf-metric` (derived metrics printed without a counter: `--topdown` CSV tables,
// lines that hold only `# 18.8 % tma_backend_bound`).
//
// Format reference: perf's own printers (tools/perf/builtin-stat.c up to 4.18, util/stat-display.c
// since), not perf-stat(1) alone: the CSV fields are [summary | time (-I)], [aggregation id (-A,
// --per-core/socket/die/node/cluster/cache, --per-thread comm-tid)], [CPUs aggregated], value, unit
// (3.14+), event, [cgroup (-G)], [variance% (-r) — printed here, before the run time, though the man
// page lists it after the percentage], run time, run % (4.1+), metric value, metric unit (4.9+);
// a counter's further metrics come on lines of empty fields. The human format is the same
// information aligned in columns with `# metric` and `(NN.NN%)` / `( +- N% )` trailers, its counter
// column grouped by the locale (shared/parsers/perf-stat-numbers.ts). Checked against real captures
// in test/fixtures/perf/ (perf 3.0–6.19: perf 3.0's `(scaled from N%)`, perf 4.8 `--topdown`, POWER9
// `--metric-only -I` stopped with `^C`, `--for-each-cgroup`, Tiger Lake `--metric-only`, Alder Lake's
// 6.19 default metrics, x86 `-x, -I --summary`, an x86 VM with every event `<not supported>`, Apple M1,
// Ice Lake `--topdown`, Raspberry Pi 4, Arm `-x ';'`, Arm big.LITTLE, Khadas Edge2 RK3588S, and every
// output mode of perf 6.1 in x86-vm-perf6.1-output-modes; their tests are in
// test/unit/shared/parsers/perf-stat-captures.test.ts) and lines written from each version's print
// code (test/unit/shared/parsers/perf-stat-parser.test.ts).
//
// JSON (`-j`, perf 6.0+) is read per line by shared/parsers/perf-stat-json.ts, the human tables of
// `--metric-only` / `--topdown` (a header of metric names, rows of bare values) by
// shared/parsers/perf-stat-table.ts.
//
// The separator is not fixed (`-x,`, `-x;`, `-x '|'`, a tab…): it is the first character no field
// starts with. A line that is neither human, CSV nor JSON counter output becomes a diagnostic —
// perf's own complaints (`Error:` and the lines after it) with the reason PERF_MESSAGE_REASON —
// except the perf notices listed in SKIPPED_NOTICES.

import { capLines, type LineCapOptions } from './line-cap';
import {
  hasCpuCount,
  isAggrId,
  isBadCount,
  isEventName,
  perfRecord,
  PMU_SUFFIX_RE,
  statusOf,
  TIME_RE,
} from './perf-stat-fields';
import { readJson } from './perf-stat-json';
import {
  readCommentTableHeader,
  readHumanTableRow,
  readPlainTableHeader,
  type HumanTableHeader,
} from './perf-stat-table';
import { isNotANumber, parsePerfDecimal, parsePerfNumber } from './perf-stat-numbers';
import {
  diagnostic,
  isBlankLine,
  isCommentLine,
  isNotText,
  type Diagnostic,
  type LineParser,
  type PerfElapsedRecord,
  type PerfHeaderRecord,
  type PerfMetricRecord,
  type PerfRecord,
} from './records';

export { parsePerfDecimal, parsePerfNumber } from './perf-stat-numbers';

export type PerfParseRecord = PerfRecord | PerfElapsedRecord | PerfHeaderRecord | PerfMetricRecord | Diagnostic;

/** perf's own hints (not data, not damage). */
const SKIPPED_NOTICES = [
  /^\s*Some events weren't counted\./,
  /^\s*echo 0 > \/proc\/sys\/kernel\/nmi_watchdog/,
  /^\s*perf stat \.\.\./,
  /^\s*echo 1 > \/proc\/sys\/kernel\/nmi_watchdog/,
];
/**
 * perf's complaints on stderr (`Error:`, `WARNING:`, `Workload failed`, the perf_event_paranoid
 * explanation, `event syntax error`): kept as diagnostics with their own reason so a reader can
 * tell "perf refused" from "a line we could not read".
 */
const PERF_MESSAGE_RE =
  /^(?:Error:|WARNING:|Warning:|Workload failed|Failed to|failed to|event syntax error|The sys_perf_event_open\(\)|Access to performance monitoring|Consider adjusting|perf_event_paranoid setting|No permission|Permission error|Usage: perf|The events in group)/;
export const PERF_MESSAGE_REASON = 'perf message';
export const NOT_PERF_REASON = 'not a perf stat line';

const HEADER_RE = /^Performance counter stats for\s+(\S.*):$/;
const HEADER_RUNS_RE = /\s\((\d+) runs\)$/;
// Matched against the trimmed line, so no trailing `\s*` sits next to a `.*`.
const ELAPSED_RE =
  /^(\d[\d,.]*)\s+(?:\+-\s+\d[\d,.]*\s+)?seconds\s+(time elapsed|user|sys)(?:\s+\(\s*\+-\s*([\d.,]+)\s*%\s*\))?$/;
/** The separator: the first character no field starts with; the second form skips a decimal comma (`-x;` in de_DE). */
const CSV_SEP_RES = [/[^\w\s.<>'-]/, /[^\w\s.,<>'-]/];
const STDDEV_RE = /\(\s*\+-\s*([\d.,]+)\s*%\s*\)/;
// `(66.67%)`; perf 3.x prints `[ 83.40%]`, and perf up to 3.0 `(scaled from 83.40%)` (print_counter_aggr).
const RUNPCT_RE = /[([]\s*(?:scaled from\s+)?(\d+(?:[.,]\d+)?)\s*%\s*[)\]]/;

/** A line holding only a counter's further metric: `[time]  # <value> <unit> …`. */
const METRIC_CONTINUATION_RE = /^\s*(?:\d+\.\d+\s+)?#/;

/** The run percentage and `( +- sd% )` a counter's metric continuation line ends with, into the counter. */
function takeRunFigures(r: PerfRecord, text: string): void {
  const run = RUNPCT_RE.exec(text);
  if (run) r.runPct = parsePerfDecimal(run[1] ?? '');
  const sd = STDDEV_RE.exec(text);
  if (sd && r.stddevPct === null) r.stddevPct = parsePerfDecimal(sd[1] ?? '');
}

/** A CSV value field: ungrouped, so `,` can only be a decimal point (`-x;` in a comma locale). */
function isCsvValue(text: string | undefined): boolean {
  return text !== undefined && (isBadCount(text) || parsePerfDecimal(text) !== null);
}

/**
 * `# <number>[%] <unit words> [trailers]` → value and unit: ` 3.998 CPUs utilized`, `74.09% frontend
 * cycles idle`, `-nan insn per cycle` (a value perf could not compute: null, unit kept). Null if
 * no number (or nan) leads.
 */
function readMetricTail(tail: string): { value: number | null; unit: string } | null {
  const t = tail.replace(STDDEV_RE, ' ').replace(RUNPCT_RE, ' ').trim();
  const space = t.search(/[\s%]/);
  const head = space < 0 ? t : t.slice(0, space);
  const unit = space < 0 ? '' : t.slice(space).trim();
  if (isNotANumber(head)) return { value: null, unit };
  if (!/^-?\d/.test(head)) return null;
  const value = parsePerfDecimal(head);
  return value === null ? null : { value, unit };
}

/**
 * A line holding only a derived metric: `[time] [name] # 18.8 % tma_backend_bound` (`--topdown`,
 * perf 6.5+ `TopdownL1 (cpu_core)`, `#`-only continuation lines such as `# 0.26 stalled cycles per
 * insn`). Read by splitting at the `#`, not by one pattern.
 */
function readMetricOnly(text: string, line: number): PerfMetricRecord | null {
  const t = text.trim();
  const hash = t.indexOf('#');
  if (hash < 0) return null;
  const head = t.slice(0, hash).trim();
  const tail = readMetricTail(t.slice(hash + 1));
  if (!tail) return null;
  const percent = tail.unit.startsWith('%');
  const name = percent ? tail.unit.slice(1).trim() : tail.unit;
  if (!/^\p{L}/u.test(name)) return null;
  const timed = /^(\d+\.\d+)(?:\s+(\S.*))?$/.exec(head);
  const label = timed ? (timed[2] ?? '') : head;
  // `TopdownL1 (cpu_core)`; perf 6.19's default metrics are labelled by their PMU alone, `(software)`.
  if (label !== '' && !/^(?:\p{L}|\(\w[\w.-]*\)$)/u.test(label)) return null;
  return {
    kind: 'perf-metric',
    line,
    tSec: timed ? Number(timed[1]) : null,
    name,
    value: tail.value,
    unit: percent ? '%' : null,
  };
}

/**
 * The units perf prints before an event: evsel->unit (`msec` of task-clock and cpu-clock, `ns` of
 * duration_time) and the PMUs' sysfs `<event>.unit` files (`Joules`, `MiB`, `MHz`, `%`…). A word
 * before the event that is none of these is an event followed by its cgroup (`cycles   A`).
 */
const UNIT_WORD_RE = /^(?:[%MC]|[kKMGTPmnu\u00b5]?(?:i?B|[Bb]ytes|Hz|Joules|Watts|sec|[JWs]))$/;

/** The first token of a human counter value: a number, or `<not` of `<not counted>`. */
function startsValue(token: string | undefined): boolean {
  return token !== undefined && (token === '<not' || parsePerfNumber(token) !== null);
}

/**
 * The human (aligned) line: `[time] [aggr [cpus]] value [unit] event [# metric] [( +- sd% )] [(run%)]`.
 * Read by tokens split at ASCII blanks only, so a count grouped with U+202F/U+00A0 stays one token;
 * a count grouped with plain spaces (fr_FR before glibc 2.28: `1 234 567`) is joined back.
 */
function readHuman(text: string, line: number): PerfRecord | null {
  const r = perfRecord(line);
  let rest = text.trim();
  const sd = STDDEV_RE.exec(rest);
  if (sd) {
    r.stddevPct = parsePerfDecimal(sd[1] ?? '');
    rest = rest.replace(STDDEV_RE, ' ');
  }
  const run = RUNPCT_RE.exec(rest);
  if (run) {
    r.runPct = parsePerfDecimal(run[1] ?? '');
    rest = rest.replace(RUNPCT_RE, ' ');
  }
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    const metric = readMetricTail(rest.slice(hash + 1));
    if (metric) [r.metricValue, r.metricUnit] = [metric.value, metric.unit === '' ? null : metric.unit];
  }
  const tokens = (hash >= 0 ? rest.slice(0, hash) : rest).split(/[ \t]+/).filter(Boolean);
  let k = 0;
  const first = tokens[0] ?? '';
  if (TIME_RE.test(first) && tokens.length >= 3 && (startsValue(tokens[1]) || isAggrId(tokens[1]))) {
    r.tSec = Number(first);
    k = 1;
  }
  const maybeAggr = tokens[k] ?? '';
  if (!startsValue(maybeAggr) && isAggrId(maybeAggr)) {
    r.aggr = maybeAggr;
    k++;
    if (hasCpuCount(maybeAggr) && /^\d+$/.test(tokens[k] ?? '') && startsValue(tokens[k + 1])) k++;
  }
  const v = tokens[k] ?? '';
  if (v === '<not') {
    r.status = statusOf(`<not ${tokens[k + 1] ?? ''}`);
    if (r.status === 'ok') return null;
    k += 2;
  } else {
    let grouped = v;
    k++;
    // Groups are joined only after a lead of 1-3 digits, and only while they are 3 digits (the last may
    // carry the decimals): each token is looked at once.
    if (/^-?\d{1,3}$/.test(v))
      while (k < tokens.length - 1 && /^\d{3}(?:[.,]\d+)?$/.test(tokens[k] ?? '')) {
        const group = tokens[k++] ?? '';
        grouped += ` ${group}`;
        if (group.length > 3) break;
      }
    r.value = parsePerfNumber(grouped);
    if (r.value === null) return null;
  }
  const [a, b, c, ...more] = tokens.slice(k);
  if (more.length > 0 || a === undefined) return null;
  // -G / --for-each-cgroup: the cgroup's name follows the event (print_cgroup), `cycles   A`.
  const cgroup = (name: string) => (r.aggr === null ? name : `${r.aggr} ${name}`);
  if (b === undefined) r.event = a;
  else if (c !== undefined) {
    // `msec cycles [armv8_cortex_a53]` (--no-merge) or `msec cpu-clock A` (a cgroup).
    if (PMU_SUFFIX_RE.test(c)) [r.unit, r.event] = [a, `${b} ${c}`];
    else if (UNIT_WORD_RE.test(a)) [r.unit, r.event, r.aggr] = [a, b, cgroup(c)];
    else return null;
  } else if (PMU_SUFFIX_RE.test(b)) r.event = `${a} ${b}`;
  else {
    // perf 3.x–4.x print the unit after the event in parentheses: `task-clock (msec)`.
    const old = /^\((\w+)\)$/.exec(b);
    if (old) [r.event, r.unit] = [a, old[1] ?? null];
    else if (UNIT_WORD_RE.test(a) || !isEventName(a)) [r.unit, r.event] = [a, b];
    else [r.event, r.aggr] = [a, cgroup(b)];
  }
  return isEventName(r.event) ? r : null;
}

/**
 * `-x,` in a locale whose decimal point is a comma (de_DE, fr_FR, ru_RU…): perf prints `8013,48,msec,…,
 * 100,00,…`, splitting the value and the run percentage in two. Both have exactly two decimals and
 * neither a C-locale unit nor a C-locale percentage is ever two bare digits, so the pair is joined
 * back. Returns whether anything was joined (then perf's metric value, cut at the comma by
 * print_metric_csv, is not trusted).
 */
function joinCommaDecimal(f: string[], at: number, percent = false): boolean {
  const whole = f[at] ?? '';
  const frac = f[at + 1] ?? '';
  if (!/^-?\d+$/.test(whole) || !(percent ? /^\d{2}%$/ : /^\d{2}$/).test(frac)) return false;
  f.splice(at, 2, `${whole}.${frac}`);
  return true;
}

/**
 * The CSV line (`-x<sep>`), every version: [summary|time] [aggr [cpus]] value, then
 * - perf 3.0–3.13: event [, variance%]
 * - perf 3.14+: unit, event [, variance% (-r)], run time, run % (4.1+), metric value, metric unit (4.9+).
 * perf prints -r's variance before the run time (stat-display.c: print_noise before print_running);
 * perf-stat(1) lists it after the percentage: both are read.
 */
function readCsv(text: string, line: number): PerfRecord | null {
  const t = text.trim();
  const seps = t.includes('\t') ? ['\t'] : CSV_SEP_RES.map((re) => re.exec(t)?.[0]);
  let tried = '';
  for (const sep of seps) {
    if (sep === undefined || sep === tried) continue;
    tried = sep;
    const r = readCsvFields(
      t.split(sep).map((x) => x.trim()),
      sep,
      line,
    );
    if (r) return r;
  }
  return null;
}

function readCsvFields(f: string[], sepMatch: string, line: number): PerfRecord | null {
  const r = perfRecord(line);
  let i = 0;
  if (f[0] === 'summary') {
    r.summary = true;
    i = 1;
  } else if (TIME_RE.test(f[0] ?? '') && (isCsvValue(f[1]) || isAggrId(f[1]))) {
    r.tSec = Number(f[0]);
    i = 1;
  }
  const maybeAggr = f[i];
  if (maybeAggr !== undefined && !isCsvValue(maybeAggr) && isAggrId(maybeAggr)) {
    r.aggr = maybeAggr;
    i++;
    if (hasCpuCount(maybeAggr) && /^\d+$/.test(f[i] ?? '') && isCsvValue(f[i + 1]) && !isCsvValue(f[i + 2])) i++;
  }
  const comma = sepMatch === ',';
  let joined = comma && joinCommaDecimal(f, i);
  const value = f[i];
  if (value === undefined || !isCsvValue(value)) return null;
  r.status = statusOf(value);
  r.value = r.status === 'ok' ? parsePerfDecimal(value) : null;
  const rest = f.slice(i + 1);
  let j: number;
  if (rest.length === 1 || (rest.length === 2 && (rest[1] ?? '').endsWith('%'))) {
    j = 1;
  } else {
    r.unit = rest[0] || null;
    j = 2;
  }
  // An event whose own terms hold the separator (`cpu/event=0x3c,umask=0x0/` under -x,): perf prints
  // it raw, so its pieces are joined back until its slashes pair up.
  const slashes = (x: string) => x.split('/').length - 1;
  let event = rest[j - 1] ?? '';
  let open = slashes(event) % 2 === 1;
  let end = j;
  for (; open && end < rest.length; end++) {
    const piece = rest[end] ?? '';
    event += `${sepMatch}${piece}`;
    open = (slashes(piece) % 2 === 1) !== open;
  }
  if (end > j) rest.splice(j - 1, end - j + 1, event);
  r.event = rest[j - 1] ?? '';
  if (!isEventName(r.event) || (r.unit !== null && !UNIT_RE.test(r.unit))) return null;
  // -G / --for-each-cgroup: the cgroup's name follows the event (print_cgroup in stat-display.c).
  const cgroup = rest[j];
  if (cgroup && !cgroup.endsWith('%') && parsePerfDecimal(cgroup) === null) {
    r.aggr = r.aggr === null ? cgroup : `${r.aggr} ${cgroup}`;
    j++;
  }
  const variance = (at: number): boolean => {
    if (comma) joined = joinCommaDecimal(rest, at, true) || joined;
    const v = rest[at];
    if (v === undefined || !v.endsWith('%')) return false;
    r.stddevPct = parsePerfDecimal(v.slice(0, -1));
    return true;
  };
  if (variance(j)) j++;
  const runTime = rest[j];
  r.runTimeNs = runTime ? parsePerfDecimal(runTime) : null;
  if (comma) joined = joinCommaDecimal(rest, j + 1) || joined;
  const pct = rest[j + 1];
  r.runPct = pct ? parsePerfDecimal(pct) : null;
  j += 2;
  if (r.stddevPct === null && variance(j)) j++;
  // A comma locale under another separator (`-x;`): the same cut metric value.
  joined ||= [value, ...rest.slice(0, j)].some((x) => /^-?\d+,\d+%?$/.test(x));
  r.metricValue = rest[j] && !joined ? parsePerfDecimal(rest[j] ?? '') : null;
  r.metricUnit = rest[j + 1] || null;
  return r;
}

/**
 * A CSV line holding a counter's second metric (new_line_csv in stat-display.c): the counter's
 * fields left empty, then `value<sep>unit` — `,,,,0.26,stalled cycles per insn`, with -I
 * `1.000123456,,,,,0.26,…`. perf 6.2+ prints a metric group's metrics (`TopdownL1 (cpu_atom)` on a
 * hybrid CPU, the default metrics) the same way, some with the run time and percentage of the
 * counters behind them kept (`,648266,100.00,,,24.0,%  tma_frontend_bound`) and the unit before the
 * metric's name (`%  tma_…`, as in the human format); the group's name comes first on a row of its
 * own (`,648266,100.00,,,,TopdownL1 (cpu_atom)`), which holds no reading: `'label'` (kept as a
 * diagnostic that says so). Under an aggregation (-A, --per-core, --per-socket…) the line starts with
 * the counter's id (and CPU count): `S0,1,,,,,,,1.27,stalled cycles per insn`; perf 4.9–6.0 printed one
 * separator too many before it (`,S0,1,…`, `0.001813453,,S0,1,…`; fixed by ad353b710c74). Null when the
 * line is not that shape.
 */
function readCsvMetric(text: string, line: number): PerfMetricRecord | 'label' | null {
  const t = text.trim();
  const sep = CSV_SEP_RES[0]?.exec(t)?.[0];
  if (sep === undefined) return null;
  const f = t.split(sep).map((x) => x.trim());
  const tSec = TIME_RE.test(f[0] ?? '') ? Number(f[0]) : null;
  let firstEmpty = tSec === null ? 0 : 1;
  if (f[firstEmpty] === '' && isAggrId(f[firstEmpty + 1])) firstEmpty++;
  const aggr = f[firstEmpty];
  const aggregated = aggr !== undefined && isAggrId(aggr);
  if (aggregated) firstEmpty += hasCpuCount(aggr) && /^\d+$/.test(f[firstEmpty + 1] ?? '') ? 2 : 1;
  if (f[firstEmpty] !== '') return null;
  let k = firstEmpty + 1;
  const ran = /^\d+$/.test(f[k] ?? '') && /^\d+(?:\.\d+)?$/.test(f[k + 1] ?? '');
  if (ran) k += 2;
  while (f[k] === '') k++;
  const empties = k - firstEmpty - (ran ? 2 : 0);
  const field = f[k] ?? '';
  const value = parsePerfDecimal(field);
  if (value === null) return ran && empties >= 2 && k === f.length - 1 && /^\p{L}/u.test(field) ? 'label' : null;
  const raw = f[k + 1] ?? '';
  const percent = /^%\s+\p{L}/u.test(raw);
  const name = percent ? raw.slice(1).trim() : raw;
  if (empties < 2 || !/^\p{L}/u.test(name) || f.slice(k + 2).some((x) => x !== '')) return null;
  const metric: PerfMetricRecord = { kind: 'perf-metric', line, tSec, name, value, unit: percent ? '%' : null };
  if (aggregated) metric.aggr = aggr;
  return metric;
}

/**
 * perf colours metrics when it writes to a terminal (`\e[31m    0.26\e[m` for a high stall rate,
 * color_fprintf in tools/perf/util/color.c) and `--interval-clear` starts each interval with
 * `\e[H\e[2J`: a capture made through a pty (`ssh -t`, `script`) keeps them.
 */
const TERMINAL_CODE_RE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[a-z]`, 'gi');

/**
 * The `^C` a terminal echoes when perf (`-I`, `-a`) is stopped with Ctrl-C lands in front of the line perf
 * prints next (`^C     2.745238246   5,816,562   hv_24x7/…`): perf never starts a line with it. A `^C`
 * with nothing after it (or a `#`) is left alone, so that the line stays the diagnostic it was.
 */
const CTRL_C_ECHO_RE = /^\^C(?=\s*[^\s#])/;

function stripTerminalCodes(text: string): string {
  const t = text.replace(CTRL_C_ECHO_RE, '');
  return t.includes(String.fromCharCode(27)) ? t.replace(TERMINAL_CODE_RE, '') : t;
}

interface MetricHeader {
  names: string[];
  sep: string;
  line: number;
  text: string;
}

/**
 * A row of values under a `--topdown` / `--metric-only` CSV header (`retiring,bad speculation,…` or,
 * with -I, `time,GHz,insn per cycle,`): one metric per column, the `time` column as the row's time.
 */
function readTableRow(h: MetricHeader, text: string, line: number): PerfMetricRecord[] | null {
  const values = text.trim().split(h.sep);
  if ((values[values.length - 1] ?? '').trim() === '') values.pop();
  if (values.length !== h.names.length || values.some((v) => parsePerfDecimal(v) === null)) return null;
  const timed = h.names[0] === 'time';
  const tSec = timed ? parsePerfDecimal(values[0] ?? '') : null;
  return h.names.slice(timed ? 1 : 0).map((name, k) => ({
    kind: 'perf-metric' as const,
    line,
    tSec,
    name,
    value: parsePerfDecimal(values[k + (timed ? 1 : 0)] ?? ''),
    unit: null,
  }));
}

/** A perf 6.x CSV row naming a metric group (`,648266,100.00,,,,TopdownL1 (cpu_atom)`): no reading. */
const METRIC_GROUP_REASON = 'perf metric group name (no reading)';

/** A counter's unit: `msec`, `ns`, `Joules`, `MiB`, `%` (letters, digits, `%`, `/`, `.`, `_`, `-`, spaces). */
const UNIT_RE = /^[\p{L}\d%/._ -]+$/u;

export function createPerfStatParser(options: LineCapOptions = {}): LineParser<PerfParseRecord> {
  let lineNo = 0;
  let sawInterval = false;
  /** Inside perf's multi-line complaint (`Error:` and its explanation), which ends at a blank line. */
  let inMessage = false;
  /** Column names of a `--topdown` CSV table waiting for its row of values. */
  let metricHeader: MetricHeader | null = null;
  /** The last header that had a row of values (`--metric-only -I` prints later rows without it). */
  let metricTable: MetricHeader | null = null;
  /** The human `--metric-only` / `--topdown` table whose rows are read (shared/parsers/perf-stat-table.ts). */
  let humanTable: HumanTableHeader | null = null;
  /** humanTable is a plain line still waiting for its first row (a diagnostic if none comes next). */
  let humanPending = false;
  /** The last line that was not blank was ` Performance counter stats for …:` (a table header may follow). */
  let afterPerfHeader = false;
  /**
   * A human counter line with a metric and no run percentage, held for one line: perf prints a counter's run
   * percentage and its `( +- sd% )` after all its metrics, so where a second metric goes on a line of its own
   * (`#    0.21  stalled cycles per insn [83.51%]`, perf 3.x; `… (83.51%)` later) they end that line.
   */
  let held: PerfRecord | null = null;

  const push = (raw: string): PerfParseRecord[] => {
    // A CRLF capture (a Windows copy, `perf … | tee` through a terminal): the CR is not part of the line.
    const text = stripTerminalCodes(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    const before: PerfParseRecord[] = [];
    if (humanPending && humanTable) {
      // perf prints a table's first row right under its header: anything else means it was no header.
      humanPending = false;
      const row = readHumanTableRow(humanTable, text, lineNo);
      if (row) return row;
      before.push(diagnostic(humanTable.line, NOT_PERF_REASON, humanTable.text));
      humanTable = null;
    }
    const afterHeader = afterPerfHeader;
    if (!isBlankLine(text)) afterPerfHeader = false;
    const waiting = held;
    held = null;
    if (waiting && METRIC_CONTINUATION_RE.test(text)) takeRunFigures(waiting, text);
    const out = readLine(text, afterHeader);
    return waiting || before.length > 0 ? [...(waiting ? [waiting] : []), ...before, ...out] : out;
  };

  const readLine = (text: string, afterHeader: boolean): PerfParseRecord[] => {
    if (isBlankLine(text)) {
      inMessage = false;
      return [];
    }
    if (isCommentLine(text)) {
      const m = readMetricOnly(text, lineNo);
      if (m) return [m];
      // A `#` followed by a number that is not a metric: damage, not a comment.
      if (/^\s*#\s*[-+]?(?:\d|nan|inf)/i.test(text)) return [diagnostic(lineNo, 'unreadable perf metric', text)];
      humanTable = readCommentTableHeader(text, lineNo) ?? humanTable;
      // `# started on …` (-o), `#  time  counts unit events` (-I), a pasted `# perf stat …`: a new run starts.
      sawInterval = false;
      return [];
    }
    if (SKIPPED_NOTICES.some((re) => re.test(text))) return [];
    const t = text.trim();
    if (/^([,;|:\t])\1*$/.test(t)) return []; // an all-empty CSV record (`,,,,,`)

    const header = HEADER_RE.exec(t);
    if (header) {
      sawInterval = false;
      let target = (header[1] ?? '').trim();
      const runs = HEADER_RUNS_RE.exec(target);
      if (runs) target = target.slice(0, runs.index).trim();
      if (target.length >= 2 && target.startsWith("'") && target.endsWith("'")) target = target.slice(1, -1);
      afterPerfHeader = true;
      return [{ kind: 'perf-header', line: lineNo, target, runs: runs ? Number(runs[1]) : null }];
    }
    const elapsed = ELAPSED_RE.exec(t);
    if (elapsed) {
      const seconds = parsePerfDecimal(elapsed[1] ?? '');
      if (seconds !== null) {
        const clock = elapsed[2] === 'time elapsed' ? 'elapsed' : (elapsed[2] as 'user' | 'sys');
        return [
          {
            kind: 'perf-elapsed',
            line: lineNo,
            clock,
            seconds,
            stddevPct: elapsed[3] ? parsePerfDecimal(elapsed[3]) : null,
          },
        ];
      }
    }

    // `--topdown -x,`: a row of column names, then a row of values. Names not followed by values
    // were not a header after all: the names line becomes the diagnostic it would have been.
    const out: PerfParseRecord[] = [];
    if (metricHeader) {
      const h = metricHeader;
      metricHeader = null;
      const row = readTableRow(h, text, lineNo);
      if (row) {
        // perf prints the header once per 25 intervals: later rows come alone.
        metricTable = h;
        return row;
      }
      out.push(diagnostic(h.line, NOT_PERF_REASON, h.text));
    }

    // `-j`: one JSON object a line (perf 6.0+), told apart by its `{`.
    if (t.startsWith('{')) {
      const json = readJson(t, lineNo);
      if (json === 'label') {
        out.push(diagnostic(lineNo, METRIC_GROUP_REASON, text));
        return out;
      }
      if (!json) out.push(diagnostic(lineNo, 'not a perf stat JSON line', text));
      for (const r of json ?? []) {
        if (r.kind === 'perf' && r.tSec !== null) sawInterval = true;
        else if (r.kind === 'perf' && sawInterval) r.summary = true;
        out.push(r);
      }
      return out;
    }

    // perf prints no control character (a tab separates -x\t fields; colour codes are gone by now)
    // and no U+FFFD (what undecodable bytes become): such a line is noise, whatever its commas say.
    if (isNotText(text)) {
      out.push(diagnostic(lineNo, NOT_PERF_REASON, text));
      return out;
    }
    const human = readHuman(text, lineNo);
    // The metric line first: its empty value field is no counter's, and read as a counter
    // `0.001813453,,S0,1,,…` would be a count of 0.0018 of an event `S0`.
    const csvMetric = human ? null : readCsvMetric(text, lineNo);
    const r = human ?? (csvMetric ? null : readCsv(text, lineNo));
    if (csvMetric) {
      out.push(csvMetric === 'label' ? diagnostic(lineNo, METRIC_GROUP_REASON, text) : csvMetric);
      return out;
    }
    if (r) {
      if (r.tSec !== null) sawInterval = true;
      // Before perf 5.13 `--summary` rows came without a time column after the interval rows.
      else if (sawInterval) r.summary = true;
      if (human && human.runPct === null && text.includes('#')) held = human;
      else out.push(r);
      return out;
    }

    const row =
      (metricTable ? readTableRow(metricTable, text, lineNo) : null) ??
      (humanTable ? readHumanTableRow(humanTable, text, lineNo) : null);
    if (row) return [...out, ...row];

    const names = /^\s*[a-z][\w -]*([,;|\t])/i.exec(text);
    if (names) {
      const sep = names[1] ?? ',';
      const cols = t.split(sep).map((c) => c.trim());
      if (cols[cols.length - 1] === '') cols.pop();
      if (cols.length >= 2 && cols.every((c) => /^[a-z][\w -]*$/i.test(c))) {
        metricHeader = { names: cols, sep, line: lineNo, text };
        return out;
      }
    }

    const metric = readMetricOnly(text, lineNo);
    if (metric) {
      out.push(metric);
      return out;
    }

    // A human `--metric-only` / `--topdown` header (no -I) comes right under ` Performance counter stats for`.
    const tableHeader = afterHeader && !inMessage ? readPlainTableHeader(text, lineNo) : null;
    if (tableHeader) {
      [humanTable, humanPending] = [tableHeader, true];
      return out;
    }

    inMessage ||= PERF_MESSAGE_RE.test(t);
    out.push(diagnostic(lineNo, inMessage ? PERF_MESSAGE_REASON : NOT_PERF_REASON, text));
    return out;
  };

  return capLines(
    {
      push(text: string) {
        lineNo++;
        return push(text);
      },
      end() {
        const waiting = held ? [held] : [];
        held = null;
        const headers = [metricHeader, humanPending ? humanTable : null];
        [metricHeader, humanTable, humanPending] = [null, null, false];
        return [...waiting, ...headers.flatMap((h) => (h ? [diagnostic(h.line, NOT_PERF_REASON, h.text)] : []))];
      },
    },
    options.maxLineChars,
  );
}
