// The one API of KVScope. Electron's preload, the browser-mode WebSocket bridge and the
// handlers in electron/ are all generated from these two tables, so a new method is one edit
// here plus its handler. Inputs are validated with these schemas on the main side.
import { z } from 'zod';
import { HealthFindingSchema, ProbeResultSchema } from '../probe/probe-schema';
import {
  CredentialPromptSchema,
  HostKeyPromptSchema,
  PendingPromptSchema,
  PromptClosedSchema,
  PromptIdSchema,
  BoardSpecSchema,
  SecretStorageStatusSchema,
  SshConfigHostSchema,
  BoardIdSchema,
  BoardLabelSchema,
  KvComputeInputSchema,
  KvComputeResultSchema,
  RunAnalysisSchema,
  RunEventSchema,
  NewRunRequestSchema,
  RunRequestSchema,
  RunStatusSchema,
  StartKeySchema,
  StartRunInputSchema,
  SweepSizesSchema,
  SweepStatusSchema,
  SampleSchema,
  BoardInfoSchema,
} from './schemas';
import {
  ExportedFileSchema,
  LeftRunSchema,
  RecoveredRunSchema,
  ExportFormatSchema,
  ImportKindSchema,
  LocalFilePathSchema,
  ModelHeaderSchema,
  SessionIdSchema,
  SessionListingSchema,
  SessionNameSchema,
} from './session-schemas';
import { PackedSessionDataSchema, type StoredPackedSessionData } from './packed-samples';
import { PREVIEW_BUCKETS } from './packed-preview';

const runIdSchema = z.string().regex(/^[\w-]{1,64}$/);

/**
 * A connection prompt (host key, password, passphrase) not answered within this is cancelled:
 * long enough to walk to the board and read its fingerprint, short enough that a forgotten
 * dialog does not hold a connection (and a run start) open for ever.
 */
export const PROMPT_TIMEOUT_MS = 3 * 60_000;

/**
 * Methods that may wait for a person (they connect to a board, which can ask for a host key,
 * a password or a passphrase, each up to PROMPT_TIMEOUT_MS): transports must not time them
 * out like quick calls. exportSession is here too: a PDF is printed by a Chromium that may take
 * a minute on a busy machine, or the desktop save dialog waits for the user.
 */
export const PROMPTING_METHODS: ReadonlySet<string> = new Set([
  'startRun',
  'startSweep',
  'probeBoard',
  'readModelHeader',
  'exportSession',
  'listLeftRuns',
  'recoverLeftRun',
  'discardLeftRun',
  'stopLeftRun',
]);

