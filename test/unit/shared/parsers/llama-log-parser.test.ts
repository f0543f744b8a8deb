import { describe, expect, it } from 'vitest';
import { createLlamaLogParser, stripLogPrefixes } from '../../../../shared/parsers/llama-log-parser';
import { parseGoDurationMs } from '../../../../shared/parsers/llama-log-server';
import type { TimingsRecord } from '../../../../shared/parsers/records';
import {
  diagnostics,
  MiB,
  ofKind,
  parse,
  parseClean,
  parseFixture,
  parseFixtureClean,
} from '../../../helpers/parser-test-kit';
import { expectSurvivesNoise } from '../../../helpers/parser-noise';
import { PROTOTYPE_KEYS } from '../../../helpers/prototype-keys';

const log = (rel: string) => parseFixture('llama-log', `llama-cpp/${rel}`);
const t = (r: TimingsRecord) => [r.line, r.phase, r.ms, r.tokens, r.msPerToken, r.tokensPerSecond];

describe('llama.cpp logs: real captures', () => {
  it('March 2023 main on a Pi Zero 2 W: llama_model_load hyper-parameters, memory_size (KV), model size', () => {
    const all = log('main-2023-03-pi-zero-2w/02_pizero2w_2023_first_format_llamacpp_issue58.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'kv')).toEqual([
      {
        kind: 'kv',
        line: 20,
        scope: 'total',
        sizeBytes: 512 * MiB,
        cells: null,
        layers: null,
        seqs: null,
        streams: null,
        typeK: null,
        typeV: null,
        kBytes: null,
        vBytes: null,
        device: null,
        swa: null,
        recurrent: false,
        parts: [],
        source: 'llama_model_load',
      },
    ]);
    expect(ofKind(all, 'model')).toEqual([
      {
        kind: 'model',
        line: 9,
        source: 'llama_model_load',
        nVocab: 32000,
        nCtx: 512,
        nEmbd: 4096,
        nHead: 32,
        nLayer: 32,
        nRot: 128,
        nFf: 11008,
        modelSizeBytes: Math.round(4017.27 * MiB),
        extra: { n_mult: '256', f16: '2', n_parts: '1', 'ggml ctx size': '4529.34 MB' },
      },
    ]);
    expect(ofKind(all, 'timings')).toEqual([]);
  });

  it('llama_print_timings 2023–2024: total with and without a token count, a four-digit ms/token, text running into the block', () => {
    const all = log('llama-print-timings-2023-2024/04_llama_print_timings_variants_2023_2024.txt');
    expect(diagnostics(all)).toEqual([]);
    const rs = ofKind(all, 'timings');
    expect(rs.map(t)).toEqual([
      [8, 'load', 613.45, null, null, null],
      [9, 'sample', 78.14, 128, 0.61, 1638.06],
      [10, 'prompt', 734.53, 6, 122.42, 8.17],
      [11, 'eval', 37202.16, 127, 292.93, 3.41],
      [12, 'total', 38236.38, null, null, null],
      [18, 'load', 4732.44, null, null, null],
      [19, 'sample', 86.82, 485, 0.18, 5586.14],
      [20, 'prompt', 1997.6, 2, 998.8, 1.0],
      [21, 'eval', 20404.39, 484, 42.16, 23.72],
      [22, 'total', 22575.28, 486, null, null],
      [27, 'load', 907.71, null, null, null],
      [28, 'sample', 301.8, 512, 0.59, 1696.48],
      [29, 'prompt', 6294.68, 271, 23.23, 43.05],
      [30, 'eval', 115222.19, 510, 225.93, 4.43],
      [34, 'prompt', 13458.83, 109, 123.48, 8.1],
      [39, 'load', 1491.98, null, null, null],
      [40, 'sample', 2.17, 26, 0.08, 12009.24],
      [41, 'prompt', 1491.9, 37, 40.32, 24.8],
    ]);
    expect(rs.every((r) => r.source === 'llama_print_timings' && r.slotId === null)).toBe(true);
    expect(rs[1]?.label).toBe('sample');
  });

  it('KV cache lines 2023–2026: every era, per-device buffers, MLA parts, journald/docker/[pid]/level prefixes', () => {
    const all = log('kv-cache-lines-2023-2026/08_kv_cache_line_variants_2023_2026.txt');
    expect(diagnostics(all)).toEqual([]);
    const kv = ofKind(all, 'kv');
    // The functions that printed the lines, by era.
    const [KV_INIT, NEW_CONTEXT, UNIFIED] = [
      'llama_kv_cache_init',
      'llama_new_context_with_model',
      'llama_kv_cache_unified',
    ];
    const row = (r: (typeof kv)[number]) => [
      r.line,
      r.scope,
      r.sizeBytes,
      r.cells,
      r.layers,
      r.seqs,
      r.streams,
      r.typeK,
      r.typeV,
      r.kBytes,
      r.vBytes,
      r.device,
      r.source,
    ];
    expect(kv.map(row)).toEqual([
      [4, 'total', 512 * MiB, null, null, null, null, null, null, null, null, null, 'llama_model_load'],
      [6, 'total', 256 * MiB, null, null, null, null, null, null, null, null, null, 'llama_init_from_file'],
      [11, 'device-buffer', 9 * MiB, null, null, null, null, null, null, null, null, 'CPU', KV_INIT],
      [12, 'total', 9 * MiB, null, null, null, null, 'f16', 'f16', 4.5 * MiB, 4.5 * MiB, null, NEW_CONTEXT],
      [24, 'device-buffer', 144 * MiB, null, null, null, null, null, null, null, null, 'CUDA11', KV_INIT],
      [25, 'device-buffer', 144 * MiB, null, null, null, null, null, null, null, null, 'CUDA12', KV_INIT],
      [26, 'device-buffer', 108 * MiB, null, null, null, null, null, null, null, null, 'CUDA13', KV_INIT],
      [27, 'device-buffer', 180 * MiB, null, null, null, null, null, null, null, null, 'CUDA14', KV_INIT],
      [28, 'total', 2196 * MiB, null, null, null, null, null, null, null, null, null, NEW_CONTEXT],
      [32, 'config', null, 8192, 32, null, null, 'f16', 'f16', null, null, null, UNIFIED],
      [33, 'device-buffer', 1024 * MiB, null, null, null, null, null, null, null, null, 'CPU', UNIFIED],
      [34, 'total', 1024 * MiB, null, null, null, null, 'f16', 'f16', 512 * MiB, 512 * MiB, null, UNIFIED],
      [38, 'device-buffer', 1024 * MiB, null, null, null, null, null, null, null, null, 'CPU', UNIFIED],
      [39, 'total', 1024 * MiB, 8192, 32, null, null, 'f16', 'f16', 512 * MiB, 512 * MiB, null, UNIFIED],
      [42, 'device-buffer', 512 * MiB, null, null, null, null, null, null, null, null, 'CPU', UNIFIED],
      [43, 'total', 512 * MiB, 4096, 32, 1, null, 'f16', 'f16', 256 * MiB, 256 * MiB, null, UNIFIED],
      [47, 'device-buffer', 448 * MiB, null, null, null, null, null, null, null, null, 'CPU', UNIFIED],
      [48, 'total', 448 * MiB, 4096, 28, 1, 1, 'f16', 'f16', 224 * MiB, 224 * MiB, null, UNIFIED],
      [53, 'device-buffer', 112 * MiB, null, null, null, null, null, null, null, null, 'CPU', UNIFIED],
      [54, 'total', 112 * MiB, 1024, 28, 1, 1, 'f16', 'f16', 56 * MiB, 56 * MiB, null, UNIFIED],
      [60, 'device-buffer', 448 * MiB, null, null, null, null, null, null, null, null, 'CUDA0', 'llama_kv_cache'],
      [61, 'total', 448 * MiB, 4096, 28, 1, 1, 'f16', 'f16', 224 * MiB, 224 * MiB, null, 'llama_kv_cache'],
    ]);
    expect(kv[8]?.parts).toEqual([
      { name: 'c^KV', type: 'f16', bytes: 2196 * MiB },
      { name: 'kv^T', type: null, bytes: null },
    ]);
    const models = ofKind(all, 'model');
    expect(models.map((m) => [m.line, m.source, m.nCtx, m.nSeqMax])).toEqual([
      [10, 'llama_new_context_with_model', 512, undefined],
      [17, 'llama_new_context_with_model', undefined, undefined],
      [62, 'sched_reserve', undefined, undefined],
      [68, 'llama_context', 32768, 4],
    ]);
    // Compute buffers are readings even in a block of their own: ollama on a Jetson (2024) and
    // llama.cpp's `sched_reserve:` lines (2026), as the lines print them.
    expect(models[1]?.extra).toEqual({
      'CUDA0 compute buffer size': '560.00 MiB',
      'CUDA_Host compute buffer size': '24.01 MiB',
      'graph nodes': '1030',
      'graph splits': '2',
    });
    expect(models[2]?.extra).toEqual({
      'CUDA0 compute buffer size': '300.75 MiB',
      'CUDA_Host compute buffer size': '16.01 MiB',
    });
  });

  it('llama-server 2024–2026: JSON timings (cache_n, draft_n), print_timings, slot lines, the split form, perf blocks, ollama --verbose', () => {
    const all = log('server-timings-2024-2026/09_server_timings_json_and_log_lines.txt');
    expect(diagnostics(all)).toEqual([]);
    const rs = ofKind(all, 'timings');
    const row = (r: TimingsRecord) => [...t(r), r.source, r.slotId, r.taskId];
    expect(rs.map(row)).toEqual([
      // (A) pretty-printed /completion response: the timings object opens on line 84
      [84, 'prompt', 201.665, 6, 33.61083333333333, 29.752312002578535, 'server-json', null, null],
      [84, 'eval', 47212.818, 600, 78.68803, 12.708413211005539, 'server-json', null, null],
      // (B) (C) (D) one-line SSE chunks, (E) a pretty fragment
      [100, 'prompt', 203.378, 1085, 0.18744516129032257, 5334.893646313762, 'server-json', null, null],
      [100, 'eval', 933.63, 247, 3.7798785425101213, 264.5587652496171, 'server-json', null, null],
      [106, 'prompt', 7.61, 1, 7.61, 131.4060446780552, 'server-json', null, null],
      [106, 'eval', 152.103, 43, 3.537279069767442, 282.703168247832, 'server-json', null, null],
      [112, 'prompt', 42.206, 15, 2.8137333333333334, 355.39970620290956, 'server-json', null, null],
      [112, 'eval', 183.01, 35, 5.228857142857143, 191.2463799792361, 'server-json', null, null],
      [120, 'prompt', 33.474, 52, 0.6437307692307692, 1553.4444643603993, 'server-json', null, null],
      [120, 'eval', 51.669, 7, 7.381285714285714, 135.47775261762374, 'server-json', null, null],
      // (F) mid-2024 INFO [print_timings] with key=value tails (id_slot, id_task read), then llama_print_timings
      [140, 'prompt', 15.62, 12, 1.3, 768.49, 'print_timings', 0, 0],
      [141, 'eval', 3194.22, 783, 4.08, 245.13, 'print_timings', 0, 0],
      [142, 'total', 3209.84, null, null, null, 'print_timings', 0, 0],
      [144, 'load', 348.01, null, null, null, 'llama_print_timings', null, null],
      [145, 'sample', 521.15, 607, 0.86, 1164.72, 'llama_print_timings', null, null],
      // (G) (H) slot print_timing with the common-log prefix and [pid]
      [152, 'prompt', 447.42, 283, 1.58, 632.52, 'slot', 0, 8],
      [153, 'eval', 473.12, 27, 17.52, 57.07, 'slot', 0, 8],
      [154, 'total', 920.53, 310, null, null, 'slot', 0, 8],
      // progress lines (2026) are read too, under their own labels: `t =  19.70 s / 1384.50 tokens per second`
      [165, 'prompt', 19700, 27273, null, 1384.5, 'slot', 0, 28],
      [166, 'prompt', 20002.35, 27277, 0.73, 1363.69, 'slot', 0, 28],
      [167, 'eval', 1969.9, 128, 15.39, 64.98, 'slot', 0, 28],
      [168, 'total', 21972.26, 27405, null, null, 'slot', 0, 28],
      [173, 'prompt', 252.01, 4, 63.0, 15.87, 'slot', 0, 160],
      [174, 'eval', 5729.2, 96, 60.31, 16.58, 'slot', 0, 160],
      [175, 'total', 5981.21, 100, null, null, 'slot', 0, 160],
      // `n_gen =    100, tg =  19.04 t/s` and `n_decoded =    172, tg =  12.00 t/s`: a rate and a count, no time
      [181, 'eval', null, 100, null, 19.04, 'slot', 0, 202],
      [182, 'eval', null, 158, null, 18.88, 'slot', 0, 202],
      [188, 'eval', null, 172, null, 12, 'slot', 0, 388],
      // (I) split form: timing lines without the slot prefix take the slot/task of the header line
      [190, 'prompt', 789.03, 27, 29.22, 34.22, 'slot', 0, 388],
      [191, 'eval', 16112.5, 192, 83.92, 11.92, 'slot', 0, 388],
      [192, 'total', 16901.53, 219, null, null, 'slot', 0, 388],
      // (I2) llama_perf_* of llama-cli, then the split form without any prefix
      [202, 'sample', 24.62, 227, 0.11, 9220.9, 'llama_perf_sampler_print', null, null],
      [203, 'load', 618.92, null, null, null, 'llama_perf_context_print', null, null],
      [204, 'prompt', 927.17, 49, 18.92, 52.85, 'llama_perf_context_print', null, null],
      [205, 'eval', 14085.85, 178, 79.13, 12.64, 'llama_perf_context_print', null, null],
      [206, 'total', 20699.49, 227, null, null, 'llama_perf_context_print', null, null],
      [215, 'prompt', 915.13, 51, 17.94, 55.73, 'slot', 0, 0],
      [216, 'eval', 23038.87, 275, 83.78, 11.94, 'slot', 0, 0],
      // (J) ollama --verbose, two blocks
      [222, 'total', 31273.112939, null, null, null, 'ollama', null, null],
      [223, 'load', 4970.54657, null, null, null, 'ollama', null, null],
      [224, 'prompt', 235.137439, 32768, null, 139356.8, 'ollama', null, null],
      [227, 'eval', 18173.182374, 1873, null, 103.06, 'ollama', null, null],
      [231, 'total', 30024.798033, null, null, null, 'ollama', null, null],
      [232, 'load', 4758.588663, null, null, null, 'ollama', null, null],
      [233, 'prompt', 7779.621548, 32768, null, 4212.03, 'ollama', null, null],
      [236, 'eval', 17148.014223, 1769, null, 103.16, 'ollama', null, null],
    ]);
    expect(rs[0]?.extra).toEqual({});
    expect(rs[6]?.extra).toEqual({ cache_n: 314 });
    expect(rs[8]?.extra).toEqual({ draft_n: 3, draft_n_accepted: 1 });
    expect(rs[11]?.label).toBe('generation eval');
    expect(rs.find((r) => r.line === 165)?.label).toBe('prompt processing');
    expect(rs.find((r) => r.line === 188)?.label).toBe('generation progress');
    expect(rs.find((r) => r.line === 202)?.label).toBe('sampling');
  });
});

