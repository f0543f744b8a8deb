// Turns the run request's engine into the command line the launcher runs on the target, and
// the theory the analysis compares against (demo: exact by construction; GGUF: from the header).
//
// Engine commands with `--gguf <path on target>`: the header is read over the Target with
// byte-range reads (a multi-GB model never travels), turned into a ModelShape, and gives
//   theoryBytesPerToken = kv_bytes_per_token (docs/DESIGN.md), with --kv-type (or the command's own
//                         -ctk/-ctv for llama.cpp-like commands) as the cache type;
//   ctx                 = for llama.cpp-like commands the cells llama.cpp really reserves
//                         (n_ctx padded to LLAMA_CPP_CTX_PAD), else the --ctx given;
//   theoryReservedBytes = what llama.cpp allocates for that context (padding, SWA layers capped).
// llama.cpp-like commands (the program is llama-cli, llama-completion, llama-simple, main or
// llama-server) reserve their whole cache at context creation: modeHint 'reserved'.
import type { KvMode, KvType, RunRequest } from '../../../shared/api/schemas';
import { KvTypeSchema } from '../../../shared/api/schemas';
import { kvBytesDetailed, kvBytesPerToken, LLAMA_CPP_CTX_PAD } from '../../../shared/kv/kv-theory';
import { modelShapeFromGguf, type GgufModelSummary } from '../../../shared/kv/model-config';
import { shellQuote } from '../../../shared/util/shell';
import type { Target } from '../transport/target';
import { demoEngineConfig, demoShape } from '../demo-engine/demo-config';
import { demoEngineBundle } from '../demo-engine/demo-engine-bundle';
import { readGgufHeaderFromTarget } from '../model/gguf-reader';
import { describeFileError } from '../util/describe-error';

export interface PreparedEngine {
  /** The shell command line the launcher runs (`sh -c`). */
  command: string;
  /** What to show people: the user's command, or the demo's equivalent CLI. */
  displayCommand: string;
  theoryBytesPerToken: number | null;
  /** Cells the engine reserves (llama.cpp: n_ctx padded to 256), or the context given. */
  ctx: number | null;
  modeHint?: KvMode;
  /** What a reserving engine allocates for ctx (llama.cpp padding, SWA layers capped); null when unknown. */
  theoryReservedBytes?: number | null;
  /** The context size asked for (--ctx / a sweep step), before any engine padding. */
  requestedCtx?: number | null;
  /** The engine rounds context sizes up to a multiple of this (llama.cpp: 256). */
  ctxPad?: number;
  /** The model as its GGUF header describes it (engine commands with --gguf). */
  model?: GgufModelSummary | null;
}

/** Replace `{ctx}` in an engine command line (docs/DESIGN.md: `--engine "… -c {ctx} …"`). */
export function substituteCtx(command: string, ctx: number | undefined): string {
  if (!command.includes('{ctx}')) return command;
  if (ctx === undefined)
    throw new Error('the engine command contains {ctx} but no context size was given (--ctx or --sweep)');
  return command.split('{ctx}').join(String(ctx));
}

/**
 * Programs of llama.cpp (and our test engine built on it) that allocate and clear the whole KV
 * cache when the context is created. `main` is llama-cli's name before mid-2024.
 */
export const LLAMA_CPP_RESERVING_PROGRAMS: readonly string[] = [
  'llama-cli',
  'llama-completion',
  'llama-simple',
  'main',
  'llama-server',
];

/** Words of a command line, roughly as sh splits them (quotes removed; enough to find program names and flags). */
function commandWords(command: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(command))) words.push(m[1] ?? m[2] ?? m[3] ?? '');
  return words;
}

function programName(word: string): string {
  const base = word.split('/').pop() ?? word;
  return base.replace(/\.(?:m?js|cjs|exe)$/, '');
}

/** True when a word of the command names a llama.cpp program that reserves its cache (a heuristic). */
export function isLlamaCppLikeCommand(command: string): boolean {
  return commandWords(command).some((w) => LLAMA_CPP_RESERVING_PROGRAMS.includes(programName(w)));
}

/** The value of the first of `flags` in a llama.cpp-style command line (`-c 4096`, `--ctx-size=4096`). */
export function llamaFlagValue(command: string, flags: readonly string[]): string | undefined {
  const words = commandWords(command);
  for (const [i, word] of words.entries()) {
    for (const f of flags) {
      const next = words.at(i + 1);
      if (word === f && next !== undefined) return next;
      if (word.startsWith(`${f}=`)) return word.slice(f.length + 1);
    }
  }
  return undefined;
}

function kvTypeOf(text: string | undefined): KvType | undefined {
  const parsed = KvTypeSchema.safeParse(text?.toLowerCase());
  return parsed.success ? parsed.data : undefined;
}

