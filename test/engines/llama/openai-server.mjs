#!/usr/bin/env node
// A small OpenAI-compatible streaming server on node-llama-cpp, llama-server-like: the real
// llama.cpp engine behind KVScope's server-mode tests (../shared/models/README.md). Not a
// product feature.
//
//   node openai-server.mjs -m <model.gguf> [-c 4096] [--port 0] [--host 127.0.0.1] [--threads 1] [--ctk f16]
//
// - POST /v1/chat/completions and /v1/completions; `stream: true` answers with Server-Sent
//   Events, one `data: {…}` chunk per generated token (as llama-server does), then a last chunk
//   with `finish_reason`, `usage` and llama-server's `timings` object, then `data: [DONE]`.
//   `stream: false` answers with one JSON document. Fields read: messages / prompt,
//   max_tokens (n_predict), temperature, ignore_eos (llama-server's extension).
// - GET /v1/models, /health.
// - `timings` are measured here, the way llama-server measures them (tools/server/server.cpp):
//   prompt_ms = from the start of prompt processing (after tokenizing) to the first sampled
//   token; predicted_ms = from that first token to the last; predicted_n counts every generated
//   token, the first included; prompt_n = prompt tokens evaluated (cache_n = the prefix reused
//   from the previous request, as llama-server's prompt cache does).
// - Logs: llama.cpp's own lines (logger callback) and, per request, llama-server's
//   `slot print_timing` block, on stderr; `main: server is listening on http://HOST:PORT -
//   starting the main loop` once the model is loaded (with --port 0: the port the OS chose).
// - One slot: requests are served one after the other. SIGTERM/SIGINT: stop and exit 0.
// - Chat messages are joined as plain text (the test model has no chat template).
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { COMMON_ARGS, KV_TYPES, openLlamaContext, ownSignals, parseEngineArgs } from './llama-common.mjs';

function usage(message) {
  process.stderr.write(
    `openai-server.mjs: ${message}\nusage: node openai-server.mjs -m <gguf> [-c 4096] [--port 0] [--host 127.0.0.1] [--threads 1] [--ctk f16]\n`,
  );
  process.exit(2);
}