describe('llama.cpp logs: this machine, the newest llama.cpp (node-llama-cpp 3.21.1, see SOURCE)', () => {
  it('print_info with new keys, load_tensors, llama_context with n_ctx_seq, llama_kv_cache, sched_reserve, llama_perf', () => {
    const all = log('node-llama-cpp-3.21.1-x86-64/llama-cli-mjs-stories260K.txt');
    expect(diagnostics(all)).toEqual([]);
    const models = ofKind(all, 'model');
    expect(models.map((m) => [m.line, m.source])).toEqual([
      [3, 'llama_model_loader'],
      [33, 'print_info'],
      [87, 'load_tensors'],
      [90, 'llama_context'],
      [115, 'sched_reserve'],
    ]);
    expect(models[1]).toMatchObject({ nCtxTrain: 2048, nLayer: 5, nHead: 8, nHeadKv: 4, nVocab: 512, nParams: 292800 });
    expect(models[2]?.extra).toEqual({ 'CPU_Mapped model buffer size': '1.12 MiB' });
    // `n_ctx_seq = 1024` is this version's name of n_ctx_per_seq.
    expect(models[3]).toMatchObject({
      nSeqMax: 1,
      nCtx: 1024,
      nCtxPerSeq: 1024,
      nBatch: 512,
      nUbatch: 512,
      flashAttn: 'auto',
    });
    expect(models[3]?.extra).toMatchObject({ kv_unified: 'false', 'CPU output buffer size': '0.00 MiB' });
    expect(models[4]?.extra).toEqual({
      'CPU compute buffer size': '2.52 MiB',
      'graph nodes': '161',
      'graph splits': '1',
    });
    const kv = ofKind(all, 'kv').map((k) => [
      k.line,
      k.scope,
      k.sizeBytes,
      k.cells,
      k.layers,
      k.seqs,
      k.streams,
      k.kBytes,
    ]);
    expect(kv).toEqual([
      [105, 'device-buffer', Math.round(0.62 * MiB), null, null, null, null, null],
      [106, 'total', Math.round(0.62 * MiB), 1024, 5, 1, 1, Math.round(0.31 * MiB)],
    ]);
    expect(ofKind(all, 'timings').map(t)).toEqual([
      [120, 'load', 23.76, null, null, null],
      [121, 'prompt', 2.22, 4, 0.55, 1803.43],
      [122, 'eval', 3.1, 23, 0.13, 7426.54],
      [123, 'total', 55.25, 27, null, null],
    ]);
  });
});

