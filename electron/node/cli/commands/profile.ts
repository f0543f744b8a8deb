// `kvscope profile <target> (--engine "<cmd>" | --demo …) …` (DESIGN.md): one run, measured,
// summarised. Progress on stderr; with --json exactly one JSON document on stdout.
import { RunRequestSchema, type RunRequest } from '../../../../shared/api/schemas';
import { CliError, type CliIo, parseBytes, parseCliArgs, parseDurationMs, parseIntArg } from '../cli-io';
import { demoCliOptions, demoOptionsFromCli } from '../../demo-engine/demo-config';
import { RunService } from '../../run/run-service';
import { buildProfileSummary } from '../../run/profile-summary';
import { cliTargetSupport } from '../cli-targets';

const options = {
  ...demoCliOptions,
  ...cliTargetSupport.options,
  engine: { type: 'string' },
  demo: { type: 'boolean' },
  gguf: { type: 'string' },
  budget: { type: 'string' },
  'interval-ms': { type: 'string' },
  duration: { type: 'string' },
  sweep: { type: 'string' },
  out: { type: 'string' },
  report: { type: 'string' },
  'token-regex': { type: 'string' },
  'keep-running': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

const MIB = 1024 * 1024;
const fmtMiB = (b: number | null | undefined) => (b === null || b === undefined ? '–' : `${(b / MIB).toFixed(1)} MiB`);

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(args, options);
  if (positionals.length !== 1) throw new CliError('expected exactly one target (local, user@host[:port], ssh://…, or a ~/.ssh/config alias)', 2);
  if (!values.demo === !values.engine) throw new CliError('give either --engine "<command on target>" or --demo', 2);
  const target = await cliTargetSupport.targetFromCli(positionals[0], values);
  const ctx = parseIntArg(values.ctx, '--ctx');
  const budgetBytes = values.budget ? parseBytes(values.budget, '--budget') : undefined;
  const intervalMs = parseIntArg(values['interval-ms'], '--interval-ms', 20) ?? 200;
  const durationMs = values.duration ? parseDurationMs(values.duration, '--duration') : undefined;
  const tokens = parseIntArg(values.tokens, '--tokens');
  if (values.sweep) throw new CliError('--sweep is not available in this build yet');

  const requestInput: unknown = {
    target,
    engine: values.demo
      ? { kind: 'demo', demo: demoOptionsFromCli(values) }
      : {
          kind: 'command',
          command: values.engine,
          gguf: values.gguf,
          kvType: values['kv-type'],
          ctx,
          tokenRegex: values['token-regex'],
        },
    budgetBytes,
    intervalMs,
    tokens: values.demo ? undefined : tokens,
    durationMs,
    keepRunning: values['keep-running'] ?? false,
  };
  const parsed = RunRequestSchema.safeParse(requestInput);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError(`${issue.path.join('.')}: ${issue.message}`, 2);
  }
  const request: RunRequest = parsed.data;

  const service = new RunService(() => {}, cliTargetSupport.targetFactory(values));
  const run = await service.start(request);
  io.err(`kvscope profile: run ${run.runId} on ${run.target.label}, run directory ${run.dir}\n`);
  const onAbort = () => void run.stop('interrupted');
  io.signal.addEventListener('abort', onAbort);
  const ticker = setInterval(() => {
        const last = [...run.samples].reverse().find((s) => s.source === 'procfs');
        io.err(`kvscope profile: ${(run.lastTMs / 1000).toFixed(1)} s, ${run.tokens} tokens, RSS ${fmtMiB(last?.values.rssBytes)}\n`);
      }, 2000);
  try {
    await run.done;
  } finally {
    clearInterval(ticker);
    io.signal.removeEventListener('abort', onAbort);
    await service.dispose();
  }
  if (run.status.state === 'failed' && run.samples.length === 0) {
    throw new CliError(run.status.error ?? 'the run failed');
  }
  const summary = buildProfileSummary(run, await cliTargetSupport.targetFacts(run.target));
  if (values.json) {
    io.out(JSON.stringify(summary, null, 2) + '\n');
  } else {
    const kv = summary.kv;
    io.out(
      [
        `engine        ${summary.engine.command}`,
        `exit          ${summary.engine.oomKilled ? 'OOM-killed' : summary.engine.signal ?? summary.engine.exitCode}`,
        `samples       ${summary.samples} (${summary.lostSamples} lost) over ${(summary.durationMs / 1000).toFixed(1)} s`,
        `KV mode       ${kv.mode}`,
        `bytes/token   theory ${kv.theoryBytesPerToken ?? '–'}, measured ${kv.measuredBytesPerToken?.toFixed(0) ?? '–'}, overhead ×${kv.overheadFactor?.toFixed(3) ?? '–'}`,
        `baseline      ${fmtMiB(kv.baselineBytes)}, peak RSS ${fmtMiB(summary.peakRssBytes)}`,
        `budget        ${fmtMiB(summary.budgetBytes)}: OOM horizon ${summary.oomHorizonTokens ?? '–'} tokens, max safe context ${summary.maxSafeContextTokens ?? '–'}`,
        `throughput    TTFT ${summary.throughput.ttftMs?.toFixed(0) ?? '–'} ms, decode ${summary.throughput.decodeTokensPerSecond?.toFixed(1) ?? '–'} tok/s, ${summary.throughput.tokens} tokens`,
      ].join('\n') + '\n',
    );
  }
  return run.status.state === 'failed' ? 1 : 0;
}
