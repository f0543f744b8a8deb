// The run form as the user types it (strings) and its translation into a RunRequest. The request
// is checked with the contract's own RunRequestSchema, so the form refuses exactly what the main
// side would refuse, and each message lands next to the field it is about.
import { allowedNumberText, isNumberIssue, numberRangeOf, type NumberRange } from '../../../shared/api/number-range';
import {
  CommandEngineSchema,
  DemoOptionsSchema,
  RunRequestSchema,
  SERVER_MODE_DEFAULTS,
  SERVER_PROMPT_LIMITS,
  SERVER_READY_TIMEOUT_BOUNDS_MS,
  ServerModeSchema,
  StartRunInputSchema,
  type KvMode,
  type KvType,
  type ServerModeInput,
  type StartRunInput,
  type TargetSpec,
} from '../../../shared/api/schemas';
import { intervalInRange, type CollectorSettings } from '../../../shared/collectors/collector-plan';
import { COLLECTORS } from '../../../shared/collectors/registry';
import { parseByteSize } from '../../../shared/format/byte-size';
import { formatCount } from '../../../shared/format/units';
import { MAX_SWEEP_CTX, MAX_SWEEP_SIZES, readSweepSizes } from '../../../shared/run/sweep-sizes';
import { tokenPatternProblem } from '../../../shared/run/token-pattern';

export interface RunForm {
  engineKind: 'demo' | 'command';
  // Demo workload (docs/DESIGN.md `kvscope demo-engine`)
  layers: string;
  kvHeads: string;
  headDim: string;
  kvType: KvType;
  tokens: string;
  tps: string;
  mode: KvMode;
  ctx: string;
  block: string;
  window: string;
  weightsMb: string;
  // Engine command on the target
  command: string;
  commandCtx: string;
  commandKvType: KvType | '';
  commandTokens: string;
  /** Path of the GGUF model on the target (exact KV theory from its header). */
  gguf: string;
  /** Regex matching once per generated token in stdout (engines that are not llama.cpp). */
  tokenRegex: string;
  // Server mode (an engine command that starts an OpenAI-compatible server)
  serverMode: boolean;
  /** Its address as seen from the target; port 0 = the one it prints. */
  serverUrl: string;
  serverApi: 'chat' | 'completions';
  /** One prompt per line: turn k says line k (turns past the last line ask it to go on). */
  prompts: string;
  /** Empty = one turn per prompt. */
  turns: string;
  /** Max tokens per turn. */
  serverTokens: string;
  ignoreEos: boolean;
  serverTimeoutS: string;
  // Both
  /** Context sizes of a sweep ("512, 2048, 8k"): one run per size; empty = one run. */
  sweep: string;
  budget: string;
  intervalMs: string;
  keepRunning: boolean;
  /** Per collector (shared/collectors/registry.ts ids), as `profile --no-<id>` / `--<id>-interval-ms`; absent = its defaults. */
  collectors: Record<string, CollectorFormEntry>;
}

export interface CollectorFormEntry {
  off: boolean;
  /** As typed; empty = the collector's default. */
  intervalMs: string;
}

/** The form field of a collector's settings (its error's key, its controls' ids). */
export type CollectorFormField = `collector-${string}`;
export const collectorField = (id: string): CollectorFormField => `collector-${id}`;

/** The fields typed as text (numbers, sizes, commands). */
export type RunFormTextField = { [K in keyof RunForm]: RunForm[K] extends string ? K : never }[keyof RunForm];

/** 'general' holds a problem that belongs to no single field. */
export type RunFormField = keyof RunForm | 'target' | 'general' | CollectorFormField;
export type RunFormErrors = Partial<Record<RunFormField, string>>;

/** The demo defaults of shared/api/schemas.ts (Llama-3.2-1B-like: 16 layers, 8 KV heads, head dim 64, f16). */
export const DEFAULT_RUN_FORM: RunForm = {
  engineKind: 'demo',
  layers: '16',
  kvHeads: '8',
  headDim: '64',
  kvType: 'f16',
  tokens: '2000',
  tps: '40',
  mode: 'growth',
  ctx: '4096',
  block: '16',
  window: '',
  weightsMb: '64',
  command: '',
  commandCtx: '',
  commandKvType: '',
  commandTokens: '',
  gguf: '',
  tokenRegex: '',
  serverMode: false,
  serverUrl: SERVER_MODE_DEFAULTS.url,
  serverApi: 'chat',
  prompts: '',
  turns: '',
  serverTokens: String(SERVER_MODE_DEFAULTS.maxTokens),
  ignoreEos: false,
  serverTimeoutS: String(SERVER_MODE_DEFAULTS.readyTimeoutMs / 1000),
  sweep: '',
  budget: '2 GiB',
  intervalMs: '200',
  keepRunning: false,
  collectors: {},
};

