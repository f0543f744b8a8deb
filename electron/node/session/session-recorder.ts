// Records runs into a session file while they run. One recorder per session; `recordRun(run)`
// per run (a sweep calls it for each step). It listens to the RunController (addListener) and
// copies what the controller has accumulated since the last time — samples, events, engine-log
// records — by position in the controller's append-only arrays, so nothing is stored twice or
// skipped whenever recording starts. At the end of a run it stores the run record's outcome and
// final analysis; a run that never gets there (the process was killed) is recomputed from its
// stored samples when the file is read.
import type { SweepPlan } from '../../../shared/analysis/sweep-summary';
import type { TargetFacts } from '../../../shared/run/target-facts';
import type { RunCallbacks, RunController } from '../run/run-controller';
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

export class SessionRecorder implements RunRecorder {
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

  setTarget(facts: TargetFacts): void {
    this.guard(() => this.store.setTarget(facts));
  }

  setSweep(plan: SweepPlan): void {
    this.guard(() => this.store.setSweep(plan));
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
        this.store.updateRun(seq, { engine: run.runEngine(), analysisInputs: run.analysisInputs() });
      }
      // Only settled samples: a pending engine sample can still take its tick's later tokens.
      const settled = run.settledSampleCount;
      if (settled > stored.samples) {
        this.store.appendSamples(seq, run.samples.slice(stored.samples, settled));
        stored.samples = settled;
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
        const record = run.record();
        if (!record.outcome) throw new Error(`run ${run.runId} ended without an outcome`);
        this.store.finishRun(seq, {
          label: record.label,
          state: record.state,
          error: record.error,
          endedAt: record.endedAt ?? new Date().toISOString(),
          outcome: record.outcome,
          analysis: record.analysis,
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
        startedAt: run.startedAt,
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
