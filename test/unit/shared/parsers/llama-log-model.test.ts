import { describe, expect, it } from 'vitest';
import { FIT_PROJECTION_REASON, setGgufField, setModelField } from '../../../../shared/parsers/llama-log-model';
import type { ModelRecord } from '../../../../shared/parsers/records';
import {
  diagnostics,
  MiB,
  ofKind,
  parse,
  parseClean,
  parseFixture,
  parseFixtureClean,
} from '../../../helpers/parser-test-kit';

/** A file of test/fixtures/llama-cpp/format-strings-2023-2026 (see its SOURCE), parsed; no diagnostics expected. */
const clean = (name: string) => parseFixtureClean('llama-log', `llama-cpp/format-strings-2023-2026/${name}`);

const record = (): ModelRecord => ({ kind: 'model', line: 1, source: 'print_info' });

describe('model fields from print_info and GGUF keys', () => {
  it('keeps text fields as printed, under every spelling llama.cpp used', () => {
    const r = record();
    for (const [key, value] of [
      ['arch', 'llama'],
      ['general.name', 'TinyStories'],
      ['model type', '15M'],
      ['file type', 'Q8_0'],
      ['flash_attn', 'auto'],
    ] as const)
      expect(setModelField(r, key, value), key).toBe(true);
    expect(r).toEqual({
      ...record(),
      arch: 'llama',
      modelName: 'TinyStories',
      modelType: '15M',
      fileType: 'Q8_0',
      flashAttn: 'auto',
    });
  });

  it('reads per-layer head counts from either source the same way', () => {
    const a = record();
    const b = record();
    expect(setModelField(a, 'n_head_kv', '[8, 8, 0]')).toBe(true);
    expect(setGgufField(b, 'gemma3.attention.head_count_kv', 'arr[i32,3]', '[8, 8, 0]')).toBe(true);
    expect(a).toEqual({ ...record(), nHeadKv: null, nHeadKvPerLayer: [8, 8, 0] });
    expect(b).toEqual(a);
  });

  it('a key named like an Object.prototype member is not a field (it stays unmapped)', () => {
    const r = record();
    expect(setModelField(r, 'constructor', '12')).toBe(false);
    expect(setModelField(r, 'toString', 'abc')).toBe(false);
    expect(setGgufField(r, 'constructor', 'str', 'llama')).toBe(false);
    expect(setGgufField(r, 'x.hasOwnProperty', 'u32', '3')).toBe(false);
    expect(r).toEqual(record());
  });
});

