// analyzeRun on sample streams built from known physics (synthetic-run.ts): the fit must recover
// the bytes/token, mode, baseline and budget answers the series was built with. Expected values
// are the construction parameters and hand arithmetic, with tolerances for the injected noise.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunAnalysisSchema, type Sample } from '../../../../shared/api/schemas';
import { analyzeRun } from '../../../../shared/analysis/run-analysis';
import { syntheticSamples } from './synthetic-run';

const MiB = 1024 * 1024;

function expectWithin(actual: number | null | undefined, expected: number, relative: number) {
  expect(actual).not.toBeNull();
  expect(actual).not.toBeUndefined();
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(Math.abs(expected) * relative);
}

function allFinite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(allFinite);
  if (value && typeof value === 'object') return Object.values(value).every(allFinite);
  return true;
}

describe('growth mode', () => {
  // 100 MiB anonymous baseline + 32768 B/token (Llama-3.2-1B f16) ± 64 KiB noise, 50 MiB file-backed,
  // 2000 tokens at 40 tokens/s, engine started at 100 ms, first token 350 ms later.
  const samples = syntheticSamples({
    mode: 'growth',
    bytesPerToken: 32768,
    tokens: 2000,
    tokensPerSecond: 40,
    baselineBytes: 100 * MiB,
    fileBackedBytes: 50 * MiB,
    ttftMs: 350,
  });
  const a = analyzeRun({ samples, theoryBytesPerToken: 32768, theoryMode: 'growth', budgetBytes: 512 * MiB });

  it('recovers the slope, overhead, baseline and mode', () => {
    expect(a.kv.mode).toBe('growth');
    expect(a.kv.rssMetric).toBe('rssAnonBytes');
    expectWithin(a.kv.measuredBytesPerToken, 32768, 0.01);
    expectWithin(a.kv.overheadFactor, 1, 0.01);
    expectWithin(a.kv.baselineBytes, 100 * MiB, 0.005); // ± 512 KiB
    expect(a.kv.fitR2).toBeGreaterThan(0.999);
  });

  it('answers the budget questions', () => {
    // total RSS = 150 MiB + 32768·n reaches 512 MiB at n = (536870912 − 157286400) / 32768 = 11584
    expectWithin(a.oomHorizonTokens, 11584, 0.01);
    // (budget − anon baseline − file-backed) / measured = (536870912 − 104857600 − 52428800) / 32768 = 11584
    expectWithin(a.maxSafeContextTokens, 11584, 0.01);
    expect(a.budgetBytes).toBe(536870912);
  });

  it('measures throughput from the token samples', () => {
    expect(a.throughput.ttftMs).toBe(350);
    expectWithin(a.throughput.decodeTokensPerSecond, 40, 0.005);
    expect(a.throughput.tokens).toBe(2000);
    expect(a.throughput.prefillTokensPerSecond).toBeNull(); // no timing records given
  });

  it('reports last and peak RSS', () => {
    const rss = samples.filter((s) => s.source === 'procfs').map((s) => s.values.rssBytes as number);
    expect(a.lastRssBytes).toBe(rss[rss.length - 1]);
    expect(a.peakRssBytes).toBe(Math.max(...rss));
  });

  it('is a valid RunAnalysis with no leak', () => {
    expect(RunAnalysisSchema.parse(a)).toEqual(a);
    expect(a.leak?.leaking).toBe(false);
  });

  it('works when procfs samples carry the token count themselves', () => {
    const b = analyzeRun({
      samples: syntheticSamples({
        mode: 'growth',
        bytesPerToken: 32768,
        tokens: 2000,
        tokensPerSecond: 40,
        baselineBytes: 100 * MiB,
        procfsTokens: true,
      }),
      theoryBytesPerToken: 32768,
    });
    expectWithin(b.kv.measuredBytesPerToken, 32768, 0.01);
  });

  it('paged allocation (blocks of 16 tokens) still averages to the bytes/token', () => {
    const b = analyzeRun({
      samples: syntheticSamples({
        mode: 'growth',
        bytesPerToken: 32768,
        block: 16,
        tokens: 2000,
        tokensPerSecond: 40,
        baselineBytes: 100 * MiB,
      }),
      theoryBytesPerToken: 32768,
    });
    expect(b.kv.mode).toBe('growth');
    expectWithin(b.kv.measuredBytesPerToken, 32768, 0.02);
  });

  it('measures an overhead the engine really has', () => {
    // The engine uses 1.25 × the theory (e.g. allocator padding): 40960 B/token.
    const b = analyzeRun({
      samples: syntheticSamples({
        mode: 'growth',
        bytesPerToken: 40960,
        tokens: 2000,
        tokensPerSecond: 40,
        baselineBytes: 100 * MiB,
      }),
      theoryBytesPerToken: 32768,
      expectedOverhead: 1.25,
    });
    expectWithin(b.kv.overheadFactor, 1.25, 0.01);
    expect(b.leak?.leaking).toBe(false);
  });

  it('falls back to total RSS when anonymous RSS is not sampled', () => {
    const samples2 = syntheticSamples({
      mode: 'growth',
      bytesPerToken: 32768,
      tokens: 1000,
      tokensPerSecond: 40,
      baselineBytes: 100 * MiB,
    }).map((s) => {
      const { rssAnonBytes: _drop, ...rest } = s.values;
      return { ...s, values: rest };
    });
    const b = analyzeRun({ samples: samples2, theoryBytesPerToken: 32768 });
    expect(b.kv.rssMetric).toBe('rssBytes');
    expectWithin(b.kv.measuredBytesPerToken, 32768, 0.02);
  });
});

