// KV theory against sizes computed by hand from published model configs. Every expected value
// is written literally with its arithmetic next to it; none is computed by the code under test.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeKv,
  computeKvForShape,
  KvShapeError,
  kvBytes,
  kvBytesDetailed,
  kvBytesPerToken,
  kvPerToken,
  layerKv,
  maxTokensForBudget,
  rowBytes,
  swaPatternLayers,
  type ModelShape,
} from '../../../../shared/kv/kv-theory';

// meta-llama/Llama-3.2-1B config.json: num_hidden_layers 16, num_key_value_heads 8,
// hidden_size 2048 / num_attention_heads 32 = head_dim 64.
const llama32_1b: ModelShape = { layers: 16, kvHeads: 8, headDimK: 64, headDimV: 64, typeK: 'f16', typeV: 'f16' };

// meta-llama/Llama-3.1-8B config.json: num_hidden_layers 32, num_attention_heads 32,
// num_key_value_heads 8 (GQA 4:1), hidden_size 4096 → head_dim 128.
const llama31_8b: ModelShape = { layers: 32, kvHeads: 8, headDimK: 128, headDimV: 128, typeK: 'f16', typeV: 'f16' };

// google/gemma-2-2b config.json: num_hidden_layers 26, num_attention_heads 8,
// num_key_value_heads 4, head_dim 256, sliding_window 4096; llama.cpp set_swa_pattern(2):
// even layers SWA, odd layers global → 13 + 13.
const gemma2_2b: ModelShape = {
  layers: 26,
  kvHeads: 4,
  headDimK: 256,
  headDimV: 256,
  typeK: 'f16',
  typeV: 'f16',
  slidingWindow: 4096,
  swaLayers: Array.from({ length: 26 }, (_, i) => i % 2 === 0),
};

// google/gemma-3-1b config.json: num_hidden_layers 26, num_attention_heads 4,
// num_key_value_heads 1, head_dim 256, sliding_window 512, sliding_window_pattern 6
// (llama.cpp set_swa_pattern(6): layers 5, 11, 17, 23 global, the other 22 SWA).
const gemma3_1b: ModelShape = {
  layers: 26,
  kvHeads: 1,
  headDimK: 256,
  headDimV: 256,
  typeK: 'f16',
  typeV: 'f16',
  slidingWindow: 512,
  swaLayers: Array.from({ length: 26 }, (_, i) => i % 6 !== 5),
};

// deepseek-ai/DeepSeek-V2-Lite config.json: num_hidden_layers 27, num_attention_heads 16,
// kv_lora_rank 512, qk_rope_head_dim 64, qk_nope_head_dim 128, v_head_dim 128, q_lora_rank null.
const dsv2Lite: ModelShape = {
  layers: 27,
  kvHeads: 1,
  headDimK: 576,
  headDimV: 512,
  typeK: 'f16',
  typeV: 'f16',
  mla: { kvLoraRank: 512, ropeDim: 64 },
};