async function nodeOnTarget(target: Target): Promise<string> {
  if (target.kind === 'local') return process.execPath;
  const found = await target.exec('command -v node || command -v nodejs');
  const path = found.stdout.toString().trim().split('\n')[0];
  if (found.code !== 0 || !path) {
    throw new Error(
      'the demo engine needs `node` on the target, and this target has none (install Node.js there, or profile a real engine with --engine)',
    );
  }
  return path;
}

export async function prepareEngine(target: Target, request: RunRequest, dir: string): Promise<PreparedEngine> {
  const engine = request.engine;
  if (engine.kind === 'demo') {
    const demo = engine.demo;
    const config = demoEngineConfig(demo);
    const [node, bundle] = await Promise.all([nodeOnTarget(target), demoEngineBundle()]);
    const file = `${dir}/demo-engine.cjs`;
    await target.writeFile(file, bundle, 0o700);
    const flags = [
      `--layers ${demo.layers}`,
      `--kv-heads ${demo.kvHeads}`,
      `--head-dim ${demo.headDim}`,
      `--kv-type ${demo.kvType}`,
      `--tokens ${demo.tokens}`,
      `--tps ${demo.tps}`,
      `--mode ${demo.mode}`,
      `--ctx ${demo.ctx}`,
      `--block ${demo.block}`,
      ...(demo.window ? [`--window ${demo.window}`] : []),
      `--weights-mb ${demo.weightsMb}`,
      ...(demo.leakBytesPerToken ? [`--leak ${demo.leakBytesPerToken}`] : []),
    ];
    return {
      command: `${shellQuote(node)} ${shellQuote(file)} ${shellQuote(JSON.stringify(config))}`,
      displayCommand: `kvscope demo-engine ${flags.join(' ')}`,
      theoryBytesPerToken: kvBytesPerToken(demoShape(demo)),
      ctx: demo.mode === 'window' ? (demo.window ?? demo.ctx) : demo.ctx,
      modeHint: demo.mode,
      requestedCtx: demo.ctx,
    };
  }

  const command = substituteCtx(engine.command, engine.ctx);
  const llamaLike = isLlamaCppLikeCommand(command);
  // The context: --ctx (also what {ctx} became), else a llama.cpp command's own -c.
  let requestedCtx: number | null = engine.ctx ?? null;
  if (requestedCtx === null && llamaLike) {
    const c = Number(llamaFlagValue(command, ['-c', '--ctx-size']));
    if (Number.isInteger(c) && c > 0) requestedCtx = c;
  }
  // llama.cpp reserves n_ctx rounded up to its padding.
  const cellsFor = (n: number | null) =>
    n !== null && llamaLike ? Math.ceil(n / LLAMA_CPP_CTX_PAD) * LLAMA_CPP_CTX_PAD : n;
  const prepared: PreparedEngine = {
    command,
    displayCommand: command,
    theoryBytesPerToken: null,
    ctx: cellsFor(requestedCtx),
    requestedCtx,
    theoryReservedBytes: null,
    model: null,
    ...(llamaLike ? { modeHint: 'reserved' as const, ctxPad: LLAMA_CPP_CTX_PAD } : {}),
  };
  if (!engine.gguf) return prepared;

  let header;
  try {
    header = await readGgufHeaderFromTarget(target, engine.gguf);
  } catch (error) {
    throw new Error(`cannot read the GGUF header of ${engine.gguf}: ${describeFileError(error)}`);
  }
  // Cache types: --kv-type for both, else what a llama.cpp command asks for, else f16 (llama.cpp's default).
  const typeK =
    engine.kvType ??
    (llamaLike ? kvTypeOf(llamaFlagValue(command, ['-ctk', '--cache-type-k', '--ctk'])) : undefined) ??
    'f16';
  const typeV =
    engine.kvType ??
    (llamaLike ? kvTypeOf(llamaFlagValue(command, ['-ctv', '--cache-type-v', '--ctv'])) : undefined) ??
    typeK;
  const { shape, summary } = modelShapeFromGguf(header.metadata, { typeK, typeV });
  prepared.model = summary;
  prepared.theoryBytesPerToken = kvBytesPerToken(shape);
  // llama.cpp's `-c 0` means the model's training context.
  if (
    requestedCtx === null &&
    llamaLike &&
    llamaFlagValue(command, ['-c', '--ctx-size']) === '0' &&
    summary.nCtxTrain
  ) {
    requestedCtx = summary.nCtxTrain;
    prepared.requestedCtx = requestedCtx;
    prepared.ctx = cellsFor(requestedCtx);
  }
  if (requestedCtx !== null) {
    if (llamaLike) {
      const reserved = kvBytesDetailed(shape, 0, { mode: 'reserved', ctx: requestedCtx, ctxPad: LLAMA_CPP_CTX_PAD });
      prepared.ctx = reserved.globalCells;
      prepared.theoryReservedBytes = reserved.totalBytes;
    } else {
      prepared.theoryReservedBytes = kvBytesDetailed(shape, 0, {
        mode: 'reserved',
        ctx: requestedCtx,
        ctxPad: 1,
      }).totalBytes;
    }
  }
  return prepared;
}
