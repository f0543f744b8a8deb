// Data shapes that cross a process boundary (IPC, the WebSocket bridge, the CLI's --json,
// session files). zod schemas are the single source; TypeScript types are inferred from them.
import { z } from 'zod';
import { AlertThresholdsSchema } from '../analysis/alert-thresholds';
import { tokenPatternProblem } from '../run/token-pattern';

/** KV cache element types llama.cpp can use for K and V (docs/DESIGN.md, "row_bytes"). */
export const KvTypeSchema = z.enum(['f32', 'f16', 'bf16', 'q8_0', 'q4_0', 'q4_1', 'q5_0', 'q5_1']);
export type KvType = z.infer<typeof KvTypeSchema>;

/** How an engine makes KV memory resident (docs/DESIGN.md, "Engines differ in when..."). */
export const KvModeSchema = z.enum(['growth', 'reserved', 'window']);
export type KvMode = z.infer<typeof KvModeSchema>;

const hostName = z
  .string()
  .min(1)
  .max(253)
  // A host name, an IPv4/IPv6 literal or an ssh_config alias: never anything a shell or ssh
  // option parser could read as something else.
  .regex(/^[\w.:%\-[\]]+$/, 'host may contain letters, digits, . _ - : % [ ] only')
  .refine((h) => !h.startsWith('-'), 'host must not start with "-"');

export const SshTargetSpecSchema = z.object({
  kind: z.literal('ssh'),
  host: hostName,
  port: z.number().int().min(1).max(65535).optional(),
  user: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w.-]+$/, 'user may contain letters, digits, . _ - only')
    .optional(),
  /** The ~/.ssh/config Host alias this target came from, when it came from one. */
  alias: z.string().max(253).optional(),
  identityFile: z.string().max(4096).optional(),
  /** ProxyJump chain, outermost first: "user@host[:port]". */
  jump: z.array(z.string().max(300)).max(8).optional(),
  knownHostsFile: z.string().max(4096).optional(),
  acceptNewHostKey: z.boolean().optional(),
  /** Name of an environment variable holding the password (CLI); never the password itself. */
  passwordEnv: z
    .string()
    .regex(/^[A-Z_]\w*$/i)
    .optional(),
  keepaliveSec: z.number().int().min(0).max(3600).optional(),
});
export type SshTargetSpec = z.infer<typeof SshTargetSpecSchema>;

export const TargetSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  SshTargetSpecSchema,
]);
export type TargetSpec = z.infer<typeof TargetSpecSchema>;

/**
 * A board as the app lists it: This computer (id "local") or a saved one (board-store.ts in
 * electron/node/boards/). `spec` is the target a run on it connects to.
 */
export const BoardInfoSchema = z.object({
  id: z.string(),
  label: z.string(),
  spec: TargetSpecSchema,
  /** Saved boards only: how many remembered credentials (passwords, passphrases) the app holds for it. */
  rememberedSecrets: z.number().int().min(0).optional(),
});
export type BoardInfo = z.infer<typeof BoardInfoSchema>;

// ---- boards, prompts, secrets (the app's side of SSH: electron/node/boards/) ------------------

/** Ids of boards: safe in a file, a data-testid and a secret key. "local" is This computer. */
export const BoardIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'board id: lower-case letters, digits and -');

/**
 * How a saved board is reached: SshTargetSpecSchema without what only the CLI may use
 * (passwordEnv reads the app's own environment; acceptNewHostKey skips the fingerprint dialog),
 * and strict, so a `password` or any other unknown field is refused rather than silently dropped.
 */
export const BoardSpecSchema = SshTargetSpecSchema.omit({
  passwordEnv: true,
  acceptNewHostKey: true,
}).strict();
export type BoardSpec = z.infer<typeof BoardSpecSchema>;

export const BoardLabelSchema = z.string().trim().min(1, 'a name is required').max(100, 'at most 100 characters');

