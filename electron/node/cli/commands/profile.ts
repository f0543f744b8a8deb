// `kvscope profile <target> (--engine "<cmd>" | --demo …) …` (docs/DESIGN.md): one run, measured,
// summarised. Progress on stderr; with --json exactly one JSON document on stdout.
//
// Two variants, options added to the contract (nothing of it changed):
// - `--sweep 512,2048,8192,…`: one run per context size (`{ctx}` in --engine, or the demo's
//   --ctx), one after the other; the summary of the last run that completed plus `sweep`
//   (points, measured vs theory bytes/token, overhead, mode, max context for --budget).
// - server mode, `--server-url http://127.0.0.1:PORT/v1` (as seen from the target; PORT 0 = the
//   port the server prints): the --engine command starts an OpenAI-compatible server, kvscope
//   waits for it (through an SSH port forward on SSH targets), sends `--turns N` streamed
//   requests (`--api chat|completions`, `--prompt TEXT` or `--prompt-file FILE`, `--tokens N`
//   max tokens per turn, `--ignore-eos`), each turn sending the conversation back so the context
//   grows, then stops the run. `throughput` is measured by the client (first turn) and
//   `server` holds every turn: TTFT, prefill and decode tokens/s, per-token times, and the
//   server's own `timings`. The conversation is driven by electron/node/engines/server-run.ts,
//   as for a server run started from the app.
// - `--no-<id>` and `--<id>-interval-ms N` per collector (shared/collectors/registry.ts; `profile
//   --help` lists them), and `collectors.<id>` in the summary: how each collector fared.
//
// The summary is the run record's (shared/analysis/run-summary.ts, sweep-summary.ts): the same
// functions give the same document from the session `--out` wrote.
import type { OptionGroup } from '../cli-help';
import { INTERRUPT_STOP_REASON } from '../../../../shared/run/run-labels';
import { readFile } from 'node:fs/promises';
import {
  RunRequestSchema,
  SERVER_MODE_DEFAULTS,
  type RunRequest,
  type ServerMode,
} from '../../../../shared/api/schemas';
import {
  CliError,
  type CliIo,
  issueInCliWords,
  parseBytes,
  type SchemaIssue,
  terminalText,
  parseCliArgs,
  parseDurationMs,
  parseIntArg,
  valueOptions,
} from '../cli-io';
import { demoCliOptions, demoOptionsFromCli } from '../../demo-engine/demo-config';
import { RunService } from '../../run/run-service';
import { summarizeRun, type ProfileSummaryOutput } from '../../../../shared/analysis/run-summary';
import { summarizeProfile } from '../../../../shared/analysis/sweep-summary';
import { collectorSettingsProblem, type CollectorSettings } from '../../../../shared/collectors/collector-plan';
import { COLLECTORS } from '../../../../shared/collectors/registry';
import { targetFactsOf, type TargetFacts } from '../../../../shared/run/target-facts';
import { parseSweepSizes, runSweep, SweepError } from '../../run/sweep';
import { DEFAULT_SERVER_READY_TIMEOUT_MS } from '../../engines/server-profile';
import { driveServerMode, engineOutputCollector } from '../../engines/server-run';
import type { RunController } from '../../run/run-controller';
import { cliTargetSupport } from '../cli-targets';
import { stopOnSignals } from '../cli-signals';
import { redact, redactJson } from '../../util/redact';
import { openProfileOutputs, type ProfileOutputs } from '../../session/profile-outputs';
import { ProfileProgress, runFailure } from '../cli-progress'; // H6: progress on stderr, the run's exit line

