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

export class RunService {
  private readonly runs = new Map<string, RunController>();
  private readonly targets = new Set<Target>();

  constructor(
    private readonly emit: EventSink,
    private readonly createTarget: TargetFactory = localTargetFactory,
    private readonly runOptions: Partial<RunControllerOptions> = {},
  ) {}

  /** Starts a run; `listener` hears it from its first line on (RunController.addListener). */
  async start(request: RunRequest, listener?: Partial<RunCallbacks>): Promise<RunController> {
    const runId = `${new Date()
      .toISOString()
      .replace(/[-:T.Z]/g, '')
      .slice(0, 14)}-${randomBytes(4).toString('hex')}`;
    const target = await this.createTarget(request.target);
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
    await controller.start();
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
