// The real llama.cpp engine of the integration tests and benchmarks: node-llama-cpp on CPU
// (test/engines/llama, installed by .ci/run with `npm ci --prefix test/engines/llama
// --omit=optional`) and the real tiny model ../shared/models/stories260K.gguf.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { shellJoin } from '../../shared/util/shell';
import { projectRoot } from './cli';

export const llamaDir = join(projectRoot, 'test/engines/llama');
export const llamaCli = join(llamaDir, 'llama-cli.mjs');
export const openaiServer = join(llamaDir, 'openai-server.mjs');
/** As the CLI takes it from the project root (DESIGN: never copied into the project). */
export const modelRelative = '../shared/models/stories260K.gguf';
export const modelPath = resolve(projectRoot, modelRelative);

/**
 * stories260K: 5 layers × 4 KV heads × head_dim 8 (64 / 8 heads), f16 K and V:
 * 2 × 5 × 4 × 8 × 2 B = 640 bytes per token (../shared/models/README.md).
 */
export const STORIES_KV_BYTES_PER_TOKEN = 2 * 5 * 4 * 8 * 2;

/** Fail with the fix, not with a module-not-found deep in a child process. */
export function assertLlamaEngineInstalled(): void {
  if (
    !existsSync(join(llamaDir, 'node_modules/node-llama-cpp')) ||
    !existsSync(join(llamaDir, 'node_modules/@node-llama-cpp/linux-x64'))
  ) {
    throw new Error(
      'the test engine is not installed: run `npm ci --prefix test/engines/llama --omit=optional` (see .ci/run)',
    );
  }
  if (!existsSync(modelPath)) throw new Error(`the test model is missing: ${modelPath} (../shared/models/README.md)`);
}

/**
 * The engine's environment when its memory is measured across runs. A real llama-cli with -t 1
 * is one thread using glibc's main malloc arena. Node adds V8 helper threads (concurrent GC,
 * background compilation), each with its own arena, and the heap they leave behind after
 * start-up differs by ±2 MiB from one run to the next (anonymous RSS after importing
 * node-llama-cpp: 34.9–38.8 MiB over six runs; 30.5–31.9 MiB single-threaded with one arena).
 * V8's young generation then grows its semi-spaces (up to 16 MiB each) when the collector
 * finds enough survivors, at moments that differ from run to run: peak anonymous RSS of the
 * same 4,096-cell run of 400 tokens spread over 47.7–49.4 MiB in four runs, and 34.0–34.5 MiB
 * with the semi-space held at 1 MiB (65,536 cells: 90.5–91.3 and 76.9–77.2 MiB; 2-core VM).
 * A context sweep fits memory across separate runs, so this noise would land in its slope: one
 * CI run measured 745 B per cell where llama.cpp holds 696 (test/integration/engines/sweep.test.ts).
 */
export const SINGLE_THREADED_NODE = [
  'env',
  'MALLOC_ARENA_MAX=1',
  process.execPath,
  '--single-threaded',
  '--max-semi-space-size=1',
];

/** `node llama-cli.mjs -m <model> -c {ctx} -n <tokens> …` as an --engine command line. */
export function llamaCliCommand(options: {
  tokens: number;
  ctx?: number | '{ctx}';
  prompt?: string;
  quietNode?: boolean;
  node?: string;
  model?: string;
  extra?: string[];
}): string {
  const node = options.quietNode ? SINGLE_THREADED_NODE : [options.node ?? process.execPath];
  const args = [
    ...node,
    llamaCli,
    '-m',
    options.model ?? modelPath,
    '-c',
    String(options.ctx ?? '{ctx}'),
    '-n',
    String(options.tokens),
    '-p',
    options.prompt ?? 'Once upon a time',
    '--threads',
    '1',
    '--ignore-eos',
    ...(options.extra ?? []),
  ];
  // {ctx} stays bare for the substitution (shellJoin would quote the braces).
  return shellJoin(args)
    .split(shellJoin(['{ctx}']))
    .join('{ctx}');
}

/** `node openai-server.mjs -m <model> -c <ctx> --port <port>` as an --engine command line. */
export function openaiServerCommand(options: { ctx: number; port?: number; node?: string; model?: string }): string {
  return shellJoin([
    options.node ?? process.execPath,
    openaiServer,
    '-m',
    options.model ?? modelPath,
    '-c',
    String(options.ctx),
    '--port',
    String(options.port ?? 0),
    '--threads',
    '1',
  ]);
}

/** A story prompt of roughly `sentences` × 22 tokens (long enough that prefill dominates TTFT). */
export function storyPrompt(sentences: number): string {
  const lines = [
    'Once upon a time, there was a little girl named Lily. She loved to play outside in the park.',
    'One day, she saw a big red ball under a tree. She ran to get it and laughed with her friend Tom.',
    'The sun was warm and the birds were singing. Lily and Tom played until it was time to go home.',
  ];
  return Array.from({ length: sentences }, (_, i) => lines[i % lines.length]).join(' ');
}
