// Launching a run on its target: the run directory, the engine prepared (engine-setup.ts), the
// collectors' scripts, the launcher and its run.conf, the recovery manifest, then the launcher
// started detached from this process and from the SSH channel. Part of a RunController
// (run-controller.ts), which follows the spool the launcher writes.
import type { RunRequest } from '../../../shared/api/schemas';
import { planCollectors, plannedIntervalsMs, type PlannedCollector } from '../../../shared/collectors/collector-plan';
import { collectorPipelines } from '../../../shared/collectors/reader-script';
import type { TargetFacts } from '../../../shared/run/target-facts';
import { shellQuote } from '../../../shared/util/shell';
import type { Target } from '../transport/target';
import type { CollectorBook } from './collector-book';
import { registerEngineEnvironmentSecrets } from './engine-environment';
import { prepareEngine, type PreparedEngine } from './engine-setup';
import { launcherScript, runConf } from './run-scripts';
import type { RunControllerOptions } from './run-options';
import { RUN_MANIFEST_FILE, runManifestText } from './run-manifest';

export interface RunLaunch {
  target: Target;
  request: RunRequest;
  runId: string;
  label: string;
  startedAt: string;
  options: RunControllerOptions;
  targetFacts: TargetFacts | null;
  /** Where the started collectors and those the facts rule out are noted. */
  collectors: CollectorBook;
  /** Each step's result as soon as it exists: a launch that fails later still removes its directory. */
  onDir(dir: string): void;
  onEngine(engine: PreparedEngine): void;
  /** A Stop came: the launch goes no further (checked before each step on the target). */
  stopped(): boolean;
}

/** Thrown by launchRun when a Stop came before the launcher started: no engine runs on the target. */
export class LaunchStopped extends Error {
  constructor() {
    super('stopped before the engine started');
    this.name = 'LaunchStopped';
  }
}

/** `$TMPDIR/kvscope-<run>` on the target, created private; its physical path. */
/** A collector whose script the launcher starts on the target. */
type ScriptedCollector = PlannedCollector & { def: { script: string } };

async function makeRunDir(target: Target, runId: string): Promise<string> {
  const made = await target.exec(`d="\${TMPDIR:-/tmp}/kvscope-${runId}"; mkdir -m 700 "$d" && cd "$d" && pwd -P`);
  if (made.code !== 0)
    throw new Error(`cannot create the run directory on the target: ${made.stderr.toString().trim()}`);
  return made.stdout.toString().trim();
}

/** Prepares and starts the run; resolves with the launcher's pid (null when the shell did not say it). */
export async function launchRun(launch: RunLaunch): Promise<number | null> {
  const { target, request, collectors } = launch;
  // Each step on a slow link or board (an upload, a GGUF header read) can take seconds: a Stop
  // pressed meanwhile ends the launch at the next step instead of after the engine started.
  const goOn = () => {
    if (launch.stopped()) throw new LaunchStopped();
  };
  goOn();
  // Before anything of the engine's can print: its environment's secrets are masked (engine-environment.ts).
  await registerEngineEnvironmentSecrets(target);
  const dir = await makeRunDir(target, launch.runId);
  launch.onDir(dir);
  goOn();
  const engine = await prepareEngine(target, request, dir);
  launch.onEngine(engine);
  goOn();
  const plan = planCollectors(request, launch.targetFacts);
  collectors.unavailable.push(...plan.unavailable);
  // The engine's own output has no script: the launcher writes its lines.
  const scripted = plan.start.filter((c): c is ScriptedCollector => c.def.script !== null);
  // One script per pipeline: a collector's own, or the one its readers share (reader-script.ts).
  const pipelines = collectorPipelines(scripted);
  for (const p of pipelines) await target.writeFile(`${dir}/${p.id}.sh`, p.script, 0o700);
  for (const { def, intervalMs } of scripted) collectors.start(def.id, intervalMs);
  await target.writeFile(`${dir}/launcher.sh`, launcherScript(), 0o700);
  await target.writeFile(
    `${dir}/run.conf`,
    runConf({
      engineCommand: engine.command,
      collectors: pipelines.map((p) => ({
        id: p.id,
        intervalS: p.intervalMs / 1000,
        args: p.args,
        tagsOwnLines: p.tagsOwnLines,
        members: p.members,
      })),
      watchdogS: request.keepRunning ? 0 : launch.options.watchdogS,
      spoolMaxBytes: launch.options.spoolMaxBytes,
      memoryLimitBytes: request.memoryLimitBytes ?? null,
    }),
    0o600,
  );
  // RECOVERY: what `kvscope recover` needs to rebuild this run if the app dies (run-manifest.ts).
  await target.writeFile(
    `${dir}/${RUN_MANIFEST_FILE}`,
    runManifestText({
      version: 1,
      runId: launch.runId,
      label: launch.label,
      startedAt: launch.startedAt,
      request,
      engine,
      collectors: collectors.startedIds,
      collectorIntervalsMs: plannedIntervalsMs(scripted),
      unavailable: collectors.unavailable,
      target: launch.targetFacts,
    }),
    0o600,
  );
  goOn();
  const d = shellQuote(dir);
  // Detached from this process and from the SSH channel: the launcher survives both.
  const launched = await target.exec(
    `${target.kind === 'local' ? `cd ${shellQuote(process.cwd())} 2>/dev/null; ` : ''}W=$(pwd -P); cd ${d} && if command -v setsid >/dev/null 2>&1; then setsid sh launcher.sh ${d} "$W" </dev/null >/dev/null 2>&1 & else nohup sh launcher.sh ${d} "$W" </dev/null >/dev/null 2>&1 & fi; echo $!`,
  );
  const pid = Number(launched.stdout.toString().trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** The file of the run directory where the engine's wrapper writes its pid (run-scripts.ts). */
export const ENGINE_PID_FILE = 'engine.pid';

/**
 * The engine's pid from the run directory's engine.pid, for a stop that comes while the launcher
 * is still starting the engine (its `engine` event comes after up to a second of wrapper
 * detection; the wrapper writes engine.pid first thing). Null after `waitMs` or once `gaveUp()`.
 */
export async function readEnginePid(
  target: Target,
  dir: string,
  waitMs: number,
  gaveUp: () => boolean,
): Promise<number | null> {
  const until = Date.now() + waitMs;
  while (!gaveUp() && Date.now() < until) {
    const text = await target.readFile(`${dir}/${ENGINE_PID_FILE}`).catch(() => null);
    const pid = Number(text?.toString().trim());
    if (Number.isInteger(pid) && pid > 0) return pid;
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}