// Model, weights and context blocks through the parser: lines cut verbatim from published logs
// (test/fixtures/llama-cpp/format-strings-2023-2026, its SOURCE names each URL).
describe('model, weight-buffer and context blocks of every era', () => {
  const models = (name: string) => ofKind(clean(name), 'model');

  it('late 2023 CUDA build: llm_load_tensors offload summary, VRAM kv self, compute and scratch buffers', () => {
    // ggml-org/ci's CUDA run of build 1513 (bd90eca), 13 November 2023, on a Tesla V100
    // (`llm_load_tensors:`, `%s: VRAM kv self = %.2f MB`).
    const all = clean('cuda-2023-11-offload-vram.txt');
    expect(ofKind(all, 'model').map((m) => [m.line, m.source, m.nCtx, m.extra])).toEqual([
      [
        1,
        'llm_load_tensors',
        undefined,
        {
          'ggml ctx size': '0.11 MB',
          'mem required': '250.11 MB',
          'offloaded layers': '35/35',
          'VRAM used': '12603.02 MB',
        },
      ],
      [9, 'llama_new_context_with_model', 512, { freq_base: '10000.0', freq_scale: '1' }],
      [
        17,
        'llama_new_context_with_model',
        undefined,
        {
          'compute buffer total size': '72.06 MB',
          'VRAM scratch buffer': '70.50 MB',
          'total VRAM used': '12929.52 MB (model: 12603.02 MB, context: 326.50 MB)',
        },
      ],
    ]);
    expect(ofKind(all, 'kv').map((k) => [k.line, k.scope, k.device, k.sizeBytes, k.source])).toEqual([
      [14, 'device-buffer', 'VRAM', 256 * MiB, 'llama_kv_cache_init'],
      [15, 'total', null, 256 * MiB, 'llama_new_context_with_model'],
    ]);
  });

  it('early 2025 (b4697): load_tensors model buffers, llama_init_from_model, kv_size with offload', () => {
    // ggml-org/ci's AMX run of build 4697 (0fb77f82), 12 February 2025, common-log prefixes as printed.
    const all = clean('b4697-2025-02-init-from-model.txt');
    const [weights, ctx, buffers] = ofKind(all, 'model');
    expect(ofKind(all, 'model')).toHaveLength(3);
    expect(weights).toEqual({
      kind: 'model',
      line: 1,
      source: 'load_tensors',
      extra: { 'AMX model buffer size': '40.50 MiB', 'CPU_Mapped model buffer size': '63.84 MiB' },
    });
    expect(ctx).toEqual({
      kind: 'model',
      line: 4,
      source: 'llama_init_from_model',
      nSeqMax: 1,
      nCtx: 512,
      nCtxPerSeq: 512,
      nBatch: 2048,
      nUbatch: 2048,
      flashAttn: '0',
      extra: { freq_base: '10000.0', freq_scale: '1' },
    });
    expect(buffers?.extra).toEqual({
      'CPU output buffer size': '0.00 MiB',
      'CPU compute buffer size': '16.01 MiB',
      'graph nodes': '429',
      'graph splits': '1',
    });
    expect(ofKind(all, 'kv').map((k) => [k.line, k.scope, k.cells, k.layers, k.typeK, k.typeV, k.sizeBytes])).toEqual([
      [12, 'config', 512, 12, 'f16', 'f16', null],
      [13, 'device-buffer', null, null, null, null, 9 * MiB],
      [14, 'total', null, null, 'f16', 'f16', 9 * MiB],
    ]);
  });

  it("late 2025+: the exit memory breakdown table, one record with every device's figures", () => {
    // Published llama-cli run on an Apple M5 (`llama_memory_breakdown_print`, values in MiB).
    const [breakdown] = models('memory-breakdown-2025-11.txt');
    expect(breakdown).toEqual({
      kind: 'model',
      line: 1,
      source: 'llama_memory_breakdown_print',
      extra: {
        'MTL0 (Apple M5) total': '18186 MiB',
        'MTL0 (Apple M5) free': '10905 MiB',
        'MTL0 (Apple M5) self': '7280 MiB',
        'MTL0 (Apple M5) model': '6095 MiB',
        'MTL0 (Apple M5) context': '786 MiB',
        'MTL0 (Apple M5) compute': '398 MiB',
        'MTL0 (Apple M5) unaccounted': '0 MiB',
        'Host self': '5556 MiB',
        'Host model': '5440 MiB',
        'Host context': '0 MiB',
        'Host compute': '116 MiB',
      },
    });
    const damaged = parse(
      'llama-log',
      'common_memory_breakdown_print: |   - CUDA0 (RTX 4090)   | 24080 = 1245 + (lots) |',
    );
    expect(diagnostics(damaged).map((d) => d.reason)).toEqual(['unreadable memory breakdown line']);
  });

  // github.com/ollama/ollama pull 16031 (2026, llama-server under ollama, two GPUs): `unaccounted` is
  // total - free - self as a signed int64, negative here; both device rows were 'unreadable memory breakdown line'.
  it('a device row whose unaccounted memory is negative', () => {
    const all = parseClean('llama-log', [
      'common_memory_breakdown_print: | memory breakdown [MiB] | total    free     self   model   context   compute    unaccounted |',
      'common_memory_breakdown_print: |   - CUDA0 (RTX 5090)   | 32606 = 30991 + ( 4205 =     0 +       0 +    4205) +       -2590 |',
      'common_memory_breakdown_print: |   - CUDA1 (RTX 3090)   | 24575 = 23332 + (17829 =  1177 +   15360 +    1292) +      -16586 |',
      'common_memory_breakdown_print: |   - Host               |                  25094 =  1502 +   21504 +    2088                |',
    ]);
    expect(diagnostics(all)).toEqual([]);
    const [breakdown] = ofKind(all, 'model');
    expect(breakdown?.extra).toEqual({
      'CUDA0 (RTX 5090) total': '32606 MiB',
      'CUDA0 (RTX 5090) free': '30991 MiB',
      'CUDA0 (RTX 5090) self': '4205 MiB',
      'CUDA0 (RTX 5090) model': '0 MiB',
      'CUDA0 (RTX 5090) context': '0 MiB',
      'CUDA0 (RTX 5090) compute': '4205 MiB',
      'CUDA0 (RTX 5090) unaccounted': '-2590 MiB',
      'CUDA1 (RTX 3090) total': '24575 MiB',
      'CUDA1 (RTX 3090) free': '23332 MiB',
      'CUDA1 (RTX 3090) self': '17829 MiB',
      'CUDA1 (RTX 3090) model': '1177 MiB',
      'CUDA1 (RTX 3090) context': '15360 MiB',
      'CUDA1 (RTX 3090) compute': '1292 MiB',
      'CUDA1 (RTX 3090) unaccounted': '-16586 MiB',
      'Host self': '25094 MiB',
      'Host model': '1502 MiB',
      'Host context': '21504 MiB',
      'Host compute': '2088 MiB',
    });
  });

  // The XAIGPUARC README (Intel Arc A770, SYCL, 2026): a build that kept `unaccounted` in a size_t printed the
  // negative figure wrapped to 2^44 MiB less it, read as 17592186030401 MiB (16 EiB) of memory nobody accounted for.
  it('an unaccounted figure printed as a wrapped size_t is read back as the negative it was', () => {
    const all = parseClean('llama-log', [
      'llama_memory_breakdown_print: | memory breakdown [MiB]                     | total    free     self   model   context   compute       unaccounted |',
      'llama_memory_breakdown_print: |   - SYCL0 (Intel(R) Arc(TM) A770 Graphics) | 15473 = 15473 + (14014 = 13486 +     224 +     304) + 17592186030401 |',
    ]);
    const [breakdown] = ofKind(all, 'model');
    expect(breakdown?.extra?.['SYCL0 (Intel(R) Arc(TM) A770 Graphics) unaccounted']).toBe('-14015 MiB');
    expect(breakdown?.extra?.['SYCL0 (Intel(R) Arc(TM) A770 Graphics) self']).toBe('14014 MiB');
  });

  it('a known key whose value cannot be read is a diagnostic; a loader list cut with `...` and an unknown key are not', () => {
    const text = [
      'print_info: n_layer          = 2x',
      'llama_model_loader: - kv  16:                          llama.block_count u32              = lots',
      'llama_model_loader: - kv  17:              qwen3next.attention.head_count_kv arr[i32,48]     = [0, 0, 0, 2, 0, 0, 0, 2, ...',
      'print_info: n_swa_pattern    = 6',
    ];
    const all = parse('llama-log', text.join('\n'));
    expect(diagnostics(all).map((d) => `${d.line}: ${d.reason}`)).toEqual([
      '1: unreadable model line',
      '2: unreadable model line',
    ]);
  });

  it("mid 2023's `model size = 13B` is the model type, not an unreadable size", () => {
    // llama_model_load_internal of June 2023, as a published log prints it (github.com/Future-House/paper-qa issue 99).
    const [m] = ofKind(
      parseClean('llama-log', [
        'llama_model_load_internal: n_layer    = 40',
        'llama_model_load_internal: model size = 13B',
      ]),
      'model',
    );
    expect(m).toMatchObject({ nLayer: 40, modelType: '13B' });
    expect(m?.modelSizeBytes).toBeUndefined();
  });
});

