// A client for OpenAI-compatible streaming endpoints (llama-server, vLLM, ollama, LocalAI…) that
// measures as it reads: every streamed chunk is timestamped with performance.now() the moment
// it arrives, the server's own `timings` (llama-server) and `usage` are kept next to it, and a
// session of several turns sends the whole conversation back each time, so the context grows
// turn by turn (tokens/s against context depth). The numbers are computed in
// shared/analysis/stream-timing.ts.
//
// The base URL must be reachable from here: for an SSH target, pass the address that
// `target.forwardPort(host, port)` gave (see server-profile.ts); a local target is direct.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import {
  createSseReader,
  summarizeServerProfile,
  type ServerProfile,
  type ServerTimings,
  type TurnMeasurement,
} from '../../../shared/analysis/stream-timing';

export type OpenAiApi = 'chat' | 'completions';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface StreamRequestOptions {
  /** Base URL ending in /v1 (e.g. http://127.0.0.1:8080/v1). */
  baseUrl: string;
  api: OpenAiApi;
  /** chat: the conversation; completions: the prompt. */
  messages?: ChatMessage[];
  prompt?: string;
  maxTokens: number;
  model?: string;
  temperature?: number;
  /** llama-server's `ignore_eos` (generate exactly maxTokens); other servers ignore it. */
  ignoreEos?: boolean;
  /** Extra body fields. */
  extra?: Record<string, unknown>;
  signal?: AbortSignal;
  /** Give up on a request that has not finished after this long. */
  timeoutMs?: number;
  turn?: number;
  /** Called on each content chunk as it arrives (a token, for llama-server and vLLM). */
  onToken?(): void;
}

export interface StreamResult extends TurnMeasurement {
  /** The text the server streamed. */
  text: string;
}

// Defaults, each with its reason.
/** A turn of a few thousand tokens on a slow board at a few tokens/s takes minutes: 10 min covers it. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10 * 60_000;
/** The model name servers that need one get (llama-server and ollama ignore it or use their loaded model). */
export const DEFAULT_MODEL = 'kvscope';

function endpoint(baseUrl: string, api: OpenAiApi): URL {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return new URL(api === 'chat' ? 'chat/completions' : 'completions', base);
}

/**
 * The text a chunk carries, or null when it carries no token. A token whose text is still
 * incomplete (part of a UTF-8 character) may come as an empty string and counts; the opening
 * chunk that only announces the role (`{role: "assistant", content: ""}` in vLLM, `content: null`
 * in llama-server) and the closing chunk with finish_reason do not.
 */
function pickText(chunk: Record<string, unknown>, api: OpenAiApi): string | null {
  const choices = chunk.choices;
  if (!Array.isArray(choices) || choices.length === 0) return null;
  const c = choices[0] as Record<string, unknown>;
  const finished = typeof c.finish_reason === 'string';
  if (api === 'chat') {
    const delta = c.delta as Record<string, unknown> | undefined;
    if (typeof delta?.content !== 'string') return null;
    if (delta.content === '' && (delta.role !== undefined || finished)) return null;
    return delta.content;
  }
  if (typeof c.text !== 'string' || (c.text === '' && finished)) return null;
  return c.text;
}

function numbersOf(value: unknown): ServerTimings | null {
  if (!value || typeof value !== 'object') return null;
  const out: ServerTimings = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>))
    if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  return Object.keys(out).length ? out : null;
}