/** One concrete Host of ~/.ssh/config, resolved the way ssh(1) would, ready to be saved. */
export const SshConfigHostSchema = z.object({
  alias: z.string(),
  hostName: z.string(),
  user: z.string().optional(),
  port: z.number().optional(),
  proxyJump: z.array(z.string()),
  /** Every IdentityFile, expanded; the first is what a board uses. */
  identityFiles: z.array(z.string()),
  knownHostsFile: z.string().optional(),
  /** Directives KVScope ignores for this host (ProxyCommand…). */
  unsupported: z.array(z.string()),
  /** What saveBoard would store, or null when the entry cannot be a board (then `problem` says why). */
  spec: BoardSpecSchema.nullable(),
  problem: z.string().optional(),
  /** A board with this alias is already saved. */
  savedBoardId: z.string().optional(),
});
export type SshConfigHost = z.infer<typeof SshConfigHostSchema>;

/** Can the app remember a password, and if not, why (shown next to the "remember" checkbox). */
export const SecretStorageStatusSchema = z.object({
  available: z.boolean(),
  /** keychain, dpapi, gnome_libsecret, kwallet…, basic_text, none */
  backend: z.string(),
  reason: z.string().nullable(),
});
export type SecretStorageStatus = z.infer<typeof SecretStorageStatusSchema>;

export const PromptIdSchema = z.string().regex(/^[\w-]{1,64}$/);

/** An unknown host key: the user compares the fingerprint with the board's before accepting. */
export const HostKeyPromptSchema = z.object({
  requestId: PromptIdSchema,
  /** The board being connected (its saved name, or user@host:port). */
  boardLabel: z.string(),
  /** The hop whose key this is (a jump host's, or the board's). */
  host: z.string(),
  port: z.number(),
  /** As in the key blob: ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa… */
  keyType: z.string(),
  /** SHA256:… as `ssh-keygen -lf` prints it. */
  fingerprint: z.string(),
  /** Where an accepted key is stored (the app's own known_hosts). */
  knownHostsPath: z.string(),
  /** Epoch ms after which the prompt is cancelled. */
  expiresAt: z.number(),
});
export type HostKeyPrompt = z.infer<typeof HostKeyPromptSchema>;

export const CredentialPromptSchema = z.object({
  requestId: PromptIdSchema,
  kind: z.enum(['password', 'passphrase']),
  boardLabel: z.string(),
  /** password: user@host[:port] of the hop that asks. */
  account: z.string().optional(),
  /** passphrase: the encrypted identity file. */
  keyFile: z.string().optional(),
  /** Whether "remember" is possible here, and why not (SecretStorageStatus.reason). */
  canRemember: z.boolean(),
  rememberNote: z.string().nullable(),
  /**
   * Asked again because the previous answer was wrong (a passphrase that did not unlock its key):
   * which attempt this is, of how many, and why, in the words the dialog shows. Absent on a first
   * question (and from callers older than it).
   */
  retry: z
    .object({
      attempt: z.number().int().min(2),
      maxAttempts: z.number().int().min(2),
      reason: z.string(),
    })
    .optional(),
  expiresAt: z.number(),
});
export type CredentialPrompt = z.infer<typeof CredentialPromptSchema>;

export const PendingPromptSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('hostKey'), prompt: HostKeyPromptSchema }),
  z.object({ kind: z.literal('credential'), prompt: CredentialPromptSchema }),
]);
export type PendingPrompt = z.infer<typeof PendingPromptSchema>;

export const PromptClosedSchema = z.object({
  requestId: PromptIdSchema,
  reason: z.enum(['answered', 'timeout', 'cancelled']),
});
export type PromptClosed = z.infer<typeof PromptClosedSchema>;