describe('rowBytes', () => {
  it('matches the ggml block layouts for a 64-value head', () => {
    expect(rowBytes(64, 'f32')).toBe(256); // 64 × 4
    expect(rowBytes(64, 'f16')).toBe(128); // 64 × 2
    expect(rowBytes(64, 'bf16')).toBe(128); // 64 × 2
    expect(rowBytes(64, 'q8_0')).toBe(68); // 2 blocks × 34
    expect(rowBytes(64, 'q4_0')).toBe(36); // 2 × 18
    expect(rowBytes(64, 'q4_1')).toBe(40); // 2 × 20
    expect(rowBytes(64, 'q5_0')).toBe(44); // 2 × 22
    expect(rowBytes(64, 'q5_1')).toBe(48); // 2 × 24
    expect(rowBytes(128, 'q8_0')).toBe(136); // 4 × 34
  });

  it('refuses a quantized type whose block does not divide the head dimension, as llama.cpp does', () => {
    // stories260K: head_dim 8 (README: "K cache type q8_0 with block size 32 does not divide n_embd_head_k=8").
    expect(() => rowBytes(8, 'q8_0')).toThrow(KvShapeError);
    expect(() => rowBytes(8, 'q8_0')).toThrow(/block size 32 does not divide/);
    expect(() => rowBytes(48, 'q4_0')).toThrow(/does not divide/);
    expect(rowBytes(8, 'f32')).toBe(32); // f32 and bf16 work for it
    expect(rowBytes(8, 'bf16')).toBe(16);
  });

  it('refuses non-integer and non-positive dimensions', () => {
    expect(() => rowBytes(0, 'f16')).toThrow(KvShapeError);
    expect(() => rowBytes(12.5, 'f16')).toThrow(KvShapeError);
  });

  it('is linear in whole blocks (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 512 }), (blocks) => {
        expect(rowBytes(32 * blocks, 'q8_0')).toBe(34 * blocks);
        expect(rowBytes(32 * blocks, 'q4_1')).toBe(20 * blocks);
        expect(rowBytes(32 * blocks, 'f16')).toBe(64 * blocks);
      }),
    );
  });
});

describe('bytes per token', () => {
  it('Llama-3.2-1B: 32768 B/token at f16, 17408 at q8_0', () => {
    expect(kvBytesPerToken(llama32_1b)).toBe(32768); // 16 × 8 × (128 + 128)
    expect(kvBytesPerToken({ ...llama32_1b, typeK: 'q8_0', typeV: 'q8_0' })).toBe(17408); // 16 × 8 × (68 + 68)
  });

  it('stories260K (the real llama.cpp line): 640 B/token', () => {
    // 5 layers, 4 KV heads, head_dim 8: 5 × 4 × (16 + 16)
    expect(kvBytesPerToken({ layers: 5, kvHeads: 4, headDimK: 8, headDimV: 8, typeK: 'f16', typeV: 'f16' })).toBe(640);
  });

  it('GQA Llama-3.1-8B: 131072 B/token at f16, 36864 at q4_0, 100352 with q8_0 K and f16 V', () => {
    expect(kvBytesPerToken(llama31_8b)).toBe(131072); // 32 × 8 × (256 + 256)
    expect(kvBytesPerToken({ ...llama31_8b, typeK: 'q4_0', typeV: 'q4_0' })).toBe(36864); // 32 × 8 × (72 + 72)
    expect(kvBytesPerToken({ ...llama31_8b, typeK: 'q8_0' })).toBe(100352); // 32 × 8 × (136 + 256)
  });

  it('splits SWA and global layers (Gemma 2 2B)', () => {
    const per = kvPerToken(gemma2_2b);
    expect(per.bytesPerToken).toBe(106496); // 26 × 4 × (512 + 512)
    expect(per.globalBytesPerToken).toBe(53248); // 13 × 4096
    expect(per.swaBytesPerToken).toBe(53248);
    expect(per.swaLayerCount).toBe(13);
  });

  it('MLA (DeepSeek-V2-Lite) as current llama.cpp caches it: one 576-value K row per layer', () => {
    expect(kvBytesPerToken(dsv2Lite)).toBe(31104); // 27 × (512 + 64) × 2
    // llama.cpp Apr 2025–Jan 2026 also kept V = kv_lora_rank: 27 × (576 + 512) × 2
    expect(kvBytesPerToken({ ...dsv2Lite, mla: { kvLoraRank: 512, ropeDim: 64, storesV: true } })).toBe(58752);
    // q8_0: 576 / 32 = 18 blocks × 34 = 612 per layer; 27 × 612
    expect(kvBytesPerToken({ ...dsv2Lite, typeK: 'q8_0', typeV: 'q8_0' })).toBe(16524);
  });

  it('the same model without MLA (GGUF converted before llama.cpp #12801) caches full heads', () => {
    // 16 KV heads, K = 128 + 64 = 192, V = 128: 27 × 16 × (384 + 256)
    expect(kvBytesPerToken({ layers: 27, kvHeads: 16, headDimK: 192, headDimV: 128, typeK: 'f16', typeV: 'f16' })).toBe(
      276480,
    );
  });

  it('per-layer KV heads, including layers without attention', () => {
    const shape: ModelShape = { ...llama32_1b, layers: 4, kvHeadsPerLayer: [8, 8, 4, 0] };
    // 8×256 + 8×256 + 4×256 + 0
    expect(kvBytesPerToken(shape)).toBe(5120);
  });

  it('layers that share KV hold none', () => {
    expect(kvBytesPerToken({ ...llama32_1b, layers: 4, kvLayers: [true, true, false, false] })).toBe(4096); // 2 × 8 × 256
  });

  it('rejects inconsistent shapes', () => {
    expect(() => kvBytesPerToken({ ...llama32_1b, kvHeadsPerLayer: [8, 8] })).toThrow(/2 entries for 16 layers/);
    expect(() => kvBytesPerToken({ ...llama32_1b, layers: 2, swaLayers: [true, false] })).toThrow(/slidingWindow/);
  });
});