export const apiMethods = {
  appInfo: {
    input: z.object({}).strict(),
    output: z.object({ version: z.string(), shell: z.enum(['electron', 'web']), platform: z.string() }),
  },
  /** This computer first, then the saved boards. */
  listBoards: {
    input: z.object({}).strict(),
    output: z.array(BoardInfoSchema),
  },
  /** Add (no id) or replace (id) a saved board. Never holds a secret: the schema is strict. */
  saveBoard: {
    input: z.object({ id: BoardIdSchema.optional(), label: BoardLabelSchema, spec: BoardSpecSchema }).strict(),
    output: BoardInfoSchema,
  },
  /** Remove a saved board and every credential remembered for it. */
  removeBoard: {
    input: z.object({ id: BoardIdSchema }).strict(),
    output: z.object({ ok: z.boolean() }),
  },
  /** The concrete Host entries of ~/.ssh/config ($KVSCOPE_SSH_CONFIG), resolved, for the user to pick and save. */
  importSshConfig: {
    input: z.object({}).strict(),
    output: z.object({ path: z.string(), found: z.boolean(), hosts: z.array(SshConfigHostSchema) }),
  },
  /** Connect (host key and credential prompts arrive as events), read the board's facts, judge them. */
  probeBoard: {
    input: z.object({ boardId: z.union([z.literal('local'), BoardIdSchema]) }).strict(),
    output: z.object({
      boardId: z.string(),
      label: z.string(),
      /** Epoch ms on this computer. */
      probedAt: z.number(),
      probe: ProbeResultSchema,
      findings: z.array(HealthFindingSchema),
    }),
  },
  answerHostKey: {
    input: z.object({ requestId: PromptIdSchema, accept: z.boolean() }).strict(),
    /** ok false: the prompt is no longer open (answered elsewhere, timed out, cancelled). */
    output: z.object({ ok: z.boolean() }),
  },
  answerCredential: {
    input: z
      .object({
        requestId: PromptIdSchema,
        /** null = cancel. */
        value: z.string().max(4096).nullable(),
        /** Keep it (encrypted by the OS keychain) for this saved board; refused when storage is unavailable. */
        remember: z.boolean().optional(),
      })
      .strict(),
    output: z.object({ ok: z.boolean() }),
  },
  /** Prompts still waiting for an answer (a window that opens or reloads mid-connect shows them). */
  listPrompts: {
    input: z.object({}).strict(),
    output: z.array(PendingPromptSchema),
  },
  /** Whether credentials can be remembered here, and why not. */
  secretStorage: {
    input: z.object({}).strict(),
    output: SecretStorageStatusSchema,
  },
  /** Forget the credentials remembered for a saved board. */
  forgetSecrets: {
    input: z.object({ boardId: BoardIdSchema }).strict(),
    output: z.object({ removed: z.number() }),
  },
  computeKv: {
    input: KvComputeInputSchema,
    output: KvComputeResultSchema,
  },
  /** One run; with `server`, the command starts a server and the app holds the conversation (then stops it). */
  startRun: {
    input: StartRunInputSchema,
    output: z.object({ runId: runIdSchema }),
  },
  /**
   * A context sweep (`profile --sweep`): one run per size, one after the other, recorded into one
   * session. Answers once the first run started; `sweepStatus` events follow every next run. With
   * a `startKey`, cancelStart stops it before that: its first run's start is stopped (as a
   * startRun's), no size is run, and startSweep fails with "stopped before the sweep's first run started".
   */
  startSweep: {
    input: z
      .object({ request: NewRunRequestSchema, sizes: SweepSizesSchema, startKey: StartKeySchema.optional() })
      .strict(),
    output: z.object({ sweepId: runIdSchema, runId: runIdSchema }),
  },
  /** Stops the sweep's run going on, and the sizes after it are not run. */
  stopSweep: {
    input: z.object({ sweepId: runIdSchema }).strict(),
    output: z.object({ ok: z.boolean() }),
  },
  /** The sweeps of this app, oldest first (a window that reloads mid-sweep follows it again). */
  listSweeps: {
    input: z.object({}).strict(),
    output: z.array(SweepStatusSchema),
  },
  stopRun: {
    input: z.object({ runId: runIdSchema }).strict(),
    output: z.object({ ok: z.boolean() }),
  },
  /**
   * Stop a run (or a sweep) whose startRun (startSweep) given this `startKey` has not answered yet:
   * a board still connecting is given up at once, the connection attempt and any question it asked
   * with it (startRun then fails with "stopped before the run started"); a launch under way stops
   * before the engine starts (startRun fails with "stopped before the engine started": nothing ran,
   * no session is recorded), or ends the engine it started (startRun then answers, the run
   * stopping). ok: false when no start has that key (it answered already: use stopRun / stopSweep).
   */
  cancelStart: {
    input: z.object({ startKey: StartKeySchema }).strict(),
    output: z.object({ ok: z.boolean() }),
  },
  listRuns: {
    input: z.object({}).strict(),
    output: z.array(RunStatusSchema),
  },
  /** Everything known about a run so far: for a window that opens (or reloads) mid-run. */
  getRun: {
    input: z.object({ runId: runIdSchema }).strict(),
    output: z.object({
      status: RunStatusSchema,
      samples: z.array(SampleSchema),
      events: z.array(RunEventSchema),
      analysis: RunAnalysisSchema.nullable(),
      theory: z.object({
        bytesPerToken: z.number().nullable(),
        ctx: z.number().nullable(),
        /** The model's training context (n_ctx_train), when the run read its GGUF header. */
        trainedCtx: z.number().nullable().optional(),
      }),
    }),
  },
  /**
   * A user's marker into a running run's events (at the run's latest sample time unless tMs is
   * given; refused once the run has ended). Unlabelled markers are numbered: `marker 1`, `marker 2`…
   */
  addMarker: {
    input: z
      .object({
        runId: runIdSchema,
        label: z.string().trim().min(1).max(200).optional(),
        tMs: z.number().min(0).optional(),
      })
      .strict(),
    output: RunEventSchema,
  },
  // ---- sessions: every run started from the app is recorded (electron/node/session/session-library.ts) ----
  /** Every recorded session, newest first (and files opened with `kvscope web --open`). */
  listSessions: {
    input: z.object({}).strict(),
    output: z.object({ sessions: z.array(SessionListingSchema), openOnStart: SessionIdSchema.nullable() }),
  },
  /**
   * A session's full content, for the dashboard (read-only) and comparisons; samples packed
   * (packed-samples.ts). With `previewBuckets`, a run long enough for it is sent as its preview at
   * that many time slices (packed-preview.ts), and `preview` says so: the dashboard draws it and
   * asks again without, for every sample.
   */
  openSession: {
    input: z
      .object({
        id: SessionIdSchema,
        previewBuckets: z.number().int().min(PREVIEW_BUCKETS.min).max(PREVIEW_BUCKETS.max).optional(),
      })
      .strict(),
    output: z.object({ listing: SessionListingSchema, data: PackedSessionDataSchema, preview: z.boolean() }),
  },
  /**
   * A session file on the computer KVScope runs on, listed for the app's lifetime as `kvscope web
   * --open` does (a colleague's session, `profile --out`, `kvscope import`): its list row. Refused
   * in one line when the file is missing or is not a KVScope session.
   */
  addSessionFile: {
    input: z.object({ path: LocalFilePathSchema }).strict(),
    output: SessionListingSchema,
  },
  /**
   * The desktop app's open dialog for the Sessions view's Open file (purpose session) and Import
   * log (purpose log): the path chosen, null when cancelled. Browser mode has none (supported:
   * false): the page cannot name a file of the computer the app runs on, so the path is typed.
   */
  pickLocalFile: {
    input: z.object({ purpose: z.enum(['session', 'log']) }).strict(),
    output: z.object({ supported: z.boolean(), path: z.string().nullable() }),
  },
  /**
   * A board's log on the computer KVScope runs on (tegrastats, perf, pmap, vcgencmd, llama.cpp),
   * imported into a new session of the library as `kvscope import` does; `intervalMs` dates a log
   * that prints no times of its own (default 1 s). Its list row, and what was read. With an
   * `importKey`, cancelImport stops it.
   */
  importSessionLog: {
    input: z
      .object({
        kind: ImportKindSchema,
        path: LocalFilePathSchema,
        intervalMs: RunRequestSchema.shape.intervalMs.unwrap().optional(),
        importKey: StartKeySchema.optional(),
      })
      .strict(),
    output: z.object({ listing: SessionListingSchema, samples: z.number(), diagnostics: z.number() }),
  },
  /**
   * Stops the importSessionLog given this `importKey`: it fails with "import cancelled: nothing
   * was imported" and writes no session. ok: false when no import under way has that key (it
   * answered already: its session is listed, and deleteSession removes it).
   */
  cancelImport: {
    input: z.object({ importKey: StartKeySchema }).strict(),
    output: z.object({ ok: z.boolean() }),
  },
  renameSession: {
    input: z.object({ id: SessionIdSchema, name: SessionNameSchema }).strict(),
    output: SessionListingSchema,
  },
  deleteSession: {
    input: z.object({ id: SessionIdSchema }).strict(),
    output: z.object({ ok: z.boolean() }),
  },
  /**
   * A report of the session in any `kvscope report` format. In the desktop app a save dialog
   * writes it (delivery 'saved' or 'cancelled'); in browser mode the content comes back for a download.
   */
  exportSession: {
    input: z.object({ id: SessionIdSchema, format: ExportFormatSchema }).strict(),
    output: ExportedFileSchema,
  },
  /** The KV shape and facts of a GGUF model on a target ('local' = this computer); reads the header only. */
  readModelHeader: {
    input: z
      .object({ boardId: z.union([z.literal('local'), BoardIdSchema]), path: z.string().trim().min(1).max(4096) })
      .strict(),
    output: ModelHeaderSchema,
  },
  /**
   * Runs left on a board by an app that died (killed mid-run, a lost link the watchdog ended): the
   * app offers them after a probe, each with its age, to recover into a session or discard. Runs
   * that still run there and that this app does not follow (kept running by an app that closed
   * since, or another KVScope's) are listed too, `running`, to stop (stopLeftRun).
   */
  listLeftRuns: {
    input: z.object({ boardId: z.union([z.literal('local'), BoardIdSchema]) }).strict(),
    output: z.array(LeftRunSchema),
  },
  /** Imports one left run into a session of the library, then removes its run directory on the board. */
  recoverLeftRun: {
    input: z
      .object({ boardId: z.union([z.literal('local'), BoardIdSchema]), dir: z.string().min(1).max(4096) })
      .strict(),
    output: RecoveredRunSchema,
  },
  /** Removes one left run's directory on the board without importing it. */
  discardLeftRun: {
    input: z
      .object({ boardId: z.union([z.literal('local'), BoardIdSchema]), dir: z.string().min(1).max(4096) })
      .strict(),
    output: z.object({ ok: z.boolean() }),
  },
  /**
   * Ends the engine of a listed run that still runs on the board (its process tree: TERM, then
   * KILL), and answers once its launcher has ended: the run is then a left run to recover.
   */
  stopLeftRun: {
    input: z
      .object({ boardId: z.union([z.literal('local'), BoardIdSchema]), dir: z.string().min(1).max(4096) })
      .strict(),
    output: z.object({ ok: z.boolean() }),
  },
} as const;

