// perf stat output → `kind: "perf"` counter records, plus `perf-header` (` Performance counter stats
// for 'x':`), `perf-elapsed` (`N seconds time elapsed|user|sys` — summaries, not counters, not
// diagnostics) and `perf-metric` (derived metrics printed without a counter: `--topdown` CSV tables,
// lines that hold only `# 18.8 % tma_backend_bound`).
//
// Format reference: perf-stat(1), "CSV FORMAT": fields are [time (-I)], [aggregation id (-A,
// --per-core/socket/die…)], [number of aggregated CPUs], value, unit, event, counter run time,
// percentage of time running, [variance with -r], metric value, metric unit. The human format is
// the same information aligned in columns with `# metric` and `(NN.NN%)` / `( +- N% )` trailers.
// Checked against: perf 3.x–6.15 captures — x86 `-x, -I --summary` before/after the 2021 summary
// alignment patch, an x86 VM where every event is `<not supported>`, Apple M1 (`:u`, `<not counted>`
// with `(0.00%)`), Ice Lake `--topdown` CSV with an all-empty record, Raspberry Pi 4 (Cortex-A72:
// `branches` not supported), Arm `-x ';'`, and an Arm big.LITTLE board with PMU-qualified names
// (`armv8_cortex_a53/cycles/`) and `<not counted> msec task-clock`.
//
// JSON (`-j` / `--json-output`, perf 6.0 and later; tools/perf/util/stat-display.c there) is read
// too, per line: a line that starts with `{` is one object — "interval" (-I, a number),
// "counter-value" (a string: a number, `<not counted>` or `<not supported>`), "unit", "event",
// "variance" (-r), "event-runtime", "pcnt-running", "metric-value", "metric-unit", an aggregation
// key ("cpu", "core", "die", "socket", "node", "thread", "cgroup") with "aggregate-number" (later
// "cpu-count"). An object without "counter-value" holds metrics only (a metric's own line, or
// `--metric-only`: `{"GHz" : "0.817", "insn per cycle" : "2.15"}`). Checked against perf 6.1's own
// output (test/fixtures/perf/x86-vm-perf6.1-json-interval).
//
// The separator is not fixed (`-x,`, `-x;`, `-x '|'`…): it is read from the character after the
// first field of each CSV line. A line that is neither human nor CSV counter output becomes a
// diagnostic — except the perf notices listed in SKIPPED_NOTICES.

import { capLines, type LineCapOptions } from './line-cap';
import { isNotANumber, parsePerfDecimal, parsePerfNumber } from './perf-stat-numbers';
import {
  diagnostic,
  isBlankLine,
  isCommentLine,
  type Diagnostic,
  type LineParser,
  type PerfElapsedRecord,
  type PerfHeaderRecord,
  type PerfMetricRecord,
  type PerfRecord,
  type PerfStatus,
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
  /^(?:Error:|WARNING:|Warning:|Workload failed|Failed to|failed to|event syntax error|The sys_perf_event_open\(\)|Access to performance monitoring|Consider adjusting|perf_event_paranoid setting|No permission|Permission error|Usage: perf)/;
export const PERF_MESSAGE_REASON = 'perf message';
export const NOT_PERF_REASON = 'not a perf stat line';

// Aggregation ids of -A (CPU3), --per-core (S0-D0-C1; S0-C1 before dies, perf < 5.1), --per-socket,
// --per-die, --per-node (N0), --per-cluster (S0-D0-CLS1) and --per-cache (S0-D0-L3-ID0), perf 6.x.
const AGGR_RE = /^(?:CPU\d+|S\d+(?:-D\d+)?(?:-CLS\d+)?(?:-L\d+-ID\d+)?(?:-C\d+)?(?:-T\d+)?|N\d+)$/;
/** The -I time column: `%6lu.%09lu` (a C-locale dot in every version). */
const TIME_RE = /^\d+\.\d+$/;
/** An event name: `cycles`, `cycles:u`, `cpu_core/cycles/`, `r003c`, `cycles [armv8_cortex_a53]` (--no-merge). */
const EVENT_RE = /^[\p{L}_]\S*(?: \[[^\]\s]+\])?$/u;
/** The PMU perf appends to a --no-merge event name of a non-hybrid PMU: `cycles [armv8_cortex_a53]`. */
const PMU_SUFFIX_RE = /^\[[^\]\s]+\]$/;
const HEADER_RE = /^Performance counter stats for\s+(\S.*):$/;
const HEADER_RUNS_RE = /\s\((\d+) runs\)$/;
// Matched against the trimmed line, so no trailing `\s*` sits next to a `.*`.
const ELAPSED_RE =
  /^(\d[\d,.]*)\s+(?:\+-\s+\d[\d,.]*\s+)?seconds\s+(time elapsed|user|sys)(?:\s+\(\s*\+-\s*([\d.,]+)\s*%\s*\))?$/;
