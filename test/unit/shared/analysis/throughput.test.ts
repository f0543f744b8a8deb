import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../../shared/api/schemas';
import {
  decodeTokensPerSecond,
  engineGeneratedTokens,
  engineStartMs,
  firstTokenMs,
  phaseTokensPerSecond,
  reconcileTokenEvents,
  tokenEventsFromSamples,
  tokensAt,
  tokensPerSecondByDepth,
  tokensPerSecondOverTime,
  type TokenEvent,
} from '../../../../shared/analysis/throughput';

// Token i arrives at 25·i ms for i ≤ 400 (40 tokens/s), then at 10000 + 50·(i − 400) ms (20 tokens/s) up to 600.
const events: TokenEvent[] = Array.from({ length: 600 }, (_, k) => {
  const i = k + 1;
  return { tMs: i <= 400 ? 25 * i : 10000 + 50 * (i - 400), tokens: i };
});

describe('token events', () => {
  it('prefers engine samples, sorts them and never lets the count go down', () => {
    const samples: Sample[] = [
      { tMs: 300, source: 'engine', values: { tokens: 3 } },
      { tMs: 100, source: 'engine', values: { started: 1 } },
      { tMs: 200, source: 'engine', values: { tokens: 2 } },
      { tMs: 250, source: 'engine', values: { tokens: 1 } }, // late, out-of-order report
      { tMs: 260, source: 'procfs', values: { tokens: 99 } },
    ];
    expect(tokenEventsFromSamples(samples)).toEqual([
      { tMs: 200, tokens: 2 },
      { tMs: 250, tokens: 2 },
      { tMs: 300, tokens: 3 },
    ]);
    expect(engineStartMs(samples)).toBe(100);
    // procfs token counts are used when there are no engine token samples
    expect(tokenEventsFromSamples(samples.slice(4, 5))).toEqual([{ tMs: 260, tokens: 99 }]);
  });

  it('tokensAt is a step function; firstTokenMs', () => {
    expect(tokensAt(events, 0)).toBe(0);
    expect(tokensAt(events, 25)).toBe(1);
    expect(tokensAt(events, 49)).toBe(1);
    expect(tokensAt(events, 10050)).toBe(401);
    expect(tokensAt(events, 1e9)).toBe(600);
    expect(firstTokenMs(events)).toBe(25);
  });
});

describe('rates', () => {
  it('decode tokens/s is the mean delivered rate from the first token on, slow stretches included', () => {
    // tokens 1..400 from 25 ms to 10,000 ms: 399 tokens in 9.975 s
    expect(decodeTokensPerSecond(events.slice(0, 400))).toBeCloseTo(399 / 9.975, 10);
    // the whole run, with its 20 tokens/s second part: 599 tokens from 25 ms to 20,000 ms
    expect(decodeTokensPerSecond(events)).toBeCloseTo(599 / 19.975, 10);
    expect(decodeTokensPerSecond(events.slice(0, 2))).toBeNull();
    // all tokens in one write: no span to measure
    expect(
      decodeTokensPerSecond([
        { tMs: 5, tokens: 1 },
        { tMs: 5, tokens: 2 },
        { tMs: 5, tokens: 3 },
      ]),
    ).toBeNull();
  });

  it('over time, windowed', () => {
    const rates = tokensPerSecondOverTime(events, { windowMs: 2000, stepMs: 1000 });
    // first window (25, 2025]: tokens 2..81 = 80 tokens / 2 s
    expect(rates[0]).toEqual({ tMs: 2025, tokensPerSecond: 40 });
    // last window (17025, 19025]: tokens 541..580 = 40 tokens / 2 s
    expect(rates[rates.length - 1]).toEqual({ tMs: 19025, tokensPerSecond: 20 });
    expect(rates).toHaveLength(18); // t = 2025, 3025, …, 19025
  });

  it('against context depth', () => {
    const byDepth = tokensPerSecondByDepth(events, { bucketTokens: 100, promptTokens: 32 });
    expect(byDepth).toHaveLength(6);
    // tokens 1 → 100: 99 tokens in 2500 − 25 ms
    expect(byDepth[0]).toEqual({ depthStart: 32, depthEnd: 132, tokensPerSecond: 40 });
    // tokens 400 → 500: arrivals at 10000 and 15000 ms
    expect(byDepth[4]).toEqual({ depthStart: 432, depthEnd: 532, tokensPerSecond: 20 });
  });

  it('timing records: printed rate, else tokens ÷ seconds, "inf" ignored', () => {
    expect(phaseTokensPerSecond([{ phase: 'prompt', ms: 100, tokens: 50, tokensPerSecond: 500 }], 'prompt')).toBe(500);
    expect(phaseTokensPerSecond([{ phase: 'prompt', ms: 200, tokens: 50, tokensPerSecond: null }], 'prompt')).toBe(250);
    expect(
      phaseTokensPerSecond([{ phase: 'prompt', ms: 0, tokens: 1, tokensPerSecond: Infinity }], 'prompt'),
    ).toBeNull();
    expect(phaseTokensPerSecond(undefined, 'eval')).toBeNull();
  });
});

