// Sweeps started from the app (the startSweep API method): runSweep (sweep.ts) over the app's run
// service, its progress published as `sweepStatus` events (the window follows each next run), and
// hooks per run and at the end, through which create-app-services.ts records the whole sweep into
// one session, as `kvscope profile --sweep --out` does.
import { randomBytes } from 'node:crypto';
import type { EventSink } from '../../../shared/api/contract';
import type { SweepSummary } from '../../../shared/analysis/sweep';
import type { RunRequest, SweepStatus } from '../../../shared/api/schemas';
import { sweepPointRow, sweepResultRow } from '../../../shared/api/sweep-rows';
import type { SweepPlan } from '../../../shared/analysis/sweep-summary';
import type { RunController } from './run-controller';
import { runSweep, type SweepRunner } from './sweep';
import { APP_CLOSING_STOP_REASON, USER_STOP_REASON } from '../../../shared/run/run-labels';

export interface SweepHooks {
  /** A run of the sweep started (the first one opens the sweep's session). */
  onRun?(sweep: { sweepId: string; targetLabel: string }, run: RunController): void;
  /** The sweep is over; `plan` is null when it failed before its first run. */
  onEnd?(sweepId: string, plan: SweepPlan | null): void;
}

/** Thrown to the caller of start() in the app's words (the CLI says its own, sweep.ts). */
export class AppSweepError extends Error {
  override name = 'AppSweepError';
}

interface SweepEntry {
  status: SweepStatus;
  keepRunning: boolean;
  abort: AbortController;
  done: Promise<void>;
}

export class SweepService {
  private readonly sweeps = new Map<string, SweepEntry>();
  /** Sweeps whose first run has not started yet, by their caller's key: how each is stopped (cancelStart). */
  private readonly starting = new Map<string, AbortController>();
  /** Set when the app closes: no sweep starts its next size any more. */
  private closing = false;
  /** The runner the sweeps use: refuses new runs once the app is closing. */
  private readonly guardedRunner: SweepRunner = {
    start: (request, options) =>
      this.closing
        ? Promise.reject(new AppSweepError('the app closed during the sweep'))
        : this.runner.start(request, options),
  };

  constructor(
    private readonly runner: SweepRunner,
    private readonly emit: EventSink,
    private readonly hooks: SweepHooks = {},
  ) {}

  /**
   * Starts the sweep; resolves once its first run started (rejects when it could not).
   * `targetLabel`: the target's name as the user knows it, handed to the hooks. With a
   * `startKey`, cancelStart(startKey) stops the sweep before this answers: its first run's start
   * is stopped (RunService.start), no size is run, and this rejects at once.
   */
  start(
    request: RunRequest,
    sizes: readonly number[],
    targetLabel = '',
    startKey?: string,
  ): Promise<{ sweepId: string; runId: string }> {
    if (request.engine.kind === 'command' && !request.engine.command.includes('{ctx}'))
      return Promise.reject(new AppSweepError('the engine command needs {ctx} where each context size goes'));
    if (startKey !== undefined && this.starting.has(startKey))
      return Promise.reject(new AppSweepError(`a start named ${startKey} is under way`));
    const sweepId = `sweep-${randomBytes(6).toString('hex')}`;
    const status: SweepStatus = {
      sweepId,
      state: 'running',
      sizes: [...new Set(sizes)].sort((a, b) => a - b),
      runs: [],
      points: [],
      result: null,
    };
    const abort = new AbortController();
    if (startKey !== undefined) this.starting.set(startKey, abort);
    const publish = () => this.emit('sweepStatus', { ...status, runs: [...status.runs], points: [...status.points] });
    let firstStarted!: (runId: string) => void;
    let firstFailed!: (error: unknown) => void;
    const started = new Promise<string>((resolve, reject) => {
      firstStarted = resolve;
      firstFailed = reject;
    });
    const done = runSweep({
      runner: this.guardedRunner,
      sizes: status.sizes,
      request,
      signal: abort.signal,
      onRun: (run, ctx) => {
        status.runs.push({ ctx, runId: run.runId });
        this.hooks.onRun?.({ sweepId, targetLabel }, run);
        publish();
        firstStarted(run.runId);
      },
      onPoint: (step) => {
        status.points.push(sweepPointRow(step.point));
        publish();
      },
    })
      .then(
        (result) => {
          // Stopped before its first run started: no run to follow, the start says so.
          if (status.runs.length === 0) firstFailed(new AppSweepError("stopped before the sweep's first run started"));
          // The last size's run stopped by the user leaves no size untried, but the sweep was stopped.
          status.state = abort.signal.aborted ? 'stopped' : 'done';
          // runSweep's type promises a summary; it has none only if no step had a context size.
          const summary: SweepSummary | undefined = result.summary;
          status.result = summary ? sweepResultRow(summary) : null;
          this.hooks.onEnd?.(sweepId, result.plan);
        },
        (error: unknown) => {
          status.state = 'failed';
          status.error = error instanceof Error ? error.message : String(error);
          firstFailed(error);
          this.hooks.onEnd?.(sweepId, null);
        },
      )
      .finally(publish);
    // Once the first run started (or none will), the sweep is stopped by its id (stop()).
    if (startKey !== undefined) started.finally(() => this.starting.delete(startKey)).catch(() => {});
    this.sweeps.set(sweepId, { status, keepRunning: request.keepRunning, abort, done });
    return started.then((runId) => ({ sweepId, runId }));
  }

  /** Stops the sweep named `startKey` before its start answered (see start()); false when none is. */
  cancelStart(startKey: string): boolean {
    const abort = this.starting.get(startKey);
    abort?.abort();
    return abort !== undefined;
  }

  /** Stops the run going on; the sizes after it are not run. */
  stop(sweepId: string): boolean {
    const sweep = this.sweeps.get(sweepId);
    if (!sweep || sweep.status.state !== 'running') return false;
    sweep.abort.abort(USER_STOP_REASON);
    return true;
  }

  list(): SweepStatus[] {
    return [...this.sweeps.values()].map((s) => s.status);
  }

  /** Resolves once the sweep is over (tests, dispose). */
  finished(sweepId: string): Promise<void> {
    return this.sweeps.get(sweepId)?.done ?? Promise.resolve();
  }

  /**
   * The app is closing: no sweep starts its next size. A sweep's run going on is stopped, and
   * waited for, unless the sweep was to keep running: its run goes on on the target like any
   * keep-running run (run-service.ts) and is not waited for.
   */
  async dispose(): Promise<void> {
    this.closing = true;
    const stopping = [...this.sweeps.values()].filter((s) => !s.keepRunning);
    for (const sweep of stopping) sweep.abort.abort(APP_CLOSING_STOP_REASON);
    await Promise.all(stopping.map((s) => s.done));
  }
}
