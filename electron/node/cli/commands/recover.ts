// `kvscope recover <target> [--out <dir>] [--json] [SSH options]`: runs whose app died (killed,
// crashed, link gone for good) left their spool on the target; each becomes a session file
// `<dir>/<run id>.kvscope`, then its run directory is removed (electron/node/run/run-recovery.ts).
// Runs still running are listed and left alone; every run is listed with its age. One line per
// run on stdout (--json: one JSON document). Exit 1 when a run could not be recovered.
import { existsSync, statSync } from 'node:fs';
import { CliError, type CliIo, parseCliArgs, terminalText, valueOptions } from '../cli-io';
import { cliTargetSupport } from '../cli-targets';
import { createTarget, createTargetOptionsFromCli } from '../../transport/target-spec';
import { listLeftRuns, recoverRun, type RecoveryResult } from '../../run/run-recovery';
import type { Target } from '../../transport/target';
import { redact, redactJson } from '../../util/redact';

const options = { ...cliTargetSupport.options, ...valueOptions('out'), json: { type: 'boolean' } } as const;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(args, options);
  const [targetText] = positionals;
  if (positionals.length !== 1 || targetText === undefined)
    throw new CliError('expected exactly one target (local, user@host[:port], ssh://…, or a ~/.ssh/config alias)', 2);
  const spec = await cliTargetSupport.targetFromCli(targetText, values);
  const outDir = values.out ?? '.';
  // Before connecting: every run recovered would fail to be written (mkdir: EEXIST) and stay on the target.
  if (existsSync(outDir) && !statSync(outDir).isDirectory())
    throw new CliError(`--out ${outDir}: is a file; recover writes one session per run into a folder`, 2);
  let target: Target;
  try {
    // io.signal: Ctrl-C abandons the connection (a board that answers nothing held it for 20 s).
    target = await createTarget(spec, {
      ...createTargetOptionsFromCli(values, (line) => io.err(`${line}\n`)),
      signal: io.signal,
    });
  } catch (error) {
    throw new CliError(io.signal.aborted ? 'interrupted' : (error as Error).message);
  }
  const results: RecoveryResult[] = [];
  try {
    for (const left of await listLeftRuns(target)) {
      // Ctrl-C: the run being recovered is finished (its session written, then its directory
      // removed); the others stay on the target for the next recover.
      if (io.signal.aborted) break;
      const result = await recoverRun(target, left, outDir);
      results.push(result);
      // A run's label is its command line: masked as profile's output is (util/redact.ts).
      if (!values.json) io.out(terminalText(redact(describe(result))) + '\n');
    }
  } finally {
    await target.close().catch(() => undefined);
  }
  if (values.json) io.out(redactJson({ target: target.label, runs: results }, 2) + '\n');
  else if (results.length === 0 && !io.signal.aborted) io.out('no runs left on the target\n');
  if (io.signal.aborted) throw new CliError('interrupted: the runs not listed above are still on the target');
  const failed = results.filter((r) => r.state === 'failed').length;
  if (failed > 0) throw new CliError(`${failed} run(s) could not be recovered (listed above)`);
  return 0;
}

function describe(r: RecoveryResult): string {
  const age = r.ageS === null ? 'age unknown' : `last written ${formatAge(r.ageS)} ago`;
  switch (r.state) {
    case 'recovered': {
      const kept = r.previousKeptAs ? ` (the session already there kept as ${r.previousKeptAs})` : '';
      return `recovered ${r.runId} (${r.label}; ${age}; ${r.samples} samples) → ${r.session}${kept}; removed ${r.dir}`;
    }
    case 'running':
      return `running   ${r.dir} (${age}): left alone`;
    case 'failed':
      return `failed    ${r.dir} (${age}): ${r.reason}`;
  }
}

/** 42 s, 7 min, 3 h, 12 days. */
export function formatAge(ageS: number): string {
  if (ageS < 120) return `${Math.round(ageS)} s`;
  if (ageS < 2 * 3600) return `${Math.round(ageS / 60)} min`;
  if (ageS < 2 * 86400) return `${Math.round(ageS / 3600)} h`;
  return `${Math.round(ageS / 86400)} days`;
}
