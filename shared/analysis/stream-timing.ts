// Server mode: what a client sees of an OpenAI-compatible streaming endpoint (llama-server,
// vLLM, ollama, LocalAI…), turned into TTFT, prefill and decode speed, per turn of a
// conversation whose context grows, next to what the server says about itself.
//
// Inputs are timestamps the client took (performance.now(), ms) of each streamed chunk that
// carried text — llama-server streams one token per chunk, so a content chunk counts as one
// token — and the server's own `timings` object of the last chunk (llama-server: prompt_n,
// prompt_ms, predicted_n, predicted_ms, predicted_per_second, cache_n…) when it sends one.
//
// Method, and why:
// - TTFT = first content chunk − request sent: what a user waits for, including the network and
//   the server's queue, which the server's prompt_ms does not see.
// - Prefill tokens/s = prompt tokens the server evaluated (timings.prompt_n: without the cached
//   prefix it reused) ÷ TTFT, only when the server reports prompt_n.
// - Decode tokens/s = tokens after the first arrival ÷ time from the first arrival to the last:
//   the rate the user gets, stalls included, and the quantity llama-server reports as
//   predicted_per_second (it counts from its first sampled token) — so the two can be compared.
//   Tokens that came with the first arrival (chunks glued into the first read) are not "after"
//   it: counted, they would be divided by a span that does not hold them (32 tokens read 4 at a
//   time every 40 ms made 110.7 tok/s of a 100 tok/s stream).
// - A chunk may carry several tokens (a server that batches its stream, speculative decoding):
//   when the server counts its tokens (timings.predicted_n, else usage.completion_tokens) and the
//   count differs from the chunks, each chunk stands for count ÷ chunks tokens.
// - Steady decode tokens/s = the median over every run of STEADY_WINDOW_TOKENS consecutive
//   tokens of their rate: the speed between stalls. A window, not single gaps, because chunks
//   glued together in one TCP read arrive with gaps of 0; a median of windows, not a Theil–Sen
//   line, because a stall in the middle of a turn splits the points in two groups and most
//   pairs then span it (the line's slope drops with the stall, the windows' median does not).
//   Stall = decode time beyond what the steady rate needs (a server-side pause, CPU contention,
//   GC): seen at 94 ms in a 300-token turn of a Node-based server on a busy 2-core VM.
// - Context depth of a turn = the prompt tokens of the request (cached + evaluated): the depth at
//   which that turn decodes, for tokens/s against depth.
import { numAt } from '../util/num-at';
import { median } from './fit';
import { TOKEN_COUNT_TOLERANCE } from './throughput';

/** Tokens per window of the steady rate: longer than the runs of chunks one TCP read glues together (≤ 5 seen over SSH). */
export const STEADY_WINDOW_TOKENS = 8;

/** Median rate (tokens/s) over every window of `k` consecutive arrivals; null with fewer than 2k arrivals. */
export function steadyTokensPerSecond(timesMs: readonly number[], k = STEADY_WINDOW_TOKENS): number | null {
  if (timesMs.length < 2 * k) return null;
  const rates: number[] = [];
  for (let i = 0; i + k < timesMs.length; i++) {
    const dt = numAt(timesMs, i + k) - numAt(timesMs, i);
    if (dt > 0) rates.push((k * 1000) / dt);
  }
  return median(rates);
}

/** The server's own timings, as llama-server sends them in its last streamed chunk. */
export type ServerTimings = Record<string, number>;

export interface TurnMeasurement {
  turn: number;
  /** When the request was sent, ms on the client's clock (performance.now()). */
  requestStartMs: number;
  /** Arrival time of each content chunk, same clock. */
  chunkTimesMs: number[];
  /** The request ended (last byte), same clock. */
  endMs: number;
  /** Characters of text received. */
  textChars: number;
  finishReason: string | null;
  serverTimings: ServerTimings | null;
  /** `usage` of the response when the server sent one. */
  usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
  /** HTTP status; an error body when not 200. */
  status: number;
  error?: string;
}

export interface TurnAnalysis {
  turn: number;
  ttftMs: number | null;
  prefillTokensPerSecond: number | null;
  decodeTokensPerSecond: number | null;
  /** Median rate over windows of STEADY_WINDOW_TOKENS tokens: the speed between stalls. */
  steadyDecodeTokensPerSecond: number | null;
  /** Decode time beyond what the steady rate needs, ms. */
  stallMs: number | null;
  /** Tokens received: the content chunks, or the server's count when its chunks carry several. */
  tokens: number;
  /** Prompt tokens of this request (server's cache_n + prompt_n, else usage.prompt_tokens). */
  contextDepth: number | null;
  /** Prompt tokens the server evaluated for this request (the rest came from its cache). */
  promptTokensEvaluated: number | null;
  totalMs: number;
  /** Per-token arrival times, ms after the request was sent. */
  tokenTimesMs: number[];
  serverTimings: ServerTimings | null;
  /** Client ÷ server: decode tokens/s against predicted_per_second, TTFT against prompt_ms. */
  vsServer: { decodeRatio: number | null; ttftRatio: number | null };
  finishReason: string | null;
  status: number;
  error?: string;
}

