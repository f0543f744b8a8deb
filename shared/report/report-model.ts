// From a session to what a report shows: target facts, and per run the engine command, KV theory
// against measurement, budget and OOM horizon, throughput, events, peak RSS, charts drawn from the
// stored samples, and findings a field engineer can hand over. Every renderer (Markdown, HTML,
// PDF through HTML) draws from this one model, so they never disagree. Pure.
//
// Every number here comes from the run's analysis (shared/analysis, stored or recomputed from the
// stored samples) or from the samples themselves; this file only words and arranges them.
import { isRecoveredRun, summarizeRun } from '../analysis/run-summary';
import type { SweepAnalysis } from '../analysis/sweep';
import { firstTokenMs, tokenEventsFromSamples } from '../analysis/throughput';
import { lttb } from '../analysis/lttb';
import type { KvType, RunAnalysis, RunEvent, Sample } from '../api/schemas';
import { KV_TYPE_LAYOUT } from '../kv/kv-theory';
import { healthFindings } from '../probe/health';
import { ProbeResultSchema, type HealthFinding } from '../probe/probe-schema';
import {
  formatBytes,
  formatBytesExact,
  formatCount,
  formatFact,
  formatFactor,
  formatMs,
  formatPercent,
  formatRate,
  formatTimestamp,
  formatTokens,
} from './format';
import { sessionSweep, type SessionData, type SessionRun } from './session-data';

// Thresholds and sizes, each with its reason.
/** Points per chart series: enough for a smooth line on an A4 page, small enough for a light file. */
export const CHART_POINTS = 400;
/** Measured within ±5 % of theory: the cache costs what the theory says. */
export const OVERHEAD_MATCH = 0.05;
/** 20 % above theory is more than allocator padding (usually < 10 %): worth a look. */
export const OVERHEAD_HIGH = 1.2;
/** Under 80 % of theory in growth mode: the cache is not all resident (lazy pages) or differs from the model. */
export const OVERHEAD_LOW = 0.8;
/** A fit with r² below this is noisy: say so next to the numbers it gave. */
export const FIT_R2_LOW = 0.9;
/** The chart extends to the OOM horizon when it lies within this many times the tokens observed. */
export const CHART_MAX_EXTEND = 8;
/** The budget line is drawn when the budget is within this factor of the highest sample. */
export const CHART_BUDGET_FACTOR = 3;
/** Reserved mode: a run that used less than this share of the reserved context wastes most of it. */
export const RESERVED_USED_LOW = 0.5;
/** Contexts are suggested in multiples of this (llama.cpp pads n_ctx to 256 cells). */
export const CTX_STEP = 256;

export type Severity = 'critical' | 'warning' | 'info' | 'ok';
const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, warning: 1, info: 2, ok: 3 };

export interface Finding {
  /** What the finding is about: recovered, failed, events, budget, reserved, kv-type, overhead, board. */
  id?: string;
  severity: Severity;
  title: string;
  detail?: string;
  /** A command that fixes it, shown verbatim (code). */
  fix?: string;
}

export interface Row {
  label: string;
  value: string;
}

export interface Section {
  title: string;
  rows: Row[];
}

export interface ChartSeries {
  name: string;
  role: 'rss' | 'anon' | 'theory' | 'budget' | 'projection' | 'fit';
  points: Array<[number, number]>;
}

export interface ChartMarker {
  x: number;
  kind: string;
  label: string;
}

export interface ChartModel {
  title: string;
  xLabel: string;
  /** How x values are printed on the axis. */
  xUnit: 'tokens' | 'seconds' | 'context';
  series: ChartSeries[];
  markers: ChartMarker[];
  xMax: number;
  yMax: number;
  notes: string[];
}

export interface RunNumbers {
  theoryBytesPerToken: number | null;
  measuredBytesPerToken: number | null;
  overheadFactor: number | null;
  mode: string;
  baselineBytes: number | null;
  budgetBytes: number | null;
  oomHorizonTokens: number | null;
  maxSafeContextTokens: number | null;
  ttftMs: number | null;
  prefillTokensPerSecond: number | null;
  decodeTokensPerSecond: number | null;
  tokens: number;
  peakRssBytes: number | null;
  samples: number;
  lostSamples: number;
  durationMs: number;
  ctx: number | null;
  kvType: string | null;
  engineReportedKvBytes: number | null;
}

export interface RunReport {
  seq: number;
  id: string;
  label: string;
  state: string;
  /** The recording stopped before the run ended (no stored summary): numbers recomputed from stored samples. */
  recovered: boolean;
  analysisSource: 'stored' | 'recomputed';
  error: string | null;
  engineCommand: string;
  startedAt: string;
  numbers: RunNumbers;
  sections: Section[];
  events: Array<{ tMs: number; time: string; kind: string; message: string }>;
  findings: Finding[];
  charts: ChartModel[];
  stderrTail: string[];
}

export interface SweepReport {
  analysis: SweepAnalysis;
  rows: Row[];
  table: { columns: string[]; rows: string[][] };
  chart: ChartModel;
}