/** Options of the synthetic reference workload (docs/DESIGN.md, `kvscope demo-engine`). */
export const DemoOptionsSchema = z.object({
  layers: z.number().int().min(1).max(512).default(16),
  kvHeads: z.number().int().min(1).max(1024).default(8),
  headDim: z.number().int().min(1).max(4096).default(64),
  kvType: KvTypeSchema.default('f16'),
  tokens: z.number().int().min(1).max(10_000_000).default(2000),
  tps: z.number().min(0.1).max(100_000).default(40),
  mode: KvModeSchema.default('growth'),
  ctx: z.number().int().min(1).max(10_000_000).default(4096),
  block: z.number().int().min(1).max(65_536).default(16),
  window: z.number().int().min(1).max(10_000_000).optional(),
  weightsMb: z.number().min(0).max(65_536).default(64),
  /** Extra bytes leaked per token on top of the KV cache (a deliberate leak, for leak detection). */
  leakBytesPerToken: z
    .number()
    .int()
    .min(0)
    .max(1 << 30)
    .default(0),
  /** Prompt tokens processed before the first generated token (llama.cpp-style prefill). */
  promptTokens: z.number().int().min(0).max(1_000_000).default(32),
  /** Pause between loading weights and creating the cache, so a sampler sees both states. */
  loadGapMs: z.number().int().min(0).max(60_000).default(600),
});
export type DemoOptions = z.infer<typeof DemoOptionsSchema>;
export type DemoOptionsInput = z.input<typeof DemoOptionsSchema>;

/** An engine command line on the target (`kvscope profile --engine`). */
export const CommandEngineSchema = z.object({
  kind: z.literal('command'),
  /** A shell command line on the target, as the user typed it; `{ctx}` is substituted. */
  command: z.string().min(1).max(16_384),
  /** Path of the GGUF model on the target, for exact KV theory. */
  gguf: z.string().max(4096).optional(),
  kvType: KvTypeSchema.optional(),
  ctx: z.number().int().min(1).max(10_000_000).optional(),
  /**
   * Regex that matches once per generated token in stdout (otherwise chunk arrivals count). A new
   * run's must match in linear time (NewRunRequestSchema); a stored run's is read as it was.
   */
  tokenRegex: z.string().max(1000).optional(),
});

export const EngineSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('demo'), demo: DemoOptionsSchema }),
  CommandEngineSchema,
]);
export type EngineSpec = z.infer<typeof EngineSpecSchema>;

export const RunRequestSchema = z.object({
  target: TargetSpecSchema,
  engine: EngineSpecSchema,
  budgetBytes: z.number().int().positive().optional(),
  intervalMs: z.number().int().min(20).max(60_000).default(200),
  /** Stop after this many generated tokens (engine command runs only). */
  tokens: z.number().int().positive().optional(),
  durationMs: z.number().int().positive().optional(),
  label: z.string().max(200).optional(),
  /** Keep the engine running on the target when the app quits or the link is lost for good. */
  keepRunning: z.boolean().default(false),
  /**
   * Per collector (shared/collectors/registry.ts ids): turn it off, or set its interval within its
   * range. Collectors not named start with their defaults where the target has their source.
   */
  collectors: z
    .record(
      z.string().regex(/^[a-z][a-z0-9]*$/),
      z.object({ enabled: z.boolean().optional(), intervalMs: z.number().int().min(20).max(3_600_000).optional() }),
    )
    .optional(),
  /**
   * Run the engine in a memory cgroup of this size on the target (`--memory-limit`): emulate a
   * smaller board. Needs root or a delegated cgroup there (electron/node/run/run-scripts.ts).
   */
  memoryLimitBytes: z.number().int().positive().optional(),
  /**
   * The user's alert thresholds and switches (the dashboard's Alerts… popover): the alerts the run
   * raises itself (its events, the session's, `profile --json`'s) follow them. Absent: the defaults.
   */
  alertThresholds: AlertThresholdsSchema.optional(),
});
export type RunRequest = z.infer<typeof RunRequestSchema>;
export type RunRequestInput = z.input<typeof RunRequestSchema>;

