// `kvscope report --format prometheus`: a session in the Prometheus text exposition format, as the
// node_exporter textfile collector reads it (`*.prom` in its --collector.textfile.directory).
//
// - One metric family per headline number of each run (the `profile --json` summary that
//   shared/analysis/run-summary.ts summarizeRun gives: stored, or recomputed after a crash), in base
//   units (bytes, seconds, ratio), counters with `_total`.
// - Per sample series (source × key): the last value, and min/max for gauges, the unit taken from
//   the key's suffix (rssBytes, tempC, freqMHz, powerMw, tMs, …Pct) and converted to the base unit.
// - Labels: target, model, run (id), run_label, seq, session; series also carry source and the raw
//   series key. Everything a label holds may come from a board or a model file: it is escaped as
//   the format says (backslash, double quote, newline) and nothing else is needed.
// - No timestamps: the textfile collector refuses client-side timestamps; a null number (unknown)
//   is left out rather than written as NaN, and a family with no sample is not written at all.
// Checked with the real parser: test/integration/cli/report-prometheus.test.ts runs `promtool
// check metrics` (parse and lint) on a real session's export.
import type { ProfileSummary, Sample } from '../api/schemas';
import { summarizeRun } from '../analysis/run-summary';
import { modelLabel } from '../run/run-labels';
import type { SessionData, SessionRun } from './session-data';

/** Every metric name starts with this (one namespace, as the Prometheus naming guide asks). */
export const METRIC_PREFIX = 'kvscope_';

type MetricType = 'gauge' | 'counter';
type Labels = ReadonlyArray<readonly [string, string]>;

interface Family {
  name: string;
  help: string;
  type: MetricType;
  samples: string[];
}

/** A headline number of a run's summary, as one family. `value` null = unknown: no sample. */
interface Headline {
  name: string;
  help: string;
  type: MetricType;
  value(summary: ProfileSummary, run: SessionRun): number | null | undefined;
}

const ms = (v: number | null | undefined) => (v === null || v === undefined ? null : v / 1000);

const headline =
  (type: MetricType) =>
  (name: string, help: string, value: Headline['value']): Headline => ({ name, help, type, value });
const gauge = headline('gauge');
const counter = headline('counter');

/** The headline numbers, in the order they are written. Names follow the Prometheus naming guide. */
const HEADLINES: readonly Headline[] = [
  gauge(
    'kv_theory_bytes_per_token',
    'KV cache bytes per token from the model shape and KV type (theory).',
    (s) => s.kv.theoryBytesPerToken,
  ),
  gauge(
    'kv_measured_bytes_per_token',
    'KV cache bytes per token measured from the memory growth against generated tokens.',
    (s) => s.kv.measuredBytesPerToken,
  ),
  gauge(
    'kv_overhead_ratio',
    'Measured over theory bytes per token (1 = the cache costs what the theory says).',
    (s) => s.kv.overheadFactor,
  ),
  gauge('kv_baseline_bytes', 'Memory of the engine before its KV cache (weights, buffers).', (s) => s.kv.baselineBytes),
  gauge('budget_bytes', 'Memory budget of the run.', (s) => s.budgetBytes),
  gauge(
    'oom_horizon_tokens',
    'Token count at which the engine is expected to be killed (or to exhaust the budget).',
    (s) => s.oomHorizonTokens,
  ),
  gauge('max_safe_context_tokens', 'Largest context that fits the budget.', (s) => s.maxSafeContextTokens),
  gauge('peak_rss_bytes', 'Peak resident memory of the engine.', (s) => s.peakRssBytes),
  gauge('ttft_seconds', 'Time to the first generated token.', (s) => ms(s.throughput.ttftMs)),
  gauge('prefill_tokens_per_second', 'Prompt processing speed.', (s) => s.throughput.prefillTokensPerSecond),
  gauge('decode_tokens_per_second', 'Generation speed.', (s) => s.throughput.decodeTokensPerSecond),
  counter('tokens_total', 'Tokens generated in the run.', (s) => s.throughput.tokens),
  counter('samples_total', 'Memory samples taken in the run.', (s) => s.samples),
  counter('lost_samples_total', 'Samples lost in the run (spool full).', (s) => s.lostSamples),
  gauge('duration_seconds', 'Length of the run.', (s) => ms(s.durationMs)),
  gauge(
    'engine_exit_code',
    'Exit status of the engine (absent when it was ended by a signal or is unknown).',
    (s) => s.engine.exitCode,
  ),
  gauge('engine_oom_killed', '1 when the kernel OOM killer ended the engine, else 0.', (s) =>
    s.engine.oomKilled ? 1 : 0,
  ),
  gauge('run_start_timestamp_seconds', 'When the run started (Unix time).', (_s, run) => {
    const t = Date.parse(run.startedAt);
    return Number.isFinite(t) ? t / 1000 : null;
  }),
];

