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

export type PerfParseRecord = PerfRecord | PerfElapsedRecord | PerfHeaderRecord | PerfMetricRecord | Diagnostic;

/** perf's own hints (not data, not damage). */
const SKIPPED_NOTICES = [
  /^\s*Some events weren't counted\./,
  /^\s*echo 0 > \/proc\/sys\/kernel\/nmi_watchdog/,
  /^\s*perf stat \.\.\./,
  /^\s*echo 1 > \/proc\/sys\/kernel\/nmi_watchdog/,
];

// Aggregation ids of -A / --per-core / --per-socket / --per-die / --per-node.
const AGGR_ALTERNATIVES = String.raw`CPU\d+|S\d+(?:-D\d+)?(?:-C\d+)?(?:-T\d+)?|N\d+`;
const AGGR_RE = new RegExp(`^(?:${AGGR_ALTERNATIVES})$`);
const VALUE = String.raw`<not supported>|<not counted>|\d[\d,.']*`;
const HUMAN_RE = new RegExp(
  String.raw`^\s*(?:(\d+\.\d+)\s+)?(?:(${AGGR_ALTERNATIVES})\s+(?:\d+\s+)?)?(${VALUE})\s+(\S.*)$`,
);
const EVENT_RE = /^[a-z_]\S*$/i;
// The patterns below are matched against the line trimmed at both ends, so none needs a trailing
// `\s*` next to a `.*` (the pair that backtracks quadratically on a run of spaces).
const HEADER_RE = /^Performance counter stats for\s+(\S.*):$/;
const HEADER_RUNS_RE = /\s\((\d+) runs\)$/;
const ELAPSED_RE =
  /^(\d[\d,.]*)\s+(?:\+-\s+\d[\d,.]*\s+)?seconds\s+(time elapsed|user|sys)(?:\s+\(\s*\+-\s*([\d.,]+)\s*%\s*\))?$/;
/** What follows the `#` of a metric-only line: `18.8 % tma_backend_bound`, `1.25  insn_per_cycle`. */
const METRIC_TAIL_RE = /^(-?\d[\d,.]*)(\s*%)?\s+([a-z_][\w./:-]*)$/i;
const METRIC_HEAD_TIME_RE = /^(\d+\.\d+)(?:\s+(\S.*))?$/;
const CSV_FIRST_RE = new RegExp(
  String.raw`^\s*(?:summary|${AGGR_ALTERNATIVES}|<not supported>|<not counted>|-?\d[\d.]*)\s*([^\w\s.<>'-])`,
);
const STDDEV_RE = /\(\s*\+-\s*([\d.,]+)\s*%\s*\)/;
// `(66.67%)`; perf 3.x prints `[ 83.40%]`.
const RUNPCT_RE = /[([]\s*(\d+(?:[.,]\d+)?)\s*%\s*[)\]]/;

/**
 * Number as perf prints it: with thousands separators in human mode (`8,013.48`; `8.013,48` in a
 * comma-decimal locale), plain in CSV. Null if not a number.
 */
