// From the user's demo options (validated by DemoOptionsSchema) to the engine's config: the KV
// bytes per token come from shared/kv, so the demo and the theory line agree by construction —
// which is what lets a profile of the demo measure the profiler itself.
import { DemoOptionsSchema, type DemoOptions } from '../../../shared/api/schemas';
import { kvBytesPerToken, type ModelShape } from '../../../shared/kv/kv-theory';
import { CliError, issueInCliWords, parseCliArgs, valueOptions } from '../cli/cli-io';
import type { DemoEngineConfig } from './demo-engine';

export function demoShape(o: DemoOptions): ModelShape {
  return {
    layers: o.layers,
    kvHeads: o.kvHeads,
    headDimK: o.headDim,
    headDimV: o.headDim,
    typeK: o.kvType,
    typeV: o.kvType,
  };
}

const MIB = 1024 * 1024;

export function demoEngineConfig(o: DemoOptions): DemoEngineConfig {
  const bytesPerToken = kvBytesPerToken(demoShape(o));
  const mib = (b: number) => (b / MIB).toFixed(2).padStart(7);
  const infoLines = [
    `print_info: arch             = kvscope-demo`,
    `print_info: n_ctx_train      = ${o.ctx}`,
    `print_info: n_layer          = ${o.layers}`,
    `print_info: n_head_kv        = ${o.kvHeads}`,
    `print_info: n_embd_head_k    = ${o.headDim}`,
    `print_info: n_embd_head_v    = ${o.headDim}`,
    `llama_context: n_ctx         = ${o.ctx}`,
    `kvscope_demo: mode = ${o.mode}, block = ${o.block}, bytes per token = ${bytesPerToken}`,
  ];
  if (o.mode === 'reserved') {
    const half = (o.ctx * bytesPerToken) / 2;
    infoLines.push(
      `llama_kv_cache: size = ${mib(o.ctx * bytesPerToken)} MiB (${String(o.ctx).padStart(6)} cells, ${String(o.layers).padStart(3)} layers,  1/1 seqs), K (${o.kvType}): ${mib(half)} MiB, V (${o.kvType}): ${mib(half)} MiB`,
    );
  }
  return {
    bytesPerToken,
    tokens: o.tokens,
    tps: o.tps,
    mode: o.mode,
    ctx: o.ctx,
    block: o.mode === 'reserved' ? 1 : o.block,
    window: o.mode === 'window' ? (o.window ?? o.ctx) : undefined,
    weightsBytes: Math.round(o.weightsMb * MIB),
    leakBytesPerToken: o.leakBytesPerToken,
    promptTokens: o.promptTokens,
    loadGapMs: o.loadGapMs,
    infoLines,
  };
}

/** The demo options of docs/DESIGN.md, shared by `demo-engine` and `profile --demo`. */
export const demoCliOptions = valueOptions(
  'layers',
  'kv-heads',
  'head-dim',
  'kv-type',
  'tokens',
  'tps',
  'mode',
  'ctx',
  'block',
  'window',
  'weights-mb',
  'leak',
  'prompt',
  'load-gap-ms',
);

type DemoCliValues = Partial<Record<keyof typeof demoCliOptions, string | boolean | undefined>>;

/** The flag of each DemoOptions field, for errors in the words the user typed. */
const DEMO_FLAG_OF_OPTION: Record<string, keyof typeof demoCliOptions> = {
  layers: 'layers',
  kvHeads: 'kv-heads',
  headDim: 'head-dim',
  kvType: 'kv-type',
  tokens: 'tokens',
  tps: 'tps',
  mode: 'mode',
  ctx: 'ctx',
  block: 'block',
  window: 'window',
  weightsMb: 'weights-mb',
  leakBytesPerToken: 'leak',
  promptTokens: 'prompt',
  loadGapMs: 'load-gap-ms',
};

const stringValue = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Validated DemoOptions from parsed CLI values; a bad value is a one-line CliError. */
export function demoOptionsFromCli(values: DemoCliValues): DemoOptions {
  // A number as people write it (decimal): Number() alone also took "0x10" (16) and "" (0).
  const n = (v: unknown) =>
    typeof v !== 'string' ? undefined : /^\s*-?\d+(?:\.\d+)?(?:e[+-]?\d+)?\s*$/i.test(v) ? Number(v) : NaN;
  const raw = {
    layers: n(values.layers),
    kvHeads: n(values['kv-heads']),
    headDim: n(values['head-dim']),
    kvType: values['kv-type'],
    tokens: n(values.tokens),
    tps: n(values.tps),
    mode: values.mode,
    ctx: n(values.ctx),
    block: n(values.block),
    window: n(values.window),
    weightsMb: n(values['weights-mb']),
    leakBytesPerToken: n(values.leak),
    promptTokens: n(values.prompt),
    loadGapMs: n(values['load-gap-ms']),
  };
  const parsed = DemoOptionsSchema.safeParse(
    Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue?.path[0] ?? '');
    const flag = DEMO_FLAG_OF_OPTION[key as keyof typeof raw];
    if (!issue || !flag) throw new CliError(`demo option ${key}: ${issue?.message ?? 'invalid'}`, 2);
    throw new CliError(issueInCliWords(issue, `--${flag}`, stringValue(values[flag])), 2);
  }
  const o = parsed.data;
  // llama.cpp refuses quantized K/V when the head dim is not a multiple of the block: so do we.
  demoEngineConfig(o);
  return o;
}

export function parseDemoArgs(args: string[]): DemoOptions {
  const { values } = parseCliArgs(args, demoCliOptions, false);
  return demoOptionsFromCli(values);
}