export const apiEvents = {
  runStatus: RunStatusSchema,
  runSamples: z.object({ runId: z.string(), samples: z.array(SampleSchema) }),
  runEvent: z.object({ runId: z.string(), event: RunEventSchema }),
  runAnalysis: z.object({ runId: z.string(), analysis: RunAnalysisSchema }),
  runOutput: z.object({ runId: z.string(), stream: z.enum(['stdout', 'stderr']), text: z.string() }),
  /** A sweep started, moved to its next size, finished a step, or ended (with its result). */
  sweepStatus: SweepStatusSchema,
  /** An unknown host key: answer with answerHostKey. A CHANGED key never prompts (it is an error). */
  hostKeyPrompt: HostKeyPromptSchema,
  /** A password or passphrase is needed: answer with answerCredential. */
  credentialPrompt: CredentialPromptSchema,
  /** A prompt was answered (here or in another window), timed out or was cancelled: close its dialog. */
  promptClosed: PromptClosedSchema,
} as const;

export type ApiMethods = typeof apiMethods;
export type ApiMethodName = keyof ApiMethods;
export type ApiEvents = typeof apiEvents;
export type ApiEventName = keyof ApiEvents;

export type MethodInput<M extends ApiMethodName> = z.input<ApiMethods[M]['input']>;
export type MethodParsedInput<M extends ApiMethodName> = z.output<ApiMethods[M]['input']>;
export type MethodOutput<M extends ApiMethodName> = z.output<ApiMethods[M]['output']>;
export type EventPayload<E extends ApiEventName> = z.output<ApiEvents[E]>;

