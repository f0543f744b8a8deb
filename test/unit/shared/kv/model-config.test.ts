// GGUF metadata → ModelShape. Metadata objects are written as llama.cpp's converter writes them
// (key names from llama.cpp's gguf-py constants; values from the models' published config.json).
import { describe, expect, it } from 'vitest';
import { kvBytes, kvBytesPerToken } from '../../../../shared/kv/kv-theory';
import { ModelConfigError, modelShapeFromGguf } from '../../../../shared/kv/model-config';

describe('modelShapeFromGguf', () => {
  it('reads a plain Llama header, deriving head_dim from embedding_length / head_count', () => {
    // The stories260K header (shared/models/README.md).
    const { shape, summary } = modelShapeFromGguf({
      'general.architecture': 'llama',
      'llama.block_count': 5,
      'llama.attention.head_count': 8,
      'llama.attention.head_count_kv': 4,
      'llama.embedding_length': 64,
      'llama.context_length': 2048,
    });
    expect(shape).toEqual({ layers: 5, kvHeads: 4, headDimK: 8, headDimV: 8, typeK: 'f16', typeV: 'f16' });
    expect(summary).toMatchObject({
      architecture: 'llama',
      nLayer: 5,
      nHead: 8,
      nHeadKv: 4,
      headDimK: 8,
      nCtxTrain: 2048,
      fileType: null,
      fileTypeName: null,
    });
    expect(kvBytesPerToken(shape)).toBe(640); // 5 × 4 × (16 + 16)
  });

  it('prefers key_length/value_length and names the file type', () => {
    const { shape, summary } = modelShapeFromGguf(
      {
        'general.architecture': 'qwen3',
        'general.file_type': 15,
        'qwen3.block_count': 28,
        'qwen3.attention.head_count': 16,
        'qwen3.attention.head_count_kv': 8,
        'qwen3.embedding_length': 1024, // 1024 / 16 = 64, but Qwen3-0.6B has head_dim 128
        'qwen3.attention.key_length': 128,
        'qwen3.attention.value_length': 128,
      },
      { typeK: 'q8_0' },
    );
    expect(shape.headDimK).toBe(128);
    expect(shape.typeV).toBe('q8_0'); // V follows K unless given
    expect(summary.fileTypeName).toBe('Q4_K_M');
    expect(kvBytesPerToken(shape)).toBe(60928); // 28 × 8 × (136 + 136)
  });

  it('defaults head_count_kv to head_count (MHA), with a note', () => {
    const { shape, summary } = modelShapeFromGguf({
      'general.architecture': 'gpt2',
      'gpt2.block_count': 12,
      'gpt2.attention.head_count': 12,
      'gpt2.embedding_length': 768,
    });
    expect(shape.kvHeads).toBe(12);
    expect(summary.notes.join(' ')).toMatch(/no head_count_kv/);
    expect(kvBytesPerToken(shape)).toBe(36864); // 12 × 12 × (128 + 128)
  });

  it('keeps per-layer head_count_kv arrays (0 = a layer without attention)', () => {
    const { shape, summary } = modelShapeFromGguf({
      'general.architecture': 'hybrid',
      'hybrid.block_count': 4,
      'hybrid.attention.head_count': 8,
      'hybrid.attention.head_count_kv': [2, 0, 2, 4],
      'hybrid.embedding_length': 512,
    });
    expect(shape.kvHeadsPerLayer).toEqual([2, 0, 2, 4]);
    expect(summary.nHeadKv).toEqual([2, 0, 2, 4]);
    expect(kvBytesPerToken(shape)).toBe(2048); // (2 + 0 + 2 + 4) × (128 + 128)
  });

  it('Gemma 3 1B: sliding_window with the pattern llama.cpp hard-codes (5 SWA : 1 global)', () => {
    // google/gemma-3-1b: 26 layers, 4 heads, 1 KV head, head_dim 256, sliding_window 512, hidden 1152.
    const { shape, summary } = modelShapeFromGguf({
      'general.architecture': 'gemma3',
      'gemma3.block_count': 26,
      'gemma3.attention.head_count': 4,
      'gemma3.attention.head_count_kv': 1,
      'gemma3.embedding_length': 1152,
      'gemma3.attention.key_length': 256,
      'gemma3.attention.value_length': 256,
      'gemma3.attention.sliding_window': 512,
      'gemma3.context_length': 32768,
    });
    expect(summary.swaLayers).toBe(22);
    expect(summary.globalLayers).toBe(4);
    expect(shape.slidingWindow).toBe(512);
    expect(kvBytes(shape, 32768)).toBe(145752064); // 4 × 1024 × 32768 + 22 × 1024 × 512
  });

  it('Gemma 2 without a sliding_window key uses llama.cpp default window 4096 and alternates layers', () => {
    const { shape, summary } = modelShapeFromGguf({
      'general.architecture': 'gemma2',
      'gemma2.block_count': 26,
      'gemma2.attention.head_count': 8,
      'gemma2.attention.head_count_kv': 4,
      'gemma2.embedding_length': 2304,
      'gemma2.attention.key_length': 256,
      'gemma2.attention.value_length': 256,
    });
    expect(shape.slidingWindow).toBe(4096);
    expect(summary.swaLayers).toBe(13);
    expect(summary.notes.join(' ')).toMatch(/default of 4096/);
    expect(kvBytes(shape, 8192)).toBe(654311424); // 13 × 4096 × 8192 + 13 × 4096 × 4096
  });

  it('reads sliding_window_pattern as a period or as per-layer flags', () => {
    const base = {
      'general.architecture': 'x',
      'x.block_count': 4,
      'x.attention.head_count': 2,
      'x.attention.head_count_kv': 1,
      'x.embedding_length': 128,
      'x.attention.sliding_window': 128,
    };
    expect(modelShapeFromGguf({ ...base, 'x.attention.sliding_window_pattern': 2 }).shape.swaLayers).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(
      modelShapeFromGguf({ ...base, 'x.attention.sliding_window_pattern': [true, true, true, false] }).shape.swaLayers,
    ).toEqual([true, true, true, false]);
    // a window without a known pattern: counted as global (upper bound), with a note
    const unknown = modelShapeFromGguf(base);
    expect(unknown.shape.swaLayers).toBeUndefined();
    expect(unknown.summary.notes.join(' ')).toMatch(/upper bound/);
  });

  it('DeepSeek-V2-Lite converted for MLA: the latent K row only (current llama.cpp)', () => {
    // llama.cpp's converter after #12801: head_count_kv 1, key_length 576, value_length 512,
    // key_length_mla 192, value_length_mla 128; config.json: 27 layers, kv_lora_rank 512, qk_rope_head_dim 64.
    const meta = {
      'general.architecture': 'deepseek2',
      'deepseek2.block_count': 27,
      'deepseek2.attention.head_count': 16,
      'deepseek2.attention.head_count_kv': 1,
      'deepseek2.embedding_length': 2048,
      'deepseek2.attention.key_length': 576,
      'deepseek2.attention.value_length': 512,
      'deepseek2.attention.key_length_mla': 192,
      'deepseek2.attention.value_length_mla': 128,
      'deepseek2.attention.kv_lora_rank': 512,
      'deepseek2.rope.dimension_count': 64,
    };
    const { shape, summary } = modelShapeFromGguf(meta);
    expect(summary.mla).toBe(true);
    expect(kvBytesPerToken(shape)).toBe(31104); // 27 × 576 × 2
    expect(kvBytesPerToken(modelShapeFromGguf(meta, { mlaStoresV: true }).shape)).toBe(58752); // 27 × (576 + 512) × 2
  });

  it('DeepSeek-V2-Lite converted before MLA support: full heads', () => {
    const { shape, summary } = modelShapeFromGguf({
      'general.architecture': 'deepseek2',
      'deepseek2.block_count': 27,
      'deepseek2.attention.head_count': 16,
      'deepseek2.attention.head_count_kv': 16,
      'deepseek2.embedding_length': 2048,
      'deepseek2.attention.key_length': 192,
      'deepseek2.attention.value_length': 128,
      'deepseek2.attention.kv_lora_rank': 512,
      'deepseek2.rope.dimension_count': 64,
    });
    expect(summary.mla).toBe(false);
    expect(summary.notes.join(' ')).toMatch(/before llama.cpp #12801/);
    expect(kvBytesPerToken(shape)).toBe(276480); // 27 × 16 × (384 + 256)
  });

  it('shared_kv_layers: the last layers hold no cache', () => {
    const { shape, summary } = modelShapeFromGguf({
      'general.architecture': 'y',
      'y.block_count': 6,
      'y.attention.head_count': 4,
      'y.attention.head_count_kv': 2,
      'y.embedding_length': 256,
      'y.attention.shared_kv_layers': 2,
    });
    expect(summary.layersWithKv).toBe(4);
    expect(kvBytesPerToken(shape)).toBe(2048); // head_dim 256 / 4 = 64: 4 layers × 2 × (128 + 128)
  });

  it('reports the vocabulary size from a counted (not materialised) tokens array', () => {
    const { summary } = modelShapeFromGguf({
      'general.architecture': 'llama',
      'llama.block_count': 1,
      'llama.attention.head_count': 1,
      'llama.embedding_length': 64,
      'tokenizer.ggml.tokens': { kind: 'gguf-array', elementType: 'string', length: 256000 },
    });
    expect(summary.vocabSize).toBe(256000);
  });

  it('says which key is missing or malformed', () => {
    expect(() => modelShapeFromGguf({})).toThrow(/general.architecture/);
    expect(() => modelShapeFromGguf({ 'general.architecture': 'llama' })).toThrow(/llama.block_count/);
    expect(() => modelShapeFromGguf({ 'general.architecture': 'llama', 'llama.block_count': 2 })).toThrow(
      ModelConfigError,
    );
    expect(() =>
      modelShapeFromGguf({
        'general.architecture': 'llama',
        'llama.block_count': 2,
        'llama.attention.head_count': 3,
        'llama.embedding_length': 64,
      }),
    ).toThrow(/not a multiple/);
    expect(() =>
      modelShapeFromGguf({
        'general.architecture': 'llama',
        'llama.block_count': 2,
        'llama.attention.head_count': 2,
        'llama.attention.head_count_kv': [1, 1, 1],
        'llama.embedding_length': 64,
      }),
    ).toThrow(/3 entries for 2 layers/);
  });
});

// Model files are untrusted: a header may claim any shape. Limits: shared/kv/model-limits.ts.
describe('modelShapeFromGguf on hostile metadata', () => {
  const base = {
    'general.architecture': 'llama',
    'llama.block_count': 16,
    'llama.embedding_length': 2048,
    'llama.attention.head_count': 32,
  };

  it('refuses 2^28 layers before building anything per layer (it used to exhaust the heap)', () => {
    expect(() => modelShapeFromGguf({ ...base, 'llama.block_count': 2 ** 28 })).toThrow(
      /llama.block_count is 268435456, beyond KVScope's limit of 1024/,
    );
    // Also through the paths that build per-layer lists: an SWA pattern, shared-KV layers.
    expect(() =>
      modelShapeFromGguf({
        ...base,
        'general.architecture': 'gemma2',
        'gemma2.block_count': 2 ** 28,
        'gemma2.embedding_length': 2048,
        'gemma2.attention.head_count': 8,
      }),
    ).toThrow(ModelConfigError);
    expect(() => modelShapeFromGguf({ ...base, 'llama.block_count': 1e300 })).toThrow(/beyond KVScope's limit/);
    expect(() => modelShapeFromGguf({ ...base, 'llama.block_count': 1024 })).not.toThrow();
  });

  it('bounds every other number the shape is built from', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ 'llama.attention.head_count': 1e9 }, /head_count is 1000000000, beyond KVScope's limit of 4096/],
      [{ 'llama.attention.head_count_kv': 5000 }, /head_count_kv is 5000, beyond KVScope's limit of 4096/],
      [{ 'llama.attention.head_count_kv': [8, -1] }, /head_count_kv must be a whole number ≥ 0, got -1/],
      [{ 'llama.attention.key_length': 2 ** 20, 'llama.attention.value_length': 64 }, /key_length is 1048576/],
      [{ 'llama.embedding_length': 2 ** 40 }, /embedding_length is 1099511627776/],
      [{ 'llama.attention.sliding_window': 1.5 }, /sliding_window must be a whole number/],
      [{ 'llama.attention.sliding_window': 4096, 'llama.attention.sliding_window_pattern': -2 }, /pattern must be/],
      [{ 'llama.attention.shared_kv_layers': 2 ** 31 }, /shared_kv_layers is 2147483648/],
      [{ 'llama.vocab_size': 2 ** 30 }, /vocab_size is 1073741824, beyond KVScope's limit of 4194304/],
      [
        { 'tokenizer.ggml.tokens': { kind: 'gguf-array', elementType: 'string', length: 2 ** 24 } },
        /tokenizer.ggml.tokens is 16777216/,
      ],
    ];
    for (const [extra, message] of cases) expect(() => modelShapeFromGguf({ ...base, ...extra })).toThrow(message);
  });

  it('drops an implausible training context with a note instead of failing', () => {
    const { summary } = modelShapeFromGguf({ ...base, 'llama.context_length': 2 ** 60 });
    expect(summary.nCtxTrain).toBeNull();
    expect(summary.notes.join('\n')).toMatch(/context_length 1152921504606847000 is not a plausible context/);
  });

  it('shows text from the file on one line, without control characters', () => {
    let message = '';
    try {
      modelShapeFromGguf({ 'general.architecture': 'llama\n\u001b[31mfake line' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('general.architecture "llama\\u000a\\u001b[31mfake line" is not an architecture name');
    // A name that is also an Object.prototype property is just an unknown architecture.
    const { summary } = modelShapeFromGguf({
      'general.architecture': 'constructor',
      'constructor.block_count': 2,
      'constructor.embedding_length': 64,
      'constructor.attention.head_count': 2,
      'constructor.attention.sliding_window': 8,
    });
    expect(summary.swaLayers).toBe(0);
    expect(summary.notes.join('\n')).toMatch(/layer pattern for "constructor" is unknown/);
  });
});