function parseArgs(argv) {
  const spec = { ...COMMON_ARGS, port: ['int', '--port'], host: ['string', '--host'] };
  const defaults = { model: null, ctx: 4096, port: 8080, host: '127.0.0.1', threads: 1, ctk: 'f16', ctv: null };
  const o = parseEngineArgs(argv, spec, defaults, usage);
  if (!o.model) usage('-m <model.gguf> is required');
  o.ctv ??= o.ctk;
  for (const t of [o.ctk, o.ctv]) if (!KV_TYPES[t]) usage(`unknown KV type "${t}"`);
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const { llama, model, context, sequence } = await openLlamaContext(opts);
const modelName = opts.model.split('/').pop();
let taskId = 0;
let queue = Promise.resolve();

function promptOf(body, chat) {
  if (chat) {
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      throw new Error('"messages" must be a non-empty array');
    return body.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  }
  if (typeof body.prompt !== 'string') throw new Error('"prompt" must be a string');
  return body.prompt;
}

const fmt = (n, w, d = 2) => n.toFixed(d).padStart(w);

/** llama-server's per-request timing block (2025+ format: the slot line, then three timing lines). */
function printTimings(id, t) {
  const row = (ms, n) =>
    `${fmt(ms, 10)} ms / ${String(n).padStart(5)} tokens (${fmt(n > 0 ? ms / n : 0, 8)} ms per token, ${fmt(ms > 0 ? (n * 1000) / ms : 0, 8)} tokens per second)`;
  process.stderr.write(
    `slot print_timing: id  0 | task ${id} | \n` +
      `prompt eval time = ${row(t.prompt_ms, t.prompt_n)}\n` +
      `       eval time = ${row(t.predicted_ms, t.predicted_n)}\n` +
      `      total time = ${fmt(t.prompt_ms + t.predicted_ms, 10)} ms / ${String(t.prompt_n + t.predicted_n).padStart(5)} tokens\n`,
  );
}

/** Generate for one request; `emit(text)` is called per token. Returns the timings and counts. */
async function generate(prompt, maxTokens, temperature, ignoreEos, emit) {
  const tokens = model.tokenize(prompt);
  if (tokens.length === 0) throw new Error('empty prompt');
  if (tokens.length + maxTokens > context.contextSize) {
    const e = new Error(
      `the request exceeds the available context size (${tokens.length} prompt tokens + ${maxTokens} > ${context.contextSize})`,
    );
    e.status = 400;
    throw e;
  }
  // Reuse the longest common prefix with what the context already holds (llama-server's prompt cache).
  const held = sequence.contextTokens;
  let common = 0;
  while (common < held.length && common < tokens.length && held[common] === tokens[common]) common++;
  if (common === tokens.length) common -= 1; // at least one token must be evaluated to sample the next
  if (common < sequence.nextTokenIndex)
    await sequence.eraseContextTokenRanges([{ start: common, end: sequence.nextTokenIndex }]);
  const tStartPrompt = performance.now();
  let tFirst = null;
  let tLast = null;
  let n = 0;
  let finish = 'length';
  const history = [...tokens];
  if (maxTokens > 0) {
    for await (const token of sequence.evaluate(tokens.slice(common), { temperature })) {
      const now = performance.now();
      if (tFirst === null) tFirst = now;
      if (!ignoreEos && model.isEogToken(token)) {
        finish = 'stop';
        tLast = now;
        break;
      }
      n += 1;
      // The preceding tokens decide whether the piece starts with a space (SentencePiece).
      await emit(model.detokenize([token], false, history.slice(-8)));
      history.push(token);
      tLast = performance.now();
      if (n >= maxTokens) break;
    }
  }
  tFirst ??= performance.now();
  tLast ??= tFirst;
  const promptN = tokens.length - common;
  const promptMs = tFirst - tStartPrompt;
  const predictedMs = tLast - tFirst;
  return {
    finish,
    promptTokens: tokens.length,
    timings: {
      cache_n: common,
      prompt_n: promptN,
      prompt_ms: promptMs,
      prompt_per_token_ms: promptN > 0 ? promptMs / promptN : 0,
      prompt_per_second: promptMs > 0 ? (promptN * 1000) / promptMs : 0,
      predicted_n: n,
      predicted_ms: predictedMs,
      predicted_per_token_ms: n > 0 ? predictedMs / n : 0,
      predicted_per_second: predictedMs > 0 ? (n * 1000) / predictedMs : 0,
    },
  };
}

function sendJson(res, status, value) {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Write and wait until the chunk left (per-token chunks must not pile up in a buffer). */
function writeChunk(res, text) {
  return new Promise((resolve) => {
    if (res.write(text)) resolve();
    else res.once('drain', resolve);
  });
}

async function complete(req, res, chat) {
  let raw = '';
  for await (const piece of req) raw += piece;
  let body;
  let prompt;
  try {
    body = JSON.parse(raw);
    prompt = promptOf(body, chat);
  } catch (e) {
    return sendJson(res, 400, { error: { message: e.message, type: 'invalid_request_error' } });
  }
  const maxTokens = Number.isInteger(body.max_tokens)
    ? body.max_tokens
    : Number.isInteger(body.n_predict)
      ? body.n_predict
      : 128;
  const temperature = typeof body.temperature === 'number' ? body.temperature : 0;
  const ignoreEos = body.ignore_eos === true;
  const stream = body.stream === true;
  const id = `cmpl-${++taskId}`;
  const created = Math.floor(Date.now() / 1000);
  const object = chat ? 'chat.completion.chunk' : 'text_completion';
  const chunk = (extra) => `data: ${JSON.stringify({ id, object, created, model: modelName, ...extra })}\n\n`;
  const choice = (text, finish) =>
    chat
      ? { index: 0, delta: text === null ? {} : { content: text }, finish_reason: finish }
      : { index: 0, text: text ?? '', finish_reason: finish };

  // One slot: wait for the previous request to end.
  const turn = queue.then(async () => {
    let text = '';
    if (stream) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      res.socket?.setNoDelay(true);
      if (chat)
        await writeChunk(
          res,
          chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: null }] }),
        );
    }
    let result;
    try {
      result = await generate(prompt, maxTokens, temperature, ignoreEos, async (piece) => {
        text += piece;
        if (stream) await writeChunk(res, chunk({ choices: [choice(piece, null)] }));
      });
    } catch (e) {
      if (stream) {
        res.end(`data: ${JSON.stringify({ error: { message: e.message, code: e.status ?? 500 } })}\n\n`);
        return;
      }
      return sendJson(res, e.status ?? 500, {
        error: { message: e.message, type: e.status === 400 ? 'invalid_request_error' : 'server_error' },
      });
    }
    printTimings(taskId, result.timings);
    const usage = {
      prompt_tokens: result.promptTokens,
      completion_tokens: result.timings.predicted_n,
      total_tokens: result.promptTokens + result.timings.predicted_n,
    };
    if (stream) {
      await writeChunk(res, chunk({ choices: [choice(null, result.finish)], usage, timings: result.timings }));
      res.end('data: [DONE]\n\n');
    } else {
      const message = chat ? { message: { role: 'assistant', content: text } } : { text };
      sendJson(res, 200, {
        id,
        object: chat ? 'chat.completion' : 'text_completion',
        created,
        model: modelName,
        choices: [{ index: 0, ...message, finish_reason: result.finish }],
        usage,
        timings: result.timings,
      });
    }
  });
  queue = turn.catch(() => {});
  await turn;
}

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method === 'GET' && path === '/health') return sendJson(res, 200, { status: 'ok' });
  if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
    return sendJson(res, 200, {
      object: 'list',
      data: [{ id: modelName, object: 'model', owned_by: 'llamacpp', meta: { n_ctx: context.contextSize } }],
    });
  }
  if (req.method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions'))
    return void complete(req, res, true).catch((e) => res.destroy(e));
  if (req.method === 'POST' && (path === '/v1/completions' || path === '/completions'))
    return void complete(req, res, false).catch((e) => res.destroy(e));
  sendJson(res, 404, { error: { message: 'File Not Found', type: 'not_found_error' } });
});

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  process.stderr.write('srv    operator(): operator(): cleaning up before exit...\n');
  server.close();
  server.closeAllConnections?.();
  await context.dispose();
  await model.dispose();
  await llama.dispose();
  // No process.exit(): with the server closed and llama.cpp disposed the event loop drains and
  // Node exits at once (process.exit() took ≈ 1.8 s here, in the native addon's teardown).
  process.exitCode = 0;
}
ownSignals(shutdown);

server.listen(opts.port, opts.host, () => {
  const address = server.address();
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  process.stderr.write(`main: server is listening on http://${host}:${address.port} - starting the main loop\n`);
});