// ---- server mode and sweeps: what `profile --server-url` and `profile --sweep` do, for the app ----

/** Server mode's prompts: each at most this many characters, at most this many prompts. */
export const SERVER_PROMPT_LIMITS = { maxChars: 100_000, maxPrompts: 1000 } as const;

/** Server mode's defaults (the CLI's and the run form's), each with its reason. */
export const SERVER_MODE_DEFAULTS = {
  /** A story opening: a story model goes on with it, a chat model answers it. */
  prompt: 'Once upon a time, in a small town at the edge of the forest,',
  /** Max tokens per turn: long enough for a stable decode slope. */
  maxTokens: 128,
  /** A 7B model from an SD card on a Pi takes a minute or two to load: two minutes before giving up. */
  readyTimeoutMs: 120_000,
  /** Port 0: the port the server prints when it starts listening (electron/node/engines/server-profile.ts). */
  url: 'http://127.0.0.1:0/v1',
  /**
   * A regex that never matches (a class of no character), so the server's log lines on stdout are
   * not counted as tokens; a linear-time one, as every token pattern (shared/run/token-pattern.ts).
   * Runs started before it hold `(?!)` (LEGACY_NO_TOKENS_REGEX).
   */
  noTokensRegex: String.raw`[^\s\S]`,
} as const;

/** Server mode's never-matching pattern before it had to be linear: a recovered run of then may hold it. */
export const LEGACY_NO_TOKENS_REGEX = '(?!)';

/** How long a server may take to answer: at least a second (a poll), at most an hour (a huge model off a slow disk). */
export const SERVER_READY_TIMEOUT_BOUNDS_MS = { min: 1000, max: 3_600_000 } as const;

/**
 * Server mode (`kvscope profile --server-url`): the engine command starts an OpenAI-compatible
 * server; the client sends `turns` streamed requests, each sending the conversation back.
 */
export const ServerModeSchema = z
  .object({
    /** As seen from the target, ending in /v1; port 0 = the one the server prints. */
    url: z
      .string()
      .max(2048)
      .regex(/^https?:\/\/[^\s/]+(?:\/\S*)?$/, 'an http:// or https:// address'),
    api: z.enum(['chat', 'completions']).default('chat'),
    /** The user's messages in order: turn k says prompts[k−1] (the first prompt without any). */
    prompts: z
      .array(z.string().min(1).max(SERVER_PROMPT_LIMITS.maxChars))
      .max(SERVER_PROMPT_LIMITS.maxPrompts)
      .default([]),
    /** Turns of the conversation; default: one per prompt (at least one). */
    turns: z.number().int().min(1).max(1000).optional(),
    /** Max tokens per turn. */
    maxTokens: z.number().int().min(1).max(1_000_000).default(SERVER_MODE_DEFAULTS.maxTokens),
    /** Ask the server to generate maxTokens regardless of end-of-sequence (llama-server's ignore_eos). */
    ignoreEos: z.boolean().default(false),
    readyTimeoutMs: z
      .number()
      .int()
      .min(SERVER_READY_TIMEOUT_BOUNDS_MS.min)
      .max(SERVER_READY_TIMEOUT_BOUNDS_MS.max)
      .default(SERVER_MODE_DEFAULTS.readyTimeoutMs),
  })
  .strict();
export type ServerMode = z.infer<typeof ServerModeSchema>;
export type ServerModeInput = z.input<typeof ServerModeSchema>;

/**
 * A name the caller gives a start before it has a run id (the window's Stop while "Starting…":
 * cancelStart). Not part of the run: it is not recorded.
 */
export const StartKeySchema = z.string().regex(/^[\w-]{8,64}$/);

/** A new run's token pattern must match in linear time (shared/run/token-pattern.ts): said at its field. */
function refuseSlowTokenPattern(request: { engine: EngineSpec }, ctx: z.RefinementCtx): void {
  const source = request.engine.kind === 'command' ? request.engine.tokenRegex : undefined;
  const problem = source === undefined ? null : tokenPatternProblem(source);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem, path: ['engine', 'tokenRegex'] });
}