/** Where a schema issue about request path P belongs in the form. */
const FIELD_OF_PATH: Record<string, RunFormField> = {
  target: 'target',
  'engine.demo.layers': 'layers',
  'engine.demo.kvHeads': 'kvHeads',
  'engine.demo.headDim': 'headDim',
  'engine.demo.kvType': 'kvType',
  'engine.demo.tokens': 'tokens',
  'engine.demo.tps': 'tps',
  'engine.demo.mode': 'mode',
  'engine.demo.ctx': 'ctx',
  'engine.demo.block': 'block',
  'engine.demo.window': 'window',
  'engine.demo.weightsMb': 'weightsMb',
  'engine.command': 'command',
  'engine.ctx': 'commandCtx',
  'engine.kvType': 'commandKvType',
  'engine.gguf': 'gguf',
  'engine.tokenRegex': 'tokenRegex',
  tokens: 'commandTokens',
  budgetBytes: 'budget',
  intervalMs: 'intervalMs',
  'server.url': 'serverUrl',
  'server.api': 'serverApi',
  'server.prompts': 'prompts',
  'server.turns': 'turns',
  'server.maxTokens': 'serverTokens',
  'server.readyTimeoutMs': 'serverTimeoutS',
};

/** A number field's allowed values (the contract's own limits) and its unit, as a word. */
interface NumberField {
  range: NumberRange;
  unit?: string;
}

const demo = DemoOptionsSchema.shape;
/**
 * Every number field of the form: any problem with one (not a number, out of its range) is said
 * as what it allows, "a whole number from 1 to 512", never in zod's words ("must be <=512").
 */
const NUMBER_FIELDS = {
  layers: { range: numberRangeOf(demo.layers) },
  kvHeads: { range: numberRangeOf(demo.kvHeads) },
  headDim: { range: numberRangeOf(demo.headDim) },
  tokens: { range: numberRangeOf(demo.tokens), unit: 'tokens' },
  tps: { range: numberRangeOf(demo.tps), unit: 'tokens/s' },
  ctx: { range: numberRangeOf(demo.ctx), unit: 'tokens' },
  block: { range: numberRangeOf(demo.block), unit: 'tokens' },
  window: { range: numberRangeOf(demo.window), unit: 'tokens' },
  weightsMb: { range: numberRangeOf(demo.weightsMb), unit: 'MB' },
  commandCtx: { range: numberRangeOf(CommandEngineSchema.shape.ctx), unit: 'tokens' },
  commandTokens: { range: numberRangeOf(RunRequestSchema.shape.tokens), unit: 'tokens' },
  intervalMs: { range: numberRangeOf(RunRequestSchema.shape.intervalMs), unit: 'ms' },
  turns: { range: numberRangeOf(ServerModeSchema.shape.turns) },
  serverTokens: { range: numberRangeOf(ServerModeSchema.shape.maxTokens), unit: 'tokens' },
  // Typed in seconds, sent in milliseconds.
  serverTimeoutS: {
    range: {
      min: SERVER_READY_TIMEOUT_BOUNDS_MS.min / 1000,
      max: SERVER_READY_TIMEOUT_BOUNDS_MS.max / 1000,
      integer: false,
    },
    unit: 'seconds',
  },
} satisfies Partial<Record<RunFormField, NumberField>>;
type NumberFormField = keyof typeof NUMBER_FIELDS;

const isNumberField = (field: RunFormField): field is NumberFormField => Object.hasOwn(NUMBER_FIELDS, field);

/** What a number field allows, as its error message. */
function allowedText(field: NumberFormField): string {
  const f: NumberField = NUMBER_FIELDS[field];
  return allowedNumberText(f.range, f.unit ? { unit: f.unit } : {});
}

/** What is wrong with the sweep's sizes, in the form's words. */
function sweepSizesError(read: Exclude<ReturnType<typeof readSweepSizes>, { ok: true }>): string {
  switch (read.problem) {
    case 'not-a-size':
      return `"${read.part}" is not a context size: list sizes like 512, 2048, 8k`;
    case 'too-large':
      return `"${read.part}" is more than ${MAX_SWEEP_CTX.toLocaleString('en-US')} tokens`;
    case 'too-many':
      return `at most ${MAX_SWEEP_SIZES} sizes`;
    case 'too-few':
      return 'give at least two different sizes (or none for a single run)';
  }
}

/** The prompts of the textarea: one per line, blank lines skipped. */
export function promptLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** `sweepSizes` set: start a sweep of `request` (startSweep); else one run (startRun, server mode included). */
export type BuiltRunRequest =
  { ok: true; request: StartRunInput; sweepSizes: number[] | null } | { ok: false; errors: RunFormErrors };

