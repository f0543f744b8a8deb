// `perf stat -j` (perf 6.0+): one JSON object a line, written by printf in tools/perf/util/stat-display.c.
import { parsePerfDecimal } from './perf-stat-numbers';
import { isEventName, perfRecord, statusOf } from './perf-stat-fields';
import type { PerfMetricRecord, PerfRecord } from './records';

/** JSON keys naming the aggregation of a line (`-A`, `--per-core`, …) and how the CSV prints that id. */
const JSON_AGGR_KEYS: Record<string, (id: string) => string> = {
  cpu: (id) => (/^\d+$/.test(id) ? `CPU${id}` : id),
  core: (id) => id,
  die: (id) => id,
  socket: (id) => id,
  node: (id) => id,
  cache: (id) => id,
  cluster: (id) => id,
  thread: (id) => id,
  cgroup: (id) => id,
};
/**
 * JSON keys that are neither the counter nor a metric of a `--metric-only` line: the number of CPUs (or
 * counters) aggregated is `aggregate-number`, `cpu-count` in a 2022 patch, `counters` since a 2025 one.
 */
const JSON_NOT_METRIC_KEYS = new Set([
  'interval',
  'aggregate-number',
  'cpu-count',
  'counters',
  ...Object.keys(JSON_AGGR_KEYS),
]);

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

/**
 * A metric group's metric (perf 6.2+ `-M`, the default TopdownL1) comes with its unit before its name,
 * `"metric-unit" : "%  tma_retiring"`: name and `%` apart, as the human and CSV lines are read.
 */
function metricName(unit: string): { name: string; unit: string | null } {
  return /^%\s+\p{L}/u.test(unit) ? { name: unit.slice(1).trim(), unit: '%' } : { name: unit, unit: null };
}

function jsonString(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/**
 * One `perf stat -j` line → its records; `'label'` for the line naming a metric group (perf 6.2+,
 * `{"event-runtime" : …, "pcnt-running" : 100.00, "metricgroup" : "TopdownL1"}`), which holds no
 * reading; null when it is not a perf stat JSON object.
 */
export function readJson(text: string, line: number): Array<PerfRecord | PerfMetricRecord> | 'label' | null {
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
    if (!('metric-value' in obj) && typeof obj.metricgroup === 'string') return 'label';
    // Metrics only: a metric's own line (`"metric-value"` with its `"metric-unit"`) or `--metric-only`.
    const metrics: PerfMetricRecord[] = [];
    const unit = jsonString(obj['metric-unit']);
    if ('metric-value' in obj) {
      if (unit === null) return null;
      metrics.push({ kind: 'perf-metric', line, tSec, ...metricName(unit), value: jsonNumber(obj['metric-value']) });
    } else {
      for (const [name, v] of Object.entries(obj)) {
        if (JSON_NOT_METRIC_KEYS.has(name)) continue;
        const value = jsonNumber(v);
        // A metric perf could not compute this interval: print_metric_only_json writes "none" where its
        // format printed nothing. The line's other metrics stand; anything else is not perf's.
        if (value === null && v !== 'none') return null;
        metrics.push({ kind: 'perf-metric', line, tSec, ...metricName(name), value });
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
