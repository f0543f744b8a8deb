// The `profile --json` summary of DESIGN.md, from a finished run. Beyond the contract's fields:
// `leak` (shared/analysis/leak.ts), and — when the command made them — `sweep` (one run per
// context size, shared/analysis/sweep.ts) and `server` (server mode, electron/node/engines).
import type { LeakSummary, ProfileSummary } from '../../../shared/api/schemas';
import type { GgufModelSummary } from '../../../shared/kv/model-config';
import type { SweepAnalysis, SweepPoint } from '../../../shared/analysis/sweep';
import type { ServerProfile } from '../../../shared/analysis/stream-timing';
import type { RunController } from './run-controller';

/** `sweep` in the summary: the KV curve over context sizes. */
export interface SweepSummary {
  points: SweepPoint[];
  measuredBytesPerToken: number | null;
  theoryBytesPerToken: number | null;
  overheadFactor: number | null;
  mode: SweepAnalysis['mode'];
  maxContextForBudget: number | null;
  baselineBytes: number | null;
  fitR2: number | null;
  rssMetric: SweepAnalysis['rssMetric'];
  engineReportedBytesPerToken: number | null;
  budgetBytes: number | null;
  /** Why the sweep ended before its last size, or null. */
  stoppedEarly: string | null;
}

export type ProfileSummaryOutput = ProfileSummary & {
  leak?: LeakSummary;
  /** The model as its GGUF header describes it (--gguf). */
  model?: GgufModelSummary;
  sweep?: SweepSummary;
  server?: ServerProfile;
};

export function sweepSummary(analysis: SweepAnalysis, stoppedEarly: string | null): SweepSummary {
  return {
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
  };
}

export function buildProfileSummary(run: RunController, targetFacts: Record<string, unknown>): ProfileSummaryOutput {
  const analysis = run.analysis ?? run.analyze();
  return {
    target: targetFacts,
    engine: {
      command: run.engine?.displayCommand ?? '',
      exitCode: run.exitCode,
      oomKilled: run.oomKilled,
      signal: run.exitSignal,
      ...(run.status.state === 'failed' ? { error: run.status.error, stderrTail: run.stderrTail.slice(-10) } : {}),
    },
    samples: run.samples.filter((s) => s.source === 'procfs').length,
    lostSamples: run.lostSamples,
    durationMs: run.lastTMs,
    events: run.events,
    kv: analysis.kv,
    budgetBytes: analysis.budgetBytes,
    oomHorizonTokens: analysis.oomHorizonTokens,
    maxSafeContextTokens: analysis.maxSafeContextTokens,
    throughput: analysis.throughput,
    diagnostics: run.diagnostics,
    peakRssBytes: analysis.peakRssBytes,
    engineReported: {
      kvBytes: run.engineLog.kv
        .filter((k) => k.scope === 'total')
        .reduce<number | null>((sum, k) => (k.sizeBytes === null ? sum : (sum ?? 0) + k.sizeBytes), null),
      kv: run.engineLog.kv,
      timings: run.engineLog.timings,
    },
    ...(analysis.leak ? { leak: analysis.leak } : {}),
    ...(run.engine?.model ? { model: run.engine.model } : {}),
  };
}