describe('reserved mode (llama.cpp)', () => {
  // 20 MiB runtime, 64 MiB of weights at +200 ms, then n_ctx 4096 × 32768 = 128 MiB reserved at +800 ms,
  // first token at +1500 ms, flat afterwards; 50 MiB file-backed.
  const samples = syntheticSamples({
    mode: 'reserved',
    bytesPerToken: 32768,
    ctx: 4096,
    tokens: 2000,
    tokensPerSecond: 40,
    baselineBytes: 20 * MiB,
    weightsBytes: 64 * MiB,
    fileBackedBytes: 50 * MiB,
  });

  it('finds the reservation jump, not the weights load', () => {
    const a = analyzeRun({
      samples,
      theoryBytesPerToken: 32768,
      theoryMode: 'reserved',
      ctx: 4096,
      budgetBytes: 1024 * MiB,
    });
    expect(a.kv.mode).toBe('reserved');
    expect(a.kv.theoryReservedBytes).toBe(134217728); // 4096 × 32768
    expectWithin(a.kv.reservedJumpBytes, 134217728, 0.002);
    expectWithin(a.kv.measuredBytesPerToken, 32768, 0.002); // jump / ctx
    expectWithin(a.kv.overheadFactor, 1, 0.002);
    expectWithin(a.kv.baselineBytes, 84 * MiB, 0.002); // runtime + weights, before the jump
    expect(Math.abs(a.kv.decodeSlopeBytesPerToken as number)).toBeLessThan(1000); // flat during decode
  });

  it('turns the budget question into a max safe context', () => {
    const a = analyzeRun({
      samples,
      theoryBytesPerToken: 32768,
      theoryMode: 'reserved',
      ctx: 4096,
      budgetBytes: 1024 * MiB,
    });
    expect(a.oomHorizonTokens).toBeNull(); // RSS does not grow with tokens
    // (1073741824 − 88080384 − 52428800) / 32768 = 28480
    expectWithin(a.maxSafeContextTokens, 28480, 0.005);
  });

  it('detects reserved without being told (flat decode)', () => {
    const a = analyzeRun({ samples, theoryBytesPerToken: 32768, ctx: 4096 });
    expect(a.kv.mode).toBe('reserved');
    expectWithin(a.kv.reservedJumpBytes, 134217728, 0.002);
  });

  it('without theory, takes the largest pre-token climb', () => {
    const a = analyzeRun({ samples, theoryBytesPerToken: null, ctx: 4096 });
    expect(a.kv.mode).toBe('reserved');
    expectWithin(a.kv.reservedJumpBytes, 134217728, 0.002);
    expect(a.kv.overheadFactor).toBeNull();
  });
});

describe('reserved mode with sliding-window layers', () => {
  it('weighs the reservation against the SWA-aware expectation (Gemma 3 1B at -c 4096)', () => {
    // llama.cpp reserves 4 global layers × 1024 B × 4096 cells + 22 SWA layers × 1024 B × 1024 cells = 39845888 B
    // (not 26624 B/token × 4096). The synthetic engine reserves 4096 cells × 9728 B = 39845888 B.
    const samples = syntheticSamples({
      mode: 'reserved',
      bytesPerToken: 9728,
      ctx: 4096,
      tokens: 1000,
      tokensPerSecond: 40,
      baselineBytes: 20 * MiB,
      weightsBytes: 64 * MiB,
    });
    const a = analyzeRun({
      samples,
      theoryBytesPerToken: 26624,
      theoryMode: 'reserved',
      ctx: 4096,
      theoryReservedBytes: 39845888,
    });
    expect(a.kv.mode).toBe('reserved');
    expect(a.kv.theoryReservedBytes).toBe(39845888);
    expectWithin(a.kv.reservedJumpBytes, 39845888, 0.01);
    expectWithin(a.kv.overheadFactor, 1, 0.01);
    expectWithin(a.kv.measuredBytesPerToken, 26624, 0.01);
  });
});

