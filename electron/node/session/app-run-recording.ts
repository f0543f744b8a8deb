// Every run started from the app is recorded into a session of its own, the way
// `kvscope profile --out` records one (session-recorder.ts): a file in the library's folder,
// the board's facts gathered while the first run is live (its target closes with the run), closed
// when the runs end. A sweep is one session of several runs and its plan, as `profile --sweep
// --out` writes it. Recording never fails a run: a problem goes to the log and the run goes on.
import type { SweepPlan } from '../../../shared/analysis/sweep-summary';
import { probeTarget } from '../probe/probe';
import type { RunController } from '../run/run-controller';
import { SessionRecorder } from './session-recorder';
import type { SessionLibrary } from './session-library';

/** The probe behind the session's target facts gets this long; `kvscope profile` allows the same. */
export const TARGET_FACTS_TIMEOUT_MS = 20_000;

export interface AppRunRecordingOptions {
  appVersion: string;
  /** The target's name as the user knows it (saved board label, This computer). */
  targetLabel: string;
  log?: (line: string) => void;
}

/** A session being recorded from the app: one run, or the runs of a sweep. */
export interface AppRecording {
  id: string;
  /** Another run into the same session (the next step of a sweep). */
  add(run: RunController): void;
  /** No more runs come: the session closes once those added are over (with the sweep's plan, if any). */
  finish(plan?: SweepPlan | null): Promise<void>;
  /** Resolves once the file is closed (or recording failed, which is logged). */
  closed: Promise<void>;
}

/** Starts recording a session whose first run is `run`; null when the file could not be created. */
export function openAppRecording(
  library: SessionLibrary,
  run: RunController,
  options: AppRunRecordingOptions,
): AppRecording | null {
  const base = { kind: run.target.kind, label: options.targetLabel };
  let recorder: SessionRecorder;
  let id: string;
  try {
    const file = library.newSessionPath(run.runId);
    id = file.id;
    recorder = SessionRecorder.create(file.path, { appVersion: options.appVersion, target: base });
  } catch (error) {
    options.log?.(`run ${run.runId} is not recorded: ${(error as Error).message}`);
    return null;
  }
  library.setRecording(id, true);
  const runs = [run];
  recorder.recordRun(run);
  const facts = probeTarget(run.target, { timeoutMs: TARGET_FACTS_TIMEOUT_MS }).then(
    (probe) => ({ ...probe, ...base }),
    () => base,
  );
  let finishWith!: (plan: SweepPlan | null) => void;
  const finished = new Promise<SweepPlan | null>((resolve) => (finishWith = resolve));
  const closed = finished
    .then(async (plan) => {
      const [targetFacts] = await Promise.all([facts, ...runs.map((r) => r.done)]);
      recorder.setTarget(targetFacts);
      if (plan) recorder.setSweep(plan);
      await recorder.close();
    })
    .catch((error: unknown) => options.log?.(`session ${id}: ${(error as Error).message}`))
    .finally(() => library.setRecording(id, false));
  return {
    id,
    add: (next) => {
      runs.push(next);
      recorder.recordRun(next);
    },
    finish: (plan = null) => {
      finishWith(plan);
      return closed;
    },
    closed,
  };
}

/** Records one run into a session of its own; returns the session id, or null when the file could not be created. */
export function recordAppRun(
  library: SessionLibrary,
  run: RunController,
  options: AppRunRecordingOptions,
): { id: string; closed: Promise<void> } | null {
  const recording = openAppRecording(library, run, options);
  if (!recording) return null;
  void recording.finish();
  return { id: recording.id, closed: recording.closed };
}
