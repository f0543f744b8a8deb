// The run record (shared/run/run-record.ts) of a run, live or replayed: what RunController.record()
// returns, the one shape the CLI summary, the session and the reports derive from.
import type { ServerProfile } from '../../../shared/analysis/stream-timing';
import type {
  CollectorStatus,
  RunAnalysis,
  RunEvent,
  RunRequest,
  RunStatus,
  Sample,
} from '../../../shared/api/schemas';
import type { AnalysisInputs, MeasuredProcess, RunEngine, RunOutcome, RunRecord } from '../../../shared/run/run-record';
import type { TargetFacts } from '../../../shared/run/target-facts';

/** What a run record is made of: the members of RunController (run-controller.ts) it reads. */
export interface RecordableRun {
  readonly runId: string;
  readonly request: RunRequest;
  readonly targetFacts: TargetFacts | null;
  readonly status: RunStatus;
  readonly exitCode: number | null;
  readonly exitSignal: string | null;
  readonly oomKilled: boolean;
  readonly lostSamples: number;
  readonly diagnostics: number;
  readonly lastTMs: number;
  readonly stderrTail: readonly string[];
  readonly measuredProcesses: MeasuredProcess[];
  readonly server: ServerProfile | null;
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly samples: Sample[];
  readonly events: RunEvent[];
  readonly engineLog: RunRecord['engineLog'];
  readonly analysis: RunAnalysis | null;
  collectorStatuses(): Record<string, CollectorStatus>;
  tokenCount(): { liveTokens: number; engineTokens: number | null };
  runEngine(): RunEngine | null;
  analysisInputs(): AnalysisInputs;
  analyze(): RunAnalysis;
}

export function runRecordOf(run: RecordableRun): RunRecord {
  const ended = run.status.state === 'done' || run.status.state === 'failed';
  const outcome: RunOutcome | null = ended
    ? {
        exitCode: run.exitCode,
        signal: run.exitSignal,
        oomKilled: run.oomKilled,
        lostSamples: run.lostSamples,
        diagnostics: run.diagnostics,
        durationMs: run.lastTMs,
        stderrTail: [...run.stderrTail],
        collectors: run.collectorStatuses(),
        tokenCount: run.tokenCount(),
        measuredProcesses: run.measuredProcesses,
        ...(run.server ? { server: run.server } : {}),
      }
    : null;
  return {
    id: run.runId,
    label: run.status.label,
    request: run.request,
    target: run.targetFacts,
    engine: run.runEngine(),
    analysisInputs: run.analysisInputs(),
    state: run.status.state,
    error: run.status.error ?? null,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    samples: run.samples,
    events: run.events,
    engineLog: run.engineLog,
    outcome,
    analysis: run.analysis ?? run.analyze(),
  };
}