const options = {
  ...demoCliOptions,
  ...cliTargetSupport.options,
  ...valueOptions(
    'engine',
    'gguf',
    'budget',
    'memory-limit',
    'interval-ms',
    'duration',
    'sweep',
    'out',
    'report',
    'token-regex',
    'server-url',
    'api',
    'prompt-file',
    'turns',
    'server-timeout',
  ),
  demo: { type: 'boolean' },
  'keep-running': { type: 'boolean' },
  json: { type: 'boolean' },
  'ignore-eos': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Per collector: `--no-<id>`, and `--<id>-interval-ms N` for those with an interval of their own. */
const collectorOptions: Record<string, { type: 'boolean' | 'string' }> = {};
for (const c of COLLECTORS) {
  collectorOptions[`no-${c.id}`] = { type: 'boolean' };
  if (c.interval !== 'run') collectorOptions[`${c.id}-interval-ms`] = { type: 'string' };
}

/** The collector switches for `profile --help` (electron/node/cli/cli-help.ts appends them). */
export function helpOptions(): OptionGroup[] {
  return [
    {
      title: 'Collectors (each starts by default where the target has its source)',
      options: COLLECTORS.flatMap((c) => [
        {
          flags: `--no-${c.id}`,
          description: `${c.title}: off${c.interval === 'run' ? ' (samples at --interval-ms)' : ''}`,
        },
        ...(c.interval === 'run'
          ? []
          : [
              {
                flags: `--${c.id}-interval-ms <N>`,
                description: `${c.title} every N ms (${c.interval.minMs}..${c.interval.maxMs}, default ${c.interval.defaultMs})`,
              },
            ]),
      ]),
    },
  ];
}

/** RunRequest.collectors from the CLI's collector switches; undefined when none was given. */
function collectorSettingsFromCli(values: Record<string, unknown>): Record<string, CollectorSettings> | undefined {
  const settings: Record<string, CollectorSettings> = {};
  for (const c of COLLECTORS) {
    const s: CollectorSettings = {};
    if (values[`no-${c.id}`] === true) s.enabled = false;
    const interval = values[`${c.id}-interval-ms`];
    if (typeof interval === 'string') s.intervalMs = parseIntArg(interval, `--${c.id}-interval-ms`, 1);
    if (Object.keys(s).length > 0) settings[c.id] = s;
  }
  const problem = collectorSettingsProblem(settings);
  if (problem) throw new CliError(problem, 2);
  return Object.keys(settings).length > 0 ? settings : undefined;
}

/** The option a run request's field comes from (the rest is checked before the request is built). */
const OPTION_OF_REQUEST_PATH: Record<string, string> = {
  intervalMs: '--interval-ms',
  tokens: '--tokens',
  durationMs: '--duration',
  budgetBytes: '--budget',
  memoryLimitBytes: '--memory-limit',
  'engine.ctx': '--ctx',
  'engine.tokenRegex': '--token-regex',
};

/** A run request's schema issue in the CLI's words: `--interval-ms: at most 60000`, not zod's. */
function requestIssueInCliWords(issue: SchemaIssue & { path: readonly PropertyKey[] }): string {
  const path = issue.path.map(String).join('.');
  return issueInCliWords(issue, OPTION_OF_REQUEST_PATH[path] ?? path);
}

const MIB = 1024 * 1024;
const fmtMiB = (b: number | null | undefined) => (b === null || b === undefined ? '–' : `${(b / MIB).toFixed(1)} MiB`);
const fmtN = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '–' : v.toFixed(digits));

/** Server mode: what the first turn asks when no --prompt is given. */
export const DEFAULT_SERVER_PROMPT = SERVER_MODE_DEFAULTS.prompt;
/** Server mode: max tokens per turn without --tokens. */
export const DEFAULT_SERVER_TOKENS = SERVER_MODE_DEFAULTS.maxTokens;
/** Server mode: the server's log lines on stdout are not counted as tokens. */
const NO_TOKENS_REGEX = SERVER_MODE_DEFAULTS.noTokensRegex;

