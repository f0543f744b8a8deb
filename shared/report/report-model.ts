// From a session to what a report shows: target facts, and per run the engine command, KV theory
// against measurement, budget and OOM horizon, throughput, events, peak RSS, charts drawn from the
// stored samples, and findings a field engineer can hand over. Every renderer (Markdown, HTML,
// PDF through HTML) draws from this one model, so they never disagree. Pure.
//
// Every number here comes from the run's analysis (shared/analysis, stored or recomputed from the
// stored samples) or from the samples themselves, and every finding from shared/analysis/findings.ts;
// this file only words and arranges them (the words of findings: ./finding-text.ts, the charts:
// ./report-charts.ts).
import { alarmEpisodeMessage, alarmEpisodesOf } from '../analysis/alarm-sensors';
import { compareSeverity, runFindings, type EngineKind } from '../analysis/findings';
import { runRecommendations } from '../analysis/recommendations';
import { passiveTripC } from '../analysis/recommendations-setup';
import { clockCeilingsOf } from '../analysis/throttle';
import type { ProfileSummary } from '../api/schemas';
import type { TargetFacts } from '../run/target-facts';
import { isRecoveredRun, summarizeRun } from '../analysis/run-summary';
import type { SweepAnalysis } from '../analysis/sweep';
import { formatTimestamp } from '../format/text';
import {
  formatBytes,
  formatBytesExact,
  formatCount,
  formatFactor,
  formatMs,
  formatRunTimeMs,
  formatTokens,
  formatTokensPerSecond,
  MISSING,
} from '../format/units';
import { wordFinding, wordRecommendation, type Finding, type RecommendationText } from './finding-text';
import { seriesOfSamples } from '../analysis/time-series';
import { boardSignalRows, perTokenRows, throttleRows } from './board-signals';
import { boardFindings, targetRows, type Row } from './report-target';
import {
  rssOverTimeChart,
  rssVsTokensChart,
  sweepChart,
  temperatureChart,
  throughputChart,
  type ChartModel,
} from './report-charts';
import { sessionSweep, type SessionData, type SessionRun } from './session-data';

export type { Severity } from '../analysis/findings';
export type { Finding, RecommendationText } from './finding-text';
export type { Row } from './report-target';
export type { ChartMarker, ChartModel, ChartSeries } from './report-charts';

export interface Section {
  title: string;
  rows: Row[];
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
  /** What to change and what it buys, ranked by effect (shared/analysis/recommendations.ts). */
  recommendations: RecommendationText[];
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

function kvTypeOf(run: SessionRun): string | null {
  const engine = run.request.engine;
  const asked = engine.kind === 'demo' ? engine.demo.kvType : engine.kvType;
  if (asked) return asked;
  const logged = run.engineLog.kv.find((k) => k.typeK !== null);
  if (logged && (logged.typeV === null || logged.typeV === logged.typeK)) return logged.typeK;
  return null;
}

function engineKind(run: SessionRun): EngineKind {
  if (run.request.engine.kind === 'demo') return 'demo';
  const command = run.engine?.command ?? run.request.engine.command;
  return /llama|\s-c\s|--ctx-size/.test(command) || run.engine?.ctxPad !== undefined ? 'llama' : 'other';
}

function engineCommandOf(run: SessionRun): string {
  if (run.engine?.command) return run.engine.command;
  if (run.request.engine.kind === 'command') return run.request.engine.command;
  return run.label;
}

/**
 * One row per collector the run's outcome lists: what it read, the lines it could not read, and why
 * it is not ok. The Run section's memory samples are the process's only: without these rows the
 * report of a board's imported log (tegrastats, perf, pmap) said "0 samples" of a run of thousands.
 */
function collectorRows(collectors: ProfileSummary['collectors']): Row[] {
  return Object.entries(collectors ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, c]) => {
      const count = (n: number, one: string) => `${formatCount(n)} ${one}${n === 1 ? '' : 's'}`;
      const read = `${count(c.samples, 'sample')}, ${count(c.diagnostics, 'unreadable line')}`;
      const value = [c.status === 'ok' ? null : c.status, read, c.reason ?? null].filter((p) => p !== null);
      return { label: id, value: value.join(' · ') };
    });
}

function promptTokens(run: SessionRun): number | null {
  const prompt = [...run.engineLog.timings].reverse().find((t) => t.phase === 'prompt');
  if (prompt && prompt.tokens !== null) return prompt.tokens;
  return run.request.engine.kind === 'demo' ? run.request.engine.demo.promptTokens : null;
}

// ---------------------------------------------------------------------------------------------
// Runs

