// All runs of this process (app window, browser mode or one CLI command): start, stop, look up,
// and fan their events out to whoever listens (IPC, WebSocket, CLI progress).
import { randomBytes } from 'node:crypto';
import type { EventSink } from '../../../shared/api/contract';
import type { RunRequest, RunStatus, TargetSpec } from '../../../shared/api/schemas';
import type { Target } from '../transport/target';
import { LocalTarget } from '../transport/local-target';
import { RUN_DEFAULTS, RunController, type RunCallbacks, type RunControllerOptions } from './run-controller';
import { APP_CLOSING_STOP_REASON } from '../../../shared/run/run-labels';

/**
 * How a run reaches its target. `signal` aborts when the start is stopped: the factory abandons
 * the attempt (an SSH connection is dropped, a question it asked withdrawn).
 */
export type TargetFactory = (spec: TargetSpec, signal?: AbortSignal) => Promise<Target>;

export const localTargetFactory: TargetFactory = (spec) =>
  spec.kind === 'local'
    ? Promise.resolve(new LocalTarget())
    : Promise.reject(new Error('this build can only run on "This computer"'));

/**
 * A start stopped (cancelStart, or its signal) before anything ran on the target: while
 * connecting, or during the launch before the engine started (nothing left on the target then).
 */
export class RunStartStopped extends Error {
  constructor(message = 'stopped before the run started') {
    super(message);
    this.name = 'RunStartStopped';
  }
}

export interface RunStartOptions {
  /** Hears the run from its first line on (RunController.addListener). */
  listener?: Partial<RunCallbacks>;
  /** cancelStart(startKey) stops this start before it answered (the window's Stop while starting). */
  startKey?: string;
  /** Aborting it stops this start the same way (a sweep stopped while its next run starts). */
  signal?: AbortSignal;
}

/**
 * The target, unless the start is stopped first: the factory hears the Stop and abandons the
 * attempt, and a connection that opens all the same is closed unused.
 */
async function connectUnlessStopped(createTarget: TargetFactory, spec: TargetSpec, stop: AbortSignal): Promise<Target> {
  if (stop.aborted) throw new RunStartStopped();
  const connecting = createTarget(spec, stop);
  let onStop: () => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    onStop = () => reject(new RunStartStopped());
    stop.addEventListener('abort', onStop, { once: true });
  });
  try {
    const target = await Promise.race([connecting, stopped]);
    if (!stop.aborted) return target;
    await target.close().catch(() => {});
  } catch (error) {
    if (!stop.aborted) throw error;
    connecting.then((t) => t.close().catch(() => {})).catch(() => {});
  } finally {
    stop.removeEventListener('abort', onStop);
  }
  throw new RunStartStopped();
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
   * Starts a run. Stopped before it answers (cancelStart(startKey), or `signal`), it rejects with
   * RunStartStopped when nothing ran: at once while the target is still connecting (instead of
   * up to the connect timeout, 20 s, for a board that does not answer), or once a launch under
   * way has stopped before the engine started (what it uploaded removed: RunController.stop).
   * A Stop that comes once the engine started ends it, and start() answers with the stopped run.
   */
  async start(request: RunRequest, options: RunStartOptions = {}): Promise<RunController> {
    const { listener, startKey, signal } = options;
    const runId = `${new Date()
      .toISOString()
      .replace(/[-:T.Z]/g, '')
      .slice(0, 14)}-${randomBytes(4).toString('hex')}`;
    if (startKey !== undefined && this.starting.has(startKey))
      throw new Error(`a start named ${startKey} is under way`);
    // This start's Stop, from either side.
    const stop = new AbortController();
    const stopStart = () => stop.abort();
    if (startKey !== undefined) this.starting.set(startKey, stopStart);
    if (signal?.aborted) stop.abort();
    signal?.addEventListener('abort', stopStart, { once: true });
    try {
      const target = await connectUnlessStopped(this.createTarget, request.target, stop.signal);
      const controller = this.launch(target, request, runId, listener);
      stop.signal.addEventListener('abort', () => void controller.stop(), { once: true });
      await controller.start();
      if (controller.stoppedBeforeEngine) {
        // Nothing ran: no run to show or record, as for a start stopped while connecting.
        this.runs.delete(runId);
        throw new RunStartStopped('stopped before the engine started');
      }
      return controller;
    } finally {
      if (startKey !== undefined) this.starting.delete(startKey);
      signal?.removeEventListener('abort', stopStart);
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

  /**
   * Whether the run with this id, or in this run directory on its target, is one this process
   * started (and so follows); a directory alone is matched too, for a run whose id is unknown.
   */
  isOwnRun(runId: string | null, dir: string): boolean {
    if (runId !== null && this.runs.has(runId)) return true;
    return [...this.runs.values()].some((r) => r.dir !== '' && r.dir === dir);
  }

  /**
   * Drops a run that has ended from the list (its session was deleted: the app no longer shows it
   * as its newest run); a run still going is kept. True when it was dropped.
   */
  forget(runId: string): boolean {
    const run = this.runs.get(runId);
    if (!run || run.status.state === 'starting' || run.status.state === 'running' || run.status.state === 'stopping')
      return false;
    return this.runs.delete(runId);
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
    await Promise.all(
      [...this.runs.values()].filter((r) => !r.request.keepRunning).map((r) => r.stop(APP_CLOSING_STOP_REASON)),
    );
    await Promise.all([...this.targets].map((t) => t.close().catch(() => {})));
  }
}
