// Turns the run request's engine into the command line the launcher runs on the target, and
// the theory the analysis compares against (demo: exact by construction; GGUF: from the header).
import type { KvMode, RunRequest } from '../../../shared/api/schemas';
import { kvBytesPerToken } from '../../../shared/kv/kv-theory';
import { shellQuote } from '../../../shared/util/shell';
import type { Target } from '../target/target';
import { demoEngineConfig, demoShape } from '../demo-engine/demo-config';
import { demoEngineBundle } from '../demo-engine/demo-engine-bundle';

export interface PreparedEngine {
  /** The shell command line the launcher runs (`sh -c`). */
  command: string;
  /** What to show people: the user's command, or the demo's equivalent CLI. */
  displayCommand: string;
  theoryBytesPerToken: number | null;
  ctx: number | null;
  modeHint?: KvMode;
}

/** Replace `{ctx}` in an engine command line (DESIGN.md: `--engine "… -c {ctx} …"`). */
export function substituteCtx(command: string, ctx: number | undefined): string {
  if (!command.includes('{ctx}')) return command;
  if (ctx === undefined) throw new Error('the engine command contains {ctx} but no context size was given (--ctx or --sweep)');
  return command.split('{ctx}').join(String(ctx));
}

async function nodeOnTarget(target: Target): Promise<string> {
  if (target.kind === 'local') return process.execPath;
  const found = await target.exec('command -v node || command -v nodejs');
  const path = found.stdout.toString().trim().split('\n')[0];
  if (found.code !== 0 || !path) {
    throw new Error('the demo engine needs `node` on the target, and this target has none (install Node.js there, or profile a real engine with --engine)');
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
      `--layers ${demo.layers}`, `--kv-heads ${demo.kvHeads}`, `--head-dim ${demo.headDim}`, `--kv-type ${demo.kvType}`,
      `--tokens ${demo.tokens}`, `--tps ${demo.tps}`, `--mode ${demo.mode}`, `--ctx ${demo.ctx}`, `--block ${demo.block}`,
      ...(demo.window ? [`--window ${demo.window}`] : []), `--weights-mb ${demo.weightsMb}`,
      ...(demo.leakBytesPerToken ? [`--leak ${demo.leakBytesPerToken}`] : []),
    ];
    return {
      command: `${shellQuote(node)} ${shellQuote(file)} ${shellQuote(JSON.stringify(config))}`,
      displayCommand: `kvscope demo-engine ${flags.join(' ')}`,
      theoryBytesPerToken: kvBytesPerToken(demoShape(demo)),
      ctx: demo.mode === 'window' ? (demo.window ?? demo.ctx) : demo.ctx,
      modeHint: demo.mode,
    };
  }
  const command = substituteCtx(engine.command, engine.ctx);
  return {
    command,
    displayCommand: command,
    theoryBytesPerToken: null,
    ctx: engine.ctx ?? null,
  };
}
