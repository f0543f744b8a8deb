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
// The separator is not fixed (`-x,`, `-x;`, `-x '|'`…): it is read from the character after the
// first field of each CSV line. A line that is neither human nor CSV counter output becomes a
// diagnostic — except the perf notices listed in SKIPPED_NOTICES.

import { capLines } from './line-cap';
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

const AGGR = String.raw`(?:CPU\d+|S\d+(?:-D\d+)?(?:-C\d+)?(?:-T\d+)?|N\d+)`;
const VALUE = String.raw`(?:<not supported>|<not counted>|\d[\d,.']*)`;
const HUMAN_RE = new RegExp(String.raw`^\s*(?:(\d+\.\d+)\s+)?(?:(${AGGR})\s+(?:(\d+)\s+)?)?(${VALUE})\s+(\S.*)$`);
const EVENT_RE = /^[A-Za-z_][^\s]*$/;
const HEADER_RE = /^\s*Performance counter stats for\s+(.*?)(?:\s+\((\d+) runs\))?\s*:\s*$/;
const ELAPSED_RE =
  /^\s*(\d[\d,.]*)\s+(?:\+-\s+(\d[\d,.]*)\s+)?seconds\s+(time elapsed|user|sys)(?:\s+\(\s*\+-\s*([\d.,]+)\s*%\s*\))?\s*$/;
