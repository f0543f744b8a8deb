// All runs of this process (app window, browser mode or one CLI command): start, stop, look up,
// and fan their events out to whoever listens (IPC, WebSocket, CLI progress).
import { randomBytes } from 'node:crypto';
import type { EventSink } from '../../../shared/api/contract';
import type { RunRequest, RunStatus, TargetSpec } from '../../../shared/api/schemas';
import type { Target } from '../transport/target';
import { LocalTarget } from '../transport/local-target';
import { RUN_DEFAULTS, RunController, type RunCallbacks, type RunControllerOptions } from './run-controller';

export type TargetFactory = (spec: TargetSpec) => Promise<Target>;

export const localTargetFactory: TargetFactory = (spec) =>
  spec.kind === 'local'
    ? Promise.resolve(new LocalTarget())
    : Promise.reject(new Error('this build can only run on "This computer"'));

/** A start stopped (cancelStart) before its run existed: nothing was launched on the target. */
export class RunStartStopped extends Error {
  constructor() {
    super('stopped before the run started');
    this.name = 'RunStartStopped';
  }
}

export class RunService {
  private readonly runs = new Map<string, RunController>();
  private readonly targets = new Set<Target>();
  /** Starts under way by their caller's key: how each is stopped before start() answers. */
  private readonly starting = new Map<string, () => void>();

  constructor(
    private readonly emit: EventSink,
    private readonly createTarget: TargetFactory = localTargetFactory,
    private readonly runOptions: Partial<RunControllerOptions> = {},
  ) {}

  /**
   * Starts a run; `listener` hears it from its first line on (RunController.addListener). With a
   * `startKey`, cancelStart(startKey) stops it before start() answers: while the target is still
   * connecting (up to the connect timeout, 20 s, for a board that does not answer) start() rejects
   * at once with RunStartStopped; once the run exists, it is stopped (RunController.stop: a launch
   * under way stops before the engine starts, or ends the engine it started) and start() answers.
   */
  async start(request: RunRequest, listener?: Partial<RunCallbacks>, startKey?: string): Promise<RunController> {
    const runId = `${new Date()
      .toISOString()
      .replace(/[-:T.Z]/g, '')
      .slice(0, 14)}-${randomBytes(4).toString('hex')}`;
    if (startKey !== undefined && this.starting.has(startKey))
      throw new Error(`a start named ${startKey} is under way`);
    let controller: RunController | null = null;
    let giveUp: () => void = () => {};
    const stopped = new Promise<never>((_, reject) => (giveUp = () => reject(new RunStartStopped())));
    stopped.catch(() => {});
    let stopWanted = false;
    if (startKey !== undefined)
      this.starting.set(startKey, () => {
        stopWanted = true;
        if (controller) void controller.stop();
        else giveUp();
      });
    try {
      const connecting = this.createTarget(request.target);
      const target = await Promise.race([connecting, stopped]).catch((error: unknown) => {
        // A connection that comes after the Stop is closed unused.
        if (error instanceof RunStartStopped) connecting.then((t) => t.close().catch(() => {})).catch(() => {});
        throw error;
      });
      if (stopWanted) {
        await target.close().catch(() => {});
        throw new RunStartStopped();
      }
      controller = this.launch(target, request, runId, listener);
      await controller.start();
      return controller;
    } finally {
      if (startKey !== undefined) this.starting.delete(startKey);
    }
  }

  /** Stops the start named `startKey` (see start()); false when none is under way by that name. */
  cancelStart(startKey: string): boolean {
    const stop = this.starting.get(startKey);
    stop?.();
    return stop !== undefined;
  }

  private launch(
    target: Target,
    request: RunRequest,
    runId: string,
    listener: Partial<RunCallbacks> | undefined,
  ): RunController {
    this.targets.add(target);
    const controller = new RunController(
      target,
      request,
      runId,
      {
        onSamples: (samples) => this.emit('runSamples', { runId, samples }),
        onEvent: (event) => this.emit('runEvent', { runId, event }),
        onStatus: (status) => this.emit('runStatus', status),
        onOutput: (stream, text) => this.emit('runOutput', { runId, stream, text }),
        onAnalysis: (analysis) => this.emit('runAnalysis', { runId, analysis }),
      },
      { ...RUN_DEFAULTS, ...this.runOptions },
    );
    if (listener) controller.addListener(listener);
    this.runs.set(runId, controller);
    void controller.done.then(async () => {
      // One target per run for now: close it when the run is over.
      this.targets.delete(target);
      await target.close().catch(() => {});
    });
    return controller;
  }

  get(runId: string): RunController | undefined {
    return this.runs.get(runId);
  }

  list(): RunStatus[] {
    return [...this.runs.values()].map((r) => r.status);
  }

  async stop(runId: string): Promise<boolean> {
    const run = this.runs.get(runId);
    if (!run) return false;
    await run.stop();
    return true;
  }

  /** Stop every run that is not marked keep-running (app quit, browser mode ended). */
  async dispose(): Promise<void> {
    await Promise.all([...this.runs.values()].filter((r) => !r.request.keepRunning).map((r) => r.stop('app closing')));
    await Promise.all([...this.targets].map((t) => t.close().catch(() => {})));
  }
}
