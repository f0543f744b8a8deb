// What llama-cli.mjs and openai-server.mjs share: llama.cpp through node-llama-cpp on CPU, its
// own log lines forwarded to stderr as llama.cpp prints them, the context created as the
// command-line tools create it.
import { getLlama, LlamaLogLevel } from 'node-llama-cpp';

/** llama.cpp's -ctk/-ctv names → node-llama-cpp's GGML type names. */
export const KV_TYPES = {
  f32: 'F32',
  f16: 'F16',
  bf16: 'BF16',
  q8_0: 'Q8_0',
  q4_0: 'Q4_0',
  q4_1: 'Q4_1',
  q5_0: 'Q5_0',
  q5_1: 'Q5_1',
};

/** The message without its trailing newlines (a loop: /\n+$/ rescans each run of newlines from every start). */
function withoutTrailingNewlines(text) {
  let end = text.length;
  while (end > 0 && text[end - 1] === '\n') end--;
  return text.slice(0, end);
}

/** llama.cpp logs arrive one message per call, without the newline; progress dots come one by one. */
function makeLogger() {
  let dots = '';
  return (_level, message) => {
    const text = withoutTrailingNewlines(String(message));
    if (/^\.+$/.test(text)) {
      dots += text;
      return;
    }
    let out = dots ? `${dots}\n` : '';
    dots = '';
    if (text !== '') out += `${text}\n`;
    if (out) process.stderr.write(out);
  };
}

/** Model and context from {model, ctx, threads, ctk, ctv}, with performance tracking on. */
export async function openLlamaContext(opts) {
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.info, logger: makeLogger() });
  const model = await llama.loadModel({ modelPath: opts.model });
  const context = await model.createContext({
    contextSize: opts.ctx,
    threads: opts.threads,
    performanceTracking: true,
    experimentalKvCacheKeyType: KV_TYPES[opts.ctk],
    experimentalKvCacheValueType: KV_TYPES[opts.ctv],
  });
  return { llama, model, context, sequence: context.getSequence() };
}

/**
 * node-llama-cpp's dependencies install signal-exit handlers that re-raise SIGTERM and end the
 * process before ours runs (seen: exit status 143, no cleanup): these programs own their signals.
 */
export function ownSignals(handler) {
  for (const sig of ['SIGTERM', 'SIGINT']) {
    process.removeAllListeners(sig);
    process.on(sig, handler);
  }
}

/**
 * The options every program here takes, spelled as llama.cpp spells them:
 * key → [how the value reads, ...flags]. See parseEngineArgs.
 */
export const COMMON_ARGS = {
  model: ['string', '-m', '--model'],
  ctx: ['int', '-c', '--ctx-size'],
  threads: ['int', '-t', '--threads'],
  ctk: ['string', '-ctk', '--ctk', '--cache-type-k'],
  ctv: ['string', '-ctv', '--ctv', '--cache-type-v'],
};

/**
 * Reads llama.cpp-style arguments by a table (key → [kind, ...flags]; kind 'string', 'int' for a
 * whole number ≥ 0, 'number', or 'flag' for a switch) over `defaults`. An unknown argument, a
 * missing value or a bad whole number ends the program through `usage`, as llama.cpp does.
 */
export function parseEngineArgs(argv, spec, defaults, usage) {
  const byFlag = new Map();
  for (const [key, [kind, ...flags]] of Object.entries(spec)) for (const flag of flags) byFlag.set(flag, { key, kind });
  const o = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const option = byFlag.get(a);
    if (!option) return usage(`unknown argument "${a}"`);
    if (option.kind === 'flag') {
      o[option.key] = true;
      continue;
    }
    if (i + 1 >= argv.length) return usage(`${a} needs a value`);
    const v = argv[++i];
    if (option.kind === 'int' && !(Number.isInteger(Number(v)) && Number(v) >= 0))
      return usage(`${a} must be a whole number, got "${v}"`);
    o[option.key] = option.kind === 'string' ? v : Number(v);
  }
  return o;
}