describe("the engine's own token count", () => {
  it('is eval runs + 1 (the first token comes from the prompt), from the last eval record', () => {
    expect(
      engineGeneratedTokens([
        { phase: 'prompt', ms: 0.6, tokens: 4, tokensPerSecond: 6825.94 },
        { phase: 'eval', ms: 2660.22, tokens: 1499, tokensPerSecond: 563.49 },
        { phase: 'total', ms: 5844.75, tokens: 1503, tokensPerSecond: null },
      ]),
    ).toBe(1500);
    expect(engineGeneratedTokens([{ phase: 'prompt', ms: 1, tokens: 4, tokensPerSecond: null }])).toBeNull();
    expect(engineGeneratedTokens(undefined)).toBeNull();
  });

  it('wins over the live count: arrival times kept, counts spread over the stdout characters', () => {
    // Three flushed writes seen live, of 4, 8 and 8 characters; the engine says 10 tokens.
    const live: TokenEvent[] = [
      { tMs: 100, tokens: 1, stdoutChars: 4 },
      { tMs: 200, tokens: 2, stdoutChars: 12 },
      { tMs: 300, tokens: 3, stdoutChars: 20 },
    ];
    expect(reconcileTokenEvents(live, 10)).toEqual([
      { tMs: 100, tokens: 2, stdoutChars: 4 },
      { tMs: 200, tokens: 6, stdoutChars: 12 },
      { tMs: 300, tokens: 10, stdoutChars: 20 },
    ]);
  });

  it('spreads over the live count when no characters were recorded', () => {
    const live: TokenEvent[] = [
      { tMs: 100, tokens: 1 },
      { tMs: 200, tokens: 4 },
    ];
    expect(reconcileTokenEvents(live, 8)).toEqual([
      { tMs: 100, tokens: 2 },
      { tMs: 200, tokens: 8 },
    ]);
  });

  it('leaves a live count that agrees within one token, and runs without an engine count, as they are', () => {
    const live: TokenEvent[] = [{ tMs: 100, tokens: 64, stdoutChars: 300 }];
    expect(reconcileTokenEvents(live, 65)).toEqual(live);
    expect(reconcileTokenEvents(live, null)).toEqual(live);
    expect(reconcileTokenEvents([], 10)).toEqual([]);
  });

  it('carries stdout characters from engine samples into the events', () => {
    const samples: Sample[] = [
      { tMs: 100, source: 'engine', values: { tokens: 1, stdoutChars: 5 } },
      { tMs: 200, source: 'engine', values: { tokens: 2, stdoutChars: 9 } },
    ];
    expect(tokenEventsFromSamples(samples)).toEqual([
      { tMs: 100, tokens: 1, stdoutChars: 5 },
      { tMs: 200, tokens: 2, stdoutChars: 9 },
    ]);
  });
});