export interface ServerProfile {
  url: string;
  api: 'chat' | 'completions';
  turns: TurnAnalysis[];
  /** First turn (fresh context): comparable with llama-bench and with a CLI run. */
  ttftMs: number | null;
  prefillTokensPerSecond: number | null;
  decodeTokensPerSecond: number | null;
  steadyDecodeTokensPerSecond: number | null;
  /** Tokens over all turns. */
  tokens: number;
  /** Decode speed against context depth, one point per turn. */
  byDepth: Array<{ contextDepth: number; decodeTokensPerSecond: number }>;
}

function fin(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** Tokens per content chunk: 1, or the server's own count ÷ chunks when the two differ (see the header). */
function tokensPerChunk(chunks: number, serverTokens: number | null): number {
  if (chunks === 0 || serverTokens === null || Math.abs(serverTokens - chunks) <= TOKEN_COUNT_TOLERANCE) return 1;
  return serverTokens / chunks;
}

export function analyzeTurn(m: TurnMeasurement): TurnAnalysis {
  const rel = m.chunkTimesMs.map((t) => t - m.requestStartMs);
  const ttft = rel[0] ?? null;
  const st = m.serverTimings;
  const counted = st && fin(st.predicted_n) && st.predicted_n > 0 ? st.predicted_n : m.usage?.completion_tokens;
  const perChunk = tokensPerChunk(rel.length, fin(counted) && counted > 0 ? counted : null);
  const steadyChunks = steadyTokensPerSecond(rel);
  const steady = steadyChunks === null ? null : steadyChunks * perChunk;
  const span = rel.length >= 2 ? numAt(rel, rel.length - 1) - numAt(rel, 0) : 0;
  const firstRead = rel.filter((t) => t === ttft).length;
  const afterFirst = (rel.length - firstRead) * perChunk;
  const decode = span > 0 ? (afterFirst * 1000) / span : null;
  const stall = steady !== null && span > 0 ? Math.max(0, span - (afterFirst * 1000) / steady) : null;
  const promptN = st && fin(st.prompt_n) ? st.prompt_n : null;
  const cacheN = st && fin(st.cache_n) ? st.cache_n : null;
  const usagePrompt = m.usage?.prompt_tokens;
  const depth = promptN !== null ? promptN + (cacheN ?? 0) : fin(usagePrompt) ? usagePrompt : null;
  const prefill = promptN !== null && ttft !== null && ttft > 0 ? (promptN * 1000) / ttft : null;
  const serverDecode =
    st && fin(st.predicted_per_second) && st.predicted_per_second > 0 ? st.predicted_per_second : null;
  const serverPromptMs = st && fin(st.prompt_ms) && st.prompt_ms > 0 ? st.prompt_ms : null;
  return {
    turn: m.turn,
    ttftMs: ttft,
    prefillTokensPerSecond: prefill,
    decodeTokensPerSecond: decode,
    steadyDecodeTokensPerSecond: steady,
    stallMs: stall,
    tokens: Math.round(rel.length * perChunk),
    contextDepth: depth,
    promptTokensEvaluated: promptN,
    totalMs: m.endMs - m.requestStartMs,
    tokenTimesMs: rel,
    serverTimings: st,
    vsServer: {
      decodeRatio: decode !== null && serverDecode !== null ? decode / serverDecode : null,
      ttftRatio: ttft !== null && serverPromptMs !== null ? ttft / serverPromptMs : null,
    },
    finishReason: m.finishReason,
    status: m.status,
    ...(m.error ? { error: m.error } : {}),
  };
}

export function summarizeServerProfile(
  url: string,
  api: 'chat' | 'completions',
  measurements: readonly TurnMeasurement[],
): ServerProfile {
  const turns = measurements.map(analyzeTurn);
  const first = turns[0];
  return {
    url,
    api,
    turns,
    ttftMs: first?.ttftMs ?? null,
    prefillTokensPerSecond: first?.prefillTokensPerSecond ?? null,
    decodeTokensPerSecond: first?.decodeTokensPerSecond ?? null,
    steadyDecodeTokensPerSecond: first?.steadyDecodeTokensPerSecond ?? null,
    tokens: turns.reduce((n, t) => n + t.tokens, 0),
    byDepth: turns
      .filter((t) => t.contextDepth !== null && t.decodeTokensPerSecond !== null)
      .map((t) => ({
        contextDepth: t.contextDepth as number,
        decodeTokensPerSecond: t.decodeTokensPerSecond as number,
      })),
  };
}

/**
 * Incremental Server-Sent Events reader: feed it text as it arrives, get the `data:` payloads of
 * every complete event. Never throws; comments (`:`) and other fields are ignored.
 */
export function createSseReader(): { push(text: string): string[]; end(): string[] } {
  let buffer = '';
  let data: string[] = [];
  const lineOut = (line: string, out: string[]) => {
    if (line === '') {
      if (data.length) out.push(data.join('\n'));
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
  };
  return {
    push(text: string): string[] {
      buffer += text;
      const out: string[] = [];
      let nl: number;
      while ((nl = buffer.search(/\r\n|\n|\r/)) >= 0) {
        // A lone CR at the end may be the first half of CRLF: wait for the next piece.
        if (nl === buffer.length - 1 && buffer[nl] === '\r') break;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
        lineOut(line, out);
      }
      return out;
    },
    end(): string[] {
      const out: string[] = [];
      if (buffer !== '') lineOut(buffer, out);
      buffer = '';
      lineOut('', out);
      return out;
    },
  };
}