function parseProfileArgs(args: string[]) {
  return parseCliArgs(args, { ...options, ...collectorOptions });
}
type ProfileValues = ReturnType<typeof parseProfileArgs>['values'];

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseProfileArgs(args);
  if (positionals.length !== 1)
    throw new CliError('expected exactly one target (local, user@host[:port], ssh://…, or a ~/.ssh/config alias)', 2);
  if (!values.demo === !values.engine) throw new CliError('give either --engine "<command on target>" or --demo', 2);
  const serverMode = values['server-url'] !== undefined;
  if (serverMode && values.demo)
    throw new CliError('--server-url needs --engine "<command that starts the server>"', 2);
  if (serverMode && values.sweep)
    throw new CliError(
      '--sweep and --server-url cannot be combined (sweep a server by running one profile per context size)',
      2,
    );
  for (const o of ['api', 'prompt-file', 'turns', 'ignore-eos', 'server-timeout'] as const) {
    if (values[o] !== undefined && !serverMode) throw new CliError(`--${o} applies to server mode (--server-url)`, 2);
  }
  if (values.prompt !== undefined && !serverMode && !values.demo)
    throw new CliError('--prompt applies to --demo (prompt tokens) and server mode (--server-url)', 2);
  const [targetText = ''] = positionals;
  const target = await cliTargetSupport.targetFromCli(targetText, values);
  const ctx = parseIntArg(values.ctx, '--ctx');
  const budgetBytes = values.budget ? parseBytes(values.budget, '--budget') : undefined;
  const memoryLimitBytes = values['memory-limit'] ? parseBytes(values['memory-limit'], '--memory-limit') : undefined;
  const intervalMs = parseIntArg(values['interval-ms'], '--interval-ms', 20) ?? 200;
  const durationMs = values.duration ? parseDurationMs(values.duration, '--duration') : undefined;
  const tokens = parseIntArg(values.tokens, '--tokens');
  let sweepSizes: number[] | null = null;
  if (values.sweep) {
    try {
      sweepSizes = parseSweepSizes(values.sweep);
    } catch (error) {
      throw new CliError((error as Error).message, 2);
    }
    if (values.engine && !values.engine.includes('{ctx}'))
      throw new CliError('--sweep needs {ctx} in --engine (e.g. "llama-cli -m model.gguf -c {ctx} -n 64")', 2);
  }

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
          tokenRegex: values['token-regex'] ?? (serverMode ? NO_TOKENS_REGEX : undefined),
        },
    budgetBytes,
    intervalMs,
    tokens: values.demo || serverMode ? undefined : tokens,
    durationMs,
    keepRunning: values['keep-running'] ?? false,
    collectors: collectorSettingsFromCli(values),
    memoryLimitBytes,
  };
  const parsed = RunRequestSchema.safeParse(requestInput);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new CliError(issue ? requestIssueInCliWords(issue) : 'invalid run request', 2);
  }
  const request: RunRequest = parsed.data;
  // --out / --report: checked now, the session recorded while the runs run, the report at the end.
  const outputs = openProfileOutputs({ out: values.out, report: values.report }, io);

  try {
    if (sweepSizes) return await sweep(request, sweepSizes, values, io, outputs);
    return await profileOnce(request, values, { serverMode, tokens }, io, outputs);
  } catch (error) {
    outputs?.abort();
    throw error;
  }
}

/** One run (not a sweep), recorded into `outputs` when given; its summary printed. */
async function profileOnce(
  request: RunRequest,
  values: ProfileValues,
  { serverMode, tokens }: { serverMode: boolean; tokens: number | undefined },
  io: CliIo,
  outputs: ProfileOutputs | null,
): Promise<number> {
  // Server mode: its options checked before anything runs; the engine's output is read for the
  // port it listens on (--server-url …:0).
  const server: ServerMode | null = serverMode
    ? {
        url: values['server-url'] as string,
        api: serverApi(values.api),
        prompts: [
          values['prompt-file']
            ? await readPromptFile(values['prompt-file'])
            : (values.prompt ?? DEFAULT_SERVER_PROMPT),
        ],
        turns: parseIntArg(values.turns, '--turns') ?? 1,
        maxTokens: tokens ?? DEFAULT_SERVER_TOKENS,
        ignoreEos: values['ignore-eos'] ?? false,
        readyTimeoutMs: values['server-timeout']
          ? parseDurationMs(values['server-timeout'], '--server-timeout')
          : DEFAULT_SERVER_READY_TIMEOUT_MS,
      }
    : null;
  const engineOutput = engineOutputCollector();
  const service = new RunService(
    () => {},
    cliTargetSupport.targetFactory(values, (line) => io.err(`kvscope profile: ${line}\n`)),
  );
  const run = await service.start(request, { listener: server ? engineOutput.listener : undefined });
  outputs?.recordRun(run);
  // The board's facts are gathered while the engine runs: the target is closed with the run.
  const factsPromise = cliTargetSupport.targetFacts(run.target);
  io.err(`kvscope profile: run ${run.runId} on ${run.target.label}, run directory ${run.dir}\n`);
  const stopSignals = stopOnSignals(io, 'profile', () => run.stop(INTERRUPT_STOP_REASON));
  const progress = new ProfileProgress(io); // H6: live line + alerts on stderr
  progress.follow(run);
  let serverError: string | null = null;
  try {
    if (server)
      serverError = await driveServerMode(run, server, engineOutput.text, (line) => io.err(`kvscope profile: ${line}`));
    await run.done;
  } finally {
    progress.stop(); // H6
    stopSignals();
    await service.dispose();
  }
  if (serverError) throw new CliError(`server mode: ${serverError}`);
  if (run.status.state === 'failed' && run.samples.length === 0) {
    throw new CliError(run.status.error ?? 'the run failed');
  }
  const facts = targetFactsOf(await factsPromise) ?? {};
  outputs?.setTarget(facts);
  printSummary(summarizeRun({ ...run.record(), target: facts }), values.json === true, io);
  await outputs?.finish();
  // H6: a failed or killed run exits non-zero with its reason as the one stderr line (main.ts).
  const failure = runFailure(run);
  if (failure) throw failure;
  return 0;
}

