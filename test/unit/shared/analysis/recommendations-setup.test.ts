// The engine and board set-up recommendations: each from the facts a run keeps (the engine's log
// records, the probe's facts, the samples), with the numbers it changes worked out by hand in the
// comments; and their ranking by effect among the others (context cap, KV type).
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../../shared/api/schemas';
import {
  computeBufferRecommendation,
  governorRecommendation,
  parallelRecommendation,
  swapSetupRecommendation,
  swaRecommendation,
  thpRecommendation,
  type SetupInput,
} from '../../../../shared/analysis/recommendations-setup';
import { runRecommendations } from '../../../../shared/analysis/recommendations';
import { kvRecord } from '../../../../shared/parsers/llama-log-parser';
import type { KvRecord, ModelRecord } from '../../../../shared/parsers/records';
import type { EngineLog } from '../../../../shared/run/run-record';
import type { TargetFacts } from '../../../../shared/run/target-facts';
import { recommendationInput, syntheticSamples } from './synthetic-run';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** A KV cache line's record as the llama.cpp log parser makes it, with these fields set. */
const kv = (fields: Partial<KvRecord>): KvRecord => ({ ...kvRecord(1, 'llama_kv_cache', 'total'), ...fields });

const model = (fields: Partial<ModelRecord>): ModelRecord => ({
  kind: 'model',
  line: 1,
  source: 'llama_context',
  ...fields,
});
const log = (kvRecords: KvRecord[], models: ModelRecord[]): EngineLog => ({
  timings: [],
  kv: kvRecords,
  model: models,
});

function setup(extra: Partial<SetupInput>): SetupInput {
  return {
    engine: 'llama',
    ctx: 4096,
    series: [],
    budgetBytes: 1000 * MIB,
    peakRssBytes: 800 * MIB,
    decodeTokensPerSecond: 10,
    memoryTight: false,
    ...extra,
  };
}

function policy(governor: string) {
  return {
    policy: 'policy0',
    cpus: [0, 1, 2, 3],
    governor,
    availableGovernors: ['ondemand', 'powersave', 'performance'],
    driver: 'cpufreq-dt',
    curKHz: 600_000,
    minKHz: 600_000,
    maxKHz: 1_800_000,
    hwMinKHz: 600_000,
    hwMaxKHz: 1_800_000,
  };
}

/** A board with THP always, no swap, no zram, 4 GiB of RAM, an ondemand governor. */
function board(fields: Partial<TargetFacts> = {}): TargetFacts {
  return {
    thp: { enabled: 'always', defrag: 'madvise' },
    pageSizeBytes: 4096,
    swaps: [],
    zram: [],
    memory: {
      totalBytes: 4 * GIB,
      freeBytes: null,
      availableBytes: null,
      availableEstimated: false,
      swapTotalBytes: 0,
      swapFreeBytes: 0,
      cmaTotalBytes: null,
      nvmapBytes: {},
      meminfoKb: { Hugepagesize: 2048 },
    },
    cpu: { count: 4, online: '0-3', modelName: null, policies: [policy('ondemand')] },
    ...fields,
  };
}

