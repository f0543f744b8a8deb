// ONE run, as everything in KVScope sees it: the live run (electron/node/run/run-controller.ts
// `record()`) produces it, the session (electron/node/session/session-store.ts) stores it and
// reads exactly it back, and every number shown anywhere — `profile --json`, the UI, sweeps,
// reports — derives from it through shared/analysis (run-summary.ts, sweep-summary.ts).
//
// The series a run's samples hold, and their units, are not stored: they come from the collector
// registry (shared/collectors/registry.ts `seriesPresent(record.samples)`).
import { z } from 'zod';
import {
  CollectorStatusSchema,
  KvModeSchema,
  type RunAnalysis,
  type RunEvent,
  type RunRequest,
  type RunState,
  type Sample,
} from '../api/schemas';
import type { ServerProfile } from '../analysis/stream-timing';
import type { GgufModelSummary } from '../kv/model-config';
import type { KvRecord, ModelRecord, TimingsRecord } from '../parsers/records';
import type { TargetFacts } from './target-facts';

/**
 * The engine as the run prepared it (electron/node/run/engine-setup.ts PreparedEngine) minus the
 * shell line the launcher ran (it holds temporary paths): `command` is what people are shown.
 */
export const RunEngineSchema = z.object({
  command: z.string(),
  theoryBytesPerToken: z.number().nullable(),
  /** Cells the engine reserves (llama.cpp: n_ctx padded to 256), or the context given. */
  ctx: z.number().nullable(),
  /** The context size asked for (--ctx, a sweep step), before any padding. */
  requestedCtx: z.number().nullable().optional(),
  modeHint: KvModeSchema.optional(),
  theoryReservedBytes: z.number().nullable().optional(),
  ctxPad: z.number().optional(),
  model: z.unknown().optional(),
});
export type RunEngine = Omit<z.infer<typeof RunEngineSchema>, 'model'> & { model?: GgufModelSummary | null };

/** Every input of analyzeRun besides the samples and timings: what a recompute needs. */
export const AnalysisInputsSchema = z.object({
  theoryBytesPerToken: z.number().nullable(),
  theoryMode: KvModeSchema.optional(),
  ctx: z.number().nullable(),
  theoryReservedBytes: z.number().nullable().optional(),
  budgetBytes: z.number().nullable(),
  /** The KV cache size the engine logged when it created its context (llama.cpp): it reserved it. */
  engineKvBytes: z.number().nullable().optional(),
  /** `--memory-limit` (absent in records made before it existed). */
  memoryLimitBytes: z.number().nullable().optional(),
  /** Server mode: the client's count of streamed tokens is the run's (run-analysis.ts liveTokensExact). */
  liveTokensExact: z.boolean().optional(),
});
export type AnalysisInputs = z.infer<typeof AnalysisInputsSchema>;

/** What the engine's own log said (llama.cpp and compatible), records as the parser made them. */
export interface EngineLog {
  timings: TimingsRecord[];
  kv: KvRecord[];
  model: ModelRecord[];
}

/** One process the memory sampler measured: the largest of the engine's process group from tMs on. */
export const MeasuredProcessSchema = z.object({
  pid: z.number(),
  tMs: z.number(),
  /** Processes in the engine's group when it was chosen. */
  groupProcesses: z.number().nullable(),
});
export type MeasuredProcess = z.infer<typeof MeasuredProcessSchema>;

/** How the run ended: known once it ended (null for a run whose recording was cut short). */
export const RunOutcomeSchema = z.object({
  /** The engine's exit status; null when a signal ended it or it never exited. */
  exitCode: z.number().nullable(),
  signal: z.string().nullable(),
  oomKilled: z.boolean(),
  /** Procfs samples the target's spool could not keep (it was full). */
  lostSamples: z.number(),
  /** Spool and collector lines nobody could read. */
  diagnostics: z.number(),
  /** From the first spool line to the last, on the target's clock. */
  durationMs: z.number(),
  /** The engine's last stderr lines (what a failed engine said last). */
  stderrTail: z.array(z.string()),
  /** Per collector that was meant to run (turned-off ones are absent). */
  collectors: z.record(z.string(), CollectorStatusSchema),
  /**
   * Tokens counted live from stdout, and by the engine itself (its timing lines; null when it
   * printed none). The engine's count is the run's (shared/analysis/throughput.ts).
   */
  tokenCount: z.object({ liveTokens: z.number(), engineTokens: z.number().nullable() }).optional(),
  /** The processes whose memory was the run's curve, each from when it was chosen (the sampler follows the engine's process group). */
  measuredProcesses: z.array(MeasuredProcessSchema).optional(),
  /** Server mode: every streamed turn, timed by the client (electron/node/engines/server-profile.ts). */
  server: z.unknown().optional(),
});
export type RunOutcome = Omit<z.infer<typeof RunOutcomeSchema>, 'server'> & { server?: ServerProfile };

export interface RunRecord {
  id: string;
  label: string;
  /** The run request, secret-like fields scrubbed when stored. */
  request: RunRequest;
  /** The target's facts (probe), when known; a session keeps one set for all its runs. */
  target: TargetFacts | null;
  engine: RunEngine | null;
  analysisInputs: AnalysisInputs | null;
  state: RunState;
  error: string | null;
  /** ISO 8601, UTC. */
  startedAt: string;
  endedAt: string | null;
  samples: Sample[];
  events: RunEvent[];
  engineLog: EngineLog;
  outcome: RunOutcome | null;
  /** The final analysis (stored as the run ended), or one recomputed from the samples. */
  analysis: RunAnalysis;
}
