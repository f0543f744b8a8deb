// Synthetic sample streams built from known physics, the way the run service emits them:
// an engine 'start' sample, one engine {tokens} sample per token, and procfs samples every
// intervalMs with rssBytes / rssAnonBytes (anonymous = baseline + weights + KV + leak + noise,
// file-backed on top). Noise is a fixed-seed uniform jitter so every run of a test sees the same
// series.
import type { Sample } from '../../../../shared/api/schemas';
import type { RecommendationInput } from '../../../../shared/analysis/recommendations';
import { analyzeRun } from '../../../../shared/analysis/run-analysis';

export interface SyntheticRun {
  mode: 'growth' | 'reserved' | 'window';
  bytesPerToken: number;
  tokens: number;
  tokensPerSecond: number;
  /** Anonymous memory before weights and KV. */
  baselineBytes: number;
  /** Anonymous weights buffer loaded at startMs + 200. */
  weightsBytes?: number;
  /** File-backed RSS (mmap'd files), constant. */
  fileBackedBytes?: number;
  /** reserved: cells reserved at startMs + 800. */
  ctx?: number;
  /** reserved: the reservation spread evenly over this long from startMs + 800 (a slow or busy board clearing it), not at once. */
  reserveOverMs?: number;
  /** window: tokens at which the cache stops growing. */
  window?: number;
  /** growth: allocation granule in tokens. */
  block?: number;
  leakBytesPerToken?: number;
  /** A one-time allocation of `bytes` when `tokens` tokens have been generated. */
  step?: { tokens: number; bytes: number };
  startMs?: number;
  ttftMs?: number;
  intervalMs?: number;
  noiseBytes?: number;
  /** Put the token count into procfs samples too (the sampler knows it), or leave it to the engine samples. */
  procfsTokens?: boolean;
  seed?: number;
}

const MiB = 1024 * 1024;

/** The growth run most tests start from: Llama-3.2-1B f16 (32768 B/token), 2000 tokens at 40 tokens/s
 *  over 100 MiB of anonymous memory. Spread it and override what a test varies. */
export const GROWTH_RUN: SyntheticRun = {
  mode: 'growth',
  bytesPerToken: 32768,
  tokens: 2000,
  tokensPerSecond: 40,
  baselineBytes: 100 * MiB,
};

/** A llama.cpp-like run: 20 MiB runtime, 64 MiB of weights at +200 ms, then n_ctx 4096 × 32768 B
 *  = 128 MiB reserved at +800 ms; 2000 tokens at 40 tokens/s, flat while decoding. */
export const RESERVED_RUN: SyntheticRun = {
  ...GROWTH_RUN,
  mode: 'reserved',
  ctx: 4096,
  baselineBytes: 20 * MiB,
  weightsBytes: 64 * MiB,
};

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

export function syntheticSamples(o: SyntheticRun): Sample[] {
  const start = o.startMs ?? 100;
  const ttft = o.ttftMs ?? 1500;
  const interval = o.intervalMs ?? 200;
  const noise = o.noiseBytes ?? 65536;
  const rand = rng(o.seed ?? 42);
  const firstTok = start + ttft;
  const perTokenMs = 1000 / o.tokensPerSecond;
  const tokenTime = (i: number) => firstTok + (i - 1) * perTokenMs; // token i = 1..N
  const tokensAt = (t: number) => (t < firstTok ? 0 : Math.min(o.tokens, Math.floor((t - firstTok) / perTokenMs) + 1));
  const endMs = tokenTime(o.tokens) + 2 * interval;

  const samples: Sample[] = [{ tMs: start, source: 'engine', values: { started: 1 } }];
  for (let i = 1; i <= o.tokens; i++) samples.push({ tMs: tokenTime(i), source: 'engine', values: { tokens: i } });
  for (let t = 0; t <= endMs; t += interval) {
    const n = tokensAt(t);
    let anon = o.baselineBytes;
    if (t >= start + 200) anon += o.weightsBytes ?? 0;
    if (o.mode === 'reserved') {
      const reserved = (o.ctx ?? 0) * o.bytesPerToken;
      const since = t - (start + 800);
      if (since >= 0) anon += o.reserveOverMs ? Math.round(reserved * Math.min(1, since / o.reserveOverMs)) : reserved;
    } else if (o.mode === 'window') {
      anon += Math.min(n, o.window ?? Infinity) * o.bytesPerToken;
    } else {
      const block = o.block ?? 1;
      anon += Math.ceil(n / block) * block * o.bytesPerToken;
    }
    anon += n * (o.leakBytesPerToken ?? 0);
    if (o.step && n >= o.step.tokens) anon += o.step.bytes;
    anon += Math.round((rand() * 2 - 1) * noise);
    const values: Record<string, number> = {
      rssAnonBytes: anon,
      rssFileBytes: o.fileBackedBytes ?? 0,
      rssBytes: anon + (o.fileBackedBytes ?? 0),
      memTotalBytes: 4 * 1024 ** 3,
    };
    if (o.procfsTokens && n > 0) values.tokens = n;
    samples.push({ tMs: t, source: 'procfs', values });
  }
  return samples.sort((a, b) => a.tMs - b.tMs);
}

/** A demo-like f16 growth run's recommendation input: analysed at 32,768 B/token theory with this budget and context. */
export function recommendationInput(
  samples: Sample[],
  budgetBytes: number | null,
  ctx: number | null,
  extra: Partial<RecommendationInput> = {},
): RecommendationInput {
  const analysis = analyzeRun({ samples, theoryBytesPerToken: 32768, theoryMode: 'growth', ctx, budgetBytes });
  return {
    analysis,
    events: [],
    samples: samples.length,
    lostSamples: 0,
    ctx,
    kvType: 'f16',
    engine: 'llama',
    promptTokens: null,
    recovered: false,
    failure: null,
    series: samples,
    ...extra,
  };
}
