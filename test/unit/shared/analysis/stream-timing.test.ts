// Server-mode timing analysis (shared/analysis/stream-timing.ts) and the SSE reader.
import { describe, expect, it } from 'vitest';
import {
  analyzeTurn,
  createSseReader,
  summarizeServerProfile,
  type TurnMeasurement,
} from '../../../../shared/analysis/stream-timing';

function turn(over: Partial<TurnMeasurement>): TurnMeasurement {
  return {
    turn: 1,
    requestStartMs: 1000,
    chunkTimesMs: [],
    endMs: 0,
    textChars: 0,
    finishReason: 'length',
    serverTimings: null,
    usage: null,
    status: 200,
    ...over,
  };
}

describe('analyzeTurn', () => {
  it('TTFT, mean and steady decode, stalls, prefill, depth', () => {
    // First token 200 ms after the request, then one token every 10 ms, with one 50 ms stall
    // before the 21st: arrivals 1200, 1210, …, 1390 (20 tokens), then 1440, 1450, …, 1530 (10).
    const times = [
      ...Array.from({ length: 20 }, (_, i) => 1200 + 10 * i),
      ...Array.from({ length: 10 }, (_, i) => 1440 + 10 * i),
    ];
    const t = analyzeTurn(
      turn({
        chunkTimesMs: times,
        endMs: 1531,
        serverTimings: { prompt_n: 100, cache_n: 20, prompt_ms: 190, predicted_per_second: 90 },
      }),
    );
    expect(t.ttftMs).toBe(200);
    // Mean: 29 tokens after the first over 1530 − 1200 = 330 ms = 87.88 tok/s.
    expect(t.decodeTokensPerSecond).toBeCloseTo(29000 / 330, 10);
    // Steady: windows of 8 tokens take 80 ms (100 tok/s) unless they contain the stall (8 of the
    // 22 windows: 130 ms); the median is 100 tok/s.
    expect(t.steadyDecodeTokensPerSecond).toBe(100);
    // Stall: 330 ms − 29 tokens at 100 tok/s (290 ms) = 40 ms.
    expect(t.stallMs).toBeCloseTo(40, 9);
    // Prefill: 100 evaluated prompt tokens over 200 ms = 500 tok/s; depth = 100 + 20 cached.
    expect(t.prefillTokensPerSecond).toBe(500);
    expect(t.contextDepth).toBe(120);
    expect(t.tokenTimesMs.slice(0, 3)).toEqual([200, 210, 220]);
    expect(t.tokenTimesMs).toHaveLength(30);
    expect(t.vsServer.decodeRatio).toBeCloseTo(29000 / 330 / 90, 10);
    expect(t.vsServer.ttftRatio).toBeCloseTo(200 / 190, 10);
  });

  it('chunks glued together in one read do not break the steady rate', () => {
    // 32 tokens arriving 4 at a time every 40 ms (100 tok/s): gaps of 0 inside each read.
    const times = Array.from({ length: 32 }, (_, i) => 1100 + 40 * Math.floor(i / 4));
    // Every window of 8 tokens spans exactly two reads: 80 ms → 100 tok/s.
    expect(analyzeTurn(turn({ chunkTimesMs: times })).steadyDecodeTokensPerSecond).toBe(100);
  });

  it('tokens glued into the first read are not decode: 4 tokens per read every 40 ms is 100 tok/s', () => {
    const times = Array.from({ length: 32 }, (_, i) => 1100 + 40 * Math.floor(i / 4));
    // After the first read (4 tokens at 1100): 28 tokens from 1100 to 1380 ms = 28 / 0.28 s = 100 tok/s
    // (counting the 3 glued to the first, 31 / 0.28 s = 110.7).
    const t = analyzeTurn(turn({ chunkTimesMs: times }));
    expect(t.decodeTokensPerSecond).toBeCloseTo(100, 10);
    expect(t.tokens).toBe(32);
  });

  it("a chunk carrying several tokens: the server's own count, and the rate in tokens, not chunks", () => {
    // 10 content chunks every 100 ms from 1200 ms, 4 tokens in each (a server batching its stream):
    // llama-server's predicted_n and usage both say 40. After the first chunk: 36 tokens in 0.9 s = 40 tok/s.
    const times = Array.from({ length: 10 }, (_, i) => 1200 + 100 * i);
    const t = analyzeTurn(
      turn({
        chunkTimesMs: times,
        serverTimings: { predicted_n: 40, predicted_per_second: 40 },
        usage: { completion_tokens: 40 },
      }),
    );
    expect(t.tokens).toBe(40);
    expect(t.decodeTokensPerSecond).toBeCloseTo(40, 10);
    expect(t.vsServer.decodeRatio).toBeCloseTo(1, 10);
    // usage alone gives the count too; one chunk per token (±1: a last token without text) stays chunks.
    expect(analyzeTurn(turn({ chunkTimesMs: times, usage: { completion_tokens: 40 } })).tokens).toBe(40);
    expect(analyzeTurn(turn({ chunkTimesMs: times, usage: { completion_tokens: 11 } })).tokens).toBe(10);
  });

  it('without server timings: usage gives the depth, no prefill rate', () => {
    const t = analyzeTurn(turn({ chunkTimesMs: [1100, 1110, 1120], usage: { prompt_tokens: 42 } }));
    expect(t.contextDepth).toBe(42);
    expect(t.prefillTokensPerSecond).toBeNull();
    expect(t.vsServer).toEqual({ decodeRatio: null, ttftRatio: null });
  });

  it('a session summary takes the first turn and lists decode speed by depth', () => {
    const a = turn({ chunkTimesMs: [1100, 1110, 1120, 1130], serverTimings: { prompt_n: 10, cache_n: 0 } });
    const b = turn({
      turn: 2,
      requestStartMs: 2000,
      chunkTimesMs: [2100, 2120, 2140, 2160],
      serverTimings: { prompt_n: 5, cache_n: 15 },
    });
    const p = summarizeServerProfile('http://x/v1', 'chat', [a, b]);
    expect(p.ttftMs).toBe(100);
    expect(p.tokens).toBe(8);
    // 3 tokens over 30 ms = 100 tok/s at depth 10; 3 over 60 ms = 50 tok/s at depth 20.
    expect(p.byDepth).toEqual([
      { contextDepth: 10, decodeTokensPerSecond: 100 },
      { contextDepth: 20, decodeTokensPerSecond: 50 },
    ]);
  });
});

describe('createSseReader', () => {
  it('events split anywhere, CRLF split across pieces, comments and other fields ignored', () => {
    const r = createSseReader();
    const out: string[] = [];
    for (const piece of [
      'data: {"a"',
      ':1}\r',
      '\n\r\n: keep-alive\n\nevent: x\ndata: one\ndata: two\n',
      '\n',
      'data: [DONE]',
    ])
      out.push(...r.push(piece));
    out.push(...r.end());
    expect(out).toEqual(['{"a":1}', 'one\ntwo', '[DONE]']);
  });
});