/** The separator: the first character no field starts with; the second form skips a decimal comma (`-x;` in de_DE). */
const CSV_SEP_RES = [/[^\w\s.<>'-]/, /[^\w\s.,<>'-]/];
const STDDEV_RE = /\(\s*\+-\s*([\d.,]+)\s*%\s*\)/;
// `(66.67%)`; perf 3.x prints `[ 83.40%]`.
const RUNPCT_RE = /[([]\s*(\d+(?:[.,]\d+)?)\s*%\s*[)\]]/;

function statusOf(value: string): PerfStatus {
  if (value === '<not supported>') return 'not-supported';
  if (value === '<not counted>') return 'not-counted';
  return 'ok';
}

function isBadCount(text: string | undefined): boolean {
  return text === '<not supported>' || text === '<not counted>';
}

/** A CSV value field: ungrouped, so `,` can only be a decimal point (`-x;` in a comma locale). */
function isCsvValue(text: string | undefined): boolean {
  return text !== undefined && (isBadCount(text) || parsePerfDecimal(text) !== null);
}

/** `--per-thread`: `<comm>-<tid>` (`llama-cli-4242`). */
function isThreadId(text: string): boolean {
  const dash = text.lastIndexOf('-');
  return dash > 0 && dash < text.length - 1 && /^\d+$/.test(text.slice(dash + 1)) && !/\s/.test(text);
}

function isAggrId(text: string | undefined): boolean {
  return text !== undefined && (AGGR_RE.test(text) || isThreadId(text));
}

/** --per-core/socket/die/node/cluster/cache print the number of CPUs aggregated after the id; -A and --per-thread do not. */
function hasCpuCount(aggr: string): boolean {
  return aggr.startsWith('S') || aggr.startsWith('N');
}

function isEventName(text: string | undefined): text is string {
  return text !== undefined && EVENT_RE.test(text);
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
  if (label !== '' && !/^\p{L}/u.test(label)) return null;
  return {
    kind: 'perf-metric',
    line,
    tSec: timed ? Number(timed[1]) : null,
    name,
    value: tail.value,
    unit: percent ? '%' : null,
  };
}

function perfRecord(line: number): PerfRecord {
  return {
    kind: 'perf',
    line,
    tSec: null,
    event: '',
    value: null,
    status: 'ok',
    unit: null,
    runPct: null,
    runTimeNs: null,
    metricValue: null,
    metricUnit: null,
    stddevPct: null,
    aggr: null,
    summary: false,
  };
}

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
    while (
      /^-?\d{1,3}(?: \d{3})*$/.test(grouped) &&
      /^\d{3}(?:[.,]\d+)?$/.test(tokens[k] ?? '') &&
      k < tokens.length - 1
    )
      grouped += ` ${tokens[k++] ?? ''}`;
    r.value = parsePerfNumber(grouped);
    if (r.value === null) return null;
  }
  const [a, b, c, ...more] = tokens.slice(k);
  if (more.length > 0 || a === undefined) return null;
  if (b === undefined) r.event = a;
  else if (c !== undefined) {
    // `msec cycles [armv8_cortex_a53]` is the only three-token tail.
    if (!PMU_SUFFIX_RE.test(c)) return null;
    [r.unit, r.event] = [a, `${b} ${c}`];
  } else if (PMU_SUFFIX_RE.test(b)) r.event = `${a} ${b}`;
  else {
    // perf 3.x–4.x print the unit after the event in parentheses: `task-clock (msec)`.
    const old = /^\((\w+)\)$/.exec(b);
    if (old) [r.event, r.unit] = [a, old[1] ?? null];
    else [r.unit, r.event] = [a, b];
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
    r.event = rest[0] ?? '';
    j = 1;
  } else {
    r.unit = rest[0] || null;
    r.event = rest[1] ?? '';
    j = 2;
  }
  if (!isEventName(r.event)) return null;
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

/** JSON keys naming the aggregation of a line (`-A`, `--per-core`, …) and how the CSV prints that id. */
const JSON_AGGR_KEYS: Record<string, (id: string) => string> = {
  cpu: (id) => (/^\d+$/.test(id) ? `CPU${id}` : id),
  core: (id) => id,
  die: (id) => id,
  socket: (id) => id,
  node: (id) => id,
  thread: (id) => id,
  cgroup: (id) => id,
};
/** JSON keys that are neither the counter nor a metric of a `--metric-only` line. */
const JSON_NOT_METRIC_KEYS = new Set(['interval', 'aggregate-number', 'cpu-count', ...Object.keys(JSON_AGGR_KEYS)]);

/** A JSON number, or a string perf printed a number into (`"counter-value" : "74.000000"`); null otherwise. */
function jsonNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  return typeof v === 'string' ? parsePerfDecimal(v) : null;
}

/**
 * perf writes its JSON with printf: a value it could not compute comes out as a bare `nan`/`-nan`/
 * `inf`, and in a comma-decimal locale `%f` writes `"pcnt-running" : 100,00`. Both make the line
 * invalid JSON; this turns them into `null` and `100.00` (tried only after JSON.parse failed).
 */