export function buildRunRequest(form: RunForm, target: TargetSpec | null): BuiltRunRequest {
  const errors: RunFormErrors = {};
  const integer = (field: RunFormTextField, optional = false): number | undefined => {
    const text = form[field].trim();
    if (text === '' && optional) return undefined;
    if (!/^\d+$/.test(text)) {
      errors[field] = text === '' ? 'required' : isNumberField(field) ? allowedText(field) : 'a whole number';
      return undefined;
    }
    return Number(text);
  };
  const decimal = (field: RunFormTextField): number | undefined => {
    const text = form[field].trim();
    if (!/^\d+(?:\.\d+)?$/.test(text)) {
      errors[field] = text === '' ? 'required' : isNumberField(field) ? allowedText(field) : 'a number';
      return undefined;
    }
    return Number(text);
  };

  if (!target) errors.target = 'choose a target';
  let budgetBytes: number | undefined;
  if (form.budget.trim() !== '') {
    const parsed = parseByteSize(form.budget);
    if (parsed.ok) budgetBytes = parsed.bytes;
    else errors.budget = parsed.error;
  }
  const intervalMs = integer('intervalMs');
  const collectors = collectorSettingsOf(form, errors);
  const serverMode = form.engineKind === 'command' && form.serverMode;
  let sweepSizes: number[] | null = null;
  if (form.sweep.trim() !== '') {
    const read = readSweepSizes(form.sweep);
    if (!read.ok) errors.sweep = sweepSizesError(read);
    else if (serverMode) errors.sweep = 'a sweep cannot run in server mode: profile one server per context size';
    else if (form.engineKind === 'command' && !form.command.includes('{ctx}'))
      errors.sweep = 'put {ctx} in the command where each context size goes';
    else sweepSizes = read.sizes;
  }

  let request: StartRunInput;
  if (form.engineKind === 'demo') {
    const window = form.mode === 'window' ? integer('window') : integer('window', true);
    request = {
      target: target ?? { kind: 'local' },
      engine: {
        kind: 'demo',
        demo: {
          layers: integer('layers'),
          kvHeads: integer('kvHeads'),
          headDim: integer('headDim'),
          kvType: form.kvType,
          tokens: integer('tokens'),
          tps: decimal('tps'),
          mode: form.mode,
          ctx: integer('ctx'),
          block: integer('block'),
          ...(window !== undefined ? { window } : {}),
          weightsMb: decimal('weightsMb'),
        },
      },
      budgetBytes,
      intervalMs,
      ...(form.keepRunning ? { keepRunning: true } : {}),
      ...(collectors ? { collectors } : {}),
    };
  } else {
    if (form.command.trim() === '') errors.command = 'required';
    const ctx = integer('commandCtx', true);
    const tokens = serverMode ? undefined : integer('commandTokens', true);
    // Said here, on the field, rather than by the main side in the CLI's words (a sweep fills {ctx}).
    if (form.command.includes('{ctx}') && ctx === undefined && !errors.commandCtx && form.sweep.trim() === '')
      errors.commandCtx = 'the command contains {ctx}: give the context size to put there';
    const server = serverMode ? serverModeOf(form, errors) : undefined;
    const tokenRegex = form.tokenRegex.trim();
    const tokenProblem = tokenRegex === '' ? null : tokenPatternProblem(tokenRegex);
    if (tokenProblem !== null) errors.tokenRegex = tokenProblem;
    request = {
      target: target ?? { kind: 'local' },
      engine: {
        kind: 'command',
        command: form.command.trim(),
        ...(ctx !== undefined ? { ctx } : {}),
        ...(form.commandKvType ? { kvType: form.commandKvType } : {}),
        ...(form.gguf.trim() ? { gguf: form.gguf.trim() } : {}),
        ...(tokenRegex ? { tokenRegex } : {}),
      },
      ...(tokens !== undefined ? { tokens } : {}),
      budgetBytes,
      intervalMs,
      ...(form.keepRunning ? { keepRunning: true } : {}),
      ...(collectors ? { collectors } : {}),
      ...(server ? { server } : {}),
    };
  }
  // The contract's own limits, even when some fields could not be read, so every problem shows
  // at once; a field's reading error wins over a schema message about the same field.
  const checked = StartRunInputSchema.safeParse(request);
  if (!checked.success || Object.keys(errors).length > 0) {
    // A number past 2^53 breaks zod's `.int()` first ("<=9007199254740991", no limit of the
    // field): the field's own limit says more, so those issues come last, and alone read "too large".
    const issues = [...(checked.error?.issues ?? [])].sort(
      (a, b) => Number(isUnsafeInteger(a)) - Number(isUnsafeInteger(b)),
    );
    for (const issue of issues) {
      const path = issue.path.map(String);
      const field =
        path[0] === 'collectors' && path[1] !== undefined
          ? collectorField(path[1])
          : (FIELD_OF_PATH[path.join('.')] ??
            FIELD_OF_PATH[path.slice(0, 2).join('.')] ??
            FIELD_OF_PATH[path[0] ?? '']);
      const allowed = field && isNumberField(field) && isNumberIssue(issue) ? allowedText(field) : undefined;
      const message =
        allowed ??
        (isUnsafeInteger(issue)
          ? 'too large'
          : issue.message.replace(/^Too (?:small|big): expected \w+ to (?:be|have) /, 'must be '));
      if (field) errors[field] ??= message;
      else errors.general ??= `${issue.path.join('.') || 'request'}: ${issue.message}`;
    }
    return { ok: false, errors };
  }
  return { ok: true, request, sweepSizes };
}