// Audit: llama_params_fit (late 2025+, on by default: `-fit on`) prints what it projects before loading. Every
// sized line was skipped without a word, and `cannot fulfill margin of 1024 MiB on all devices` was counted as an
// engine error, though the fit then shrinks the context and the run goes on. Lines 1–9: the example log in the
// description of https://github.com/ggml-org/llama.cpp/pull/16653 ; lines 10–12: the description of
// https://github.com/ggml-org/llama.cpp/pull/21489 ; lines 13–15 common's `common_params_fit_impl:` (2026),
// https://github.com/HilbertraumAI/HilbertRaum/issues/391 .
describe("llama.cpp's memory fit projection", () => {
  it('is counted as an estimate, not read and not an error; its headers and verdicts stay chatter', () => {
    const all = parseFixture('llama-log', 'llama-cpp/format-strings-2023-2026/params-fit-2025-2026.txt');
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual(
      [2, 3, 4, 5, 6, 7, 8, 10, 11, 13, 14].map((line) => [line, FIT_PROJECTION_REASON]),
    );
    expect(all.filter((r) => r.kind !== 'diagnostic')).toEqual([]);
  });
});

// Audit: Apple Metal builds of mid 2023 – early 2024 printed each buffer they mapped for the GPU, `ggml_metal_add_buffer:
// allocated '%-16s' buffer, size = %8.2f MB` (then `, offs = %12ld` for a split buffer's views, or `, (%8.2f / %8.2f)`,
// used and recommended working set, and on the same line the warning when the first passes the second). The `data`,
// `eval`, `alloc`, `scr0` buffers were dropped without a word, the `kv` one called unreadable, and the working-set
// warning lost. Line 1 a comment (2 July 2023) in https://github.com/ggml-org/llama.cpp/pull/2011 ; lines 2–3 a
// comment (20 January 2024) in https://github.com/h2oai/h2ogpt/issues/1311 ; line 4 the 2024 backend's
// `ggml_backend_metal_log_allocated_size:` in https://github.com/ggml-org/llama.cpp/issues/8886 .
describe("Metal's buffer lines (2023–2024)", () => {
  it('the kv buffer is a KV device buffer, the others model-block buffers, the working-set warning counted', () => {
    const all = parseFixture('llama-log', 'llama-cpp/format-strings-2023-2026/metal-buffers-2023-2024.txt');
    expect(ofKind(all, 'kv').map((k) => [k.line, k.scope, k.device, k.sizeBytes])).toEqual([
      [2, 'device-buffer', 'Metal', Math.round(512.03 * MiB)],
    ]);
    expect(ofKind(all, 'model')).toEqual([
      {
        kind: 'model',
        line: 1,
        source: 'ggml_metal_add_buffer',
        extra: { 'Metal data buffer size': '4096.00 MB', 'Metal alloc buffer size': '576.01 MiB' },
      },
    ]);
    // The 2024 line repeats a buffer the load's own `Metal buffer size` line reports: only its warning is counted.
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [2, 'engine warning'],
      [3, 'engine warning'],
      [4, 'engine warning'],
    ]);
  });
});

