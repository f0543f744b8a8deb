// `kvscope kv`: the KV-cache calculator (docs/DESIGN.md, "The command line").
//
//   kvscope kv (--gguf <file> | --layers L --kv-heads H --head-dim D) [--head-dim-v D]
//              [--kv-type T | --type-k T --type-v T] [--ctx N] [--budget 2GiB] [--np N] [--json]
//
// bytes/token and the total at --ctx come from shared/kv/kv-theory (SWA layers capped at their
// window, MLA as current llama.cpp caches it); the "llama.cpp reserves" figure is what llama.cpp
// allocates at context creation for -c ctx×np -np np (n_ctx padded to 256, SWA cache n_swa+512).
// --np N = N parallel sequences, each up to --ctx tokens; the budget answer is per sequence.
import { KvTypeSchema, type KvType } from '../../../../shared/api/schemas';
import {
  computeKvForShape,
  KvShapeError,
  kvPerToken,
  LLAMA_CPP_CTX_PAD,
  type ModelShape,
} from '../../../../shared/kv/kv-theory';
import { ModelConfigError, modelShapeFromGguf, type GgufModelSummary } from '../../../../shared/kv/model-config';
import { escapeUntrusted } from '../../../../shared/kv/model-limits';
import { GgufError, readGgufHeaderFromFile } from '../../model/gguf-reader';
import { CliError, type CliIo, parseBytes, parseCliArgs, parseIntArg, valueOptions } from '../cli-io';

/** The context the calculator assumes without --ctx: llama.cpp's default -c since 2024. */
const DEFAULT_CTX = 4096;

const USAGE =
  'usage: kvscope kv (--gguf <file> | --layers L --kv-heads H --head-dim D) [--head-dim-v D] [--kv-type T | --type-k T --type-v T] [--ctx N] [--budget 2GiB] [--np N] [--json]';

function kvType(text: string | undefined, what: string): KvType | undefined {
  if (text === undefined) return undefined;
  const parsed = KvTypeSchema.safeParse(text.toLowerCase());
  if (!parsed.success)
    throw new CliError(`${what}: unknown KV type "${text}" (one of ${KvTypeSchema.options.join(', ')})`, 2);
  return parsed.data;
}