/** A run to start (startSweep's request): a RunRequest whose token pattern matches in linear time. */
export const NewRunRequestSchema = RunRequestSchema.superRefine(refuseSlowTokenPattern);

/** What startRun takes: a run, server mode when the command starts a server, and the start's key. */
export const StartRunInputSchema = RunRequestSchema.extend({
  server: ServerModeSchema.optional(),
  startKey: StartKeySchema.optional(),
}).superRefine(refuseSlowTokenPattern);
export type StartRunInput = z.input<typeof StartRunInputSchema>;

/** The context sizes of a sweep (shared/run/sweep-sizes.ts reads them from text). */
export const SweepSizesSchema = z.array(z.number().int().min(1).max(10_000_000)).min(2).max(32);

/** One finished step of a sweep (shared/analysis/sweep.ts SweepPoint, the fields the app shows). */
export const SweepPointSchema = z.object({
  ctx: z.number(),
  peakRssBytes: z.number().nullable(),
  peakAnonRssBytes: z.number().nullable().optional(),
  engineKvBytes: z.number().nullable().optional(),
  exitCode: z.number().nullable(),
  oomKilled: z.boolean(),
  ok: z.boolean(),
  error: z.string().optional(),
  tokens: z.number().optional(),
  decodeTokensPerSecond: z.number().nullable().optional(),
});
export type SweepPointRow = z.infer<typeof SweepPointSchema>;

/** A sweep started from the app, as it goes: its runs one after the other, then the fit. */
export const SweepStatusSchema = z.object({
  sweepId: z.string(),
  state: z.enum(['running', 'done', 'failed', 'stopped']),
  sizes: z.array(z.number()),
  /** The runs started so far, in order; the last one is the one going on while the sweep runs. */
  runs: z.array(z.object({ ctx: z.number(), runId: z.string() })),
  /** Finished steps, in order (a step that could not start has no run). */
  points: z.array(SweepPointSchema),
  /** The KV curve over the sizes, once the sweep is over (shared/analysis/sweep.ts SweepSummary). */
  result: z
    .object({
      measuredBytesPerToken: z.number().nullable(),
      theoryBytesPerToken: z.number().nullable(),
      overheadFactor: z.number().nullable(),
      mode: KvModeSchema.nullable(),
      maxContextForBudget: z.number().nullable(),
      baselineBytes: z.number().nullable(),
      fitR2: z.number().nullable(),
      stoppedEarly: z.string().nullable(),
    })
    .nullable(),
  error: z.string().optional(),
});
export type SweepStatus = z.infer<typeof SweepStatusSchema>;

/**
 * One observation. Open-ended on purpose: a collector adds series by adding keys.
 * tMs is milliseconds on the target's monotonic clock since the run started.
 * Memory keys are bytes (rssBytes, rssAnonBytes, rssFileBytes, ...), tokens is a count.
 */
export const SampleSchema = z.object({
  tMs: z.number(),
  source: z.string().max(64),
  values: z.record(z.string(), z.number().nullable()),
});
export type Sample = z.infer<typeof SampleSchema>;