/**
 * Unit suffixes of sample keys (the naming rule of the codebase: rssBytes, tempC, freqMHz, powerMw,
 * tMs, cpuBusyPct) → the Prometheus base unit and the conversion to it. Longer suffixes first
 * (GHz before Hz). A key with none of them is written as it is, without a unit.
 */
const UNIT_SUFFIXES: ReadonlyArray<{ suffix: string; unit: string; convert: (v: number) => number }> = [
  { suffix: 'Bytes', unit: 'bytes', convert: (v) => v },
  // Kernel and pmap "kB" are KiB.
  { suffix: 'Kb', unit: 'bytes', convert: (v) => v * 1024 },
  { suffix: 'Pct', unit: 'ratio', convert: (v) => v / 100 },
  { suffix: 'GHz', unit: 'hertz', convert: (v) => v * 1e9 },
  { suffix: 'MHz', unit: 'hertz', convert: (v) => v * 1e6 },
  { suffix: 'KHz', unit: 'hertz', convert: (v) => v * 1e3 },
  { suffix: 'kHz', unit: 'hertz', convert: (v) => v * 1e3 },
  { suffix: 'Hz', unit: 'hertz', convert: (v) => v },
  { suffix: 'Mw', unit: 'watts', convert: (v) => v / 1000 },
  { suffix: 'mW', unit: 'watts', convert: (v) => v / 1000 },
  { suffix: 'Watts', unit: 'watts', convert: (v) => v },
  { suffix: 'Mv', unit: 'volts', convert: (v) => v / 1000 },
  { suffix: 'mV', unit: 'volts', convert: (v) => v / 1000 },
  { suffix: 'Ma', unit: 'amperes', convert: (v) => v / 1000 },
  { suffix: 'mA', unit: 'amperes', convert: (v) => v / 1000 },
  // Rates before the time units they end with (tokensPerSec is a rate, not a time).
  { suffix: 'PerSecond', unit: 'per_second', convert: (v) => v },
  { suffix: 'PerSec', unit: 'per_second', convert: (v) => v },
  { suffix: 'Us', unit: 'seconds', convert: (v) => v / 1e6 },
  { suffix: 'Ms', unit: 'seconds', convert: (v) => v / 1000 },
  { suffix: 'Seconds', unit: 'seconds', convert: (v) => v },
  { suffix: 'Sec', unit: 'seconds', convert: (v) => v },
];

/**
 * Series that only count up during a run (cumulative): their last value is a counter (`_total`),
 * and a min/max says nothing.
 */
const COUNTER_KEYS = new Set(['tokens']);
/** Markers, not measurements: the engine source writes `started: 1` once at launch. */
const SKIPPED_KEYS = new Set(['started']);

export interface SeriesMetric {
  /** snake_case name without prefix or unit, e.g. "rss_anon" for rssAnonBytes. */
  base: string;
  /** Prometheus base unit ("bytes", "celsius", …), or "" when the key names none. */
  unit: string;
  convert: (v: number) => number;
  counter: boolean;
}

/** How a sample key is written: its name parts, unit and conversion. */
export function seriesMetric(key: string): SeriesMetric {
  let stem = key;
  let unit = '';
  let convert = (v: number) => v;
  const known = UNIT_SUFFIXES.find((u) => key.length > u.suffix.length && key.endsWith(u.suffix));
  if (known) {
    stem = key.slice(0, -known.suffix.length);
    unit = known.unit;
    convert = known.convert;
  } else if (/[a-z0-9]C$/.test(key)) {
    // tempC, cpuTempC: degrees Celsius (an upper-case run such as "LLC" is not a unit).
    stem = key.slice(0, -1);
    unit = 'celsius';
  }
  const counter = !unit && (COUNTER_KEYS.has(key) || /[a-z0-9]Total$/.test(key));
  if (counter && key.endsWith('Total')) stem = key.slice(0, -'Total'.length);
  return { base: snakeCase(stem), unit, convert, counter };
}

/** camelCase / UPPER_CASE / anything → a valid snake_case name part ([a-z0-9_], no edge underscores). */
export function snakeCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join('_');
}

/** A label value as the text format wants it: backslash, double quote and newline escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** HELP text: backslash and newline escaped (quotes are literal there). */
export function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'));
}

/** A sample value: Go's ParseFloat reads JavaScript's shortest round-trip form (incl. 1e+21). */
function formatValue(v: number): string {
  return String(v);
}

function sampleLine(name: string, labels: Labels, value: number): string {
  const body = labels.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',');
  return `${name}{${body}} ${formatValue(value)}`;
}

function targetLabel(target: Record<string, unknown> | null): string {
  for (const key of ['label', 'hostname'] as const) {
    const v = target?.[key];
    if (typeof v === 'string' && v) return v;
  }
  return '';
}

export interface PrometheusOptions {
  /** The `session` label; default: the session's creation time (meta.createdAt). */
  session?: string;
}