export interface ReportModel {
  title: string;
  createdAt: string;
  appVersion: string;
  target: Row[];
  /** Board-level findings from the target's probe facts (empty without a probe). */
  board: Finding[];
  /** One row per run, when the session has several. */
  overview: { columns: string[]; rows: string[][] } | null;
  sweep: SweepReport | null;
  /** The most important findings of all runs, worst first; one finding shared by several runs is listed once. */
  highlights: Array<Finding & { runs: string[] }>;
  runs: RunReport[];
}

// ---------------------------------------------------------------------------------------------

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** Path into the target facts (probe result, or the simple local facts) → a row. */
const FACT_ROWS: Array<{ label: string; paths: string[][]; format?: 'bytes' | 'limit' }> = [
  { label: 'Target', paths: [['label']] },
  { label: 'Connection', paths: [['kind']] },
  { label: 'Host name', paths: [['hostname']] },
  { label: 'Board', paths: [['boardModel'], ['model']] },
  { label: 'OS', paths: [['distro'], ['os']] },
  { label: 'Kernel', paths: [['kernel']] },
  { label: 'Architecture', paths: [['arch']] },
  { label: 'CPU', paths: [['cpu', 'modelName']] },
  { label: 'CPU cores', paths: [['cpu', 'count'], ['cores']] },
  { label: 'Memory', paths: [['memory', 'totalBytes'], ['memTotalBytes']], format: 'bytes' },
  { label: 'Memory available at start', paths: [['memory', 'availableBytes']], format: 'bytes' },
  { label: 'Swap', paths: [['memory', 'swapTotalBytes']], format: 'bytes' },
  { label: 'cgroup memory limit', paths: [['cgroup', 'memoryLimitBytes']], format: 'limit' },
  { label: 'Transparent huge pages', paths: [['thp', 'enabled']] },
  { label: 'perf_event_paranoid', paths: [['perf', 'eventParanoid']] },
  { label: 'Jetson L4T', paths: [['jetson', 'l4tRelease']] },
  { label: 'Node.js on the target', paths: [['nodeVersion']] },
];