/** One run's report; `sessionTarget`: the session's target facts, for runs that did not keep their own. */
function runReport(run: SessionRun, sessionTarget: TargetFacts | null = null): RunReport {
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
          : MISSING;
  const sections: Section[] = [
    {
      title: 'Run',
      rows: [
        { label: 'Started', value: formatTimestamp(run.startedAt) },
        { label: 'Duration', value: formatMs(summary.durationMs) },
        { label: 'Engine exit', value: exit },
        {
          label: 'Memory samples (process)',
          value: `${formatCount(summary.samples)} (${formatCount(summary.lostSamples)} lost)`,
        },
        ...(kvType ? [{ label: 'KV cache type', value: kvType }] : []),
        ...(ctx !== null ? [{ label: 'Context (cells)', value: formatCount(ctx) }] : []),
      ],
    },
    ...(summary.collectors ? [{ title: 'Collectors', rows: collectorRows(summary.collectors) }] : []),
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
            a.kv.rssMetric === 'rssAnonBytes' ? 'anonymous RSS' : a.kv.rssMetric === 'rssBytes' ? 'total RSS' : MISSING,
        },
        ...(a.kv.fitR2 !== null && a.kv.fitR2 !== undefined
          ? [{ label: 'Fit r²', value: formatCount(a.kv.fitR2, 3) }]
          : []),
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
                ? `${MISSING} (no budget)`
                : `${MISSING} (RSS does not grow toward it)`
              : formatTokens(a.oomHorizonTokens),
        },
        {
          label: 'Max safe context',
          // On anon RSS it keeps the engine's file pages (mmap'd weights) in the budget, which the
          // OOM horizon does not count (the kernel drops them first): why it is the smaller one.
          value:
            a.maxSafeContextTokens !== null && a.kv.rssMetric === 'rssAnonBytes'
              ? `${formatTokens(a.maxSafeContextTokens)} (file pages kept in memory)`
              : formatTokens(a.maxSafeContextTokens),
        },
      ],
    },
    {
      title: 'Throughput',
      rows: [
        { label: 'Time to first token', value: formatMs(a.throughput.ttftMs) },
        { label: 'Prefill', value: formatTokensPerSecond(a.throughput.prefillTokensPerSecond) },
        { label: 'Decode', value: formatTokensPerSecond(a.throughput.decodeTokensPerSecond) },
        { label: 'Tokens generated', value: formatCount(a.throughput.tokens) },
      ],
    },
    ...(summary.throttle ? [{ title: 'Throttling', rows: throttleRows(summary.throttle, summary.durationMs) }] : []),
  ];
  // Each key's values once, for the board's rows and charts.
  const byKey = seriesOfSamples(run.samples);
  const perToken = perTokenRows(byKey);
  if (perToken.length > 0) sections.push({ title: 'Per generated token', rows: perToken });
  const signals = boardSignalRows(byKey);
  if (signals.length > 0) sections.push({ title: 'Board signals over the run', rows: signals });

  const engine = engineKind(run);
  const findingInput = {
    analysis: a,
    events: run.events,
    samples: summary.samples,
    lostSamples: summary.lostSamples,
    ctx,
    kvType,
    engine,
    promptTokens: promptTokens(run),
    recovered,
    failure: run.state === 'failed' && summary.engine.error ? summary.engine.error : null,
    model: run.engine?.model ?? null,
  };
  const findings = runFindings(findingInput).map((f) => wordFinding(f, engine));
  const recommendations = runRecommendations({
    ...findingInput,
    series: run.samples,
    engineLog: run.engineLog,
    target: run.target ?? sessionTarget,
    tripC: passiveTripC(run.target ?? sessionTarget),
    clockCeilings: clockCeilingsOf(run.target ?? sessionTarget),
  }).map((r) => wordRecommendation(r, engine));

  // The run's events and, where they fire, the PMIC's die-temperature alarms (read from its samples).
  const alarms = alarmEpisodesOf((k) => byKey.get(k), byKey.keys()).map((e) => ({
    tMs: e.startMs,
    kind: 'alert',
    message: alarmEpisodeMessage(e),
  }));
  const eventsWithAlarms = alarms.length > 0 ? [...run.events, ...alarms].sort((x, y) => x.tMs - y.tMs) : run.events;
  const charts = [
    rssVsTokensChart(run, a),
    rssOverTimeChart(run, a),
    throughputChart(run, summary.throttle ?? null),
    temperatureChart(byKey, summary.throttle ?? null),
  ].filter((c): c is ChartModel => c !== null);
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
    events: eventsWithAlarms.map((e) => ({
      tMs: e.tMs,
      time: formatRunTimeMs(e.tMs),
      kind: e.kind,
      message: e.message ?? '',
    })),
    findings,
    recommendations,
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
    ...(analysis.fitR2 !== null ? [{ label: 'Fit r²', value: formatCount(analysis.fitR2, 3) }] : []),
  ];
  const table = {
    columns: ['Context', 'Peak RSS', 'Peak anonymous RSS', 'Engine KV', 'Outcome', 'Decode'],
    rows: analysis.points.map((p) => [
      formatCount(p.ctx),
      formatBytes(p.peakRssBytes),
      formatBytes(p.peakAnonRssBytes),
      formatBytes(p.engineKvBytes),
      p.oomKilled ? 'OOM-killed' : p.ok ? 'ok' : 'failed',
      formatTokensPerSecond(p.decodeTokensPerSecond),
    ]),
  };
  return { analysis, rows, table, chart: sweepChart(analysis) };
}

// ---------------------------------------------------------------------------------------------

export function buildReportModel(session: SessionData): ReportModel {
  const target = session.meta.target;
  const runs = session.runs.map((r) => runReport(r, session.meta.target));
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
            formatTokensPerSecond(r.numbers.decodeTokensPerSecond),
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
  highlights.sort(compareSeverity);
  return {
    // The user's name for the session heads the report: it tells two reports of one board apart.
    title: `KVScope report${session.meta.name ? `: ${session.meta.name}` : ''}${targetLabel ? ` — ${targetLabel}` : ''}`,
    createdAt: session.meta.createdAt,
    appVersion: session.meta.appVersion,
    target: targetRows(target),
    board: boardFindings(target).sort(compareSeverity),
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