interface SeriesStats {
  key: string;
  source: string;
  last: number;
  min: number;
  max: number;
}

/** Last/min/max of every (source, key) series of a run; non-finite values are skipped. */
function seriesStats(samples: readonly Sample[]): SeriesStats[] {
  const byId = new Map<string, SeriesStats>();
  for (const s of samples) {
    for (const [key, value] of Object.entries(s.values)) {
      if (value === null || !Number.isFinite(value) || SKIPPED_KEYS.has(key)) continue;
      const id = `${s.source}\u0000${key}`;
      const st = byId.get(id);
      if (!st) byId.set(id, { key, source: s.source, last: value, min: value, max: value });
      else {
        st.last = value;
        st.min = Math.min(st.min, value);
        st.max = Math.max(st.max, value);
      }
    }
  }
  return [...byId.values()];
}

export function renderPrometheus(session: SessionData, options: PrometheusOptions = {}): string {
  const families = new Map<string, Family>();
  const add = (name: string, help: string, type: MetricType, labels: Labels, value: number | null | undefined) => {
    if (value === null || value === undefined || !Number.isFinite(value)) return;
    let family = families.get(name);
    if (!family) {
      family = { name, help, type, samples: [] };
      families.set(name, family);
    }
    // A name reused with another type (a hostile session's keys) would make an invalid family: skip.
    if (family.type !== type) return;
    family.samples.push(sampleLine(name, labels, value));
  };

  const sessionLabel = options.session ?? session.meta.createdAt;
  const target = targetLabel(session.meta.target);
  // Headline families first, in HEADLINES order, so a reader finds them at the top.
  for (const h of HEADLINES) {
    const name = METRIC_PREFIX + h.name;
    families.set(name, { name, help: h.help, type: h.type, samples: [] });
  }
  const infoName = `${METRIC_PREFIX}run_info`;
  families.set(infoName, {
    name: infoName,
    help: 'Facts of the run as labels (value 1): state, KV mode, engine command.',
    type: 'gauge',
    samples: [],
  });

  const series: Array<{ labels: Labels; stats: SeriesStats }> = [];
  for (const run of session.runs) {
    const summary = summarizeRun(run);
    const labels: Labels = [
      ['target', target],
      ['model', modelLabel(run)],
      ['run', run.id],
      ['run_label', run.label],
      ['seq', String(run.seq)],
      ['session', sessionLabel],
    ];
    for (const h of HEADLINES) add(METRIC_PREFIX + h.name, h.help, h.type, labels, h.value(summary, run));
    const budgetSource = (summary as { budgetSource?: unknown }).budgetSource;
    add(
      infoName,
      '',
      'gauge',
      [
        ...labels,
        ['state', run.state],
        ['analysis_source', run.analysisSource],
        ['kv_mode', summary.kv.mode],
        ['budget_source', typeof budgetSource === 'string' ? budgetSource : ''],
        ['command', summary.engine.command],
      ],
      1,
    );
    for (const stats of seriesStats(run.samples)) series.push({ labels, stats });
  }

  // Series families after the headlines, by name.
  const seriesFamilies = new Map<string, Family>();
  for (const { labels, stats } of series) {
    const m = seriesMetric(stats.key);
    const unit = m.unit ? `_${m.unit}` : '';
    const base = `${METRIC_PREFIX}sample_${m.base ? `${m.base}_` : ''}`.replace(/_$/, '');
    const seriesLabels: Labels = [...labels, ['source', stats.source], ['series', stats.key]];
    const what = m.unit ? `, in ${m.unit}` : '';
    const entries: Array<[string, string, MetricType, number]> = m.counter
      ? [[`${base}_total`, `Last value of the sampled counter ${stats.key}.`, 'counter', stats.last]]
      : [
          [`${base}${unit}`, `Last sampled value of ${stats.key}${what}.`, 'gauge', m.convert(stats.last)],
          [`${base}_min${unit}`, `Lowest sampled value of ${stats.key}${what}.`, 'gauge', m.convert(stats.min)],
          [`${base}_max${unit}`, `Highest sampled value of ${stats.key}${what}.`, 'gauge', m.convert(stats.max)],
        ];
    for (const [name, help, type, value] of entries) {
      // A series name that equals a headline family's (kvscope_sample_ prevents it) stays out.
      if (families.has(name)) continue;
      let family = seriesFamilies.get(name);
      if (!family) {
        family = { name, help, type, samples: [] };
        seriesFamilies.set(name, family);
      }
      if (family.type === type && Number.isFinite(value)) family.samples.push(sampleLine(name, seriesLabels, value));
    }
  }

  const out: string[] = [];
  const write = (f: Family) => {
    if (f.samples.length === 0) return;
    out.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`, ...f.samples);
  };
  for (const f of families.values()) write(f);
  for (const name of [...seriesFamilies.keys()].sort()) write(seriesFamilies.get(name) as Family);
  return out.length ? out.join('\n') + '\n' : '';
}