describe('llama.cpp logs: real boards (fixtures from issue threads, see each SOURCE)', () => {
  it('April 2023 main on an RK3588 (FriendlyWrt): loader facts with mem required and map size, kv self size', () => {
    const all = parseFixtureClean('llama-log', 'llama-cpp/rk3588-friendlywrt-2023-04/main-2023-04-rk3588.txt');
    // The KV cache of this era is one line, printed after the loader's block has ended it.
    expect(ofKind(all, 'kv').map((k) => [k.line, k.scope, k.sizeBytes, k.source])).toEqual([
      [20, 'total', 256 * MiB, 'llama_init_from_file'],
    ]);
    const models = ofKind(all, 'model');
    expect(models.map((m) => [m.line, m.source, m.nVocab, m.nCtx, m.nEmbd, m.nHead, m.nLayer, m.nRot, m.nFf])).toEqual([
      [4, 'llama_model_load', 32000, 512, 4096, 32, 32, 128, 11008],
    ]);
    expect(models[0]?.modelSizeBytes).toBe(Math.round(4017.27 * MiB));
    // `mem required` (weights plus scratch, and what each extra state adds) is a memory reading.
    expect(models[0]?.extra).toEqual({
      n_mult: '256',
      f16: '2',
      n_parts: '1',
      type: '1',
      'ggml map size': '4017.70 MB',
      'ggml ctx size': '81.25 KB',
      'mem required': '5809.78 MB (+ 1026.00 MB per state)',
    });
    expect(ofKind(all, 'timings')).toEqual([]);
  });

  it('December 2024 llama-cli on an Orange Pi 3B (RK3566): the llama_perf block of a ~1 token/s board', () => {
    const all = parseFixtureClean('llama-log', 'llama-cpp/orangepi-3b-rk3566-2024-12/llama-cli-perf-2024-12.txt');
    expect(ofKind(all, 'timings').map((r) => [...t(r), r.source])).toEqual([
      [1, 'sample', 170.97, 136, 1.26, 795.48, 'llama_perf_sampler_print'],
      [2, 'load', 4450.58, null, null, null, 'llama_perf_context_print'],
      [3, 'prompt', 4245.68, 8, 530.71, 1.88, 'llama_perf_context_print'],
      [4, 'eval', 124973.6, 127, 984.04, 1.02, 'llama_perf_context_print'],
      [5, 'total', 129561.47, 135, null, null, 'llama_perf_context_print'],
    ]);
  });
});