function at(obj: Record<string, unknown>, path: readonly string[]): unknown {
  let v: unknown = obj;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** The target facts a report shows (a probe holds many more: they stay in the JSON export). */
export function targetRows(target: Record<string, unknown> | null): Row[] {
  if (!target) return [];
  const rows: Row[] = [];
  for (const f of FACT_ROWS) {
    const found = f.paths.map((p) => at(target, p)).find((v) => v !== undefined);
    if (f.format === 'limit' && found === null && at(target, ['cgroup']) !== undefined) {
      rows.push({ label: f.label, value: 'none' });
      continue;
    }
    if (found === undefined || found === null || typeof found === 'object') continue;
    rows.push({
      label: f.label,
      value:
        (f.format === 'bytes' || f.format === 'limit') && typeof found === 'number'
          ? formatBytes(found)
          : formatFact(found),
    });
  }
  const governors = at(target, ['cpu', 'policies']);
  if (Array.isArray(governors)) {
    const names = [
      ...new Set(
        governors
          .map((p) => (p && typeof p === 'object' ? (p as Record<string, unknown>).governor : null))
          .filter((g): g is string => typeof g === 'string'),
      ),
    ];
    if (names.length) rows.push({ label: 'CPU governor', value: names.join(', ') });
  }
  const zram = at(target, ['zram']);
  if (
    Array.isArray(zram) &&
    zram.some((z) => z && typeof z === 'object' && (z as Record<string, unknown>).usedAsSwap === true)
  )
    rows.push({ label: 'zram swap', value: 'yes' });
  return rows;
}

const HEALTH_SEVERITY: Record<HealthFinding['severity'], Severity> = {
  error: 'critical',
  warn: 'warning',
  info: 'info',
};

/** Board-level findings (THP, swap, cgroup limits, perf…) when the target facts are a full probe. */
export function boardFindings(target: Record<string, unknown> | null): Finding[] {
  if (!target) return [];
  const parsed = ProbeResultSchema.safeParse(target);
  if (!parsed.success) return [];
  return healthFindings(parsed.data).map((h) => ({
    id: 'board',
    severity: HEALTH_SEVERITY[h.severity],
    title: h.title,
    detail: h.detail,
    ...(h.fix ? { fix: h.fix } : {}),
  }));
}

function kvTypeOf(run: SessionRun): string | null {
  const engine = run.request.engine;
  const asked = engine.kind === 'demo' ? engine.demo.kvType : engine.kvType;
  if (asked) return asked;
  const logged = run.engineLog.kv.find((k) => k.typeK !== null);
  if (logged && (logged.typeV === null || logged.typeV === logged.typeK)) return logged.typeK;
  return null;
}

function engineKind(run: SessionRun): 'demo' | 'llama' | 'other' {
  if (run.request.engine.kind === 'demo') return 'demo';
  const command = run.engine?.command ?? run.request.engine.command;
  return /llama|\s-c\s|--ctx-size/.test(command) || run.engine?.ctxPad !== undefined ? 'llama' : 'other';
}

function engineCommandOf(run: SessionRun): string {
  if (run.engine?.command) return run.engine.command;
  if (run.request.engine.kind === 'command') return run.request.engine.command;
  return run.label;
}

function bytesPerValue(type: string): number | null {
  const layout = (KV_TYPE_LAYOUT as Record<string, { blockValues: number; blockBytes: number } | undefined>)[type];
  return layout ? layout.blockBytes / layout.blockValues : null;
}

function promptTokens(run: SessionRun): number | null {
  const prompt = [...run.engineLog.timings].reverse().find((t) => t.phase === 'prompt');
  if (prompt && prompt.tokens !== null) return prompt.tokens;
  return run.request.engine.kind === 'demo' ? run.request.engine.demo.promptTokens : null;
}

function roundDownTo(n: number, step: number): number {
  return n >= step * 2 ? Math.floor(n / step) * step : Math.floor(n);
}

function roundUpTo(n: number, step: number): number {
  return Math.ceil(n / step) * step;
}

function eventTime(tMs: number): string {
  return `${(tMs / 1000).toFixed(1)} s`;
}

// ---------------------------------------------------------------------------------------------
// Findings

function kvTypeFinding(run: SessionRun, a: RunAnalysis, kvType: string | null): Finding | null {
  const perToken = a.kv.theoryBytesPerToken ?? a.kv.measuredBytesPerToken;
  if (!kvType || perToken === null) return null;
  const from = bytesPerValue(kvType);
  if (from === null) return null;
  const kind = engineKind(run);
  const how = (t: KvType) =>
    kind === 'llama'
      ? `-ctk ${t} -ctv ${t} (a quantized V cache needs flash attention: -fa on)`
      : kind === 'demo'
        ? `--kv-type ${t}`
        : `the engine's KV cache type setting`;
  const cost = (t: KvType) => perToken * ((bytesPerValue(t) as number) / from);
  if (kvType === 'f32' || kvType === 'f16' || kvType === 'bf16') {
    const q8 = cost('q8_0');
    const q4 = cost('q4_0');
    return {
      severity: 'info',
      title: `KV at ${kvType} costs ${formatBytes(perToken)}/token: q8_0 cuts it to ${formatBytes(q8)} (−${formatPercent(1 - q8 / perToken)})`,
      detail: `Use ${how('q8_0')}. q8_0 keeps quality close to f16 on most models; q4_0 (${formatBytes(q4)}/token) saves more but can cost accuracy on long contexts — measure before shipping it.`,
    };
  }
  if (kvType === 'q8_0') {
    const q4 = cost('q4_0');
    return {
      severity: 'info',
      title: `KV at q8_0 costs ${formatBytes(perToken)}/token; q4_0 would be ${formatBytes(q4)} (−${formatPercent(1 - q4 / perToken)})`,
      detail: `Only if memory is the limit: ${how('q4_0')} trades accuracy on long contexts for memory. Check the output quality on the customer's prompts first.`,
    };
  }
  return null;
}

function budgetFindings(run: SessionRun, a: RunAnalysis, ctx: number | null): Finding[] {
  const out: Finding[] = [];
  const budget = a.budgetBytes;
  const perToken =
    a.kv.measuredBytesPerToken !== null && a.kv.measuredBytesPerToken > 0
      ? a.kv.measuredBytesPerToken
      : a.kv.theoryBytesPerToken;
  if (budget === null) {
    out.push({
      severity: 'info',
      title: 'No memory budget was given',
      detail:
        'Profile again with --budget (the memory the engine may use on the board, e.g. 2GiB) to get the OOM horizon and the largest safe context.',
    });
    return out;
  }
  const peak = a.peakRssBytes;
  if (peak !== null && peak >= budget) {
    out.push({
      severity: 'critical',
      title: `RSS reached ${formatBytes(peak)}, over the ${formatBytes(budget)} budget`,
      detail:
        a.maxSafeContextTokens !== null
          ? `At ${formatBytes(perToken)}/token the budget holds ${formatTokens(a.maxSafeContextTokens)} of context: cap the context there or give the engine more memory.`
          : undefined,
    });
  }
  const maxSafe = a.maxSafeContextTokens;
  if (a.kv.mode === 'reserved') {
    if (maxSafe !== null && ctx !== null) {
      if (ctx > maxSafe) {
        out.push({
          severity: 'critical',
          title: `The reserved context (${formatTokens(ctx)}) does not fit the ${formatBytes(budget)} budget: at most ${formatTokens(maxSafe)} does`,
          detail: `Lower the context to ${formatCount(roundDownTo(maxSafe, engineKind(run) === 'llama' ? CTX_STEP : 1))} or less.`,
        });
      } else {
        out.push({
          severity: 'ok',
          title: `The reserved context (${formatTokens(ctx)}) fits the ${formatBytes(budget)} budget; up to ${formatTokens(maxSafe)} would`,
        });
      }
    }
    return out;
  }
  const horizon = a.oomHorizonTokens;
  if (horizon !== null && !(peak !== null && peak >= budget)) {
    const cap = maxSafe !== null && maxSafe < horizon ? maxSafe : Math.floor(horizon * 0.95);
    const tooSmall = ctx !== null && horizon < ctx;
    const llama = engineKind(run) === 'llama';
    const detail = [
      tooSmall
        ? `The configured context (${formatTokens(ctx)}) is larger than that: a long conversation will be OOM-killed before it fills the context.`
        : '',
      llama
        ? `${formatCount(roundDownTo(cap, CTX_STEP))} is a multiple of ${CTX_STEP}: llama.cpp rounds -c up to one.`
        : '',
    ]
      .filter(Boolean)
      .join(' ');
    out.push({
      severity: tooSmall ? 'warning' : 'info',
      title: `At the measured slope (${formatBytes(a.kv.decodeSlopeBytesPerToken ?? perToken)}/token) the ${formatBytes(budget)} budget is reached at ${formatCount(horizon)} tokens: cap the context at ${formatCount(roundDownTo(cap, llama ? CTX_STEP : 1))}`,
      ...(detail ? { detail } : {}),
    });
  } else if (horizon === null && maxSafe !== null && a.kv.mode === 'window' && typeof a.kv.windowTokens === 'number') {
    out.push({
      severity: 'ok',
      title: `The sliding window caps the cache: memory stays flat after ${formatTokens(a.kv.windowTokens)}, within the ${formatBytes(budget)} budget`,
    });
  } else if (maxSafe !== null && horizon === null) {
    out.push({
      severity: 'info',
      title: `The ${formatBytes(budget)} budget holds about ${formatTokens(maxSafe)} of context at ${formatBytes(perToken)}/token`,
    });
  }
  return out;
}

function reservedFinding(run: SessionRun, a: RunAnalysis, ctx: number | null): Finding | null {
  if (a.kv.mode !== 'reserved') return null;
  const perToken = a.kv.measuredBytesPerToken ?? a.kv.theoryBytesPerToken;
  const jump = a.kv.reservedJumpBytes;
  const kind = engineKind(run);
  const lower = kind === 'llama' ? 'lower -c' : kind === 'demo' ? 'lower --ctx' : 'lower the context size';
  const used = a.throughput.tokens + (promptTokens(run) ?? 0);
  const parts: string[] = [];
  if (jump !== null)
    parts.push(
      `It reserved ${formatBytes(jump)} when the context was created${ctx !== null ? ` (${formatTokens(ctx)})` : ''}, before the first token, and RSS stayed flat while decoding.`,
    );
  if (perToken !== null)
    parts.push(`Each 1,024 tokens of context cost ${formatBytes(1024 * perToken)} whether used or not.`);
  let severity: Severity = 'info';
  if (ctx !== null && used > 0 && used < ctx * RESERVED_USED_LOW) {
    severity = 'warning';
    parts.push(
      `This run used ${formatCount(used)} of ${formatCount(ctx)} cells (prompt + generated): a context of ${formatCount(roundUpTo(used * 1.25, CTX_STEP))} would hold it with 25 % to spare${perToken !== null ? ` and free ${formatBytes((ctx - roundUpTo(used * 1.25, CTX_STEP)) * perToken)}` : ''}.`,
    );
  }
  return {
    severity,
    title: `Reserved mode: ${kind === 'llama' ? 'llama.cpp reserves n_ctx up front' : 'the engine reserves the whole context up front'} — ${lower} to what you need`,
    detail: parts.join(' '),
  };
}

function overheadFindings(a: RunAnalysis): Finding[] {
  const out: Finding[] = [];
  const f = a.kv.overheadFactor;
  const measured = a.kv.measuredBytesPerToken;
  const theory = a.kv.theoryBytesPerToken;
  if (f !== null && measured !== null && theory !== null) {
    if (Math.abs(f - 1) <= OVERHEAD_MATCH) {
      out.push({
        severity: 'ok',
        title: `Measured KV ${formatBytes(measured)}/token matches the theory (${formatBytes(theory)}/token, ${formatFactor(f)})`,
      });
    } else if (f >= OVERHEAD_HIGH) {
      out.push({
        severity: 'warning',
        title: `Memory grows ${formatFactor(f)} faster than the KV cache explains (${formatBytes(measured)}/token measured, ${formatBytes(theory)} in theory)`,
        detail:
          'Allocator padding, duplicated buffers or per-token allocations outside the cache. Budgets and horizons here use the measured slope.',
      });
    } else if (f <= OVERHEAD_LOW && a.kv.mode === 'growth') {
      out.push({
        severity: 'info',
        title: `Memory grows slower than the theory (${formatFactor(f)}): ${formatBytes(measured)}/token measured, ${formatBytes(theory)} in theory`,
        detail:
          'The cache may not be fully touched yet (pages become resident on first write), or the model shape / KV type differs from what the theory assumed.',
      });
    }
  }
  if (a.kv.fitR2 !== null && a.kv.fitR2 !== undefined && a.kv.fitR2 < FIT_R2_LOW) {
    out.push({
      severity: 'info',
      title: `The memory fit is noisy (r² ${a.kv.fitR2.toFixed(2)}): a longer run or a shorter --interval-ms gives firmer numbers`,
    });
  }
  if (a.leak?.leaking) {
    out.push({
      severity: 'warning',
      title: `Memory keeps growing beyond the KV cache: ${formatBytes(a.leak.bytesPerToken)}/token (confidence ${formatPercent(a.leak.confidence)})`,
      detail: a.leak.reason,
    });
  }
  return out;
}

function eventFindings(run: SessionRun, a: RunAnalysis, lostSamples: number): Finding[] {
  const out: Finding[] = [];
  const count = (kind: RunEvent['kind']) => run.events.filter((e) => e.kind === kind);
  for (const e of count('oom')) {
    out.push({
      severity: 'critical',
      title: `The kernel OOM killer ended the engine at ${eventTime(e.tMs)}`,
      detail:
        `${e.message ?? ''}${a.peakRssBytes !== null ? ` Peak RSS ${formatBytes(a.peakRssBytes)}.` : ''} Lower the context or the KV type, or stop other memory users on the board.`.trim(),
    });
  }
  const disconnects = count('disconnect').length;
  if (disconnects > 0) {
    out.push({
      severity: 'warning',
      title: `The link to the board dropped ${disconnects} time${disconnects > 1 ? 's' : ''} (${count('reconnect').length} reconnect${count('reconnect').length === 1 ? '' : 's'})`,
      detail: 'The run went on on the board and its samples were kept there; check the cable/Wi-Fi if this repeats.',
    });
  }
  if (lostSamples > 0)
    out.push({
      severity: 'warning',
      title: `${formatCount(lostSamples)} samples were lost (the board's spool was full)`,
    });
  const throttles = count('throttle');
  if (throttles.length > 0) {
    out.push({
      severity: 'warning',
      title: `The board throttled ${throttles.length} time${throttles.length > 1 ? 's' : ''}`,
      detail:
        throttles
          .map((t) => t.message)
          .filter(Boolean)
          .slice(0, 3)
          .join('; ') || undefined,
    });
  }
  const watchdog = run.events.find((e) => e.kind === 'alert' && /watchdog/.test(e.message ?? ''));
  if (watchdog)
    out.push({ severity: 'warning', title: 'The board-side watchdog ended the engine', detail: watchdog.message });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Charts

function procfsSamples(samples: readonly Sample[]): Sample[] {
  const own = samples.filter((s) => s.source === 'procfs' && num(s.values.rssBytes) !== null);
  return own.length ? own : samples.filter((s) => num(s.values.rssBytes) !== null);
}

function down(points: Array<[number, number]>): Array<[number, number]> {
  return lttb(
    points,
    CHART_POINTS,
    (p) => p[0],
    (p) => p[1],
  );
}

function rssVsTokensChart(run: SessionRun, a: RunAnalysis): ChartModel | null {
  const mem = procfsSamples(run.samples);
  const events = tokenEventsFromSamples(run.samples);
  const tokensOf = (s: Sample): number | null => {
    const own = num(s.values.tokens);
    if (own !== null) return own;
    let n: number | null = null;
    for (const e of events) if (e.tMs <= s.tMs) n = e.tokens;
    return n ?? 0;
  };
  const rss: Array<[number, number]> = [];
  const anon: Array<[number, number]> = [];
  for (const s of mem) {
    const t = tokensOf(s);
    if (t === null) continue;
    rss.push([t, s.values.rssBytes as number]);
    const an = num(s.values.rssAnonBytes);
    if (an !== null) anon.push([t, an]);
  }
  if (rss.length < 2) return null;
  const maxTokens = Math.max(...rss.map((p) => p[0]));
  if (maxTokens <= 0 && a.kv.mode !== 'reserved') return null;
  const series: ChartSeries[] = [{ name: 'RSS', role: 'rss', points: down(rss) }];
  if (anon.length >= 2) series.push({ name: 'anonymous RSS', role: 'anon', points: down(anon) });
  const notes: string[] = [];
  const budget = a.budgetBytes;
  const dataMax = Math.max(...rss.map((p) => p[1]), ...anon.map((p) => p[1]));
  let xMax = Math.max(maxTokens, 1);
  // The horizon projection: from the highest decode sample to the budget.
  const horizon = a.oomHorizonTokens;
  if (
    budget !== null &&
    horizon !== null &&
    horizon > maxTokens &&
    horizon <= CHART_MAX_EXTEND * Math.max(maxTokens, 1)
  ) {
    const top = rss.reduce((m, p) => (p[1] > m[1] ? p : m));
    series.push({
      name: `projection to the budget (${formatCount(horizon)} tokens)`,
      role: 'projection',
      points: [top, [horizon, budget]],
    });
    xMax = horizon;
  }
  const theory = a.kv.theoryBytesPerToken;
  const base = a.kv.baselineBytes;
  const onAnon = a.kv.rssMetric === 'rssAnonBytes' && anon.length >= 2;
  if (theory !== null && base !== null) {
    const label = onAnon ? 'theory (on anonymous RSS)' : 'theory';
    if (a.kv.mode === 'reserved') {
      const reserved = a.kv.theoryReservedBytes ?? (run.engine?.ctx ? theory * run.engine.ctx : null);
      if (reserved !== null)
        series.push({
          name: `${label}: baseline + reserved ${formatBytes(reserved)}`,
          role: 'theory',
          points: [
            [0, base + reserved],
            [xMax, base + reserved],
          ],
        });
    } else {
      const end =
        a.kv.mode === 'window' && typeof a.kv.windowTokens === 'number' ? Math.min(a.kv.windowTokens, xMax) : xMax;
      const pts: Array<[number, number]> = [
        [0, base],
        [end, base + theory * end],
      ];
      if (end < xMax) pts.push([xMax, base + theory * end]);
      series.push({ name: `${label}: baseline + tokens × ${formatBytes(theory)}`, role: 'theory', points: pts });
    }
  }
  let yMax = dataMax;
  for (const s of series) for (const p of s.points) if (p[0] <= xMax) yMax = Math.max(yMax, p[1]);
  if (budget !== null) {
    if (budget <= CHART_BUDGET_FACTOR * yMax || series.some((s) => s.role === 'projection')) {
      series.push({
        name: `budget ${formatBytes(budget)}`,
        role: 'budget',
        points: [
          [0, budget],
          [xMax, budget],
        ],
      });
      yMax = Math.max(yMax, budget);
    } else
      notes.push(`The ${formatBytes(budget)} budget is far above this chart (peak ${formatBytes(a.peakRssBytes)}).`);
  }
  return {
    title: 'RSS against generated tokens',
    xLabel: 'tokens generated',
    xUnit: 'tokens',
    series,
    markers: [],
    xMax,
    yMax: yMax * 1.05,
    notes,
  };
}

function rssOverTimeChart(run: SessionRun, a: RunAnalysis): ChartModel | null {
  const mem = procfsSamples(run.samples);
  if (mem.length < 2) return null;
  const rss: Array<[number, number]> = mem.map((s) => [s.tMs / 1000, s.values.rssBytes as number]);
  const anon: Array<[number, number]> = [];
  for (const s of mem) {
    const v = num(s.values.rssAnonBytes);
    if (v !== null) anon.push([s.tMs / 1000, v]);
  }
  const lastT = Math.max(...rss.map((p) => p[0]), ...run.events.map((e) => e.tMs / 1000));
  const xMax = Math.max(lastT, 0.001);
  const series: ChartSeries[] = [{ name: 'RSS', role: 'rss', points: down(rss) }];
  if (anon.length >= 2) series.push({ name: 'anonymous RSS', role: 'anon', points: down(anon) });
  let yMax = Math.max(...rss.map((p) => p[1]), ...anon.map((p) => p[1]));
  const budget = a.budgetBytes;
  if (budget !== null && budget <= CHART_BUDGET_FACTOR * yMax) {
    series.push({
      name: `budget ${formatBytes(budget)}`,
      role: 'budget',
      points: [
        [0, budget],
        [xMax, budget],
      ],
    });
    yMax = Math.max(yMax, budget);
  }
  const first = firstTokenMs(tokenEventsFromSamples(run.samples));
  const markers: ChartMarker[] = [];
  if (first !== null) markers.push({ x: first / 1000, kind: 'token', label: 'first token' });
  for (const e of run.events) {
    if (e.kind === 'start' || e.kind === 'info') continue;
    markers.push({ x: e.tMs / 1000, kind: e.kind, label: e.kind });
  }
  return {
    title: 'RSS over time',
    xLabel: 'seconds since the run started',
    xUnit: 'seconds',
    series,
    markers,
    xMax,
    yMax: yMax * 1.05,
    notes: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Runs

function runReport(run: SessionRun): RunReport {
  const a = run.analysis;
  const summary = summarizeRun(run);
  const kvType = kvTypeOf(run);
  const ctx = run.engine?.ctx ?? (run.request.engine.kind === 'command' ? (run.request.engine.ctx ?? null) : null);
  const recovered = isRecoveredRun(run);
  const engineReportedKvBytes = summary.engineReported?.kvBytes ?? null;
  const numbers: RunNumbers = {
    theoryBytesPerToken: a.kv.theoryBytesPerToken,
    measuredBytesPerToken: a.kv.measuredBytesPerToken,
    overheadFactor: a.kv.overheadFactor,
    mode: a.kv.mode,
    baselineBytes: a.kv.baselineBytes,
    budgetBytes: a.budgetBytes,
    oomHorizonTokens: a.oomHorizonTokens,
    maxSafeContextTokens: a.maxSafeContextTokens,
    ttftMs: a.throughput.ttftMs,
    prefillTokensPerSecond: a.throughput.prefillTokensPerSecond,
    decodeTokensPerSecond: a.throughput.decodeTokensPerSecond,
    tokens: a.throughput.tokens,
    peakRssBytes: a.peakRssBytes,
    samples: summary.samples,
    lostSamples: summary.lostSamples,
    durationMs: summary.durationMs,
    ctx,
    kvType,
    engineReportedKvBytes,
  };

  const modeText: Record<string, string> = {
    growth: 'growth — the cache grows as tokens arrive',
    reserved: 'reserved — the whole context is allocated up front',
    window: 'window — a sliding window caps the cache',
  };
  const exit = summary.engine.oomKilled
    ? 'killed by the OOM killer'
    : summary.engine.signal
      ? `ended by ${summary.engine.signal}`
      : summary.engine.exitCode !== null
        ? `exit status ${summary.engine.exitCode}`
        : recovered
          ? 'unknown (recording stopped)'
          : '–';
  const sections: Section[] = [
    {
      title: 'Run',
      rows: [
        { label: 'Started', value: formatTimestamp(run.startedAt) },
        { label: 'Duration', value: formatMs(summary.durationMs) },
        { label: 'Engine exit', value: exit },
        { label: 'Samples', value: `${formatCount(summary.samples)} (${formatCount(summary.lostSamples)} lost)` },
        ...(kvType ? [{ label: 'KV cache type', value: kvType }] : []),
        ...(ctx !== null ? [{ label: 'Context (cells)', value: formatCount(ctx) }] : []),
      ],
    },
    {
      title: 'KV cache: theory against measurement',
      rows: [
        { label: 'Bytes per token, theory', value: formatBytesExact(a.kv.theoryBytesPerToken) },
        {
          label: 'Bytes per token, measured',
          value: formatBytesExact(a.kv.measuredBytesPerToken === null ? null : Math.round(a.kv.measuredBytesPerToken)),
        },
        { label: 'Overhead factor (measured ÷ theory)', value: formatFactor(a.kv.overheadFactor) },
        {
          label: 'Residency mode',
          // Without a fit or a reservation the mode is only the engine's hint (or the default).
          value:
            a.kv.measuredBytesPerToken === null && a.kv.decodeSlopeBytesPerToken == null
              ? `${a.kv.mode} (assumed: nothing to measure it from)`
              : (modeText[a.kv.mode] ?? a.kv.mode),
        },
        { label: 'Baseline (weights, runtime, buffers)', value: formatBytes(a.kv.baselineBytes) },
        ...(a.kv.mode === 'reserved'
          ? [
              { label: 'Reserved at start, measured', value: formatBytes(a.kv.reservedJumpBytes) },
              { label: 'Reserved at start, theory', value: formatBytes(a.kv.theoryReservedBytes) },
            ]
          : []),
        ...(a.kv.mode === 'window' && a.kv.windowTokens !== null && a.kv.windowTokens !== undefined
          ? [{ label: 'Window', value: formatTokens(a.kv.windowTokens) }]
          : []),
        ...(engineReportedKvBytes !== null
          ? [{ label: 'KV size the engine logged', value: formatBytes(engineReportedKvBytes) }]
          : []),
        {
          label: 'Fit on',
          value:
            a.kv.rssMetric === 'rssAnonBytes' ? 'anonymous RSS' : a.kv.rssMetric === 'rssBytes' ? 'total RSS' : '–',
        },
        ...(a.kv.fitR2 !== null && a.kv.fitR2 !== undefined ? [{ label: 'Fit r²', value: a.kv.fitR2.toFixed(3) }] : []),
      ],
    },
    {
      title: 'Memory budget',
      rows: [
        { label: 'Budget', value: formatBytes(a.budgetBytes) },
        { label: 'Peak RSS', value: formatBytes(a.peakRssBytes) },
        {
          label: 'OOM horizon',
          value:
            a.oomHorizonTokens === null
              ? a.budgetBytes === null
                ? '– (no budget)'
                : '– (RSS does not grow toward it)'
              : formatTokens(a.oomHorizonTokens),
        },
        { label: 'Max safe context', value: formatTokens(a.maxSafeContextTokens) },
      ],
    },
    {
      title: 'Throughput',
      rows: [
        { label: 'Time to first token', value: formatMs(a.throughput.ttftMs) },
        { label: 'Prefill', value: formatRate(a.throughput.prefillTokensPerSecond) },
        { label: 'Decode', value: formatRate(a.throughput.decodeTokensPerSecond) },
        { label: 'Tokens generated', value: formatCount(a.throughput.tokens) },
      ],
    },
  ];

  const findings: Finding[] = [];
  const tag = (id: string, list: Array<Finding | null>) => {
    for (const f of list) if (f) findings.push({ id, ...f });
  };
  if (recovered) {
    findings.push({
      id: 'recovered',
      severity: 'warning',
      title: 'This run was not finished cleanly: KVScope stopped while recording it',
      detail: `The numbers are recomputed from the ${formatCount(summary.samples)} memory samples stored before it stopped; the engine's exit status is unknown.`,
    });
  }
  if (run.state === 'failed' && summary.engine.error)
    findings.push({ id: 'failed', severity: 'critical', title: 'The run failed', detail: summary.engine.error });
  tag('events', eventFindings(run, a, summary.lostSamples));
  tag('budget', budgetFindings(run, a, ctx));
  tag('reserved', [reservedFinding(run, a, ctx)]);
  tag('kv-type', [kvTypeFinding(run, a, kvType)]);
  tag('overhead', overheadFindings(a));
  findings.sort((x, y) => SEVERITY_ORDER[x.severity] - SEVERITY_ORDER[y.severity]);

  const charts = [rssVsTokensChart(run, a), rssOverTimeChart(run, a)].filter((c): c is ChartModel => c !== null);
  return {
    seq: run.seq,
    id: run.id,
    label: run.label,
    state: run.state,
    recovered,
    analysisSource: run.analysisSource,
    error: run.error,
    engineCommand: engineCommandOf(run),
    startedAt: run.startedAt,
    numbers,
    sections,
    events: run.events.map((e) => ({ tMs: e.tMs, time: eventTime(e.tMs), kind: e.kind, message: e.message ?? '' })),
    findings,
    charts,
    stderrTail: summary.engine.stderrTail ?? [],
  };
}

// ---------------------------------------------------------------------------------------------
// Sweeps: runs of one session that differ only in context size

function sweepReport(session: SessionData): SweepReport | null {
  const sweep = sessionSweep(session);
  if (!sweep) return null;
  const analysis = sweep.analysis;
  const rows: Row[] = [
    {
      label: 'Bytes per token of context, measured',
      value: formatBytesExact(
        analysis.measuredBytesPerToken === null ? null : Math.round(analysis.measuredBytesPerToken),
      ),
    },
    { label: 'Bytes per token, theory', value: formatBytesExact(analysis.theoryBytesPerToken) },
    { label: 'Overhead factor', value: formatFactor(analysis.overheadFactor) },
    { label: 'Memory at zero context', value: formatBytes(analysis.baselineBytes) },
    { label: 'Largest context within the budget', value: formatTokens(analysis.maxContextForBudget) },
    ...(analysis.fitR2 !== null ? [{ label: 'Fit r²', value: analysis.fitR2.toFixed(3) }] : []),
  ];
  const metric = analysis.rssMetric;
  const table = {
    columns: ['Context', 'Peak RSS', 'Peak anonymous RSS', 'Engine KV', 'Outcome', 'Decode'],
    rows: analysis.points.map((p) => [
      formatCount(p.ctx),
      formatBytes(p.peakRssBytes),
      formatBytes(p.peakAnonRssBytes),
      formatBytes(p.engineKvBytes),
      p.oomKilled ? 'OOM-killed' : p.ok ? 'ok' : 'failed',
      formatRate(p.decodeTokensPerSecond),
    ]),
  };
  const measuredPts: Array<[number, number]> = analysis.points
    .map(
      (p) =>
        [p.ctx, metric === 'peakAnonRssBytes' ? p.peakAnonRssBytes : p.peakRssBytes] as [
          number,
          number | null | undefined,
        ],
    )
    .filter((p): p is [number, number] => typeof p[1] === 'number');
  const xMax = Math.max(...analysis.points.map((p) => p.ctx));
  const series: ChartSeries[] = [
    { name: metric === 'peakAnonRssBytes' ? 'peak anonymous RSS' : 'peak RSS', role: 'rss', points: measuredPts },
  ];
  if (analysis.measuredBytesPerToken !== null && analysis.baselineBytes !== null) {
    series.push({
      name: `fit: ${formatBytes(analysis.measuredBytesPerToken)}/token`,
      role: 'fit',
      points: [
        [0, analysis.baselineBytes],
        [xMax, analysis.baselineBytes + analysis.measuredBytesPerToken * xMax],
      ],
    });
  }
  let yMax = Math.max(0, ...series.flatMap((s) => s.points.map((p) => p[1])));
  if (analysis.budgetBytes !== null && analysis.budgetBytes <= CHART_BUDGET_FACTOR * yMax) {
    series.push({
      name: `budget ${formatBytes(analysis.budgetBytes)}`,
      role: 'budget',
      points: [
        [0, analysis.budgetBytes],
        [xMax, analysis.budgetBytes],
      ],
    });
    yMax = Math.max(yMax, analysis.budgetBytes);
  }
  return {
    analysis,
    rows,
    table,
    chart: {
      title: 'Peak memory against context size',
      xLabel: 'context size (tokens)',
      xUnit: 'context',
      series,
      markers: [],
      xMax,
      yMax: yMax * 1.05,
      notes: [],
    },
  };
}

// ---------------------------------------------------------------------------------------------

export function buildReportModel(session: SessionData): ReportModel {
  const target = session.meta.target;
  const runs = session.runs.map(runReport);
  const targetLabel =
    typeof target?.label === 'string' ? target.label : typeof target?.hostname === 'string' ? target.hostname : null;
  const overview =
    runs.length > 1
      ? {
          columns: ['Run', 'Mode', 'KV/token measured', 'Overhead', 'Peak RSS', 'Max safe context', 'Decode'],
          rows: runs.map((r) => [
            r.label,
            r.numbers.mode,
            formatBytes(r.numbers.measuredBytesPerToken),
            formatFactor(r.numbers.overheadFactor),
            formatBytes(r.numbers.peakRssBytes),
            formatTokens(r.numbers.maxSafeContextTokens),
            formatRate(r.numbers.decodeTokensPerSecond),
          ]),
        }
      : null;
  const sweep = sweepReport(session);
  const highlights: Array<Finding & { runs: string[] }> = [];
  for (const r of runs) {
    for (const f of r.findings) {
      if (f.severity === 'ok') continue;
      // A sweep varies the context on purpose: "lower the context" per step is noise up here.
      if (sweep && f.id === 'reserved') continue;
      const same = highlights.find((h) => h.id === f.id && h.title === f.title && h.detail === f.detail);
      if (same) same.runs.push(r.label);
      else highlights.push({ ...f, runs: [r.label] });
    }
  }
  highlights.sort((x, y) => SEVERITY_ORDER[x.severity] - SEVERITY_ORDER[y.severity]);
  return {
    title: `KVScope report${targetLabel ? ` — ${targetLabel}` : ''}`,
    createdAt: session.meta.createdAt,
    appVersion: session.meta.appVersion,
    target: targetRows(target),
    board: boardFindings(target).sort((x, y) => SEVERITY_ORDER[x.severity] - SEVERITY_ORDER[y.severity]),
    overview,
    sweep,
    highlights,
    runs,
  };
}

/** "all runs", "sweep ctx 1024", "sweep ctx 1024, sweep ctx 2048". */
export function runList(labels: readonly string[], total: number): string {
  return labels.length === total && total > 1 ? 'all runs' : labels.join(', ');
}
