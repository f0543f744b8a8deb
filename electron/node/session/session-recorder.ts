// Records runs into a session file while they run. One recorder per session; `recordRun(run)`
// per run (a sweep calls it for each step). It listens to the RunController (addListener) and
// copies what the controller has accumulated since the last time — samples, events, engine-log
// records — by position in the controller's append-only arrays, so nothing is stored twice or
// skipped whenever recording starts. At the end of a run it stores the `profile --json` summary
// and the final analysis; a run that never gets there (the process was killed) is recomputed
// from its stored samples when the file is read.
import type { RunCallbacks, RunController } from '../run/run-controller';
import { buildProfileSummary } from '../run/profile-summary';
import type { AnalysisInputs, StoredEngine } from '../../../shared/report/session-data';
import { createSession, openSession, type CreateSessionOptions, type SessionStore } from './session-store';

export interface RecordedRun {
  readonly seq: number;
  readonly run: RunController;
  /** Resolves once the run's end (summary included) is committed, or recording failed. */
  readonly finished: Promise<void>;
}

/** What a sweep (electron/node/run/sweep.ts) or any multi-run caller needs. */
export interface RunRecorder {
  recordRun(run: RunController): RecordedRun;
}

/** The engine facts worth keeping: everything but the launcher's shell line (temporary paths). */
export function storedEngineOf(run: RunController): StoredEngine | null {
  if (!run.engine) return null;
  const { command: _shellLine, displayCommand, ...rest } = run.engine;
  return { ...rest, command: displayCommand } as StoredEngine;
}

/** The inputs RunController.analyze() passes to analyzeRun, besides samples and timings. Keep in step with it. */
export function analysisInputsOf(run: RunController): AnalysisInputs {
  return {
    theoryBytesPerToken: run.theoryBytesPerToken,
    ...(run.engine?.modeHint ? { theoryMode: run.engine.modeHint } : {}),
    ctx: run.ctx,
    theoryReservedBytes: run.engine?.theoryReservedBytes ?? null,
    budgetBytes: run.request.budgetBytes ?? null,
  };
}

export class SessionRecorder implements RunRecorder {
  private targetFacts: Record<string, unknown> | null = null;
  private readonly recorded: RecordedRun[] = [];
  /** The first recording error (disk full, file removed…); the run itself goes on. */
  error: Error | null = null;

  constructor(readonly store: SessionStore) {}

  /** A recorder on a new session file (':memory:' for a session kept only in this process). */
  static create(path: string, options: CreateSessionOptions): SessionRecorder {
    return new SessionRecorder(createSession(path, options));
  }

  /** A recorder that appends runs to an existing session. */
  static append(path: string): SessionRecorder {
    return new SessionRecorder(openSession(path));
  }

  get runs(): readonly RecordedRun[] {
    return this.recorded;
  }

  setTarget(facts: Record<string, unknown>): void {
    this.targetFacts = facts;
    this.guard(() => this.store.setTarget(facts));
  }

  recordRun(run: RunController): RecordedRun {
    let seq = 0;
    let resolveFinished!: () => void;
    const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
    const stored = { samples: 0, events: 0, timings: 0, kv: 0, model: 0, engine: false };
    let done = false;
    let unsubscribe = () => {};

    const sync = () => {
      if (!stored.engine && run.engine) {
        stored.engine = true;
        this.store.updateRun(seq, { engine: storedEngineOf(run), analysisInputs: analysisInputsOf(run) });
      }
      if (run.samples.length > stored.samples) {
        this.store.appendSamples(seq, run.samples.slice(stored.samples));
        stored.samples = run.samples.length;
      }
      for (const kind of ['timings', 'kv', 'model'] as const) {
        const records = run.engineLog[kind];
        if (records.length > stored[kind]) {
          this.store.appendEngineLog(seq, kind, records.slice(stored[kind]));
          stored[kind] = records.length;
        }
      }
      // Events last: appending them commits the batch at once.
      if (run.events.length > stored.events) {
        this.store.appendEvents(seq, run.events.slice(stored.events));
        stored.events = run.events.length;
      }
    };

    const finish = () => {
      if (done) return;
      done = true;
      unsubscribe();
      this.guard(() => {
        sync();
        const analysis = run.analysis ?? run.analyze();
        // buildProfileSummary copies the controller's arrays; the store commits what is queued first.
        this.store.writeSummary(seq, buildProfileSummary(run, this.targetFacts ?? {}), analysis);
        this.store.updateRun(seq, {
          state: run.status.state,
          error: run.status.error ?? null,
          endedAt: new Date().toISOString(),
          label: run.status.label,
        });
      });
      resolveFinished();
    };

    const ended = () => run.status.state === 'done' || run.status.state === 'failed';
    const listener: Partial<RunCallbacks> = {
      onSamples: () => this.guard(sync),
      onEvent: () => this.guard(sync),
      onStatus: (status) => {
        if (status.state === 'done' || status.state === 'failed') finish();
        else this.guard(() => (sync(), this.store.updateRun(seq, { state: status.state })));
      },
    };

    this.guard(() => {
      seq = this.store.addRun({
        id: run.runId,
        label: run.status.label,
        request: run.request,
        state: run.status.state,
      });
    });
    const recorded: RecordedRun = { seq, run, finished };
    this.recorded.push(recorded);
    if (seq === 0) {
      resolveFinished();
      return recorded;
    }
    if (ended()) {
      finish();
    } else {
      unsubscribe = run.addListener(listener);
      this.guard(sync);
    }
    return recorded;
  }

  /** Waits for the recorded runs to end, commits and closes the file. Throws a recording error. */
  async close(): Promise<void> {
    await Promise.all(this.recorded.map((r) => r.finished));
    this.closeNow();
  }

  /** Commits what is queued and closes, without waiting for runs (e.g. on a fatal error). */
  closeNow(): void {
    this.guard(() => this.store.close());
    if (this.error) throw this.error;
  }

  /** The session as stored so far (queued appends committed first). */
  read() {
    return this.store.read();
  }

  private guard(fn: () => void) {
    try {
      fn();
    } catch (error) {
      // Recording must never break the run it records: keep the first error for close().
      this.error ??= error instanceof Error ? error : new Error(String(error));
    }
  }
}