/**
 * RunRequest.collectors from the form's collector switches and intervals (only what differs from
 * the defaults), undefined when nothing does; an interval outside its collector's range is an
 * error on its field.
 */
function collectorSettingsOf(form: RunForm, errors: RunFormErrors): Record<string, CollectorSettings> | undefined {
  const settings: Record<string, CollectorSettings> = {};
  for (const def of COLLECTORS) {
    const entry = Object.hasOwn(form.collectors, def.id) ? form.collectors[def.id] : undefined;
    if (!entry) continue;
    const text = entry.intervalMs.trim();
    if (entry.off) settings[def.id] = { enabled: false };
    else if (text !== '' && def.interval !== 'run') {
      const { minMs, maxMs, defaultMs } = def.interval;
      if (!/^\d+$/.test(text) || !intervalInRange(def, Number(text)))
        errors[collectorField(def.id)] = allowedNumberText({ min: minMs, max: maxMs, integer: true }, { unit: 'ms' });
      else if (Number(text) !== defaultMs) settings[def.id] = { intervalMs: Number(text) };
    }
  }
  return Object.keys(settings).length > 0 ? settings : undefined;
}

/** zod's issue for an integer beyond Number.MAX_SAFE_INTEGER (not a limit of the field). */
function isUnsafeInteger(issue: { code: string; maximum?: unknown }): boolean {
  return issue.code === 'too_big' && issue.maximum === Number.MAX_SAFE_INTEGER;
}

/** Server mode's settings from the form; problems go into `errors` by field. */
function serverModeOf(form: RunForm, errors: RunFormErrors): ServerModeInput {
  const prompts = promptLines(form.prompts);
  const long = prompts.findIndex((p) => p.length > SERVER_PROMPT_LIMITS.maxChars);
  if (long >= 0)
    errors.prompts =
      `prompt ${long + 1} is ${formatCount(prompts[long]?.length ?? 0)} characters: ` +
      `at most ${formatCount(SERVER_PROMPT_LIMITS.maxChars)} per prompt (one prompt per line)`;
  else if (prompts.length > SERVER_PROMPT_LIMITS.maxPrompts)
    errors.prompts = `${formatCount(prompts.length)} prompts: at most ${formatCount(SERVER_PROMPT_LIMITS.maxPrompts)} (one per line)`;
  let url = form.serverUrl.trim();
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
  } catch {
    errors.serverUrl = 'an address like http://127.0.0.1:8080/v1 (port 0: the one the server prints)';
    url = SERVER_MODE_DEFAULTS.url;
  }
  let turns: number | undefined;
  const turnsText = form.turns.trim();
  if (turnsText !== '') {
    if (!/^\d+$/.test(turnsText) || Number(turnsText) < 1) errors.turns = allowedText('turns');
    else if (Number(turnsText) < prompts.length)
      errors.turns = `${prompts.length} prompts need at least ${prompts.length} turns (or leave empty: one per prompt)`;
    else turns = Number(turnsText);
  }
  const tokensText = form.serverTokens.trim();
  let maxTokens: number | undefined;
  if (!/^\d+$/.test(tokensText) || Number(tokensText) < 1) errors.serverTokens = allowedText('serverTokens');
  else maxTokens = Number(tokensText);
  const timeoutText = form.serverTimeoutS.trim();
  let readyTimeoutMs: number | undefined;
  if (
    !/^\d+(?:\.\d+)?$/.test(timeoutText) ||
    Number(timeoutText) * 1000 < SERVER_READY_TIMEOUT_BOUNDS_MS.min ||
    Number(timeoutText) * 1000 > SERVER_READY_TIMEOUT_BOUNDS_MS.max
  )
    errors.serverTimeoutS = allowedText('serverTimeoutS');
  else readyTimeoutMs = Math.round(Number(timeoutText) * 1000);
  return {
    url,
    api: form.serverApi,
    prompts,
    ...(turns !== undefined ? { turns } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ignoreEos: form.ignoreEos,
    ...(readyTimeoutMs !== undefined ? { readyTimeoutMs } : {}),
  };
}