/** Bytes for people: binary units, as llama.cpp prints its KV sizes (MiB). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${bytes} B` : `${v.toFixed(v >= 100 ? 1 : 2)} ${units[i]}`;
}

function group(n: number): string {
  return n.toLocaleString('en-US');
}

function bytesLabel(n: number): string {
  return n < 1024 ? `${n} B` : `${group(n)} B (${formatBytes(n)})`;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCliArgs(
    args,
    {
      ...valueOptions(
        'gguf',
        'layers',
        'kv-heads',
        'head-dim',
        'head-dim-v',
        'kv-type',
        'type-k',
        'type-v',
        'ctx',
        'budget',
        'np',
      ),
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    false,
  );
  if (values.help) {
    io.out(USAGE + '\n');
    return 0;
  }

  const shared = kvType(values['kv-type'], '--kv-type');
  const typeK = kvType(values['type-k'], '--type-k') ?? shared ?? 'f16';
  const typeV = kvType(values['type-v'], '--type-v') ?? shared ?? typeK;
  const ctx = parseIntArg(values.ctx, '--ctx') ?? DEFAULT_CTX;
  const nSeq = parseIntArg(values.np, '--np') ?? 1;
  const budgetBytes = values.budget === undefined ? null : parseBytes(values.budget, '--budget');

  let shape: ModelShape;
  let model: (GgufModelSummary & { file: string; ggufVersion: number; tensorCount: number }) | undefined;
  if (values.gguf !== undefined) {
    for (const flag of ['layers', 'kv-heads', 'head-dim', 'head-dim-v'] as const) {
      if (values[flag] !== undefined)
        throw new CliError(`--${flag} cannot be combined with --gguf (the model file gives the shape)`, 2);
    }
    try {
      const header = await readGgufHeaderFromFile(values.gguf);
      const fromGguf = modelShapeFromGguf(header.metadata, { typeK, typeV });
      shape = fromGguf.shape;
      model = { file: values.gguf, ggufVersion: header.version, tensorCount: header.tensorCount, ...fromGguf.summary };
    } catch (error) {
      if (error instanceof GgufError || error instanceof ModelConfigError) throw new CliError(error.message);
      throw error;
    }
  } else {
    const layers = parseIntArg(values.layers, '--layers');
    const kvHeads = parseIntArg(values['kv-heads'], '--kv-heads');
    const headDim = parseIntArg(values['head-dim'], '--head-dim');
    if (layers === undefined || kvHeads === undefined || headDim === undefined) {
      throw new CliError(`give --gguf <file>, or all of --layers, --kv-heads and --head-dim\n${USAGE}`, 2);
    }
    const headDimV = parseIntArg(values['head-dim-v'], '--head-dim-v') ?? headDim;
    shape = { layers, kvHeads, headDimK: headDim, headDimV, typeK, typeV };
  }

  let result;
  try {
    result = computeKvForShape(shape, { ctx, budgetBytes, nSeq });
  } catch (error) {
    if (error instanceof KvShapeError) throw new CliError(error.message);
    throw error;
  }
  const per = kvPerToken(shape);
  const notes = [...(model?.notes ?? [])];
  if (per.swaLayerCount > 0) {
    notes.push(
      `${per.swaLayerCount} of ${shape.layers} layers use a ${shape.slidingWindow}-token sliding window: they stop growing after ${shape.slidingWindow} tokens`,
    );
  }

  if (values.json) {
    const doc = {
      bytesPerToken: result.bytesPerToken,
      totalBytes: result.totalBytes,
      ctx: result.ctx,
      maxContextForBudget: result.maxContextForBudget,
      budgetBytes,
      nSeq,
      typeK,
      typeV,
      kBytesPerToken: per.kBytesPerToken,
      vBytesPerToken: per.vBytesPerToken,
      globalBytesPerToken: result.globalBytesPerToken,
      swaBytesPerToken: result.swaBytesPerToken,
      slidingWindow: result.slidingWindow,
      llamaCpp: { cells: result.llamaCppCells, reservedBytes: result.llamaCppReservedBytes, ctxPad: LLAMA_CPP_CTX_PAD },
      ...(model ? { model } : {}),
      notes,
    };
    io.out(JSON.stringify(doc, null, 2) + '\n');
    return 0;
  }

  const rows: Array<[string, string]> = [];
  if (model) {
    rows.push([
      'model',
      // The name comes from the file: printed escaped, so it cannot forge lines or drive the terminal.
      `${model.name === null ? values.gguf : escapeUntrusted(model.name, 120)} (${model.architecture}, ${model.fileTypeName ?? 'file type not stated'})`,
    ]);
    const heads = Array.isArray(model.nHeadKv)
      ? `per layer ${Math.min(...model.nHeadKv)}–${Math.max(...model.nHeadKv)}`
      : String(model.nHeadKv);
    rows.push([
      'shape',
      `${model.nLayer} layers, ${model.nHead} heads, ${heads} KV heads, head dim ${model.headDimK}/${model.headDimV}` +
        (model.nCtxTrain ? `, trained ctx ${group(model.nCtxTrain)}` : ''),
    ]);
  } else {
    rows.push([
      'shape',
      `${shape.layers} layers, ${shape.kvHeads} KV heads, head dim ${shape.headDimK}/${shape.headDimV}`,
    ]);
  }
  rows.push(['KV types', `K ${typeK}, V ${typeV}`]);
  rows.push([
    'bytes/token',
    bytesLabel(result.bytesPerToken) +
      (per.swaLayerCount ? `; ${group(result.globalBytesPerToken)} B in global layers` : ''),
  ]);
  rows.push([`total at ${group(ctx)}${nSeq > 1 ? ` × ${nSeq} seq` : ''}`, bytesLabel(result.totalBytes)]);
  rows.push([
    'llama.cpp reserves',
    `${bytesLabel(result.llamaCppReservedBytes)} for ${group(result.llamaCppCells)} cells`,
  ]);
  if (budgetBytes !== null) {
    rows.push([
      `max context in ${formatBytes(budgetBytes)}`,
      result.maxContextForBudget === null
        ? 'unbounded (every layer is windowed)'
        : `${group(result.maxContextForBudget)} tokens${nSeq > 1 ? ' per sequence' : ''} (KV only; weights and buffers come on top)`,
    ]);
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  io.out(rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n') + '\n');
  for (const note of notes) io.out(`note: ${note}\n`);
  return 0;
}