function repairPerfJson(text: string): string {
  return text.replace(/(:\s*)[-+]?(?:nan|inf)\b/gi, '$1null').replace(/(:\s*-?\d+),(\d+)(?=\s*[,}])/g, '$1.$2');
}

function jsonString(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/** One `perf stat -j` line → its records, or null when it is not a perf stat JSON object. */
function readJson(text: string, line: number): Array<PerfRecord | PerfMetricRecord> | null {
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    try {
      o = JSON.parse(repairPerfJson(text));
    } catch {
      return null;
    }
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return null;
  const obj = o as Record<string, unknown>;
  let tSec: number | null = null;
  if ('interval' in obj) {
    tSec = jsonNumber(obj.interval);
    if (tSec === null || tSec < 0) return null;
  }
  if (!('counter-value' in obj)) {
    // Metrics only: a metric's own line (`"metric-value"` with its `"metric-unit"`) or `--metric-only`.
    const metrics: PerfMetricRecord[] = [];
    const unit = jsonString(obj['metric-unit']);
    if ('metric-value' in obj) {
      if (unit === null) return null;
      metrics.push({ kind: 'perf-metric', line, tSec, name: unit, value: jsonNumber(obj['metric-value']), unit: null });
    } else {
      for (const [name, v] of Object.entries(obj)) {
        if (JSON_NOT_METRIC_KEYS.has(name)) continue;
        const value = jsonNumber(v);
        if (value === null) return null;
        metrics.push({ kind: 'perf-metric', line, tSec, name, value, unit: null });
      }
    }
    return metrics.length > 0 ? metrics : null;
  }
  const r = perfRecord(line);
  r.tSec = tSec;
  const value = obj['counter-value'];
  r.status = typeof value === 'string' ? statusOf(value.trim()) : 'ok';
  if (r.status === 'ok') {
    r.value = jsonNumber(value);
    if (r.value === null) return null;
  }
  r.event = jsonString(obj.event) ?? '';
  if (!isEventName(r.event)) return null;
  r.unit = jsonString(obj.unit);
  r.runTimeNs = jsonNumber(obj['event-runtime']);
  r.runPct = jsonNumber(obj['pcnt-running']);
  r.stddevPct = jsonNumber(obj.variance);
  r.metricValue = jsonNumber(obj['metric-value']);
  r.metricUnit = jsonString(obj['metric-unit']);
  for (const [key, name] of Object.entries(JSON_AGGR_KEYS)) {
    const id = obj[key];
    if (typeof id === 'string' || typeof id === 'number') r.aggr = name(String(id));
  }
  return [r];
}

export function createPerfStatParser(options: LineCapOptions = {}): LineParser<PerfParseRecord> {
  let lineNo = 0;
  let sawInterval = false;
  /** Inside perf's multi-line complaint (`Error:` and its explanation), which ends at a blank line. */
  let inMessage = false;
  /** Column names of a `--topdown` CSV table waiting for its row of values. */
  let metricHeader: { names: string[]; sep: string; line: number; text: string } | null = null;

  const push = (raw: string): PerfParseRecord[] => {
    // A CRLF capture (a Windows copy, `perf … | tee` through a terminal): the CR is not part of the line.
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (isBlankLine(text)) {
      inMessage = false;
      return [];
    }
    if (isCommentLine(text)) {
      const m = readMetricOnly(text, lineNo);
      if (m) return [m];
      // A `#` followed by a number that is not a metric: damage, not a comment.
      if (/^\s*#\s*[-+]?(?:\d|nan|inf)/i.test(text)) return [diagnostic(lineNo, 'unreadable perf metric', text)];
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
      const values = text.trim().split(h.sep);
      if ((values[values.length - 1] ?? '').trim() === '') values.pop();
      if (values.length === h.names.length && values.every((v) => parsePerfDecimal(v) !== null)) {
        return h.names.map((name, k) => ({
          kind: 'perf-metric' as const,
          line: lineNo,
          tSec: null,
          name,
          value: parsePerfDecimal(values[k] ?? ''),
          unit: null,
        }));
      }
      out.push(diagnostic(h.line, NOT_PERF_REASON, h.text));
    }

    // `-j`: one JSON object a line (perf 6.0+), told apart by its `{`.
    if (t.startsWith('{')) {
      const json = readJson(t, lineNo);
      if (!json) out.push(diagnostic(lineNo, 'not a perf stat JSON line', text));
      for (const r of json ?? []) {
        if (r.kind === 'perf' && r.tSec !== null) sawInterval = true;
        else if (r.kind === 'perf' && sawInterval) r.summary = true;
        out.push(r);
      }
      return out;
    }

    const r = readHuman(text, lineNo) ?? readCsv(text, lineNo);
    if (r) {
      if (r.tSec !== null) sawInterval = true;
      // Before perf 5.13 `--summary` rows came without a time column after the interval rows.
      else if (sawInterval) r.summary = true;
      out.push(r);
      return out;
    }

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
        const h = metricHeader;
        metricHeader = null;
        return h ? [diagnostic(h.line, NOT_PERF_REASON, h.text)] : [];
      },
    },
    options.maxLineChars,
  );
}
