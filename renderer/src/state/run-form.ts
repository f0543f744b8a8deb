// The run form as the user types it (strings) and its translation into a RunRequest. The request
// is checked with the contract's own RunRequestSchema, so the form refuses exactly what the main
// side would refuse, and each message lands next to the field it is about.
import {
  RunRequestSchema,
  type KvMode,
  type KvType,
  type RunRequestInput,
  type TargetSpec,
} from '../../../shared/api/schemas';
import { parseByteSize } from '../../../shared/format/byte-size';

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
  // Both
  budget: string;
  intervalMs: string;
  keepRunning: boolean;
}

/** 'general' holds a problem that belongs to no single field. */
export type RunFormField = keyof RunForm | 'target' | 'general';
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
  budget: '2 GiB',
  intervalMs: '200',
  keepRunning: false,
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
};

export type BuiltRunRequest = { ok: true; request: RunRequestInput } | { ok: false; errors: RunFormErrors };

export function buildRunRequest(form: RunForm, target: TargetSpec | null): BuiltRunRequest {
  const errors: RunFormErrors = {};
  const integer = (field: keyof RunForm, optional = false): number | undefined => {
    const text = String(form[field]).trim();
    if (text === '' && optional) return undefined;
    if (!/^\d+$/.test(text)) {
      errors[field] = text === '' ? 'required' : 'a whole number';
      return undefined;
    }
    return Number(text);
  };
  const decimal = (field: keyof RunForm): number | undefined => {
    const text = String(form[field]).trim();
    if (!/^\d+(?:\.\d+)?$/.test(text)) {
      errors[field] = text === '' ? 'required' : 'a number';
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

  let request: RunRequestInput;
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
    };
  } else {
    if (form.command.trim() === '') errors.command = 'required';
    const ctx = integer('commandCtx', true);
    const tokens = integer('commandTokens', true);
    // Said here, on the field, rather than by the main side in the CLI's words.
    if (form.command.includes('{ctx}') && ctx === undefined && !errors.commandCtx)
      errors.commandCtx = 'the command contains {ctx}: give the context size to put there';
    const tokenRegex = form.tokenRegex.trim();
    if (tokenRegex !== '') {
      try {
        new RegExp(tokenRegex);
      } catch (error) {
        errors.tokenRegex = `not a valid pattern: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`;
      }
    }
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
    };
  }
  // The contract's own limits, even when some fields could not be read, so every problem shows
  // at once; a field's reading error wins over a schema message about the same field.
  const checked = RunRequestSchema.safeParse(request);
  if (!checked.success || Object.keys(errors).length > 0) {
    for (const issue of checked.error?.issues ?? []) {
      const field = FIELD_OF_PATH[issue.path.map(String).join('.')] ?? FIELD_OF_PATH[String(issue.path[0])];
      const message = issue.message.replace(/^Too (?:small|big): expected \w+ to (?:be|have) /, 'must be ');
      if (field) errors[field] ??= message;
      else errors.general ??= `${issue.path.join('.') || 'request'}: ${issue.message}`;
    }
    return { ok: false, errors };
  }
  return { ok: true, request };
}