describe('kvBytes', () => {
  it('growth: bytes/token × tokens (Llama-3.2-1B: 134217728 at 4096)', () => {
    expect(kvBytes(llama32_1b, 4096)).toBe(134217728); // 32768 × 4096 = 128 MiB
    expect(kvBytes(llama32_1b, 0)).toBe(0);
  });

  it('stories260K: 1.25 MiB at 2048 cells, 2.5 MiB at 4096', () => {
    const stories: ModelShape = { layers: 5, kvHeads: 4, headDimK: 8, headDimV: 8, typeK: 'f16', typeV: 'f16' };
    expect(kvBytes(stories, 2048, { mode: 'reserved', ctx: 2048 })).toBe(1310720); // 640 × 2048
    expect(kvBytes(stories, 4096)).toBe(2621440); // 640 × 4096
  });

  it('growth with paged blocks rounds up to whole blocks', () => {
    expect(kvBytes(llama32_1b, 100, { block: 16 })).toBe(3670016); // ceil(100/16) = 7 blocks = 112 tokens × 32768
    expect(kvBytes(llama32_1b, 112, { block: 16 })).toBe(3670016);
    expect(kvBytes(llama32_1b, 113, { block: 16 })).toBe(4194304); // 128 × 32768
  });

  it('window mode caps every layer at W', () => {
    expect(kvBytes(llama32_1b, 1000, { mode: 'window', window: 4096 })).toBe(32768000); // 1000 × 32768
    expect(kvBytes(llama32_1b, 5000, { mode: 'window', window: 4096 })).toBe(134217728); // 4096 × 32768
  });

  it('reserved mode follows ctx, padded as llama.cpp pads n_ctx', () => {
    expect(kvBytes(llama32_1b, 10, { mode: 'reserved', ctx: 4096 })).toBe(134217728);
    expect(kvBytes(llama32_1b, 10, { mode: 'reserved', ctx: 4000 })).toBe(134217728); // padded to 4096
    expect(kvBytes(llama32_1b, 10, { mode: 'reserved', ctx: 1000 })).toBe(33554432); // padded to 1024 × 32768
    expect(kvBytes(llama32_1b, 10, { mode: 'reserved', ctx: 4000, ctxPad: 32 })).toBe(131072000); // 4000 = 125 × 32
    expect(kvBytes(llama32_1b, 10, { mode: 'reserved', ctx: 4000, ctxPad: 1 })).toBe(131072000);
  });

  it('parallel sequences', () => {
    expect(kvBytes(llama32_1b, 1000, { nSeq: 4 })).toBe(131072000); // 4 × 1000 × 32768
    // llama.cpp -c 4096 -np 3, one stream per sequence: n_ctx_seq = pad(4096 / 3 = 1365, 256) = 1536, × 3 = 4608 cells
    const perStream = kvBytesDetailed(llama32_1b, 0, { mode: 'reserved', ctx: 4096, nSeq: 3 });
    expect(perStream.globalCells).toBe(4608);
    expect(perStream.totalBytes).toBe(150994944); // 4608 × 32768
    // --kv-unified: one shared cache of n_ctx cells
    expect(kvBytes(llama32_1b, 0, { mode: 'reserved', ctx: 4096, nSeq: 3, unified: true })).toBe(134217728);
  });

  it('SWA layers stop at their window while global layers grow (Gemma 2 2B)', () => {
    expect(kvBytes(gemma2_2b, 2048)).toBe(218103808); // below the window: 106496 × 2048
    expect(kvBytes(gemma2_2b, 8192)).toBe(654311424); // 53248 × 8192 + 53248 × 4096
    // llama.cpp -c 8192: base 8192 cells; SWA cache pad(min(8192, 4096 + 512), 256) = 4608 cells
    expect(kvBytes(gemma2_2b, 0, { mode: 'reserved', ctx: 8192 })).toBe(681574400); // 53248 × 8192 + 53248 × 4608
    expect(kvBytes(gemma2_2b, 0, { mode: 'reserved', ctx: 8192, swaFull: true })).toBe(872415232); // 106496 × 8192
  });

  it('Gemma 3 1B: 4 global layers grow, 22 SWA layers hold 512 tokens', () => {
    expect(kvBytesPerToken(gemma3_1b)).toBe(26624); // 26 × 1 × (512 + 512)
    expect(kvBytes(gemma3_1b, 32768)).toBe(145752064); // 4 × 1024 × 32768 + 22 × 1024 × 512
    // llama.cpp -c 4096: SWA cache pad(min(4096, 512 + 512), 256) = 1024 cells
    expect(kvBytes(gemma3_1b, 0, { mode: 'reserved', ctx: 4096 })).toBe(39845888); // 4×1024×4096 + 22×1024×1024
  });

  it('MLA at 4096 tokens (DeepSeek-V2-Lite)', () => {
    expect(kvBytes(dsv2Lite, 4096)).toBe(127401984); // 31104 × 4096
  });

  it('refuses reserved mode without ctx and window mode without a window', () => {
    expect(() => kvBytes(llama32_1b, 10, { mode: 'reserved' })).toThrow(/needs ctx/);
    expect(() => kvBytes(llama32_1b, 10, { mode: 'window' })).toThrow(/window size/);
  });

  it('orders the modes sensibly (properties)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 1, max: 64 }),
        (a, b, block) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          // growth never shrinks as tokens arrive
          expect(kvBytes(gemma3_1b, lo)).toBeLessThanOrEqual(kvBytes(gemma3_1b, hi));
          // a window never holds more than unbounded growth, blocks never less
          expect(kvBytes(llama32_1b, hi, { mode: 'window', window: 4096 })).toBeLessThanOrEqual(
            kvBytes(llama32_1b, hi),
          );
          expect(kvBytes(llama32_1b, hi, { block })).toBeGreaterThanOrEqual(kvBytes(llama32_1b, hi));
          // reserved does not depend on tokens
          expect(kvBytes(llama32_1b, lo, { mode: 'reserved', ctx: 2048 })).toBe(
            kvBytes(llama32_1b, hi, { mode: 'reserved', ctx: 2048 }),
          );
        },
      ),
    );
  });
});