export const apiMethodNames = Object.keys(apiMethods) as ApiMethodName[];
export const apiEventNames = Object.keys(apiEvents) as ApiEventName[];

/** What the renderer (and tests) hold: the same shape over IPC and over the WebSocket bridge. */
export type KvScopeApi = {
  [M in ApiMethodName]: (input: MethodInput<M>) => Promise<MethodOutput<M>>;
} & {
  on<E extends ApiEventName>(event: E, handler: (payload: EventPayload<E>) => void): () => void;
};

/**
 * Where a handler's output differs from what a window receives: openSession may keep a finished
 * run's samples as their stored JSON text, which the transport puts into the answer
 * (shared/api/raw-json.ts; a caller in the same process resolves it with resolveRawJson).
 */
interface HandlerOutputs {
  openSession: Omit<MethodOutput<'openSession'>, 'data'> & { data: StoredPackedSessionData };
}
type HandlerOutput<M extends ApiMethodName> = M extends keyof HandlerOutputs ? HandlerOutputs[M] : MethodOutput<M>;

/** The main side: handlers receive validated input. */
export type ApiHandlers = {
  [M in ApiMethodName]: (input: MethodParsedInput<M>) => Promise<HandlerOutput<M>>;
};

/** Where handlers publish events; transports fan them out to their clients. */
export type EventSink = <E extends ApiEventName>(event: E, payload: EventPayload<E>) => void;

/** IPC channel names, derived, never typed by hand. */
export const ipcChannel = {
  invoke: (m: ApiMethodName) => `kvscope:invoke:${m}`,
  event: 'kvscope:event',
} as const;