describe('llama.cpp logs: lines written from the format strings in llama.cpp sources', () => {
  it('print_info (2025+) and llama_context blocks, iSWA caches (non-SWA then SWA), common_perf_print', () => {
    const all = parseClean('llama-log', [
      'print_info: file format = GGUF V3 (latest)',
      'print_info: file type   = Q4_K - Medium',
      'print_info: file size   = 762.49 MiB (6.40 BPW) ',
      'print_info: arch             = gemma3',
      'print_info: vocab_only       = 0',
      'print_info: n_ctx_train      = 32768',
      'print_info: n_embd           = 1152',
      'print_info: n_layer          = 26',
      'print_info: n_head           = 4',
      'print_info: n_head_kv        = 1',
      'print_info: n_rot            = 256',
      'print_info: n_swa            = 512',
      'print_info: n_embd_head_k    = 256',
      'print_info: n_embd_head_v    = 256',
      'print_info: n_ff             = 6912',
      'print_info: model type       = 1B',
      'print_info: model params     = 999.89 M',
      'print_info: general.name     = Gemma 3 1b It',
      'load_tensors: loading model tensors, this can take a while... (mmap = true)',
      'llama_context: constructing llama_context',
      'llama_context: n_seq_max     = 1',
      'llama_context: n_ctx         = 4096',
      'llama_context: n_ctx_per_seq = 4096',
      'llama_context: n_batch       = 2048',
      'llama_context: n_ubatch      = 512',
      'llama_context: flash_attn    = auto',
      'llama_context: n_ctx_per_seq (4096) < n_ctx_train (32768) -- the full capacity of the model will not be utilized',
      'llama_context:        CPU  output buffer size =     1.00 MiB',
      'llama_kv_cache_iswa: creating non-SWA KV cache, size = 4096 cells',
      'llama_kv_cache:        CPU KV buffer size =    16.00 MiB',
      'llama_kv_cache: size =   16.00 MiB (  4096 cells,   4 layers,  1/1 seqs), K (f16):    8.00 MiB, V (f16):    8.00 MiB',
      'llama_kv_cache_iswa: creating     SWA KV cache, size = 1024 cells',
      'llama_kv_cache:        CPU KV buffer size =    22.00 MiB',
      'llama_kv_cache: size =   22.00 MiB (  1024 cells,  22 layers,  1/1 seqs), K (q8_0):   11.69 MiB, V (q8_0):   10.31 MiB',
      'common_perf_print:    sampling time =      11.26 ms',
      'common_perf_print:    samplers time =       9.87 ms /   150 tokens',
      'common_perf_print:        load time =     845.12 ms',
      'common_perf_print: prompt eval time =     112.40 ms /    22 tokens (    5.11 ms per token,   195.73 tokens per second)',
      'common_perf_print:        eval time =    3456.78 ms /   127 runs   (   27.22 ms per token,    36.74 tokens per second)',
      'common_perf_print:       total time =    3622.10 ms /   149 tokens',
      'common_perf_print: unaccounted time =      41.66 ms /   1.2 %      (total - sampling - prompt eval - eval) / (total)',
      'common_perf_print:    graphs reused =        126',
    ]);
    const [meta, ctx] = ofKind(all, 'model');
    expect(meta).toEqual({
      kind: 'model',
      line: 1,
      source: 'print_info',
      fileType: 'Q4_K - Medium',
      modelSizeBytes: Math.round(762.49 * MiB),
      bitsPerWeight: 6.4,
      arch: 'gemma3',
      nCtxTrain: 32768,
      nEmbd: 1152,
      nLayer: 26,
      nHead: 4,
      nHeadKv: 1,
      nRot: 256,
      slidingWindow: 512,
      headDimK: 256,
      headDimV: 256,
      nFf: 6912,
      modelType: '1B',
      nParams: 999890000,
      modelName: 'Gemma 3 1b It',
      extra: { 'file format': 'GGUF V3 (latest)', vocab_only: '0' },
    });
    expect(ctx).toMatchObject({
      line: 21,
      source: 'llama_context',
      nSeqMax: 1,
      nCtx: 4096,
      nCtxPerSeq: 4096,
      nBatch: 2048,
      nUbatch: 512,
      flashAttn: 'auto',
    });
    expect(ctx?.extra).toEqual({ 'CPU output buffer size': '1.00 MiB' });
    const kv = ofKind(all, 'kv');
    expect(kv.map((r) => [r.line, r.scope, r.sizeBytes, r.cells, r.layers, r.swa, r.typeK, r.kBytes])).toEqual([
      [29, 'config', null, 4096, null, false, null, null],
      [30, 'device-buffer', 16 * MiB, null, null, false, null, null],
      [31, 'total', 16 * MiB, 4096, 4, false, 'f16', 8 * MiB],
      [32, 'config', null, 1024, null, true, null, null],
      [33, 'device-buffer', 22 * MiB, null, null, true, null, null],
      [34, 'total', 22 * MiB, 1024, 22, true, 'q8_0', Math.round(11.69 * MiB)],
    ]);
    expect(ofKind(all, 'timings').map((r) => [r.line, r.phase, r.label, r.ms, r.tokens, r.tokensPerSecond])).toEqual([
      [35, 'sample', 'sampling', 11.26, null, null],
      [36, 'sample', 'samplers', 9.87, 150, null],
      [37, 'load', 'load', 845.12, null, null],
      [38, 'prompt', 'prompt eval', 112.4, 22, 195.73],
      [39, 'eval', 'eval', 3456.78, 127, 36.74],
      [40, 'total', 'total', 3622.1, 149, null],
    ]);
  });

  it('per-layer head counts print as a list; llm_load_print_meta (2024) sizes in GiB; llama_model_loader GGUF keys', () => {
    const text = [
      'llama_model_loader: loaded meta data with 35 key-value pairs and 147 tensors from Llama-3.2-1B-Q8_0.gguf (version GGUF V3 (latest))',
      'llama_model_loader: - kv   0:                       general.architecture str              = llama',
      'llama_model_loader: - kv   2:                               general.name str              = Llama 3.2 1B Instruct',
      'llama_model_loader: - kv   6:                          llama.block_count u32              = 16',
      'llama_model_loader: - kv   7:                       llama.context_length u32              = 131072',
      'llama_model_loader: - kv   8:                     llama.embedding_length u32              = 2048',
      'llama_model_loader: - kv  10:                 llama.attention.head_count u32              = 32',
      'llama_model_loader: - kv  11:              llama.attention.head_count_kv u32              = 8',
      'llama_model_loader: - kv  17:                          general.file_type u32              = 7',
      'llama_model_loader: - type  f32:   34 tensors',
      'llm_load_print_meta: n_head_kv        = 8',
      'llm_load_print_meta: model ftype      = Q8_0',
      'llm_load_print_meta: model params     = 1.24 B',
      'llm_load_print_meta: model size       = 1.22 GiB (8.50 BPW) ',
      'llm_load_tensors: ggml ctx size =    0.14 MiB',
      'print_info: n_head           = [32, 32, 32, 32]',
      'print_info: n_head_kv        = [8, 0, 8, 0]',
      'print_info: n_ff             = [8192, 8192, 4096, 4096]',
    ].join('\n');
    const all = parse('llama-log', text);
    // The loader's GGUF keys and the print_meta lines after them are one block: one record, the later
    // (human-readable) file type replacing the GGUF number.
    const [meta, hybrid] = ofKind(all, 'model');
    expect(ofKind(all, 'model')).toHaveLength(2);
    expect(meta).toEqual({
      kind: 'model',
      line: 2,
      source: 'llama_model_loader',
      arch: 'llama',
      modelName: 'Llama 3.2 1B Instruct',
      nLayer: 16,
      nCtxTrain: 131072,
      nEmbd: 2048,
      nHead: 32,
      nHeadKv: 8,
      fileType: 'Q8_0',
      nParams: 1240000000,
      modelSizeBytes: Math.round(1.22 * 1024 * MiB),
      bitsPerWeight: 8.5,
    });
    expect(hybrid).toMatchObject({
      line: 16,
      source: 'print_info',
      nHead: 32,
      nHeadPerLayer: [32, 32, 32, 32],
      nHeadKv: null,
      nHeadKvPerLayer: [8, 0, 8, 0],
      nFf: null,
    });
    expect(diagnostics(all)).toEqual([]);
  });

  it('inf/nan throughput of an empty phase, recurrent state, older server print_timings, prefixes', () => {
    const all = parseClean('llama-log', [
      'llama_perf_context_print: prompt eval time =       0.00 ms /     1 tokens (    0.00 ms per token,      inf tokens per second)',
      'llama_perf_context_print:        eval time =       0.00 ms /     0 runs   (     nan ms per token,      nan tokens per second)',
      'llama_memory_recurrent:        CPU RS buffer size =    16.00 MiB',
      'llama_memory_recurrent: size =   16.00 MiB (     1 cells,  32 layers,  1 seqs), R (f32):    4.00 MiB, S (f32):   12.00 MiB',
      'print_timings: prompt eval time =     124.55 ms /    10 tokens (   12.46 ms per token,    80.29 tokens per second)',
      'Mar 02 11:22:33 jetson llama-server[812]: llama_perf_context_print:        load time =     123.00 ms',
      '2025-07-16T04:20:43.123456789Z llama_perf_context_print:        load time =     124.00 ms',
      'web-1  | [77] 0.00.032.820 I llama_perf_context_print:        load time =     125.00 ms',
      '[2025-06-14 23:20:30.830830] I llama_perf_context_print:        load time =     126.00 ms',
    ]);
    const rs = ofKind(all, 'timings');
    expect(rs.map((r) => [r.line, r.phase, r.ms, r.tokens, r.msPerToken, r.tokensPerSecond, r.source])).toEqual([
      [1, 'prompt', 0, 1, 0, null, 'llama_perf_context_print'],
      [2, 'eval', 0, 0, null, null, 'llama_perf_context_print'],
      [5, 'prompt', 124.55, 10, 12.46, 80.29, 'print_timings'],
      [6, 'load', 123, null, null, null, 'llama_perf_context_print'],
      [7, 'load', 124, null, null, null, 'llama_perf_context_print'],
      [8, 'load', 125, null, null, null, 'llama_perf_context_print'],
      [9, 'load', 126, null, null, null, 'llama_perf_context_print'],
    ]);
    // The state's buffer line (`CPU RS buffer size`) is a reading too, like a KV cache's `KV buffer size`.
    const [buffer, rec] = ofKind(all, 'kv');
    expect([buffer?.line, buffer?.scope, buffer?.device, buffer?.sizeBytes, buffer?.recurrent]).toEqual([
      3,
      'device-buffer',
      'CPU',
      16 * MiB,
      true,
    ]);
    expect([rec?.line, rec?.recurrent, rec?.sizeBytes, rec?.cells, rec?.layers, rec?.seqs]).toEqual([
      4,
      true,
      16 * MiB,
      1,
      32,
      1,
    ]);
    expect(rec?.parts).toEqual([
      { name: 'R', type: 'f32', bytes: 4 * MiB },
      { name: 'S', type: 'f32', bytes: 12 * MiB },
    ]);
  });

  // github.com/ggml-org/llama.cpp pull 23792 (2026, a Qwen3-Next-style hybrid under tensor parallelism): since the
  // recurrent state keeps snapshot rows for speculative rollback, llama_memory_recurrent prints
  // `%2u seqs %2u rs_seq` in its size line, which no longer read (a diagnostic instead of the state's size).
  it('the recurrent state size line with its rs_seq count', () => {
    const all = parseClean('llama-log', [
      '[47161] 0.15.050.780 I llama_memory_recurrent:     Meta() RS buffer size =   149.62 MiB',
      '[47161] 0.15.050.795 I llama_memory_recurrent: size =  448.88 MiB (     3 cells,  65 layers,  3 seqs  0 rs_seq), R (f32):   16.88 MiB, S (f32):  432.00 MiB',
    ]);
    expect(diagnostics(all)).toEqual([]);
    const rec = ofKind(all, 'kv')[1];
    expect([rec?.line, rec?.scope, rec?.recurrent, rec?.sizeBytes, rec?.cells, rec?.layers, rec?.seqs]).toEqual([
      2,
      'total',
      true,
      Math.round(448.88 * MiB),
      3,
      65,
      3,
    ]);
    expect(rec?.parts).toEqual([
      { name: 'R', type: 'f32', bytes: Math.round(16.88 * MiB) },
      { name: 'S', type: 'f32', bytes: 432 * MiB },
    ]);
  });

  // A llama-server log kept by a supervisor that starts each line with its own `<date> <time> | ` (MTP speculative
  // decoding, May 2026, two captures: with and without llama.cpp's own `1.12.930.368 I `). The slot's timing lines
  // come on lines of their own, so with the prefix left on them they were dropped without a word.
  it('a `<date> <time> | ` prefix with no service name', () => {
    const all = parseClean('llama-log', [
      '2026-05-14 22:40:29.046 | slot print_timing: id  3 | task 0 | ',
      '2026-05-14 22:40:29.046 | prompt eval time =     648.99 ms /   133 tokens (    4.88 ms per token,   204.94 tokens per second)',
      '2026-05-14 22:40:29.046 |        eval time =   30387.12 ms /  2048 tokens (   14.84 ms per token,    67.40 tokens per second)',
      '2026-05-14 22:40:29.046 |       total time =   31036.11 ms /  2181 tokens',
      '2026-05-17 11:04:29.854 | 1.12.930.368 I slot print_timing: id  3 | task 0 | ',
      '2026-05-17 11:04:29.854 | prompt eval time =   16743.45 ms / 33191 tokens (    0.50 ms per token,  1982.33 tokens per second)',
    ]);
    expect(diagnostics(all)).toEqual([]);
    expect(
      ofKind(all, 'timings').map((r) => [r.line, r.phase, r.ms, r.tokens, r.tokensPerSecond, r.slotId, r.taskId]),
    ).toEqual([
      [2, 'prompt', 648.99, 133, 204.94, 3, 0],
      [3, 'eval', 30387.12, 2048, 67.4, 3, 0],
      [4, 'total', 31036.11, 2181, null, 3, 0],
      [6, 'prompt', 16743.45, 33191, 1982.33, 3, 0],
    ]);
  });

  // A timing line behind a prefix none of the patterns strips was dropped without a word. The line is the router-mode
  // llama-server's (tests of a router log reader that mark it real, 2026), behind the `[YYYY-MM-DD HH:MM:SS,mmm] `
  // a log watcher matches before `prompt eval time =` (Python logging's asctime): a diagnostic, never nothing.
  it('a timing line behind an unknown prefix is a diagnostic', () => {
    const line =
      '[2025-03-02 10:11:12,345] prompt eval time =   29504.01 ms / 11449 tokens (    2.58 ms per token,   388.05 tokens per second)';
    const all = parse('llama-log', line);
    expect(ofKind(all, 'timings')).toEqual([]);
    expect(diagnostics(all).map((d) => [d.line, d.reason, d.text])).toEqual([[1, 'unreadable timing line', line]]);
  });

  it('strips log prefixes and reads Go durations', () => {
    expect(stripLogPrefixes('Oct 03 13:18:04 gemma ollama[26513]: llama_kv_cache: x')).toBe('llama_kv_cache: x');
    expect(stripLogPrefixes('Mär 06 14:44:09 orin-1 llama[3768]: print_info: arch = llama')).toBe(
      'print_info: arch = llama',
    );
    expect(stripLogPrefixes('2025-07-16 04:20:47 gbstudio_hub-ollama-1   | llama_kv_cache_unified: y')).toBe(
      'llama_kv_cache_unified: y',
    );
    expect(stripLogPrefixes('[39625] 1.18.129.547 I slot print_timing: id  0 | task 28 |')).toBe(
      'slot print_timing: id  0 | task 28 |',
    );
    expect(stripLogPrefixes('132.05.318.177 W warning text')).toBe('warning text');
    expect(stripLogPrefixes('llama[2]: llama_kv_cache_unified: z')).toBe('llama_kv_cache_unified: z');
    expect(stripLogPrefixes('Once upon a time | there was')).toBe('Once upon a time | there was');
    // ollama --verbose prints Go durations: [text, milliseconds]
    const durations: Array<[string, number | null]> = [
      ['31.273112939s', 31273.112939],
      ['235.137439ms', 235.137439],
      ['1m2.5s', 62500],
      ['1h0m0s', 3600000],
      ['850µs', 0.85],
      ['soon', null],
    ];
    for (const [text, ms] of durations) expect(parseGoDurationMs(text)).toBe(ms);
  });

  it('prose is skipped, not diagnosed; a line that looks like a record but cannot be read is', () => {
    const all = parse(
      'llama-log',
      [
        'The total time = five minutes, said nobody.',
        'llama_print_timings:        eval time = lots ms',
        'llama_kv_cache_unified: KV self size  = 12 parsecs',
        '{"timings": {"prompt_n": 1,}}',
        'system_info: n_threads = 4 / 4 | NEON = 1 |',
      ].join('\n'),
    );
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [2, 'unreadable timing line'],
      [3, 'unreadable KV cache line'],
      [4, 'unreadable server timings object'],
    ]);
    expect(ofKind(all, 'timings')).toEqual([]);
  });

  it('a KV cache announced without a figure is no reading; one with a figure it cannot read still is', () => {
    // llama_kv_cache_dsv4 (2026): LLAMA_LOG_INFO("%s: creating DSV4 raw KV cache\n", __func__).
    const all = parse(
      'llama-log',
      [
        'llama_kv_cache_dsv4: creating DSV4 raw KV cache',
        'llama_kv_cache_iswa: creating SWA KV cache, size = many cells',
      ].join('\n'),
    );
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([[2, 'unreadable KV cache line']]);
    expect(ofKind(all, 'kv')).toEqual([]);
  });
});