describe('budgets and computeKv', () => {
  it('computeKv: Llama-3.2-1B at 4096 with a 2 GiB budget', () => {
    expect(computeKv({ layers: 16, kvHeads: 8, headDimK: 64, ctx: 4096, budgetBytes: 2147483648 })).toMatchObject({
      bytesPerToken: 32768,
      totalBytes: 134217728,
      ctx: 4096,
      maxContextForBudget: 65536, // 2147483648 / 32768
    });
    expect(computeKv({ layers: 16, kvHeads: 8, headDimK: 64, typeK: 'q8_0', ctx: 4096 })).toMatchObject({
      bytesPerToken: 17408,
      totalBytes: 71303168,
      maxContextForBudget: null,
    }); // 17408 × 4096
  });

  it('computeKv floors the budget division', () => {
    expect(computeKv({ layers: 16, kvHeads: 8, headDimK: 64, budgetBytes: 1000000 }).maxContextForBudget).toBe(30); // 1000000 / 32768 = 30.5
  });

  it('computeKv refuses impossible KV types', () => {
    expect(() => computeKv({ layers: 5, kvHeads: 4, headDimK: 8, typeK: 'q4_0' })).toThrow(KvShapeError);
  });

  it('max context with SWA layers counts only the growing layers past the window (Gemma 3 1B, 64 MiB)', () => {
    // n ≥ 512: 4096·n + 22528·512 ≤ 67108864 → n ≤ (67108864 − 11534336) / 4096 = 13568
    expect(maxTokensForBudget(gemma3_1b, 67108864)).toBe(13568);
    // below the window: 26624·n ≤ 10 MiB → n ≤ 393.8
    expect(maxTokensForBudget(gemma3_1b, 10485760)).toBe(393);
  });

  it('max context is unbounded when every layer is windowed', () => {
    const allSwa: ModelShape = { ...llama32_1b, slidingWindow: 1024, swaLayers: new Array(16).fill(true) };
    expect(maxTokensForBudget(allSwa, 1 << 30)).toBeNull();
  });

  it('computeKvForShape reports what llama.cpp reserves and per-sequence answers', () => {
    const r = computeKvForShape(llama32_1b, { ctx: 1000, budgetBytes: 2147483648, nSeq: 2 });
    expect(r.totalBytes).toBe(65536000); // 2 × 1000 × 32768
    expect(r.maxContextForBudget).toBe(32768); // 2147483648 / (2 × 32768)
    expect(r.llamaCppCells).toBe(2048); // -c 2000 -np 2: pad(1000, 256) = 1024 per sequence × 2
    expect(r.llamaCppReservedBytes).toBe(67108864); // 2048 × 32768
  });
});

