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

/** The model and context options both programs take, as llama.cpp spells them → [key, kind]. */
const CONTEXT_OPTIONS = {
  '-m': ['model', 'string'],
  '--model': ['model', 'string'],
  '-c': ['ctx', 'int'],
  '--ctx-size': ['ctx', 'int'],
  '-t': ['threads', 'int'],
  '--threads': ['threads', 'int'],
  '-ctk': ['ctk', 'string'],
  '--ctk': ['ctk', 'string'],
  '--cache-type-k': ['ctk', 'string'],
  '-ctv': ['ctv', 'string'],
  '--ctv': ['ctv', 'string'],
  '--cache-type-v': ['ctv', 'string'],
};

/**
 * The command line of one of these programs. `options` adds its own spellings → [key, kind]:
 * 'string' and 'int' (a whole number ≥ 0) take the next argument, 'number' too, 'flag' none.
 * A usage error prints `<program>: <why>`, then `usage: <synopsis>`, and exits 2.
 */
export function parseEngineArgs(argv, { program, synopsis, defaults, options = {} }) {
  const usage = (message) => {
    process.stderr.write(`${program}: ${message}\nusage: ${synopsis}\n`);
    process.exit(2);
  };
  const known = { ...CONTEXT_OPTIONS, ...options };
  const o = { model: null, ctx: 4096, threads: 1, ctk: 'f16', ctv: null, ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!Object.hasOwn(known, a)) usage(`unknown argument "${a}"`);
    const [key, kind] = known[a];
    if (kind === 'flag') {
      o[key] = true;
      continue;
    }
    if (i + 1 >= argv.length) usage(`${a} needs a value`);
    const v = argv[++i];
    if (kind === 'int') {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) usage(`${a} must be a whole number, got "${v}"`);
      o[key] = n;
    } else o[key] = kind === 'number' ? Number(v) : v;
  }
  if (!o.model) usage('-m <model.gguf> is required');
  if (o.ctx < 1) usage('-c must be ≥ 1');
  o.ctv ??= o.ctk;
  for (const t of [o.ctk, o.ctv])
    if (!KV_TYPES[t]) usage(`unknown KV type "${t}" (one of ${Object.keys(KV_TYPES).join(', ')})`);
  return o;
}
