// Every run started from the app is recorded into a session of its own, the way
// `kvscope profile --out` records one (session-recorder.ts): a file in the library's folder,
// the board's facts gathered while the run is live (its target closes with the run), closed when
// the run ends. Recording never fails the run: a problem goes to the log and the run goes on.
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

/** Starts recording `run`; returns the session id, or null when the file could not be created. */
export function recordAppRun(
  library: SessionLibrary,
  run: RunController,
  options: AppRunRecordingOptions,
): { id: string; closed: Promise<void> } | null {
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
  recorder.recordRun(run);
  const facts = probeTarget(run.target, { timeoutMs: TARGET_FACTS_TIMEOUT_MS }).then(
    (probe) => ({ ...probe, ...base }),
    () => base,
  );
  const closed = Promise.all([run.done, facts])
    .then(async ([, targetFacts]) => {
      recorder.setTarget(targetFacts);
      await recorder.close();
    })
    .catch((error: unknown) => options.log?.(`session ${id}: ${(error as Error).message}`))
    .finally(() => library.setRecording(id, false));
  return { id, closed };
}