export function parsePerfNumber(text: string): number | null {
  let s = text.trim().replace(/['\u00a0\u202f ]/g, '');
  if (s === '' || !/^-?[\d.,]+$/.test(s)) return null;
  const lastComma = s.lastIndexOf(',');
  const lastDot = s.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    s = lastDot > lastComma ? s.replace(/,/g, '') : s.replace(/\./g, '').replace(',', '.');
  } else if (lastComma >= 0) {
    s = /^-?\d{1,3}(?:,\d{3})+$/.test(s) ? s.replace(/,/g, '') : s.replace(',', '.');
  } else if (lastDot >= 0 && /^-?\d{1,3}(?:\.\d{3}){2,}$/.test(s)) {
    s = s.replace(/\./g, '');
  }
  if (!/^-?\d+(?:\.\d+)?$/.test(s)) return null;
  return Number(s);
}

function statusOf(value: string): PerfStatus {
  if (value === '<not supported>') return 'not-supported';
  if (value === '<not counted>') return 'not-counted';
  return 'ok';
}

function isValueLike(text: string | undefined): boolean {
  if (text === undefined) return false;
  const t = text.trim();
  return t === '<not supported>' || t === '<not counted>' || parsePerfNumber(t) !== null;
}

/**
 * A line holding only a derived metric: `[time] [name] # 18.8 % tma_backend_bound` (`--topdown`,
 * `#`-only continuation lines). Read by splitting at the `#`, not by one pattern.
 */
function readMetricOnly(text: string, line: number): PerfMetricRecord | null {
  const t = text.trim();
  const hash = t.indexOf('#');
  if (hash < 0) return null;
  const head = t.slice(0, hash).trim();
  const tail = METRIC_TAIL_RE.exec(t.slice(hash + 1).trim());
  if (!tail) return null;
  let tSec: number | null = null;
  let name = head;
  const timed = METRIC_HEAD_TIME_RE.exec(head);
  if (timed) {
    tSec = Number(timed[1]);
    name = timed[2] ?? '';
  }
  if (name !== '' && !/^[a-z]/i.test(name)) return null;
  return {
    kind: 'perf-metric',
    line,
    tSec,
    name: tail[3] ?? '',
    value: parsePerfNumber(tail[1] ?? ''),
    unit: tail[2] !== undefined ? '%' : null,
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

/** The number at the start of `text` (`-?\d[\d,.]*`) and the rest; null if none. One pass, no regex. */
function leadingNumber(text: string): { number: string; rest: string } | null {
  let k = text[0] === '-' ? 1 : 0;
  const c0 = text[k] ?? '';
  if (c0 < '0' || c0 > '9') return null;
  while (k < text.length) {
    const c = text[k] ?? '';
    if (!((c >= '0' && c <= '9') || c === ',' || c === '.')) break;
    k++;
  }
  return { number: text.slice(0, k), rest: text.slice(k) };
}

function readHuman(text: string, line: number): PerfRecord | null {
  const m = HUMAN_RE.exec(text);
  if (!m) return null;
  let rest = m[4] ?? '';
  const value = m[3] ?? '';
  const r = perfRecord(line);
  r.tSec = m[1] !== undefined ? Number(m[1]) : null;
  r.aggr = m[2] ?? null;
  r.status = statusOf(value);
  r.value = r.status === 'ok' ? parsePerfNumber(value) : null;
  if (r.status === 'ok' && r.value === null) return null;
  const sd = STDDEV_RE.exec(rest);
  if (sd) {
    r.stddevPct = parsePerfNumber(sd[1] ?? '');
    rest = rest.replace(STDDEV_RE, ' ');
  }
  const run = RUNPCT_RE.exec(rest);
  if (run) {
    r.runPct = parsePerfNumber(run[1] ?? '');
    rest = rest.replace(RUNPCT_RE, ' ');
  }
  const hash = rest.indexOf('#');
  const head = (hash >= 0 ? rest.slice(0, hash) : rest).trim().split(/\s+/).filter(Boolean);
  if (hash >= 0) {
    const metric = leadingNumber(rest.slice(hash + 1).trim());
    if (metric) {
      r.metricValue = parsePerfNumber(metric.number);
      const unit = metric.rest.trim();
      r.metricUnit = unit === '' ? null : unit;
    }
  }
  const [a, b] = head;
  if (head.length === 1 && a !== undefined) r.event = a;
  else if (head.length === 2 && a !== undefined && b !== undefined) {
    // perf 3.x–4.x print the unit after the event in parentheses: `task-clock (msec)`.
    const old = /^\((\w+)\)$/.exec(b);
    if (old) [r.event, r.unit] = [a, old[1] ?? null];
    else [r.unit, r.event] = [a, b];
  } else return null;
  if (!EVENT_RE.test(r.event)) return null;
  return r;
}

function readCsv(text: string, line: number): PerfRecord | null {
  const first = CSV_FIRST_RE.exec(text);
  if (!first) return null;
  const sep = first[1] ?? ',';
  const f = text
    .trim()
    .split(sep)
    .map((x) => x.trim());
  const r = perfRecord(line);
  let i = 0;
  if (f[0] === 'summary') {
    r.summary = true;
    i = 1;
  } else if (/^\d+\.\d+$/.test(f[0] ?? '') && isValueLike(f[1])) {
    r.tSec = Number(f[0]);
    i = 1;
  }
  if (AGGR_RE.test(f[i] ?? '') && !isValueLike(f[i])) {
    r.aggr = f[i] ?? null;
    i++;
    // --per-core / --per-socket print the number of CPUs aggregated before the value.
    if (/^\d+$/.test(f[i] ?? '') && isValueLike(f[i + 1]) && !isValueLike(f[i + 2])) i++;
  }
  const value = f[i];
  if (value === undefined || !isValueLike(value)) return null;
  r.status = statusOf(value);
  r.value = r.status === 'ok' ? parsePerfNumber(value) : null;
  r.unit = f[i + 1] || null;
  r.event = f[i + 2] ?? '';
  if (!EVENT_RE.test(r.event)) return null;
  const runTime = f[i + 3];
  r.runTimeNs = runTime ? parsePerfNumber(runTime) : null;
  const pct = f[i + 4];
  r.runPct = pct ? parsePerfNumber(pct) : null;
  let k = i + 5;
  const variance = f[k];
  if (variance !== undefined && variance.endsWith('%')) {
    r.stddevPct = parsePerfNumber(variance.slice(0, -1));
    k++;
  }
  r.metricValue = f[k] ? parsePerfNumber(f[k] ?? '') : null;
  r.metricUnit = f[k + 1] || null;
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
  return typeof v === 'string' ? parsePerfNumber(v) : null;
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
    return null;
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
  if (!EVENT_RE.test(r.event)) return null;
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
  /** Column names of a `--topdown` CSV table waiting for its row of values. */
  let metricHeader: { names: string[]; sep: string; line: number; text: string } | null = null;

  const push = (text: string): PerfParseRecord[] => {
    if (isBlankLine(text)) return [];
    if (isCommentLine(text)) {
      const m = readMetricOnly(text, lineNo);
      if (m) return [m];
      // `# started on …` (-o), `#  time  counts unit events` (-I), a pasted `# perf stat …`: a new run starts.
      sawInterval = false;
      return [];
    }
    if (SKIPPED_NOTICES.some((re) => re.test(text))) return [];
    const t = text.trim();
    if (/^([,;|:])\1*$/.test(t)) return []; // an all-empty CSV record (`,,,,,`)

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
      const seconds = parsePerfNumber(elapsed[1] ?? '');
      if (seconds !== null) {
        const clock = elapsed[2] === 'time elapsed' ? 'elapsed' : (elapsed[2] as 'user' | 'sys');
        return [
          {
            kind: 'perf-elapsed',
            line: lineNo,
            clock,
            seconds,
            stddevPct: elapsed[3] ? parsePerfNumber(elapsed[3]) : null,
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
      if (values.length === h.names.length && values.every((v) => parsePerfNumber(v) !== null)) {
        return h.names.map((name, k) => ({
          kind: 'perf-metric' as const,
          line: lineNo,
          tSec: null,
          name,
          value: parsePerfNumber(values[k] ?? ''),
          unit: null,
        }));
      }
      out.push(diagnostic(h.line, 'not a perf stat line', h.text));
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

    out.push(diagnostic(lineNo, 'not a perf stat line', text));
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
        return h ? [diagnostic(h.line, 'not a perf stat line', h.text)] : [];
      },
    },
    options.maxLineChars,
  );
}
