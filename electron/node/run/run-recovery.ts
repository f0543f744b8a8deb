// `kvscope recover` and the app's offer after a probe (listLeftRuns/recoverLeftRun/discardLeftRun in
// shared/api/contract.ts): runs whose app died leave their run
// directory on the target — the whole of it when the engine ended by itself, the spool and
// run.json when the target's watchdog ended it (electron/node/run/run-scripts.ts). This finds
// them, rebuilds each run record by replaying its spool through RunController (the one parser of
// spool lines), writes one session per run and only then removes the run directory.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { shellQuote } from '../../../shared/util/shell';
import type { Target } from '../transport/target';
import { appVersion } from '../session/app-version';
import { SessionRecorder } from '../session/session-recorder';
import { RunController } from './run-controller';
import { signalProcessTree } from './process-tree';
import { ENGINE_PID_FILE } from './run-launch';
import { parseRunManifest, RUN_MANIFEST_FILE } from './run-manifest';

export interface LeftRun {
  /** The run directory on the target. */
  dir: string;
  /** Its launcher still runs: a live run (another app's, or one kept running); left alone. */
  running: boolean;
  /** Seconds since its spool was last written (null when the target cannot tell). */
  ageS: number | null;
  /**
   * Seconds since a client last rewrote its heartbeat file (every second while an app or a CLI
   * follows the run); null when there is none or the target cannot tell.
   */
  heartbeatAgeS: number | null;
}

// One line per run directory with a spool:
// <alive 0|1> TAB <spool mtime s> TAB <now s> TAB <heartbeat mtime s or empty> TAB <dir>.
// The launcher's pid is on the spool's first line (`X <uptime> start launcher=<pid>`); a pid that
// is alive but no longer a launcher (reused) does not count where /proc can tell.
const LIST_SCRIPT = `now=$(date +%s)
for d in "\${TMPDIR:-/tmp}"/kvscope-*; do
  [ -f "$d/spool" ] || continue
  l=""; read -r a b c l < "$d/spool" 2>/dev/null
  p=\${l#launcher=}; alive=0
  case "$p" in ''|*[!0-9]*) ;; *)
    if kill -0 "$p" 2>/dev/null; then
      if [ -r "/proc/$p/cmdline" ]; then case "$(tr '\\0' ' ' < "/proc/$p/cmdline")" in *launcher.sh*) alive=1;; esac; else alive=1; fi
    fi;;
  esac
  m=$(stat -c %Y "$d/spool" 2>/dev/null); h=""
  [ -f "$d/hb" ] && h=$(stat -c %Y "$d/hb" 2>/dev/null)
  printf '%s\\t%s\\t%s\\t%s\\t%s\\n' "$alive" "$m" "$now" "$h" "$d"
done`;

/** The run directories on the target that hold a spool, dead or alive. */
export async function listLeftRuns(target: Target): Promise<LeftRun[]> {
  const listed = await target.exec(LIST_SCRIPT, { timeoutMs: 30_000 });
  if (listed.code !== 0) throw new Error(`cannot list run directories: ${listed.stderr.toString().trim()}`);
  const out: LeftRun[] = [];
  for (const line of listed.stdout.toString().split('\n')) {
    const [alive, mtime, now, hb, ...dirParts] = line.split('\t');
    const dir = dirParts.join('\t');
    if (!dir) continue;
    const since = (mt: string | undefined) => {
      const age = Number(now) - Number(mt);
      return mt !== undefined && mt !== '' && Number.isFinite(age) ? Math.max(0, age) : null;
    };
    out.push({ dir, running: alive === '1', ageS: since(mtime), heartbeatAgeS: since(hb) });
  }
  return out;
}

export type RecoveryResult =
  | {
      state: 'recovered';
      dir: string;
      ageS: number | null;
      runId: string;
      label: string;
      session: string;
      samples: number;
      /** Where the session already at `session` (the app's recording, cut where it died) was moved. */
      previousKeptAs?: string;
    }
  | { state: 'running'; dir: string; ageS: number | null }
  | { state: 'failed'; dir: string; ageS: number | null; reason: string };

/** Import one dead run into `<outDir>/<run id>.kvscope`; removes its directory once the session is closed. */
export async function recoverRun(target: Target, left: LeftRun, outDir: string): Promise<RecoveryResult> {
  const { dir, ageS } = left;
  if (left.running) return { state: 'running', dir, ageS };
  const fail = (reason: string): RecoveryResult => ({ state: 'failed', dir, ageS, reason });
  const manifestText = await target.readFile(`${dir}/${RUN_MANIFEST_FILE}`).catch(() => null);
  if (!manifestText) return fail(`no ${RUN_MANIFEST_FILE} (a run started by an older KVScope): left in place`);
  const parsed = parseRunManifest(manifestText.toString('utf8'));
  if ('problem' in parsed) return fail(`${parsed.problem}: left in place`);
  const { manifest } = parsed;
  const spool = await target.readFile(`${dir}/spool`).catch((error: Error) => error);
  if (spool instanceof Error) return fail(`cannot read its spool: ${spool.message}`);
  // Run ids are <UTC time>-<hex> (run-service.ts); anything else would not be a file name of ours.
  if (!/^[\w-]+$/.test(manifest.runId)) return fail(`run id "${manifest.runId}" is not a file name: left in place`);
  const run = await RunController.replay(target, manifest, spool.toString('utf8'));
  // A session of this run may be there already: the app's own recording, cut where the app died
  // (its samples up to then; the spool has those and the rest). It is kept aside under a numbered
  // name (session-backup.ts: a session is never destroyed) and the whole run takes the name.
  const session = join(outDir, `${manifest.runId}.kvscope`);
  let previousKeptAs: string | null = null;
  mkdirSync(outDir, { recursive: true });
  try {
    const recorder = SessionRecorder.create(session, { appVersion: appVersion() });
    previousKeptAs = recorder.store.previousKeptAs;
    if (manifest.target) recorder.setTarget(manifest.target);
    recorder.recordRun(run);
    await recorder.close();
  } catch (error) {
    return fail(`cannot write ${session}: ${(error as Error).message}`);
  }
  // Only now that the session is closed on disk does the target's copy go.
  if ((await removeRunDir(target, dir)) !== null)
    return fail(`session written to ${session}, but removing ${dir} failed`);
  return {
    state: 'recovered',
    dir,
    ageS,
    runId: manifest.runId,
    label: manifest.label,
    session,
    samples: run.samples.length,
    ...(previousKeptAs !== null ? { previousKeptAs } : {}),
  };
}

