// A context sweep: one run per context size, one after the other on the same target (two at
// once would share the board's memory and spoil both), each with `{ctx}` (engine commands) or
// the demo's --ctx set to the size; then shared/analysis/sweep.ts fits the KV curve.
import type { RunRequest } from '../../../shared/api/schemas';
import type { SweepPoint } from '../../../shared/analysis/sweep';
import {
  summarizeSweep,
  sweepPointOf,
  type SweepPlan,
  type SweepResultOfRecords,
} from '../../../shared/analysis/sweep-summary';
import type { RunController } from './run-controller';
import { MAX_SWEEP_CTX, MAX_SWEEP_SIZES, readSweepSizes } from '../../../shared/run/sweep-sizes';
import { INTERRUPT_STOP_REASON } from '../../../shared/run/run-labels';

/** What a sweep needs from the run service (RunService fits): `signal` stops a start under way. */
export interface SweepRunner {
  start: (request: RunRequest, options?: { signal?: AbortSignal }) => Promise<RunController>;
}

export interface SweepInputs {
  runner: SweepRunner;
  /** Context sizes; run in ascending order. */
  sizes: readonly number[];
  /** The run to repeat: an engine command containing `{ctx}`, or the demo (its --ctx is swept). */
  request: RunRequest;
  /** Progress lines (CLI: stderr). */
  onProgress?: (line: string) => void;
  /** Called with each run as soon as it started (to stop it from outside, show it live…). */
  onRun?: (run: RunController, ctx: number) => void;
  /** Called with each step once it is over (its run ended, or it could not start). */
  onPoint?: (step: SweepStep) => void;
  /**
   * Stops the sweep: the run going on (or starting) is stopped, and no next size starts. The run's
   * stop event gives the abort's reason when it is a string (the app's Stop: USER_STOP_REASON), else
   * INTERRUPT_STOP_REASON.
   */
  signal?: AbortSignal;
}

export interface SweepStep {
  ctx: number;
  point: SweepPoint;
  /** The run, or null when it could not start. */
  run: RunController | null;
}

export interface SweepResult extends SweepResultOfRecords {
  steps: SweepStep[];
  /** What the sweep knew besides its runs (stored with the session: the stored sweep is the same sweep). */
  plan: SweepPlan;
}

export class SweepError extends Error {
  override name = 'SweepError';
}

/** Parse `512,2048,8192` (also `4k`, `64K` = × 1024) into ascending distinct sizes, or say why not in the CLI's words. */
export function parseSweepSizes(text: string): number[] {
  const read = readSweepSizes(text);
  if (read.ok) return read.sizes;
  switch (read.problem) {
    case 'not-a-size':
      throw new SweepError(`--sweep: "${read.part}" is not a context size (expected e.g. 512,2048,8192)`);
    case 'too-large':
      throw new SweepError(`--sweep: "${read.part}" is larger than ${MAX_SWEEP_CTX} tokens`);
    case 'too-many':
      throw new SweepError(`--sweep: at most ${MAX_SWEEP_SIZES} context sizes`);
    case 'too-few':
      throw new SweepError('--sweep needs at least two different context sizes');
  }
}

/** The run request of one sweep step. */
export function requestForSize(request: RunRequest, ctx: number): RunRequest {
  const engine =
    request.engine.kind === 'demo'
      ? { ...request.engine, demo: { ...request.engine.demo, ctx } }
      : { ...request.engine, ctx };
  return { ...request, engine, label: `${request.label ?? 'sweep'} ctx ${ctx}` };
}

export async function runSweep(inputs: SweepInputs): Promise<SweepResult> {
  const { runner, request, onProgress, signal } = inputs;
  const sizes = [...new Set(inputs.sizes)].sort((a, b) => a - b);
  if (sizes.length === 0) throw new SweepError('a sweep needs context sizes');
  if (request.engine.kind === 'command' && !request.engine.command.includes('{ctx}')) {
    throw new SweepError(
      '--sweep needs {ctx} in the engine command (e.g. --engine "llama-cli -m model.gguf -c {ctx} -n 64")',
    );
  }
  if (request.engine.kind === 'demo' && request.engine.demo.mode !== 'reserved') {
    onProgress?.(
      `sweep: the demo in ${request.engine.demo.mode} mode does not reserve per context; the sweep will show a flat curve\n`,
    );
  }
  const steps: SweepStep[] = [];
  const plan: SweepPlan = { sizes, failedStarts: [], interrupted: false };
  for (const ctx of sizes) {
    if (signal?.aborted) {
      plan.interrupted = true;
      break;
    }
    onProgress?.(`sweep: context ${ctx} (${steps.length + 1}/${sizes.length})\n`);
    let run: RunController;
    try {
      run = await runner.start(requestForSize(request, ctx), { signal });
    } catch (error) {
      // Stopped while this run was starting: nothing of it ran, and it is no step of the sweep.
      if (signal?.aborted) {
        plan.interrupted = true;
        break;
      }
      const message = error instanceof Error ? error.message : String(error);
      if (steps.length === 0) throw new SweepError(`the first sweep run (context ${ctx}) did not start: ${message}`);
      plan.failedStarts.push({ ctx, error: message });
      const failed: SweepStep = {
        ctx,
        run: null,
        point: { ctx, peakRssBytes: null, exitCode: null, oomKilled: false, ok: false, error: message },
      };
      steps.push(failed);
      inputs.onPoint?.(failed);
      continue;
    }
    inputs.onRun?.(run, ctx);
    const onAbort = () => void run.stop(typeof signal?.reason === 'string' ? signal.reason : INTERRUPT_STOP_REASON);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort);
    try {
      await run.done;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    // A run that ran has a context size (its request's): its point is never null.
    const point = sweepPointOf(run.record()) as SweepPoint;
    const step: SweepStep = { ctx, run, point };
    steps.push(step);
    inputs.onPoint?.(step);
    const mib = (b: number | null | undefined) => (typeof b === 'number' ? `${(b / 1048576).toFixed(1)} MiB` : '–');
    onProgress?.(
      `sweep: context ${ctx}: ${point.oomKilled ? 'OOM-killed' : point.ok ? 'done' : `failed (${point.error ?? `exit ${point.exitCode}`})`}, peak RSS ${mib(point.peakRssBytes)}, anon ${mib(point.peakAnonRssBytes)}, engine KV ${mib(point.engineKvBytes)}\n`,
    );
    if (point.oomKilled) break;
  }
  const records = steps.flatMap((s) => (s.run ? [s.run.record()] : []));
  const result = summarizeSweep(records, plan) as SweepResultOfRecords;
  return { ...result, steps, plan };
}