const METRIC_ONLY_RE =
  /^\s*(?:(\d+\.\d+)\s+)?(?:[A-Za-z][^#]*?)?\s*#\s+(-?\d[\d,.]*)\s*(%)?\s+([A-Za-z_][\w./:-]*)\s*$/;
const CSV_FIRST_RE = new RegExp(
  String.raw`^\s*(summary|${AGGR}|<not supported>|<not counted>|-?\d[\d.]*)\s*([^\w\s.<>'-])`,
);
const STDDEV_RE = /\(\s*\+-\s*([\d.,]+)\s*%\s*\)/;
const RUNPCT_RE = /\(\s*(\d+(?:[.,]\d+)?)\s*%\s*\)/;

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
    s = /^-?\d{1,3}(,\d{3})+$/.test(s) ? s.replace(/,/g, '') : s.replace(',', '.');
  } else if (lastDot >= 0 && /^-?\d{1,3}(\.\d{3}){2,}$/.test(s)) {
    s = s.replace(/\./g, '');
  }
  if (!/^-?\d+(\.\d+)?$/.test(s)) return null;
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

function readHuman(text: string, line: number): PerfRecord | null {
  const m = HUMAN_RE.exec(text);
  if (!m) return null;
  let rest = m[5];
  const r = perfRecord(line);
  r.tSec = m[1] !== undefined ? Number(m[1]) : null;
  r.aggr = m[2] ?? null;
  r.status = statusOf(m[4]);
  r.value = r.status === 'ok' ? parsePerfNumber(m[4]) : null;
  if (r.status === 'ok' && r.value === null) return null;
  const sd = STDDEV_RE.exec(rest);
  if (sd) {
    r.stddevPct = parsePerfNumber(sd[1]);
    rest = rest.replace(STDDEV_RE, ' ');
  }
  const run = RUNPCT_RE.exec(rest);
  if (run) {
    r.runPct = parsePerfNumber(run[1]);
    rest = rest.replace(RUNPCT_RE, ' ');
  }
  const hash = rest.indexOf('#');
  const head = (hash >= 0 ? rest.slice(0, hash) : rest).trim().split(/\s+/).filter(Boolean);
  if (hash >= 0) {
    const metric = /^\s*(-?\d[\d,.]*)\s*(.*?)\s*$/.exec(rest.slice(hash + 1));
    if (metric) {
      r.metricValue = parsePerfNumber(metric[1]);
      r.metricUnit = metric[2] === '' ? null : metric[2];
    }
  }
  if (head.length === 1) r.event = head[0];
  else if (head.length === 2) {
    r.unit = head[0];
    r.event = head[1];
  } else return null;
  if (!EVENT_RE.test(r.event)) return null;
  return r;
}

function readCsv(text: string, line: number): PerfRecord | null {
  const first = CSV_FIRST_RE.exec(text);
  if (!first) return null;
  const sep = first[2];
  const f = text
    .trim()
    .split(sep)
    .map((x) => x.trim());
  const r = perfRecord(line);
  let i = 0;
  if (f[0] === 'summary') {
    r.summary = true;
    i = 1;
  } else if (/^\d+\.\d+$/.test(f[0]) && isValueLike(f[1])) {
    r.tSec = Number(f[0]);
    i = 1;
  }
  if (new RegExp(`^${AGGR}$`).test(f[i] ?? '') && !isValueLike(f[i])) {
    r.aggr = f[i];
    i++;
    // --per-core / --per-socket print the number of CPUs aggregated before the value.
    if (/^\d+$/.test(f[i] ?? '') && isValueLike(f[i + 1]) && !isValueLike(f[i + 2])) i++;
  }
  const value = f[i];
  if (!isValueLike(value)) return null;
  r.status = statusOf(value);
  r.value = r.status === 'ok' ? parsePerfNumber(value) : null;
  r.unit = f[i + 1] ? f[i + 1] : null;
  r.event = f[i + 2] ?? '';
  if (!EVENT_RE.test(r.event)) return null;
  const runTime = f[i + 3];
  r.runTimeNs = runTime ? parsePerfNumber(runTime) : null;
  const pct = f[i + 4];
  r.runPct = pct ? parsePerfNumber(pct) : null;
  let k = i + 5;
  if (f[k] !== undefined && /%$/.test(f[k])) {
    r.stddevPct = parsePerfNumber(f[k].slice(0, -1));
    k++;
  }
  r.metricValue = f[k] ? parsePerfNumber(f[k]) : null;
  r.metricUnit = f[k + 1] ? f[k + 1] : null;
  return r;
}

export function createPerfStatParser(): LineParser<PerfParseRecord> {
  let lineNo = 0;
  let sawInterval = false;
  /** Column names of a `--topdown` CSV table waiting for its row of values. */
  let metricHeader: { names: string[]; sep: string; line: number; text: string } | null = null;

  const push = (text: string): PerfParseRecord[] => {
    if (isBlankLine(text)) return [];
    if (isCommentLine(text)) {
      const m = METRIC_ONLY_RE.exec(text);
      if (m)
        return [
          {
            kind: 'perf-metric',
            line: lineNo,
            tSec: m[1] ? Number(m[1]) : null,
            name: m[4],
            value: parsePerfNumber(m[2]),
            unit: m[3] ?? null,
          },
        ];
      // `# started on …` (-o), `#  time  counts unit events` (-I), a pasted `# perf stat …`: a new run starts.
      sawInterval = false;
      return [];
    }
    if (SKIPPED_NOTICES.some((re) => re.test(text))) return [];
    if (/^\s*([,;|:\t])\1*\s*$/.test(text)) return []; // an all-empty CSV record (`,,,,,`)

    const header = HEADER_RE.exec(text);
    if (header) {
      sawInterval = false;
      const target = header[1].replace(/^'(.*)'$/, '$1');
      return [{ kind: 'perf-header', line: lineNo, target, runs: header[2] ? Number(header[2]) : null }];
    }
    const elapsed = ELAPSED_RE.exec(text);
    if (elapsed) {
      const seconds = parsePerfNumber(elapsed[1]);
      if (seconds !== null) {
        const clock = elapsed[3] === 'time elapsed' ? 'elapsed' : (elapsed[3] as 'user' | 'sys');
        return [
          {
            kind: 'perf-elapsed',
            line: lineNo,
            clock,
            seconds,
            stddevPct: elapsed[4] ? parsePerfNumber(elapsed[4]) : null,
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
      if (values[values.length - 1].trim() === '') values.pop();
      if (values.length === h.names.length && values.every((v) => parsePerfNumber(v) !== null)) {
        return h.names.map((name, k) => ({
          kind: 'perf-metric' as const,
          line: lineNo,
          tSec: null,
          name,
          value: parsePerfNumber(values[k]),
          unit: null,
        }));
      }
      out.push(diagnostic(h.line, 'not a perf stat line', h.text));
    }

    const r = readHuman(text, lineNo) ?? readCsv(text, lineNo);
    if (r) {
      if (r.tSec !== null) sawInterval = true;
      // Before perf 5.13 `--summary` rows came without a time column after the interval rows.
      else if (sawInterval) r.summary = true;
      out.push(r);
      return out;
    }

    const names = /^\s*([A-Za-z][\w -]*)([,;|\t])/.exec(text);
    if (names) {
      const cols = text
        .trim()
        .split(names[2])
        .map((c) => c.trim());
      if (cols[cols.length - 1] === '') cols.pop();
      if (cols.length >= 2 && cols.every((c) => /^[A-Za-z][\w -]*$/.test(c))) {
        metricHeader = { names: cols, sep: names[2], line: lineNo, text };
        return out;
      }
    }

    const metric = METRIC_ONLY_RE.exec(text);
    if (metric) {
      out.push({
        kind: 'perf-metric',
        line: lineNo,
        tSec: metric[1] ? Number(metric[1]) : null,
        name: metric[4],
        value: parsePerfNumber(metric[2]),
        unit: metric[3] ?? null,
      });
      return out;
    }

    out.push(diagnostic(lineNo, 'not a perf stat line', text));
    return out;
  };

  return capLines({
    push(text: string) {
      lineNo++;
      return push(text);
    },
    end() {
      const h = metricHeader;
      metricHeader = null;
      return h ? [diagnostic(h.line, 'not a perf stat line', h.text)] : [];
    },
  });
}
