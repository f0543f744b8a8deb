// A context sweep from its run records (shared/run/run-record.ts): one sweep point per run, the
// fit over them (shared/analysis/sweep.ts), and the `profile --sweep --json` summary. The live
// sweep (electron/node/run/sweep.ts), the session it recorded and the report of that session all
// come through here, so one sweep gets one set of `ok` flags and one curve wherever it is shown.
import type { RunRecord } from '../run/run-record';
import {
  summarizeRun,
  engineKvBytes,
  procfsSampleCount,
  requestedCtxOf,
  type ProfileSummaryOutput,
} from './run-summary';
import { analyzeSweep, type SweepAnalysis, type SweepPoint, type SweepSummary } from './sweep';
import { firstTokenMs, tokenEventsFromSamples } from './throughput';

/**
 * What a sweep knew besides its runs: the sizes it meant to run, the steps that did not start
 * (they left no run), and whether it was interrupted. Stored in the session (meta `sweep`).
 */
export interface SweepPlan {
  sizes: number[];
  failedStarts: Array<{ ctx: number; error: string }>;
  interrupted: boolean;
}

export interface SweepResultOfRecords {
  analysis: SweepAnalysis;
  summary: SweepSummary;
  /** The run the top-level summary fields describe: the last that completed, else the last with samples. */
  main: RunRecord | null;
}

/**
 * One sweep point from a finished run, or null when the run has no context size. The run is `ok`
 * when it ended as it should: exit 0, or ended by the signal the profiler sent when it stopped it.
 */
export function sweepPointOf(record: RunRecord): SweepPoint | null {
  const ctx = requestedCtxOf(record);
  if (ctx === null) return null;
  const a = record.analysis;
  const o = record.outcome;
  const first = firstTokenMs(tokenEventsFromSamples(record.samples));
  let peakAnon: number | null = null;
  let anonAtLoad: number | null = null;
  for (const s of record.samples) {
    if (s.source !== 'procfs') continue;
    const anon = s.values.rssAnonBytes;
    if (typeof anon !== 'number' || !Number.isFinite(anon)) continue;
    peakAnon = peakAnon === null ? anon : Math.max(peakAnon, anon);
    if (first === null || s.tMs < first) anonAtLoad = anon;
  }
  const oomKilled = o?.oomKilled ?? record.events.some((e) => e.kind === 'oom');
  const exitCode = o?.exitCode ?? null;
  const signal = o?.signal ?? null;
  const stoppedByUs = exitCode === null && signal !== null && record.events.some((e) => e.kind === 'stop');
  const cells = record.engine?.ctx ?? null;
  const theory = record.engine?.theoryBytesPerToken ?? null;
  return {
    ctx,
    cells,
    theoryReservedBytes: record.engine?.theoryReservedBytes ?? (theory && cells ? theory * cells : null),
    peakRssBytes: a.peakRssBytes,
    peakAnonRssBytes: peakAnon,
    anonRssAtLoadBytes: anonAtLoad,
    engineKvBytes: engineKvBytes(record.engineLog.kv),
    exitCode,
    signal,
    oomKilled,
    ok: o !== null && record.state === 'done' && !oomKilled && (exitCode === 0 || stoppedByUs),
    ...(record.error ? { error: record.error } : {}),
    tokens: a.throughput.tokens,
    decodeTokensPerSecond: a.throughput.decodeTokensPerSecond,
    samples: procfsSampleCount(record.samples),
    ...(o ? { durationMs: o.durationMs } : {}),
  };
}

/**
 * The plan of a session written without one (session schema 1): a sweep is several runs that all
 * have a context size, at least two of them different.
 */
export function inferSweepPlan(records: readonly RunRecord[]): SweepPlan | null {
  if (records.length < 2) return null;
  const sizes = records.map(requestedCtxOf);
  if (sizes.some((s) => s === null) || new Set(sizes).size < 2) return null;
  return { sizes: [...new Set(sizes as number[])].sort((x, y) => x - y), failedStarts: [], interrupted: false };
}

/** The sweep of these runs (in the order they ran), or null when no run has a context size. */
export function summarizeSweep(records: readonly RunRecord[], plan: SweepPlan): SweepResultOfRecords | null {
  const steps: Array<{ point: SweepPoint; record: RunRecord | null }> = [];
  for (const record of records) {
    const point = sweepPointOf(record);
    if (point) steps.push({ point, record });
  }
  for (const f of plan.failedStarts)
    steps.push({
      point: { ctx: f.ctx, peakRssBytes: null, exitCode: null, oomKilled: false, ok: false, error: f.error },
      record: null,
    });
  if (steps.length === 0) return null;
  const theory = records.find((r) => r.engine?.theoryBytesPerToken)?.engine?.theoryBytesPerToken ?? null;
  const ctxPad = Math.max(1, ...records.map((r) => r.engine?.ctxPad ?? 1));
  const budget = records[0]?.request.budgetBytes ?? null;
  const analysis = analyzeSweep(
    steps.map((s) => s.point),
    { bytesPerToken: theory },
    budget,
    { ctxPad },
  );
  const oom = steps.find((s) => s.point.oomKilled);
  const stoppedEarly = oom
    ? `the run at context ${oom.point.ctx} was killed by the OOM killer: larger contexts were not tried`
    : plan.interrupted
      ? 'interrupted'
      : null;
  const main =
    [...steps].reverse().find((s) => s.record && s.point.ok)?.record ??
    [...records].reverse().find((r) => r.samples.length > 0) ??
    null;
  return {
    analysis,
    main,
    summary: {
      points: analysis.points,
      measuredBytesPerToken: analysis.measuredBytesPerToken,
      theoryBytesPerToken: analysis.theoryBytesPerToken,
      overheadFactor: analysis.overheadFactor,
      mode: analysis.mode,
      maxContextForBudget: analysis.maxContextForBudget,
      baselineBytes: analysis.baselineBytes,
      fitR2: analysis.fitR2,
      rssMetric: analysis.rssMetric,
      engineReportedBytesPerToken: analysis.engineReportedBytesPerToken,
      budgetBytes: analysis.budgetBytes,
      stoppedEarly,
    },
  };
}

/**
 * The `profile --json` document of a profile: one run's summary, or — for a sweep — the summary
 * of its main run with `sweep` added. Null when a sweep left no run with samples.
 */
export function summarizeProfile(records: readonly RunRecord[], plan: SweepPlan | null): ProfileSummaryOutput | null {
  if (!plan) {
    const last = records[records.length - 1];
    return last ? summarizeRun(last) : null;
  }
  const sweep = summarizeSweep(records, plan);
  if (!sweep?.main) return null;
  return { ...summarizeRun(sweep.main), sweep: sweep.summary };
}
