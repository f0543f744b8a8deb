// The one API of KVScope. Electron's preload, the browser-mode WebSocket bridge and the
// handlers in electron/ are all generated from these two tables, so a new method is one edit
// here plus its handler. Inputs are validated with these schemas on the main side.
import { z } from 'zod';
import {
  KvComputeInputSchema,
  KvComputeResultSchema,
  RunAnalysisSchema,
  RunEventSchema,
  RunRequestSchema,
  RunStatusSchema,
  SampleSchema,
  TargetInfoSchema,
} from './schemas';

const runIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const apiMethods = {
  appInfo: {
    input: z.object({}).strict(),
    output: z.object({ version: z.string(), shell: z.enum(['electron', 'web']), platform: z.string() }),
  },
  listTargets: {
    input: z.object({}).strict(),
    output: z.array(TargetInfoSchema),
  },
  computeKv: {
    input: KvComputeInputSchema,
    output: KvComputeResultSchema,
  },
  startRun: {
    input: RunRequestSchema,
    output: z.object({ runId: runIdSchema }),
  },
  stopRun: {
    input: z.object({ runId: runIdSchema }).strict(),
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
      theory: z.object({ bytesPerToken: z.number().nullable(), ctx: z.number().nullable() }),
    }),
  },
} as const;

export const apiEvents = {
  runStatus: RunStatusSchema,
  runSamples: z.object({ runId: z.string(), samples: z.array(SampleSchema) }),
  runEvent: z.object({ runId: z.string(), event: RunEventSchema }),
  runAnalysis: z.object({ runId: z.string(), analysis: RunAnalysisSchema }),
  runOutput: z.object({ runId: z.string(), stream: z.enum(['stdout', 'stderr']), text: z.string() }),
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

/** The main side: handlers receive validated input. */
export type ApiHandlers = {
  [M in ApiMethodName]: (input: MethodParsedInput<M>) => Promise<MethodOutput<M>>;
};

/** Where handlers publish events; transports fan them out to their clients. */
export type EventSink = <E extends ApiEventName>(event: E, payload: EventPayload<E>) => void;

/** IPC channel names, derived, never typed by hand. */
export const ipcChannel = {
  invoke: (m: ApiMethodName) => `kvscope:invoke:${m}`,
  event: 'kvscope:event',
} as const;
