// A sweep's points and fit as the API carries them (SweepStatus in schemas.ts): built from the
// analysis (shared/analysis/sweep.ts) by the app's sweeps as they run (electron/node/run/
// app-sweeps.ts) and by the window for a recorded sweep it opens (renderer/src/state/
// sessions-slice.ts), so both show the same table.
import type { SweepPoint, SweepSummary } from '../analysis/sweep';
import type { SweepPointRow, SweepStatus } from './schemas';

export function sweepPointRow(point: SweepPoint): SweepPointRow {
  return {
    ctx: point.ctx,
    peakRssBytes: point.peakRssBytes,
    peakAnonRssBytes: point.peakAnonRssBytes ?? null,
    engineKvBytes: point.engineKvBytes ?? null,
    exitCode: point.exitCode,
    oomKilled: point.oomKilled,
    ok: point.ok,
    ...(point.error !== undefined ? { error: point.error } : {}),
    ...(point.tokens !== undefined ? { tokens: point.tokens } : {}),
    decodeTokensPerSecond: point.decodeTokensPerSecond ?? null,
  };
}

export function sweepResultRow(summary: SweepSummary): NonNullable<SweepStatus['result']> {
  return {
    measuredBytesPerToken: summary.measuredBytesPerToken,
    theoryBytesPerToken: summary.theoryBytesPerToken,
    overheadFactor: summary.overheadFactor,
    mode: summary.mode,
    maxContextForBudget: summary.maxContextForBudget,
    baselineBytes: summary.baselineBytes,
    fitR2: summary.fitR2,
    stoppedEarly: summary.stoppedEarly,
  };
}