describe('window mode', () => {
  // Grows at 32768 B/token until W = 1024 tokens, flat afterwards; 3000 tokens.
  const samples = syntheticSamples({
    mode: 'window',
    window: 1024,
    bytesPerToken: 32768,
    tokens: 3000,
    tokensPerSecond: 50,
    baselineBytes: 100 * MiB,
  });

  it('finds the growth slope and where it flattens', () => {
    const a = analyzeRun({ samples, theoryBytesPerToken: 32768, budgetBytes: 4096 * MiB });
    expect(a.kv.mode).toBe('window');
    expectWithin(a.kv.windowTokens, 1024, 0.03);
    expectWithin(a.kv.measuredBytesPerToken, 32768, 0.02);
    expectWithin(a.kv.baselineBytes, 100 * MiB, 0.01);
    expect(a.oomHorizonTokens).toBeNull(); // the window is full: RSS no longer grows
    expect(a.leak?.leaking).toBe(false);
  });
});

describe('throughput details', () => {
  it('prefill tokens/s from llama.cpp timing records', () => {
    const samples = syntheticSamples({
      mode: 'growth',
      bytesPerToken: 32768,
      tokens: 100,
      tokensPerSecond: 40,
      baselineBytes: 100 * MiB,
    });
    const printed = analyzeRun({
      samples,
      theoryBytesPerToken: 32768,
      timings: [{ phase: 'prompt', ms: 128, tokens: 32, tokensPerSecond: 250 }],
    });
    expect(printed.throughput.prefillTokensPerSecond).toBe(250);
    // without the printed rate: 32 tokens / 0.128 s = 250
    const derived = analyzeRun({
      samples,
      theoryBytesPerToken: 32768,
      timings: [{ phase: 'prompt', ms: 128, tokens: 32, tokensPerSecond: null }],
    });
    expect(derived.throughput.prefillTokensPerSecond).toBe(250);
  });

  it('decode tokens/s falls back to the eval timing record when token samples are too few', () => {
    const samples: Sample[] = [
      { tMs: 0, source: 'engine', values: { started: 1 } },
      { tMs: 900, source: 'engine', values: { tokens: 1 } },
    ];
    const a = analyzeRun({
      samples,
      theoryBytesPerToken: null,
      timings: [{ phase: 'eval', ms: 2000, tokens: 40, tokensPerSecond: 20 }],
    });
    expect(a.throughput.decodeTokensPerSecond).toBe(20);
    expect(a.throughput.ttftMs).toBe(900);
  });
});

describe('few samples and odd input', () => {
  it('no samples: nulls, tokens 0, valid output', () => {
    const a = analyzeRun({ samples: [], theoryBytesPerToken: 32768, budgetBytes: 1 << 30 });
    expect(a.kv).toMatchObject({
      theoryBytesPerToken: 32768,
      measuredBytesPerToken: null,
      overheadFactor: null,
      baselineBytes: null,
      mode: 'growth',
    });
    expect(a).toMatchObject({
      oomHorizonTokens: null,
      maxSafeContextTokens: null,
      lastRssBytes: null,
      peakRssBytes: null,
    });
    expect(a.throughput).toEqual({
      ttftMs: null,
      prefillTokensPerSecond: null,
      decodeTokensPerSecond: null,
      tokens: 0,
    });
    expect(RunAnalysisSchema.parse(a)).toEqual(a);
  });

  it('one memory sample and no tokens', () => {
    const a = analyzeRun({
      samples: [{ tMs: 10, source: 'procfs', values: { rssBytes: 5e6, rssAnonBytes: 4e6 } }],
      theoryBytesPerToken: null,
      theoryMode: 'reserved',
    });
    expect(a.kv.mode).toBe('reserved'); // the hint stands when the data cannot decide
    expect(a.lastRssBytes).toBe(5e6);
    expect(a.kv.measuredBytesPerToken).toBeNull();
  });

  it('never produces NaN or Infinity, whatever the samples (property)', () => {
    const sample = fc.record({
      tMs: fc.oneof(fc.double({ min: -1e6, max: 1e7, noNaN: true }), fc.constantFrom(NaN, Infinity)),
      source: fc.constantFrom('procfs', 'engine', 'other'),
      values: fc.dictionary(
        fc.constantFrom('rssBytes', 'rssAnonBytes', 'tokens', 'started', 'cpuBusyPct'),
        fc.oneof(fc.double({ min: -1e12, max: 1e12 }), fc.constant(null), fc.integer({ min: 0, max: 5000 })),
      ),
    });
    fc.assert(
      fc.property(
        fc.array(sample, { maxLength: 60 }),
        fc.option(fc.double({ min: -1e6, max: 1e6 }), { nil: null }),
        fc.option(fc.integer({ min: -10, max: 1 << 20 }), { nil: null }),
        fc.option(fc.double({ min: -1e10, max: 1e10 }), { nil: null }),
        (samples, theory, ctx, budget) => {
          const a = analyzeRun({ samples: samples, theoryBytesPerToken: theory, ctx, budgetBytes: budget });
          expect(allFinite(a)).toBe(true);
          RunAnalysisSchema.parse(JSON.parse(JSON.stringify(a)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
