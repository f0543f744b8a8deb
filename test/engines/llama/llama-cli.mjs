#!/usr/bin/env node
// A small llama-cli-like program on node-llama-cpp: the real llama.cpp engine for KVScope's
// integration tests and benchmarks (../shared/models/README.md). Not a product feature.
//
//   node llama-cli.mjs -m <model.gguf> -c <ctx> -n <tokens> -p <prompt>
//                      [--threads 1] [--ctk f16] [--ctv f16] [--temp 0] [--ignore-eos] [--raw]
//
// What it does, like llama-cli:
// - loads the model on the CPU (`getLlama({gpu: false, build: 'never'})`: the prebuilt CPU
//   binary of @node-llama-cpp/linux-x64, never a build, never a GPU package);
// - creates a context of -c cells (llama.cpp pads it to 256 and zero-fills the whole KV buffer
//   here: RSS follows -c, not the tokens generated);
// - forwards llama.cpp's own log lines to stderr, one line per message (the real
//   `llama_kv_cache: size = …` line, `print_info: …`, and at the end the real
//   `llama_perf_context_print: …` timing lines from `context.printTimings()`);
// - streams the generated tokens to stdout as they come.
//
// One difference, on purpose: each token is written on its own line (a newline inside a token is
// written as the two characters `\n`), so a profiler that counts stdout lines counts tokens.
// With --raw it writes as real llama-cli does: each token's text as it comes, no newline added.
//
// --threads defaults to 1: on a 2-core machine node-llama-cpp's default of 4 threads ran at
// ≈ 1.4 tokens/s instead of ≈ 1,000 (../shared/models/README.md).
import { COMMON_ARGS, KV_TYPES, openLlamaContext, ownSignals, parseEngineArgs } from './llama-common.mjs';

function usage(message) {
  process.stderr.write(
    `llama-cli.mjs: ${message}\nusage: node llama-cli.mjs -m <gguf> -c <ctx> -n <tokens> -p <prompt> [--threads 1] [--ctk f16] [--ctv f16] [--temp 0] [--ignore-eos] [--raw]\n`,
  );
  process.exit(2);
}

function parseArgs(argv) {
  const spec = {
    ...COMMON_ARGS,
    tokens: ['int', '-n', '--n-predict'],
    prompt: ['string', '-p', '--prompt'],
    temp: ['number', '--temp'],
    ignoreEos: ['flag', '--ignore-eos'],
    raw: ['flag', '--raw'],
  };
  const defaults = {
    model: null,
    ctx: 4096,
    tokens: 128,
    prompt: 'Once upon a time',
    threads: 1,
    ctk: 'f16',
    ctv: null,
  };
  const o = parseEngineArgs(argv, spec, { ...defaults, temp: 0, ignoreEos: false, raw: false }, usage);
  if (!o.model) usage('-m <model.gguf> is required');
  if (o.ctx < 1) usage('-c must be ≥ 1');
  o.ctv ??= o.ctk;
  for (const t of [o.ctk, o.ctv])
    if (!KV_TYPES[t]) usage(`unknown KV type "${t}" (one of ${Object.keys(KV_TYPES).join(', ')})`);
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const { llama, model, context, sequence } = await openLlamaContext(opts);
const promptTokens = model.tokenize(opts.prompt);
if (promptTokens.length + opts.tokens > context.contextSize) {
  process.stderr.write(
    `llama-cli.mjs: prompt (${promptTokens.length} tokens) + -n ${opts.tokens} exceed the context of ${context.contextSize}\n`,
  );
  process.exit(1);
}

let stopping = false;
// SIGTERM (a profiler stopping the run): end the generation, print the timings, leave cleanly.
ownSignals(() => (stopping = true));

let generated = 0;
const history = [...promptTokens];
if (opts.tokens > 0) {
  for await (const token of sequence.evaluate(promptTokens, { temperature: opts.temp })) {
    if (!opts.ignoreEos && model.isEogToken(token)) break;
    // The preceding tokens decide whether the piece starts with a space (SentencePiece).
    const piece = model.detokenize([token], false, history.slice(-8));
    history.push(token);
    process.stdout.write(opts.raw ? piece : piece.replace(/\n/g, '\\n') + '\n');
    generated += 1;
    if (generated >= opts.tokens || stopping) break;
  }
}
process.stderr.write('\n');
await context.printTimings();
await context.dispose();
await model.dispose();
await llama.dispose();
