// analyzeRun on sample streams built from known physics (synthetic-run.ts): the fit must recover
// the bytes/token, mode, baseline and budget answers the series was built with. Expected values
// are the construction parameters and hand arithmetic, with tolerances for the injected noise.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunAnalysisSchema, type Sample } from '../../../../shared/api/schemas';
import { analyzeRun } from '../../../../shared/analysis/run-analysis';
import { GROWTH_RUN, RESERVED_RUN, syntheticSamples } from './synthetic-run';

const MiB = 1024 * 1024;

function expectWithin(actual: number | null | undefined, expected: number, relative: number) {
  expect(actual).not.toBeNull();
  expect(actual).not.toBeUndefined();
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(Math.abs(expected) * relative);
}

// The growth run with 50 MiB of file-backed RSS and the first token 350 ms after the start sample.
const growthWithFiles = syntheticSamples({ ...GROWTH_RUN, fileBackedBytes: 50 * MiB, ttftMs: 350 });

function allFinite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(allFinite);
  if (value && typeof value === 'object') return Object.values(value).every(allFinite);
  return true;
}

describe('growth mode', () => {
  // 100 MiB anonymous baseline + 32768 B/token (Llama-3.2-1B f16) ± 64 KiB noise, 50 MiB file-backed,
  // 2000 tokens at 40 tokens/s, engine started at 100 ms, first token 350 ms later.
  const samples = growthWithFiles;
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
    // The kernel is charged the anonymous memory, not the 50 MiB of file-backed RSS (it drops those
    // pages before it kills): 100 MiB + 32768·n reaches 512 MiB at n = (536870912 − 104857600) / 32768 = 13184
    expectWithin(a.oomHorizonTokens, 13184, 0.01);
    expect(a.kv.horizonBasis).toMatchObject({ source: 'process', kernelBytes: null, nvmapBytes: null });
    // (budget − anon baseline − file-backed) / measured = (536870912 − 104857600 − 52428800) / 32768 = 11584
    expectWithin(a.maxSafeContextTokens, 11584, 0.01);
    expect(a.budgetBytes).toBe(536870912);
    expect(a.budgetSource).toBe('flag');
  });

  it('puts the horizon of a charge already past the budget where it first reached it', () => {
    const over = (budgetBytes: number) =>
      analyzeRun({ samples, theoryBytesPerToken: 32768, theoryMode: 'growth', budgetBytes }).oomHorizonTokens;
    // The 100 MiB anonymous baseline alone is over 64 MiB before the first token: nothing fits.
    expect(over(64 * MiB)).toBe(0);
    // 100 MiB + 32768·n reaches 128 MiB at n = 28 MiB / 32 KiB = 896 tokens, long before the
    // run's 2000 (where its largest charge is).
    expectWithin(over(128 * MiB), 896, 0.01);
  });

  it('measures throughput from the token samples', () => {
    expect(a.throughput.ttftMs).toBe(350);
    expectWithin(a.throughput.decodeTokensPerSecond, 40, 0.005);
    expect(a.throughput.tokens).toBe(2000);
    expect(a.throughput.prefillTokensPerSecond).toBeNull(); // no timing records given
  });

  it("gives the roofline the weights a token reads: the model's logged size, else the resident memory before the cache", () => {
    // Fitted on anonymous memory: the 50 MiB file-backed (mmap'd weights) count too, 100 + 50 MiB.
    expectWithin(a.throughput.weightBytes, 150 * MiB, 0.005);
    const logged = analyzeRun({ samples, theoryBytesPerToken: 32768, modelBytes: 1_174_405 });
    expect(logged.throughput.weightBytes).toBe(1_174_405);
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
      samples: syntheticSamples({ ...GROWTH_RUN, procfsTokens: true }),
      theoryBytesPerToken: 32768,
    });
    expectWithin(b.kv.measuredBytesPerToken, 32768, 0.01);
  });

  it('paged allocation (blocks of 16 tokens) still averages to the bytes/token', () => {
    const b = analyzeRun({
      samples: syntheticSamples({ ...GROWTH_RUN, block: 16 }),
      theoryBytesPerToken: 32768,
    });
    expect(b.kv.mode).toBe('growth');
    expectWithin(b.kv.measuredBytesPerToken, 32768, 0.02);
  });

  it('measures an overhead the engine really has', () => {
    // The engine uses 1.25 × the theory (e.g. allocator padding): 40960 B/token.
    const b = analyzeRun({
      samples: syntheticSamples({ ...GROWTH_RUN, bytesPerToken: 40960 }),
      theoryBytesPerToken: 32768,
      expectedOverhead: 1.25,
    });
    expectWithin(b.kv.overheadFactor, 1.25, 0.01);
    expect(b.leak?.leaking).toBe(false);
  });

  it('falls back to total RSS when anonymous RSS is not sampled', () => {
    const samples2 = syntheticSamples({ ...GROWTH_RUN, tokens: 1000 }).map((s) => {
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
  const samples = syntheticSamples({ ...RESERVED_RUN, fileBackedBytes: 50 * MiB });
  // Told the mode and the context, with a 1 GiB budget.
  const told = analyzeRun({
    samples,
    theoryBytesPerToken: 32768,
    theoryMode: 'reserved',
    ctx: 4096,
    budgetBytes: 1 << 30,
  });

  it('finds the reservation jump, not the weights load', () => {
    const a = told;
    expect(a.kv.mode).toBe('reserved');
    expect(a.kv.theoryReservedBytes).toBe(134217728); // 4096 × 32768
    expectWithin(a.kv.reservedJumpBytes, 134217728, 0.002);
    expectWithin(a.kv.measuredBytesPerToken, 32768, 0.002); // jump / ctx
    expectWithin(a.kv.overheadFactor, 1, 0.002);
    expectWithin(a.kv.baselineBytes, 84 * MiB, 0.002); // runtime + weights, before the jump
    expect(Math.abs(a.kv.decodeSlopeBytesPerToken as number)).toBeLessThan(1000); // flat during decode
  });

  it('turns the budget question into a max safe context', () => {
    const a = told;
    expect(a.oomHorizonTokens).toBeNull(); // RSS does not grow with tokens
    // (1073741824 − 88080384 − 52428800) / 32768 = 28480
    expectWithin(a.maxSafeContextTokens, 28480, 0.005);
  });

  it('detects reserved without being told (flat decode)', () => {
    const a = analyzeRun({ samples, theoryBytesPerToken: 32768, ctx: 4096 });
    expect(a.kv.mode).toBe('reserved');
    expectWithin(a.kv.reservedJumpBytes, 134217728, 0.002);
  });

  it('measures no reservation of an engine that never got past it (no token, no cache reported)', () => {
    // The same run cut before its first token (+1500 ms after the start at 100 ms): as an engine
    // that failed while loading looks. Its climbs are its start-up, not a KV cache.
    const cut = samples.filter((x) => x.tMs < 1600);
    const a = analyzeRun({
      samples: cut,
      theoryBytesPerToken: null,
      theoryMode: 'reserved',
      ctx: 4096,
      budgetBytes: 1 << 30,
    });
    expect([a.kv.measuredBytesPerToken, a.kv.reservedJumpBytes, a.maxSafeContextTokens]).toEqual([null, null, null]);
    // The engine's own report of its cache says it did get there.
    const reported = analyzeRun({
      samples: cut,
      theoryBytesPerToken: null,
      theoryMode: 'reserved',
      ctx: 4096,
      engineKvBytes: 134217728,
    });
    expectWithin(reported.kv.reservedJumpBytes, 134217728, 0.002);
  });

  it.each([
    ['at 50 ms, cleared over 600 ms (12 samples)', 50, 600],
    ['at 200 ms, cleared over 3 s (15 samples, a Pi clearing a large cache)', 200, 3000],
  ])('finds the whole reservation when it spans many samples: %s', (_, intervalMs, reserveOverMs) => {
    const spread = syntheticSamples({ ...RESERVED_RUN, intervalMs, reserveOverMs, ttftMs: reserveOverMs + 2000 });
    const a = analyzeRun({ samples: spread, theoryBytesPerToken: 32768, theoryMode: 'reserved', ctx: 4096 });
    expect(a.kv.mode).toBe('reserved');
    expectWithin(a.kv.reservedJumpBytes, 134217728, 0.002);
    expectWithin(a.kv.baselineBytes, 84 * MiB, 0.002); // runtime + weights: the weights load is not counted in
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
    const samples = syntheticSamples({ ...RESERVED_RUN, bytesPerToken: 9728, tokens: 1000 });
    const theory = { theoryBytesPerToken: 26624, theoryReservedBytes: 39845888 };
    const a = analyzeRun({ samples, ...theory, theoryMode: 'reserved', ctx: 4096 });
    expect(a.kv.mode).toBe('reserved');
    expect(a.kv.theoryReservedBytes).toBe(39845888);
    expectWithin(a.kv.reservedJumpBytes, 39845888, 0.01);
    expectWithin(a.kv.overheadFactor, 1, 0.01);
    expectWithin(a.kv.measuredBytesPerToken, 26624, 0.01);
  });
});

describe('window mode', () => {
  // Grows at 32768 B/token until W = 1024 tokens, flat afterwards; 3000 tokens.
  const samples = syntheticSamples({ ...GROWTH_RUN, mode: 'window', window: 1024, tokens: 3000, tokensPerSecond: 50 });

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
    const samples = syntheticSamples({ ...GROWTH_RUN, tokens: 100 });
    // The rate llama.cpp printed (250), then without it: 32 tokens / 0.128 s = 250.
    for (const tokensPerSecond of [250, null]) {
      const timings = [{ phase: 'prompt', ms: 128, tokens: 32, tokensPerSecond }];
      expect(analyzeRun({ samples, theoryBytesPerToken: 32768, timings }).throughput.prefillTokensPerSecond).toBe(250);
    }
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
      deliveredTokensPerSecond: null,
      tokens: 0,
      weightBytes: null,
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

describe('an engine that logged its KV cache size (llama.cpp)', () => {
  it('reads as reserved even when its host process grows while decoding; decode speed by its own clock', () => {
    // 400 tokens at 100 tokens/s; anonymous memory grows 2 KiB a token (a JS heap, not the cache).
    const samples: Sample[] = [{ tMs: 0, source: 'engine', values: { started: 1 } }];
    for (let i = 1; i <= 400; i++) samples.push({ tMs: 1000 + 10 * i, source: 'engine', values: { tokens: i } });
    for (let t = 0; t <= 5000; t += 100) {
      const tokens = Math.max(0, Math.min(400, Math.floor((t - 1000) / 10)));
      const anon = 40e6 + 2048 * tokens;
      samples.push({ tMs: t, source: 'procfs', values: { rssBytes: anon + 8e6, rssAnonBytes: anon } });
    }
    const timings = [{ phase: 'eval', ms: 1995, tokens: 399, tokensPerSecond: 200 }];
    const grown = analyzeRun({ samples, theoryBytesPerToken: null, ctx: 2048, timings });
    expect(grown.kv.mode).toBe('growth');
    const a = analyzeRun({ samples, theoryBytesPerToken: null, ctx: 2048, timings, engineKvBytes: 1310720 });
    expect(a.kv.mode).toBe('reserved');
    expect(a.oomHorizonTokens).toBeNull();
    // The engine's eval rate (399 runs in 1,995 ms), and the arrivals' own: 100 tokens/s.
    expect(a.throughput.decodeTokensPerSecond).toBe(200);
    expect(a.throughput.deliveredTokensPerSecond).toBeCloseTo(100, 6);
    expect(a.throughput.tokens).toBe(400);
  });
});

describe('server mode: the client counted every streamed token', () => {
  it('keeps the live count when the engine logs its timings per request', () => {
    // Two requests of 16 tokens streamed 10 ms apart (32 in all); the server's last timing line
    // covers its last request only: 16 eval runs.
    const samples: Sample[] = [{ tMs: 0, source: 'engine', values: { started: 1 } }];
    for (let i = 1; i <= 32; i++)
      samples.push({ tMs: 1000 + 10 * i + (i > 16 ? 500 : 0), source: 'engine', values: { tokens: i } });
    const timings = [{ phase: 'eval', ms: 150, tokens: 16, tokensPerSecond: 106.7 }];
    // Scaled to the engine's count otherwise: 16 runs + the first token = 17.
    expect(analyzeRun({ samples, theoryBytesPerToken: null, ctx: 1024, timings }).throughput.tokens).toBe(17);
    const exact = analyzeRun({ samples, theoryBytesPerToken: null, ctx: 1024, timings, liveTokensExact: true });
    expect(exact.throughput.tokens).toBe(32);
  });
});

describe('the budget and the charge the kernel acts on', () => {
  // The growth run above, 2000 tokens: anonymous memory A(n) = 100 MiB + 32768·n (± 64 KiB), 50 MiB
  // file-backed RSS. Its memory cgroup, sampled at the same ticks, is charged A(n), kernel memory
  // of 2 MiB + A(n)/512 (page tables grow with what they map), 60 MiB of page cache of which 1 MiB
  // cannot be dropped (dirty), under a 400 MiB limit.
  const base = growthWithFiles;
  const cgroupSamples = (limitBytes: number | null): Sample[] =>
    base
      .filter((s) => s.source === 'procfs')
      .map((s) => {
        const anon = s.values.rssAnonBytes as number;
        return {
          tMs: s.tMs,
          source: 'cgroup',
          values: {
            cgroupLimitBytes: limitBytes,
            cgroupAnonBytes: anon,
            cgroupKernelBytes: 2 * MiB + Math.round(anon / 512),
            cgroupFileBytes: 60 * MiB,
            cgroupUnreclaimableFileBytes: 1 * MiB,
          },
        };
      });
  const withAvailable = (samples: readonly Sample[], availableBytes: number): Sample[] =>
    samples.map((s) =>
      s.source === 'procfs' ? { ...s, values: { ...s.values, memAvailableBytes: availableBytes } } : s,
    );
  const run = (samples: Sample[], more: { budgetBytes?: number; memoryLimitBytes?: number } = {}) =>
    analyzeRun({ samples, theoryBytesPerToken: 32768, theoryMode: 'growth', ...more });

  it('projects the cgroup charge: anon + kernel + page cache it cannot drop, not RSS', () => {
    const a = run([...base, ...cgroupSamples(400 * MiB)]);
    expect(a.budgetSource).toBe('cgroup');
    expect(a.budgetBytes).toBe(400 * MiB);
    // A·(1 + 1/512) + 3 MiB = 400 MiB → A = 416284672 × 512/513 = 415473202.6;
    // n = (415473202.6 − 104857600) / 32768 = 9479
    expectWithin(a.oomHorizonTokens, 9479, 0.01);
    // From total RSS (150 MiB + 32768·n) it would have said (419430400 − 157286400) / 32768 = 8000.
    const basis = a.kv.horizonBasis;
    expect(basis?.source).toBe('cgroup');
    expect(basis?.unreclaimableFileBytes).toBe(MiB);
    expect(basis?.nvmapBytes).toBeNull();
    // At the last decode tick (≈ 2000 tokens): A ≈ 100 MiB + 2000 × 32768 B = 162.5 MiB; kernel ≈ 2 MiB + A/512.
    expectWithin(basis?.anonBytes, 162.5 * MiB, 0.01);
    expectWithin(basis?.kernelBytes, 2 * MiB + (162.5 * MiB) / 512, 0.01);
  });

  it('NvMap (Jetson GPU buffers in unified memory) is charged too', () => {
    const nv = [...base, ...cgroupSamples(400 * MiB)].map((s) =>
      s.source === 'procfs' ? { ...s, values: { ...s.values, nvmapBytes: 64 * MiB } } : s,
    );
    const a = run(nv);
    // 64 MiB more at every point: A·(1 + 1/512) + 67 MiB = 400 MiB → A = 349175808 × 512/513 = 348495154;
    // n = (348495154 − 104857600) / 32768 = 7435
    expectWithin(a.oomHorizonTokens, 7435, 0.01);
    expect(a.kv.horizonBasis?.nvmapBytes).toBe(64 * MiB);
  });

  it('--budget wins, then --memory-limit (the limit as the kernel holds it), then the cgroup limit, then MemAvailable', () => {
    const limited = [...base, ...cgroupSamples(300 * MiB)];
    expect(run(limited, { budgetBytes: 512 * MiB, memoryLimitBytes: 256 * MiB })).toMatchObject({
      budgetSource: 'flag',
      budgetBytes: 512 * MiB,
    });
    // The group the run made holds 300 MiB (a kernel rounds to pages): that is what it acts on.
    expect(run(limited, { memoryLimitBytes: 300 * MiB + 100 })).toMatchObject({
      budgetSource: 'memory-limit',
      budgetBytes: 300 * MiB,
    });
    // No cgroup samples (collector off or absent): the limit as asked, the engine's own charge.
    const asked = run(base, { memoryLimitBytes: 256 * MiB });
    expect(asked).toMatchObject({ budgetSource: 'memory-limit', budgetBytes: 256 * MiB });
    expect(asked.kv.horizonBasis?.source).toBe('process');
    expect(run(limited)).toMatchObject({ budgetSource: 'cgroup', budgetBytes: 300 * MiB });
    // A group without a limit gives none; MemAvailable at the first tick (1 GiB) plus what the
    // engine held then (its baseline, 100 MiB ± noise) does.
    const free = run(withAvailable([...base, ...cgroupSamples(null)], 1024 * MiB));
    expect(free.budgetSource).toBe('memavailable');
    expectWithin(free.budgetBytes, 1124 * MiB, 0.001);
    // …and is projected from the engine's own anonymous memory: (1124 − 100) MiB / 32768 = 32768 tokens.
    expect(free.kv.horizonBasis?.source).toBe('process');
    expectWithin(free.oomHorizonTokens, 32768, 0.01);
    expect(run(base)).toMatchObject({ budgetSource: null, budgetBytes: null, oomHorizonTokens: null });
  });
});