/** A left run as the app offers it: what its run.json says (label, start), when it has one. */
export interface LeftRunDetails extends LeftRun {
  runId: string | null;
  label: string | null;
  startedAt: string | null;
  /** Why it cannot be recovered as it is (no or unreadable run.json), else null. */
  problem: string | null;
}

/** The label and start of a left run, read from its run.json (never throws: the directory is whatever the target holds). */
export async function leftRunDetails(target: Target, left: LeftRun): Promise<LeftRunDetails> {
  const text = await target.readFile(`${left.dir}/${RUN_MANIFEST_FILE}`).catch(() => null);
  const none = { runId: null, label: null, startedAt: null };
  if (!text) return { ...left, ...none, problem: `no ${RUN_MANIFEST_FILE} (a run started by an older KVScope)` };
  const parsed = parseRunManifest(text.toString('utf8'));
  if ('problem' in parsed) return { ...left, ...none, problem: parsed.problem };
  const { runId, label, startedAt } = parsed.manifest;
  return { ...left, runId, label, startedAt, problem: null };
}

/**
 * The left run in `dir`, as the target lists it now: a directory named by a window is acted on only
 * when the target itself lists it as a left run (never a path of the window's choosing), and never
 * while its launcher runs.
 */
export async function findLeftRun(target: Target, dir: string): Promise<LeftRun> {
  const left = (await listLeftRuns(target)).find((r) => r.dir === dir);
  if (!left) throw new Error(`${dir} is not a run left on this target (recovered or discarded already?)`);
  if (left.running) throw new Error(`the run in ${dir} is still running: left alone`);
  return left;
}

/**
 * Ends a run that still runs on the target with no app of ours following it (started with Keep
 * running by an app that has closed since, or another KVScope's): TERM to its engine's process
 * tree, KILL every `graceMs` after, until its launcher has ended. The launcher writes the run's
 * end into the spool as for any engine exit, so the run is then a left run like any other, whole,
 * for recoverRun. `left` as findRunningRun found it. Throws when it has no engine pid, or outlives `giveUpMs`.
 */
export async function stopLeftRun(
  target: Target,
  left: LeftRun,
  { graceMs = 3000, giveUpMs = 30_000, pollMs = 250 }: { graceMs?: number; giveUpMs?: number; pollMs?: number } = {},
): Promise<void> {
  const { dir } = left;
  if (!left.running) return;
  const listed = async () => (await listLeftRuns(target)).find((r) => r.dir === dir);
  const pidText = await target.readFile(`${dir}/${ENGINE_PID_FILE}`).catch(() => null);
  const pid = Number(pidText?.toString().trim());
  if (!Number.isInteger(pid) || pid <= 1)
    throw new Error(`the run in ${dir} has no engine pid (${ENGINE_PID_FILE}): its engine may not have started`);
  await signalProcessTree(target, pid, 'TERM');
  const started = Date.now();
  let killAt = started + graceMs;
  while (Date.now() - started < giveUpMs) {
    await new Promise((r) => setTimeout(r, pollMs));
    if (!(await listed())?.running) return;
    if (Date.now() >= killAt) {
      await signalProcessTree(target, pid, 'KILL');
      killAt = Date.now() + graceMs;
    }
  }
  throw new Error(
    `the run in ${dir} still runs ${Math.round(giveUpMs / 1000)} s after its engine (pid ${pid}) was told to stop`,
  );
}

/** The run in `dir` as the target lists it now, when it still runs (stopLeftRun's subject). */
export async function findRunningRun(target: Target, dir: string): Promise<LeftRun> {
  const left = (await listLeftRuns(target)).find((r) => r.dir === dir);
  if (!left) throw new Error(`${dir} is not a run on this target (recovered or discarded already?)`);
  if (!left.running) throw new Error(`the run in ${dir} has ended already: recover or discard it`);
  return left;
}

/** Removes a dead run's directory without importing it (the user chose to discard it). */
export async function discardRun(target: Target, left: LeftRun): Promise<void> {
  if (left.running) throw new Error(`the run in ${left.dir} is still running: left alone`);
  const problem = await removeRunDir(target, left.dir);
  if (problem !== null) throw new Error(`removing ${left.dir} failed: ${problem}`);
}

/** rm -rf of a run directory on the target; null when it went, else what rm said. */
async function removeRunDir(target: Target, dir: string): Promise<string | null> {
  const removed = await target.exec(`rm -rf ${shellQuote(dir)}`, { timeoutMs: 30_000 });
  return removed.code === 0 ? null : removed.stderr.toString().trim() || `rm exited ${removed.code}`;
}