describe('set-up recommendations, each from the run', () => {
  it('sliding window: a whole SWA cache at 4096 cells, windowed at 1024 + ubatch 512 → 1536 cells', () => {
    const engineLog = log(
      [
        kv({ sizeBytes: 64 * MIB, cells: 4096, seqs: 1, swa: false }),
        kv({ sizeBytes: 320 * MIB, cells: 4096, seqs: 1, swa: true }),
      ],
      [model({ slidingWindow: 1024, nUbatch: 512 })],
    );
    const r = swaRecommendation(setup({ engineLog }));
    if (r?.kind !== 'swa') throw new Error('no swa recommendation');
    // 320 MiB × (4096 − 1536) / 4096 = 200 MiB freed of 384 MiB; 200 MiB of the 1000 MiB budget.
    expect(r.swaCellsAfter).toBe(1536);
    expect(r.kvBytesBefore).toBe(384 * MIB);
    expect(r.kvBytesAfter).toBe(184 * MIB);
    expect(r.effectFraction).toBeCloseTo(0.2, 9);
    // Already windowed (1536 cells): nothing to say.
    const windowed = log(
      [kv({ sizeBytes: 64 * MIB, cells: 4096, swa: false }), kv({ sizeBytes: 120 * MIB, cells: 1536, swa: true })],
      [model({ slidingWindow: 1024, nUbatch: 512 })],
    );
    expect(swaRecommendation(setup({ engineLog: windowed }))).toBeNull();
  });

  it('parallel sequences: 4 × 1024 cells in 256 MiB; one sequence of 1024 needs 64 MiB', () => {
    const engineLog = log(
      [kv({ sizeBytes: 256 * MIB, cells: 4096, seqs: 4 })],
      [model({ nSeqMax: 4, nCtxPerSeq: 1024 })],
    );
    const r = parallelRecommendation(setup({ engineLog, budgetBytes: 1024 * MIB }));
    if (r?.kind !== 'parallel') throw new Error('no parallel recommendation');
    expect(r.kvBytesAfter).toBe(64 * MIB);
    expect(r.ctxPerSeq).toBe(1024);
    // 192 MiB of 1024 MiB.
    expect(r.effectFraction).toBeCloseTo(0.1875, 9);
    expect(parallelRecommendation(setup({ engineLog: log([kv({ sizeBytes: 256 * MIB, seqs: 1 })], []) }))).toBeNull();
  });

  it("compute buffers from the engine's lines: 300 + 16 MiB at ubatch 512 → a quarter at 128", () => {
    const engineLog = log(
      [],
      [
        model({
          nUbatch: 512,
          extra: { 'CPU compute buffer size': '300.00 MiB', 'CUDA_Host compute buffer size': '16.00 MiB' },
        }),
      ],
    );
    const r = computeBufferRecommendation(setup({ engineLog }));
    if (r?.kind !== 'compute-buffer') throw new Error('no compute-buffer recommendation');
    expect(r.source).toBe('log');
    expect(r.buffers).toEqual(['CPU', 'CUDA_Host']);
    expect(r.bytesBefore).toBe(316 * MIB);
    expect(r.bytesAfter).toBe(79 * MIB);
    // 237 MiB of 1000 MiB.
    expect(r.effectFraction).toBeCloseTo(0.237, 9);
  });

  it('compute buffers estimated without the lines: f32 logits and attention scores of one ubatch', () => {
    const engineLog = log([], [model({ nVocab: 32000, nHead: 32, nCtx: 4096 })]);
    const r = computeBufferRecommendation(setup({ engineLog, budgetBytes: 2 * GIB }));
    if (r?.kind !== 'compute-buffer') throw new Error('no compute-buffer recommendation');
    // 4 B × 512 × (32,000 + 32 × 4,096) = 333,971,456 B; at 128: 83,492,864 B.
    expect(r.source).toBe('estimate');
    expect(r.bytesBefore).toBe(333_971_456);
    expect(r.bytesAfter).toBe(83_492_864);
    expect(r.effectFraction).toBeCloseTo(250_478_592 / (2 * GIB), 9);
    // With flash attention only the logits: 4 × 512 × 32,000 = 65,536,000 B.
    const flash = log([], [model({ nVocab: 32000, nHead: 32, nCtx: 4096, flashAttn: 'enabled' })]);
    expect(computeBufferRecommendation(setup({ engineLog: flash, budgetBytes: 2 * GIB }))?.effectFraction).toBeCloseTo(
      49_152_000 / (2 * GIB),
      9,
    );
    // Not llama.cpp, or already at 128: nothing.
    expect(computeBufferRecommendation(setup({ engineLog, engine: 'demo' }))).toBeNull();
    expect(computeBufferRecommendation(setup({ engineLog: log([], [model({ nUbatch: 128 })]) }))).toBeNull();
  });

  it('THP always: one 2 MiB huge page against a 512 MiB budget; madvise says nothing', () => {
    const r = thpRecommendation(setup({ target: board(), budgetBytes: 512 * MIB }));
    if (r?.kind !== 'thp') throw new Error('no thp recommendation');
    expect(r.hugePageBytes).toBe(2 * MIB);
    expect(r.effectFraction).toBeCloseTo(1 / 256, 12);
    expect(thpRecommendation(setup({ target: board({ thp: { enabled: 'madvise', defrag: null } }) }))).toBeNull();
  });

  it('no swap and no zram on a tight run: zram of min(RAM / 2, 4 GiB)', () => {
    const r = swapSetupRecommendation(setup({ target: board(), memoryTight: true }));
    if (r?.kind !== 'swap-setup') throw new Error('no swap-setup recommendation');
    expect(r.zramBytes).toBe(2 * GIB);
    expect(r.effectFraction).toBe(0.5);
    // 16 GiB of RAM: capped at 4 GiB, a quarter.
    const big = board({ memory: { ...board().memory!, totalBytes: 16 * GIB } });
    expect(swapSetupRecommendation(setup({ target: big, memoryTight: true }))?.effectFraction).toBe(0.25);
    // Not tight, or a swap file present: nothing.
    expect(swapSetupRecommendation(setup({ target: board(), memoryTight: false }))).toBeNull();
    const swapped = board({
      swaps: [{ filename: '/swapfile', type: 'file', sizeBytes: GIB, usedBytes: 0, priority: -2 }],
    });
    expect(swapSetupRecommendation(setup({ target: swapped, memoryTight: true }))).toBeNull();
  });

  it('governor: clocks at 1/3 of max half the run and at max the other half → mean 2/3, decode at most ×1.5', () => {
    const series: Sample[] = [0, 1, 2, 3].map((i) => ({
      tMs: i * 500,
      source: 'thermal',
      values: { cpuFreqKHz: i % 2 === 0 ? 600_000 : 1_800_000, cpuMaxFreqKHz: 1_800_000 },
    }));
    const r = governorRecommendation(setup({ target: board(), series }));
    if (r?.kind !== 'governor') throw new Error('no governor recommendation');
    expect(r.meanClockShare).toBeCloseTo(2 / 3, 12);
    expect(r.effectFraction).toBeCloseTo(0.5, 12);
    expect(r.governors).toEqual(['ondemand']);
    // performance already, or clocks at max the whole run: nothing.
    expect(
      governorRecommendation(
        setup({
          target: board({ cpu: { count: 4, online: null, modelName: null, policies: [policy('performance')] } }),
          series,
        }),
      ),
    ).toBeNull();
    const atMax = series.map((s) => ({ ...s, values: { cpuFreqKHz: 1_800_000, cpuMaxFreqKHz: 1_800_000 } }));
    expect(governorRecommendation(setup({ target: board(), series: atMax }))).toBeNull();
  });
});

describe('ranked together with the others', () => {
  it('the context cap first (it prevents the kill), then by effect: KV type, zram, THP', () => {
    // 100 MiB baseline, 32 KiB/token f16, 228 MiB budget: 4,096 tokens fit (recommendations.test.ts).
    const samples = syntheticSamples({
      mode: 'growth',
      bytesPerToken: 32768,
      tokens: 1000,
      tokensPerSecond: 50,
      baselineBytes: 100 * MIB,
      noiseBytes: 0,
    });
    // engine 'demo': no llama.cpp compute-buffer estimate joins the list.
    const input = recommendationInput(samples, 228 * MIB, 8192, { engine: 'demo', target: board() });
    const recs = runRecommendations(input);
    expect(recs.map((r) => r.kind)).toEqual(['context-cap', 'kv-type', 'swap-setup', 'thp']);
    // kv-type: 7,710 / 4,096 − 1 ≈ 0.88; zram: 2 GiB / 4 GiB = 0.5; THP: 2 MiB / 228 MiB ≈ 0.0088.
    expect(recs[2]?.effectFraction).toBe(0.5);
    expect(recs[3]?.effectFraction).toBeCloseTo(2 / 228, 12);
  });
});