const LOG_KINDS = ['timings', 'kv', 'model', 'diagnostic'];

describe('llama.cpp logs: robustness', () => {
  it('a server timings number too large for a double (found by the fuzz) is kept as its text, not Infinity', () => {
    // A llama-server streamed chunk of the fixtures (test/fixtures/llama-cpp), its cache_n damaged.
    const line =
      '{"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"timings":{"cache_n":1e309,"prompt_n":15,"prompt_ms":42.206,"prompt_per_token_ms":2.8137333333333334,"prompt_per_second":355.39970620290956,"predicted_n":35,"predicted_ms":183.01,"predicted_per_token_ms":5.228857142857143,"predicted_per_second":191.2463799792361}}';
    const timings = ofKind(parse('llama-log', line), 'timings');
    expect(timings.map((t) => [t.phase, t.tokens, t.extra?.cache_n])).toEqual([
      ['prompt', 15, 'Infinity'],
      ['eval', 35, 'Infinity'],
    ]);
  });

  it('never throws on log-shaped noise', () => {
    expectSurvivesNoise(createLlamaLogParser, 'llama-log', { perLine: 8, lines: 15, runs: 500 }, LOG_KINDS);
  });
});

describe('llama.cpp logs: keys named like Object.prototype members (shared/util/dictionary.ts)', () => {
  it.each(PROTOTYPE_KEYS)('%s: a print_info key and a server timings key are kept in extra', (key) => {
    const log = `print_info: ${key} = 5\nprint_info: n_ctx_train = 2048\n`;
    expect(ofKind(parse('llama-log', log), 'model').map((m) => [m.nCtxTrain, Object.entries(m.extra ?? {})])).toEqual([
      [2048, [[key, '5']]],
    ]);
    const server = `{"timings":{"prompt_n":15,"prompt_ms":42.5,${JSON.stringify(key)}:{"a":1}}}`;
    expect(ofKind(parse('llama-log', server), 'timings').map((t) => [t.ms, Object.entries(t.extra ?? {})])).toEqual([
      [42.5, [[key, { a: 1 }]]],
    ]);
  });
});

describe('model params that are not a number', () => {
  it.each(['.', '1.2.3', '..5'])('"model params = %s B" is an unreadable model line, not NaN parameters', (n) => {
    const p = createLlamaLogParser();
    const out = [...p.push(`print_info: model params          = ${n} B`), ...p.end()];
    expect(out).toEqual([
      {
        kind: 'diagnostic',
        line: 1,
        reason: 'unreadable model line',
        text: `print_info: model params          = ${n} B`,
      },
    ]);
  });
});

describe('a file size whose numbers are not numbers', () => {
  // Found by the parser fuzz in CI (seed -1205232151): `(. BPW)` made bitsPerWeight NaN.
  it.each(['1.12 MiB (. BPW)', '. MiB (4.54 BPW)', '1.2.3 GiB', '1.12 MiB (1.2.3 BPW)'])(
    '"file size = %s" is an unreadable model line, not NaN',
    (value) => {
      const p = createLlamaLogParser();
      const out = [...p.push(`print_info: file size   = ${value} `), ...p.end()];
      expect(out).toEqual([
        {
          kind: 'diagnostic',
          line: 1,
          reason: 'unreadable model line',
          text: `print_info: file size   = ${value} `,
        },
      ]);
    },
  );
});