function serverApi(text: string | undefined): 'chat' | 'completions' {
  if (text === undefined || text === 'chat') return 'chat';
  if (text === 'completions') return 'completions';
  throw new CliError(`--api: expected chat or completions, got "${text}"`, 2);
}

async function readPromptFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(
      `--prompt-file: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      2,
    );
  }
}

async function sweep(
  request: RunRequest,
  sizes: number[],
  values: { json?: boolean } & Record<string, unknown>,
  io: CliIo,
  outputs: ProfileOutputs | null = null,
): Promise<number> {
  const service = new RunService(
    () => {},
    cliTargetSupport.targetFactory(values, (line) => io.err(`kvscope profile: ${line}\n`)),
  );
  let result;
  // The board's facts, gathered during the first run (each run's target closes with it).
  let factsPromise: Promise<Record<string, unknown>> | null = null;
  const progress = new ProfileProgress(io); // H6
  const runs: RunController[] = [];
  // The first signal stops the sweep (runSweep stops its current run and starts no other); the
  // handlers also give it a single run's stop line, second-signal exit and deadline (cli-signals.ts).
  const sweepStop = new AbortController();
  const stopSignals = stopOnSignals(io, 'profile', () => Promise.resolve(sweepStop.abort()));
  try {
    result = await runSweep({
      runner: service,
      sizes,
      request,
      signal: sweepStop.signal,
      onProgress: (line) => io.err(`kvscope profile: ${line}`),
      onRun: (run, ctx) => {
        factsPromise ??= cliTargetSupport.targetFacts(run.target);
        runs.push(run);
        outputs?.recordRun(run);
        progress.follow(run); // H6
        io.err(`kvscope profile: run ${run.runId} (context ${ctx}) on ${run.target.label}, run directory ${run.dir}\n`);
      },
    });
  } catch (error) {
    if (error instanceof SweepError) throw new CliError(error.message);
    throw error;
  } finally {
    progress.stop(); // H6
    stopSignals();
    await service.dispose();
  }
  // A signal while the first size was starting stopped that start (runSweep): nothing ran.
  if (result.steps.length === 0 && result.plan.interrupted)
    throw new CliError("interrupted before the sweep's first run started: nothing ran");
  // The top-level fields describe the last run that completed (the largest context that ran).
  const firstRun = runs[0];
  if (!result.main || !firstRun)
    throw new CliError(
      `no sweep run produced samples: ${result.steps.map((s) => `${s.ctx}: ${s.point.error ?? 'failed'}`).join('; ')}`,
    );
  const facts: TargetFacts = targetFactsOf(await (factsPromise ?? cliTargetSupport.targetFacts(firstRun.target))) ?? {};
  outputs?.setTarget(facts);
  outputs?.setSweep(result.plan);
  const summary = summarizeProfile(
    runs.map((r) => ({ ...r.record(), target: facts })),
    result.plan,
  ) as ProfileSummaryOutput;
  printSummary(summary, values.json === true, io);
  await outputs?.finish();
  // H6: the failure as one line on stderr (main.ts), not a silent exit status.
  if (result.analysis.measuredBytesPerToken === null)
    throw new CliError('the sweep measured no memory per context token (see the summary for each run)');
  return 0;
}

/**
 * The summary on stdout, as JSON (`--json`) or for people. The engine's command and output in it
 * may carry a secret (an API key in the command line): masked (util/redact.ts), numbers untouched;
 * for people also without terminal control sequences (cli-io.ts terminalText).
 */
function printSummary(summary: ProfileSummaryOutput, json: boolean, io: CliIo): void {
  io.out(json ? redactJson(summary, 2) + '\n' : terminalText(redact(humanSummary(summary))));
}

function humanSummary(summary: ProfileSummaryOutput): string {
  const kv = summary.kv;
  const lines = [
    `engine        ${summary.engine.command}`,
    `exit          ${summary.engine.oomKilled ? 'OOM-killed' : (summary.engine.signal ?? summary.engine.exitCode)}`,
    `samples       ${summary.samples} (${summary.lostSamples} lost) over ${(summary.durationMs / 1000).toFixed(1)} s`,
    `KV mode       ${kv.mode}`,
    `bytes/token   theory ${kv.theoryBytesPerToken ?? '–'}, measured ${kv.measuredBytesPerToken?.toFixed(0) ?? '–'}, overhead ×${kv.overheadFactor?.toFixed(3) ?? '–'}`,
    `baseline      ${fmtMiB(kv.baselineBytes)}, peak RSS ${fmtMiB(summary.peakRssBytes)}`,
    `budget        ${fmtMiB(summary.budgetBytes)}: OOM horizon ${summary.oomHorizonTokens ?? '–'} tokens, max safe context ${summary.maxSafeContextTokens ?? '–'}`,
    `throughput    TTFT ${summary.throughput.ttftMs?.toFixed(0) ?? '–'} ms, decode ${summary.throughput.decodeTokensPerSecond?.toFixed(1) ?? '–'} tok/s, ${summary.throughput.tokens} tokens`,
  ];
  if (summary.leak) lines.push(`leak          ${summary.leak.leaking ? 'LEAK' : 'none'}: ${summary.leak.reason}`);
  if (summary.sweep) {
    const s = summary.sweep;
    lines.push(
      `sweep         ${s.points.length} runs, mode ${s.mode ?? '–'}, memory per context token: measured ${fmtN(s.measuredBytesPerToken, 0)}, theory ${s.theoryBytesPerToken ?? '–'}, overhead ×${fmtN(s.overheadFactor, 3)}, engine-reported ${fmtN(s.engineReportedBytesPerToken, 0)}`,
    );
    lines.push(
      `              baseline ${fmtMiB(s.baselineBytes)}, largest context within budget ${s.maxContextForBudget ?? '–'}${s.stoppedEarly ? ` (${s.stoppedEarly})` : ''}`,
    );
    for (const p of s.points) {
      lines.push(
        `  ctx ${String(p.ctx).padStart(8)}  ${p.oomKilled ? 'OOM-killed' : p.ok ? 'ok        ' : 'failed    '}  peak RSS ${fmtMiB(p.peakRssBytes).padStart(10)}  anon ${fmtMiB(p.peakAnonRssBytes).padStart(10)}  engine KV ${fmtMiB(p.engineKvBytes).padStart(10)}`,
      );
    }
  }
  if (summary.server) {
    const s = summary.server;
    lines.push(`server        ${s.url} (${s.api}), ${s.turns.length} turns`);
    for (const t of s.turns) {
      const st = t.serverTimings;
      lines.push(
        `  turn ${t.turn}: depth ${t.contextDepth ?? '–'}, TTFT ${fmtN(t.ttftMs, 0)} ms, prefill ${fmtN(t.prefillTokensPerSecond)} tok/s, decode ${fmtN(t.decodeTokensPerSecond)} tok/s (steady ${fmtN(t.steadyDecodeTokensPerSecond)}, stalls ${fmtN(t.stallMs, 0)} ms)` +
          (st ? ` (server: prompt ${fmtN(st.prompt_ms, 0)} ms, decode ${fmtN(st.predicted_per_second)} tok/s)` : ''),
      );
    }
  }
  return lines.join('\n') + '\n';
}