export const RunEventKindSchema = z.enum([
  'start',
  'stop',
  'exit',
  'disconnect',
  'reconnect',
  'throttle',
  'alert',
  'oom',
  'error',
  'info',
  /** A user's marker (the dashboard's Marker button / M key, the addMarker API method). */
  'marker',
]);
export const RunEventSchema = z.object({
  tMs: z.number(),
  kind: RunEventKindSchema,
  message: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type RunEvent = z.infer<typeof RunEventSchema>;

export const RunStateSchema = z.enum(['starting', 'running', 'stopping', 'done', 'failed']);
export type RunState = z.infer<typeof RunStateSchema>;

/**
 * The charge the kernel acts on at the point the OOM horizon is projected from: the engine's
 * memory cgroup (source `cgroup`) or, without a cgroup budget, the engine process (`process`:
 * anonymous RSS). Null parts were not measured.
 */
export const HorizonBasisSchema = z.object({
  source: z.enum(['cgroup', 'process']),
  anonBytes: z.number(),
  kernelBytes: z.number().nullable(),
  unreclaimableFileBytes: z.number().nullable(),
  nvmapBytes: z.number().nullable(),
});
export type HorizonBasis = z.infer<typeof HorizonBasisSchema>;

/** Where the budget came from: `--budget`, `--memory-limit`, the engine's cgroup limit, MemAvailable at the start. */
export const BudgetSourceSchema = z.enum(['flag', 'memory-limit', 'cgroup', 'memavailable']);
export type BudgetSource = z.infer<typeof BudgetSourceSchema>;

export const KvSummarySchema = z.object({
  theoryBytesPerToken: z.number().nullable(),
  measuredBytesPerToken: z.number().nullable(),
  overheadFactor: z.number().nullable(),
  mode: KvModeSchema,
  baselineBytes: z.number().nullable(),
  /** Size of the step at start (reserved mode): RSS right after the reservation minus before. */
  reservedJumpBytes: z.number().nullable().optional(),
  theoryReservedBytes: z.number().nullable().optional(),
  /** Robust slope of RSS against generated tokens during decode (≈ 0 in reserved mode). */
  decodeSlopeBytesPerToken: z.number().nullable().optional(),
  /** Which RSS series the fit used: anonymous memory when sampled, else total RSS. */
  rssMetric: z.enum(['rssAnonBytes', 'rssBytes']).nullable().optional(),
  /** r² of the decode fit (growth/window), null when not meaningful. */
  fitR2: z.number().nullable().optional(),
  /** Window mode: generated tokens at which RSS stopped growing. */
  windowTokens: z.number().nullable().optional(),
  /** What the OOM horizon was projected from, part by part (shared/analysis/run-analysis.ts). */
  horizonBasis: HorizonBasisSchema.nullable().optional(),
});
export type KvSummary = z.infer<typeof KvSummarySchema>;

/** Leak verdict (shared/analysis/leak.ts): RSS growing per token beyond what the KV cache explains. */
export const LeakSummarySchema = z.object({
  leaking: z.boolean(),
  /** The per-token growth judged (excess over theory in growth mode, raw slope where flat is expected). */
  bytesPerToken: z.number().nullable(),
  thresholdBytesPerToken: z.number().nullable(),
  tokensObserved: z.number(),
  /** 0..1: how firmly the series supports the verdict (consistency across quarters × length). */
  confidence: z.number(),
  reason: z.string(),
});
export type LeakSummary = z.infer<typeof LeakSummarySchema>;

export const ThroughputSchema = z.object({
  ttftMs: z.number().nullable(),
  prefillTokensPerSecond: z.number().nullable(),
  decodeTokensPerSecond: z.number().nullable(),
  /**
   * Tokens/s as they reached stdout (fit over arrival times): below the decode rate by what the
   * engine spends sampling and printing. Absent from analyses made before it existed.
   */
  deliveredTokensPerSecond: z.number().nullable().optional(),
  tokens: z.number(),
  /**
   * Weight bytes one decoded token reads, for the decode roofline (bandwidth ÷ (weights + KV)):
   * the model's size as the engine logged it, else the memory resident before the cache
   * (shared/analysis/run-analysis.ts weightBytesPerToken). Absent from analyses made before it existed.
   */
  weightBytes: z.number().nullable().optional(),
});
export type Throughput = z.infer<typeof ThroughputSchema>;

/** The headline numbers a run's analysis and its `profile --json` summary both carry, in this order. */
const HEADLINE_SHAPE = {
  kv: KvSummarySchema,
  budgetBytes: z.number().nullable(),
  budgetSource: BudgetSourceSchema.nullable().optional(),
  oomHorizonTokens: z.number().nullable(),
  maxSafeContextTokens: z.number().nullable(),
  throughput: ThroughputSchema,
};

/** The live and final analysis of a run: every number the UI shows comes from here. */
export const RunAnalysisSchema = z.object({
  ...HEADLINE_SHAPE,
  lastRssBytes: z.number().nullable(),
  peakRssBytes: z.number().nullable(),
  leak: LeakSummarySchema.optional(),
});
export type RunAnalysis = z.infer<typeof RunAnalysisSchema>;

export const RunStatusSchema = z.object({
  runId: z.string(),
  state: RunStateSchema,
  label: z.string(),
  error: z.string().optional(),
  engineExitCode: z.number().nullable().optional(),
});
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** `profile --json` `collectors.<id>`: how a collector fared in a run (shared/collectors/registry.ts). */
export const CollectorStatusSchema = z.object({
  status: z.enum(['ok', 'absent', 'denied', 'failed']),
  /** Samples it produced. */
  samples: z.number().int().min(0),
  /** Lines of its output that its parser could not read. */
  diagnostics: z.number().int().min(0),
  /** Why it is not ok; for an ok collector, what it left out (e.g. perf events the board does not count). */
  reason: z.string().optional(),
});
export type CollectorStatus = z.infer<typeof CollectorStatusSchema>;

/** `kvscope profile --json` (docs/DESIGN.md): at least these fields. */
export const ProfileSummarySchema = z.object({
  target: z.record(z.string(), z.unknown()),
  engine: z.object({
    command: z.string(),
    exitCode: z.number().nullable(),
    oomKilled: z.boolean(),
    signal: z.string().nullable().optional(),
    /** When the run failed: why, and the engine's last stderr lines. */
    error: z.string().optional(),
    stderrTail: z.array(z.string()).optional(),
  }),
  samples: z.number(),
  lostSamples: z.number(),
  durationMs: z.number(),
  events: z.array(RunEventSchema),
  ...HEADLINE_SHAPE,
  diagnostics: z.number().optional(),
  peakRssBytes: z.number().nullable().optional(),
  /** What the engine's own log said (llama.cpp `llama_kv_cache: size = …`, timing lines). */
  engineReported: z
    .object({ kvBytes: z.number().nullable(), kv: z.array(z.unknown()), timings: z.array(z.unknown()) })
    .optional(),
  // Present when the run made them (their full types live with their producer,
  // shared/analysis/run-summary.ts): leak check, GGUF model facts, sweep, server mode.
  leak: z.unknown().optional(),
  model: z.unknown().optional(),
  sweep: z.unknown().optional(),
  server: z.unknown().optional(),
  /** Per collector that was meant to run: ok, absent, denied or failed, with its counts. */
  collectors: z.record(z.string(), CollectorStatusSchema).optional(),
});
export type ProfileSummary = z.infer<typeof ProfileSummarySchema>;

export const KvComputeInputSchema = z.object({
  layers: z.number().int().min(1).max(1024),
  kvHeads: z.number().int().min(1).max(4096),
  headDimK: z.number().int().min(1).max(65_536),
  headDimV: z.number().int().min(1).max(65_536).optional(),
  typeK: KvTypeSchema.default('f16'),
  typeV: KvTypeSchema.optional(),
  ctx: z.number().int().min(1).max(100_000_000).default(4096),
  budgetBytes: z.number().int().positive().optional(),
});
export type KvComputeInput = z.input<typeof KvComputeInputSchema>;

export const KvComputeResultSchema = z.object({
  bytesPerToken: z.number(),
  totalBytes: z.number(),
  ctx: z.number(),
  maxContextForBudget: z.number().nullable(),
});
export type KvComputeResult = z.infer<typeof KvComputeResultSchema>;