/** One streamed request, every content chunk timestamped on arrival. */
export function streamCompletion(options: StreamRequestOptions): Promise<StreamResult> {
  const url = endpoint(options.baseUrl, options.api);
  const body = JSON.stringify({
    model: options.model ?? DEFAULT_MODEL,
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: options.maxTokens,
    temperature: options.temperature ?? 0,
    ...(options.ignoreEos ? { ignore_eos: true } : {}),
    ...(options.api === 'chat' ? { messages: options.messages ?? [] } : { prompt: options.prompt ?? '' }),
    ...options.extra,
  });
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<StreamResult>((resolve, reject) => {
    const chunkTimesMs: number[] = [];
    let text = '';
    let finishReason: string | null = null;
    let serverTimings: ServerTimings | null = null;
    let usage: StreamResult['usage'] = null;
    let settled = false;
    const sse = createSseReader();
    let requestStartMs = 0;

    const onEvent = (data: string, now: number) => {
      if (data === '[DONE]') return;
      let chunk: Record<string, unknown>;
      try {
        chunk = JSON.parse(data) as Record<string, unknown>;
      } catch {
        return; // not JSON: a server's keep-alive or a proxy's comment
      }
      const piece = pickText(chunk, options.api);
      if (piece !== null) {
        chunkTimesMs.push(now);
        text += piece;
        options.onToken?.();
      }
      const choices = chunk.choices;
      if (
        Array.isArray(choices) &&
        choices[0] &&
        typeof (choices[0] as Record<string, unknown>).finish_reason === 'string'
      ) {
        finishReason = (choices[0] as Record<string, unknown>).finish_reason as string;
      }
      serverTimings = numbersOf(chunk.timings) ?? serverTimings;
      if (chunk.usage && typeof chunk.usage === 'object') usage = chunk.usage;
    };

    const finish = (status: number, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        turn: options.turn ?? 1,
        requestStartMs,
        chunkTimesMs,
        endMs: performance.now(),
        textChars: text.length,
        text,
        finishReason,
        serverTimings,
        usage,
        status,
        ...(error ? { error } : {}),
      });
    };

    const req = send(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res: IncomingMessage) => {
        res.setEncoding('utf8');
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          let errorBody = '';
          res.on('data', (d: string) => (errorBody += d));
          res.on('end', () => finish(status, `HTTP ${status}: ${errorBody.slice(0, 500)}`));
          return;
        }
        res.on('data', (d: string) => {
          // One timestamp per read: chunks that arrived together did arrive together.
          const now = performance.now();
          for (const data of sse.push(d)) onEvent(data, now);
        });
        res.on('end', () => {
          const now = performance.now();
          for (const data of sse.end()) onEvent(data, now);
          finish(status);
        });
        res.on('error', (e) => finish(status, e.message));
      },
    );
    const onAbort = () => req.destroy(new Error('aborted'));
    const timer = setTimeout(
      () => req.destroy(new Error(`no complete answer after ${options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS} ms`)),
      options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    );
    options.signal?.addEventListener('abort', onAbort);
    req.on('error', (e) => {
      if (settled) return;
      if (chunkTimesMs.length) finish(0, e.message);
      else {
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        reject(e);
      }
    });
    requestStartMs = performance.now();
    req.end(body);
  });
}

export interface SessionOptions {
  baseUrl: string;
  api: OpenAiApi;
  /** The first user message (chat) or prompt (completions). */
  prompt: string;
  /** Turns of the conversation; each sends everything so far back, so the context grows. */
  turns: number;
  /** What the user says on turns after the first (chat), or appends to the prompt (completions). */
  followUp?: string;
  /** The user's messages of turns 2, 3, … in order (the run form's prompts after the first); then followUp. */
  followUps?: readonly string[];
  maxTokens: number;
  model?: string;
  ignoreEos?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  onTurn?(result: StreamResult): void;
  /** Each content chunk of every turn as it arrives (StreamRequestOptions.onToken). */
  onToken?(): void;
}

/** The follow-up message of later turns: keeps a story model going, harmless for a chat model. */
export const DEFAULT_FOLLOW_UP = 'Go on with the story.';

/**
 * A multi-turn session: turn k sends the conversation of turns 1..k−1 (the assistant's answers
 * included) plus one new user message. Stops at the first failed turn.
 */
export async function runSession(
  options: SessionOptions,
): Promise<{ results: StreamResult[]; profile: ServerProfile }> {
  const results: StreamResult[] = [];
  const messages: ChatMessage[] = [{ role: 'user', content: options.prompt }];
  let prompt = options.prompt;
  for (let turn = 1; turn <= options.turns; turn++) {
    if (options.signal?.aborted) break;
    const result = await streamCompletion({
      baseUrl: options.baseUrl,
      api: options.api,
      messages: options.api === 'chat' ? [...messages] : undefined,
      prompt: options.api === 'completions' ? prompt : undefined,
      maxTokens: options.maxTokens,
      model: options.model,
      ignoreEos: options.ignoreEos,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      turn,
      onToken: () => options.onToken?.(),
    });
    results.push(result);
    options.onTurn?.(result);
    if (result.status !== 200) break;
    const followUp = options.followUps?.[turn - 1] ?? options.followUp ?? DEFAULT_FOLLOW_UP;
    messages.push({ role: 'assistant', content: result.text }, { role: 'user', content: followUp });
    prompt = `${prompt}${result.text}\n${followUp}\n`;
  }
  return { results, profile: summarizeServerProfile(options.baseUrl, options.api, results) };
}