describe('swaPatternLayers', () => {
  it('mirrors llama.cpp set_swa_pattern', () => {
    const g3 = swaPatternLayers(26, 6);
    expect(g3.map((s, i) => (s ? -1 : i)).filter((i) => i >= 0)).toEqual([5, 11, 17, 23]);
    expect(swaPatternLayers(4, 2)).toEqual([true, false, true, false]);
    expect(swaPatternLayers(4, 2, true)).toEqual([false, true, false, true]); // dense first
    expect(swaPatternLayers(3, 0)).toEqual([true, true, true]); // period 0: all SWA
  });
});

describe('shapes beyond the limits (shared/kv/model-limits.ts)', () => {
  const shape = { layers: 2 ** 28, kvHeads: 8, headDimK: 64, headDimV: 64, typeK: 'f16', typeV: 'f16' } as const;

  it('are refused before one entry per layer is built', () => {
    expect(() => layerKv(shape)).toThrow(/268435456 layers is beyond KVScope's limit of 1024/);
    expect(() => kvBytesPerToken(shape)).toThrow(KvShapeError);
    expect(() => swaPatternLayers(2 ** 28, 2)).toThrow(KvShapeError);
    expect(() => layerKv({ ...shape, layers: 2, kvHeads: 1e6 })).toThrow(/1000000 KV heads is beyond/);
    expect(() => layerKv({ ...shape, layers: 2, headDimK: 2 ** 20 })).toThrow(/1048576 is beyond/);
  });
});
