// The `profile --json` summary of one run (docs/DESIGN.md's contract plus `leak`, `model`, `server` and
// `collectors`), from its run record (shared/run/run-record.ts). ONE function for the summary the
// CLI prints live, the one a report shows and the one `report --format json` writes: they are
// the same record, so they are the same numbers. Pure.
import type { CollectorStatus, LeakSummary, ProfileSummary, RunAnalysis, Sample, Throughput } from '../api/schemas';
import type { GgufModelSummary } from '../kv/model-config';
import type { KvRecord, ModelRecord } from '../parsers/records';
import { engineExitOfStatus } from '../run/engine-exit';
import type { EngineLog, RunRecord } from '../run/run-record';
import { analyzeRun } from './run-analysis';
import type { ServerProfile } from './stream-timing';
import { summarizeThrottle, type ThrottleSummary } from './throttle';
import { summarizeAlarms, type AlarmSummary } from './alarm-sensors';
import type { SweepSummary } from './sweep';

export type ProfileSummaryOutput = ProfileSummary & {
  leak?: LeakSummary;
  /** The model as its GGUF header describes it (--gguf). */
  model?: GgufModelSummary;
  sweep?: SweepSummary;
  server?: ServerProfile;
  /** Throttle intervals and their cost (shared/analysis/throttle.ts); absent without any thermal or clock reading. */
  throttle?: ThrottleSummary;
  /**
   * The Jetson PMIC's die-temperature alarms (shared/analysis/alarm-sensors.ts): the alarm-level
   * series read and each episode of an alarm; absent when the run read no such sensor.
   */
  alarms?: AlarmSummary;
  collectors?: Record<string, CollectorStatus>;
};

/** How many lines of the engine's stderr a failed run's summary repeats. */
export const SUMMARY_STDERR_LINES = 10;

/** The KV cache size the engine logged: the sum of its `total` records (one per cache), or null. */
export function engineKvBytes(kv: readonly KvRecord[]): number | null {
  let sum: number | null = null;
  for (const k of kv) if (k.scope === 'total' && k.sizeBytes !== null) sum = (sum ?? 0) + k.sizeBytes;
  return sum;
}

/** The model's size the engine logged (llama.cpp's `print_info: file size`): the last such record, or null. */
export function engineModelBytes(model: readonly ModelRecord[]): number | null {
  for (let i = model.length - 1; i >= 0; i--) {
    const bytes = model[i]?.modelSizeBytes;
    if (bytes !== undefined && bytes > 0) return bytes;
  }
  return null;
}

/** Memory samples: the procfs collector's ticks (engine samples only carry token counts). */
export function procfsSampleCount(samples: readonly Sample[]): number {
  return samples.filter((s) => s.source === 'procfs').length;
}

/** The context size the run asked for (a sweep step, --ctx), before any engine padding. */
export function requestedCtxOf(record: Pick<RunRecord, 'engine' | 'request'>): number | null {
  const engine = record.request.engine;
  const asked = engine.kind === 'demo' ? engine.demo.ctx : engine.ctx;
  return record.engine?.requestedCtx ?? asked ?? record.engine?.ctx ?? null;
}

/** analyzeRun over the record's samples, with the inputs the live run used. */
export function recomputeAnalysis(
  record: Pick<RunRecord, 'samples' | 'engineLog' | 'analysisInputs' | 'engine' | 'request'>,
): RunAnalysis {
  const inputs = record.analysisInputs ?? {
    theoryBytesPerToken: record.engine?.theoryBytesPerToken ?? null,
    theoryMode: record.engine?.modeHint,
    ctx: record.engine?.ctx ?? null,
    theoryReservedBytes: record.engine?.theoryReservedBytes ?? null,
    budgetBytes: record.request.budgetBytes ?? null,
    memoryLimitBytes: record.request.memoryLimitBytes ?? null,
  };
  return analyzeRun({
    ...inputs,
    samples: record.samples,
    timings: record.engineLog.timings,
    modelBytes: engineModelBytes(record.engineLog.model),
  });
}

/** True when the record's recording stopped before the run ended (the outcome is unknown). */
export function isRecoveredRun(record: Pick<RunRecord, 'outcome'>): boolean {
  return record.outcome === null;
}

/** Server mode measures throughput per streamed token at the client: the first turn's numbers. */
function serverThroughput(server: ServerProfile): Throughput {
  return {
    ttftMs: server.ttftMs,
    prefillTokensPerSecond: server.prefillTokensPerSecond,
    decodeTokensPerSecond: server.decodeTokensPerSecond,
    tokens: server.tokens,
  };
}

function engineLogSummary(log: EngineLog): NonNullable<ProfileSummary['engineReported']> {
  return { kvBytes: engineKvBytes(log.kv), kv: log.kv, timings: log.timings };
}

/**
 * The run's summary. A run whose recording was cut short (no outcome) gets what its samples and
 * events still say: the exit status from its `exit` event, the duration up to its last sample.
 */
export function summarizeRun(record: RunRecord): ProfileSummaryOutput {
  const a = record.analysis;
  const o = record.outcome;
  const common = {
    kv: a.kv,
    budgetBytes: a.budgetBytes,
    budgetSource: a.budgetSource ?? null,
    oomHorizonTokens: a.oomHorizonTokens,
    maxSafeContextTokens: a.maxSafeContextTokens,
  };
  const throttle = summarizeThrottle(record.samples, record.target);
  const alarms = summarizeAlarms(record.samples);
  const tail = {
    ...(a.leak ? { leak: a.leak } : {}),
    ...(throttle ? { throttle } : {}),
    ...(alarms ? { alarms } : {}),
    ...(record.engine?.model ? { model: record.engine.model } : {}),
  };
  if (o === null) {
    const exit = [...record.events].reverse().find((e) => e.kind === 'exit');
    const end = engineExitOfStatus(exit && typeof exit.data?.code === 'number' ? exit.data.code : null);
    return {
      target: record.target ?? {},
      engine: {
        command: record.engine?.command ?? '',
        exitCode: end.code,
        oomKilled: record.events.some((e) => e.kind === 'oom'),
        signal: end.signal,
        ...(record.error ? { error: record.error } : {}),
      },
      samples: procfsSampleCount(record.samples),
      lostSamples: 0,
      durationMs: record.samples.reduce((m, s) => Math.max(m, s.tMs), 0),
      events: record.events,
      ...common,
      throughput: a.throughput,
      peakRssBytes: a.peakRssBytes,
      engineReported: engineLogSummary(record.engineLog),
      ...tail,
    };
  }
  const failed = record.state === 'failed';
  return {
    target: record.target ?? {},
    engine: {
      command: record.engine?.command ?? '',
      exitCode: o.exitCode,
      oomKilled: o.oomKilled,
      signal: o.signal,
      ...(failed ? { error: record.error ?? undefined, stderrTail: o.stderrTail.slice(-SUMMARY_STDERR_LINES) } : {}),
    },
    samples: procfsSampleCount(record.samples),
    lostSamples: o.lostSamples,
    durationMs: o.durationMs,
    events: record.events,
    ...common,
    throughput: o.server ? serverThroughput(o.server) : a.throughput,
    diagnostics: o.diagnostics,
    peakRssBytes: a.peakRssBytes,
    engineReported: engineLogSummary(record.engineLog),
    ...tail,
    // Always there, `{}` when every collector was switched off: scripts read `collectors.<id>`.
    collectors: o.collectors,
    ...(o.server ? { server: o.server } : {}),
  };
}