// Audit: llama_kv_cache_recurrent (mid 2025, the recurrent state of Mamba/RWKV and of hybrid models before
// llama_memory_recurrent) prints `kv_size = %u, n_seq_max = %u, type_k = '%s', type_v = '%s', n_layer = %d`: the
// config reader wanted type_k right after kv_size and called the line unreadable, and the cache's buffer and
// `KV self size` lines were not marked as recurrent state. MADE-UP FIGURES, NO PUBLISHED CAPTURE FOUND: the three
// lines are written from the format strings of src/llama-kv-cache-recurrent.cpp at
// https://github.com/ggml-org/llama.cpp/blob/148680479f8ffe12cf51714e1879c50527ced76f/src/llama-kv-cache-recurrent.cpp
describe("llama_kv_cache_recurrent's lines (mid 2025)", () => {
  it('the config line is read (cells, sequences, types, layers) and all three are marked recurrent', () => {
    const all = parseClean('llama-log', [
      "llama_kv_cache_recurrent: kv_size = 1, n_seq_max = 1, type_k = 'f32', type_v = 'f32', n_layer = 64",
      'llama_kv_cache_recurrent:        CPU KV buffer size =    16.07 MiB',
      'llama_kv_cache_recurrent: KV self size  =   16.07 MiB, K (f32):    1.07 MiB, V (f32):   15.00 MiB',
    ]);
    expect(
      ofKind(all, 'kv').map((k) => [k.line, k.scope, k.cells, k.seqs, k.typeK, k.typeV, k.layers, k.recurrent]),
    ).toEqual([
      [1, 'config', 1, 1, 'f32', 'f32', 64, true],
      [2, 'device-buffer', null, null, null, null, null, true],
      [3, 'total', null, null, 'f32', 'f32', null, true],
    ]);
  });
});

// Audit: llama_kv_cache_dsa (DeepSeek sparse attention, 2026) announces its two sub-caches with
// `LLAMA_LOG_INFO("%s: creating main KV cache, size = %u cells\n")` and `"… creating indexer KV cache, size = %u cells"`:
// each was called an unreadable KV line. MADE-UP FIGURES, NO PUBLISHED CAPTURE FOUND: written from
// https://github.com/ggml-org/llama.cpp/blob/035aa95b00162f7dbf3e6d5f418bb5a97fcc2583/src/llama-kv-cache-dsa.cpp
describe("llama_kv_cache_dsa's sub-cache lines (2026)", () => {
  it('each is a config record with its cells', () => {
    const all = parseClean('llama-log', [
      'llama_kv_cache_dsa: creating main KV cache, size = 4096 cells',
      'llama_kv_cache_dsa: creating indexer KV cache, size = 4096 cells',
    ]);
    expect(ofKind(all, 'kv').map((k) => [k.line, k.scope, k.cells, k.swa, k.source])).toEqual([
      [1, 'config', 4096, null, 'llama_kv_cache_dsa'],
      [2, 'config', 4096, null, 'llama_kv_cache_dsa'],
    ]);
  });
});
