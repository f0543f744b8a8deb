// Recommendations from synthetic runs of known physics (./synthetic-run.ts): which apply, the
// numbers they change (checked by hand arithmetic), and the ranking by effect.
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../../shared/api/schemas';
import { runRecommendations } from '../../../../shared/analysis/recommendations';
import type { GgufModelSummary } from '../../../../shared/kv/model-config';
import { recommendationInput, syntheticSamples } from './synthetic-run';

const MIB = 1024 * 1024;
const PER_TOKEN_F16 = 32768;

const input = (samples: Sample[], budgetBytes: number | null, ctx: number | null) =>
  recommendationInput(samples, budgetBytes, ctx);

const growth = (extra: Partial<Parameters<typeof syntheticSamples>[0]> = {}) =>
  syntheticSamples({
    mode: 'growth',
    bytesPerToken: PER_TOKEN_F16,
    tokens: 1000,
    tokensPerSecond: 50,
    baselineBytes: 100 * MIB,
    noiseBytes: 0,
    ...extra,
  });

describe('recommendations', () => {
  it('a context past the OOM horizon: the cap first (it prevents the kill), then q8_0 with its max context', () => {
    // 100 MiB baseline, 32 KiB/token: a 228 MiB budget holds (228 − 100) MiB ÷ 32 KiB = 4,096 tokens of f16.
    const recs = runRecommendations(input(growth(), 228 * MIB, 8192));
    expect(recs.map((r) => r.kind)).toEqual(['context-cap', 'kv-type']);
    const [cap, kv] = recs;
    if (cap?.kind !== 'context-cap' || kv?.kind !== 'kv-type') throw new Error('unexpected kinds');
    expect(cap.prevents).toBe('oom');
    expect(cap.capTokens).toBeLessThanOrEqual(4096);
    expect(cap.capTokens).toBeGreaterThan(3584);
    // q8_0: 32 values in 34 bytes, so 17,408 B/token; 128 MiB ÷ 17,408 = 7,710 tokens.
    expect(kv.bytesPerTokenAfter).toBe(17408);
    expect(Math.abs((kv.maxContextAfter ?? 0) / 7710 - 1)).toBeLessThan(0.01);
    expect(kv.alternative?.toType).toBe('q4_0');
    expect(Math.abs((kv.alternative?.maxContext ?? 0) / Math.floor((128 * MIB) / 9216) - 1)).toBeLessThan(0.01);
  });

  it('without a budget, q8_0 still halves the cost per token (32/17 of the context)', () => {
    const [kv] = runRecommendations(input(growth(), null, null));
    if (kv?.kind !== 'kv-type') throw new Error('no kv-type recommendation');
    expect(kv.maxContextAfter).toBeNull();
    expect(kv.effectFraction).toBeCloseTo(32768 / 17408 - 1, 6);
  });

  it('no smaller KV type for a model whose head dimension no quantized block divides (stories260K: 8)', () => {
    const model = { headDimK: 8, headDimV: 8, mla: false } as GgufModelSummary;
    const recs = runRecommendations({ ...input(growth(), null, null), model });
    expect(recs.map((r) => r.kind)).not.toContain('kv-type');
  });

  it('mmap and swap are said when they are a real share of RSS, ranked by that share', () => {
    // 60 MiB file-backed of ~191 MiB at the peak; swap 40 MiB.
    const samples = growth({ fileBackedBytes: 60 * MIB }).map((s) =>
      s.source === 'procfs' ? { ...s, values: { ...s.values, swapBytes: 40 * MIB } } : s,
    );
    const recs = runRecommendations(input(samples, null, null));
    expect(recs.map((r) => r.kind)).toEqual(['kv-type', 'mmap', 'swap']);
    const effects = recs.map((r) => r.effectFraction);
    expect([...effects].sort((a, b) => b - a)).toEqual(effects);
    const mmap = recs[1];
    if (mmap?.kind !== 'mmap') throw new Error('no mmap');
    expect(mmap.fileBackedBytes).toBe(60 * MIB);
    // A few MiB of file-backed pages (the binary) are not worth a line.
    expect(runRecommendations(input(growth({ fileBackedBytes: 4 * MIB }), null, null)).map((r) => r.kind)).toEqual([
      'kv-type',
    ]);
  });

  it('throttling: the decode rate outside the throttled span against the whole run', () => {
    // 1000 tokens at 50 tok/s; a hot, clocked-down span from 8 s to 14 s in which the engine makes half the tokens.
    const base = growth();
    const samples: Sample[] = [];
    let dropped = 0;
    for (const s of base) {
      const inSpan = s.tMs >= 8000 && s.tMs < 14000;
      if (s.source === 'engine' && typeof s.values.tokens === 'number') {
        // Slow the token clock by half inside the span: every other token arrives late (shift the rest).
        if (inSpan && s.values.tokens % 2 === 0) dropped += 1;
        samples.push({ ...s, values: { tokens: s.values.tokens - dropped } });
      } else samples.push(s);
    }
    for (let t = 0; t <= 22000; t += 500) {
      const hot = t >= 8000 && t < 14000;
      samples.push({
        tMs: t,
        source: 'procfs',
        values: { 'temp.cpu-thermal.C': hot ? 84 : 60, 'cpufreq.policy0.KHz': hot ? 900_000 : 1_800_000 },
      });
    }
    samples.sort((a, b) => a.tMs - b.tMs);
    const recs = runRecommendations({ ...input(samples, null, null), tripC: 85 });
    const throttle = recs.find((r) => r.kind === 'throttle');
    if (throttle?.kind !== 'throttle') throw new Error('no throttle recommendation');
    expect(throttle.outsideTokensPerSecond).toBeCloseTo(50, 0);
    expect(throttle.insideTokensPerSecond).toBeCloseTo(25, 0);
    expect(throttle.effectFraction).toBeCloseTo(
      throttle.outsideTokensPerSecond / throttle.overallTokensPerSecond - 1,
      9,
    );
    expect(throttle.effectFraction).toBeGreaterThan(0.1);
  });
});
