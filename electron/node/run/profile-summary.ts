// The `profile --json` summary of DESIGN.md, from a finished run.
import type { ProfileSummary } from '../../../shared/api/schemas';
import type { RunController } from './run-controller';

export function buildProfileSummary(run: RunController, targetFacts: Record<string, unknown>): ProfileSummary {
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
      kvBytes: run.engineLog.kv.filter((k) => k.scope === 'total').reduce<number | null>((sum, k) => (k.sizeBytes === null ? sum : (sum ?? 0) + k.sizeBytes), null),
      kv: run.engineLog.kv,
      timings: run.engineLog.timings,
    },
  };
}
