// Real captures of llama.cpp logs that an earlier parser lost readings on (each folder's SOURCE
// names where it was published). Values asserted here are read off the capture by hand.
import { describe, expect, it } from 'vitest';
import { bytesOf } from '../../../../shared/parsers/llama-log-model';
import { MiB, ofKind, parseFixture, parseFixtureClean } from '../../../helpers/parser-test-kit';

const clean = (rel: string) => parseFixtureClean('llama-log', `llama-cpp/${rel}`);

describe("llama-cpp-python's `Model metadata: {…}` line (llama-cpp-python-2026-notebook-metadata/SOURCE)", () => {
  it('the dict is read as the loader`s kv dump: training context, layers, heads and KV heads', () => {
    const all = clean('llama-cpp-python-2026-notebook-metadata/notebook-tinyllama-cpu.txt');
    expect(ofKind(all, 'model').filter((m) => m.source === 'llama-cpp-python')).toEqual([
      {
        kind: 'model',
        line: 60,
        source: 'llama-cpp-python',
        modelName: 'tinyllama_tinyllama-1.1b-chat-v1.0',
        arch: 'llama',
        fileType: '15',
        nCtxTrain: 2048,
        nEmbd: 2048,
        nLayer: 22,
        nFf: 5632,
        nHead: 32,
        nHeadKv: 4,
      },
    ]);
    // The rest of the run is still read: the KV cache and the timings.
    expect(ofKind(all, 'kv').find((k) => k.scope === 'total')?.sizeBytes).toBe(11 * MiB);
    expect(ofKind(all, 'timings').map((t) => t.phase)).toEqual(['load', 'prompt', 'eval', 'total']);
  });
});

describe('llama.cpp logs: RPC workers (devices named RPC[<host>:<port>])', () => {
  it('a Framework Desktop cluster (Vulkan head, three RPC workers, 2025-08): each worker`s model buffer', () => {
    const all = clean('rpc-vulkan-framework-cluster-2025-08/llama-cli-load-tensors.txt');
    expect(ofKind(all, 'model').map((m) => [m.line, m.source, m.extra])).toEqual([
      [
        4,
        'load_tensors',
        {
          'offloaded layers': '62/62',
          'Vulkan0 model buffer size': '36258.32 MiB',
          'RPC[10.0.2.242:50052] model buffer size': '116788.73 MiB',
          'RPC[10.0.2.223:50052] model buffer size': '124823.01 MiB',
          'RPC[10.0.2.209:50052] model buffer size': '107322.46 MiB',
          'CPU model buffer size': '497.11 MiB',
        },
      ],
    ]);
  });

  it('Graviton4 head and two RPC workers (build 5935, 2025-07): the KV size line with `1/ 1 seqs`', () => {
    const all = clean('rpc-graviton4-b5935-2025-07/llama-cli-rpc-405b.txt');
    const total = ofKind(all, 'kv').filter((k) => k.scope === 'total');
    expect(total.map((k) => [k.line, k.sizeBytes, k.cells, k.layers, k.seqs, k.streams])).toEqual([
      [37, 2016 * MiB, 4096, 126, 1, 1],
    ]);
    expect(total.map((k) => [k.typeK, k.kBytes, k.typeV, k.vBytes])).toEqual([['f16', 1008 * MiB, 'f16', 1008 * MiB]]);
  });

  it('Graviton4 head and two RPC workers (build 5935, 2025-07): the workers` KV and compute buffers', () => {
    const all = clean('rpc-graviton4-b5935-2025-07/llama-cli-rpc-405b.txt');
    expect(
      ofKind(all, 'kv')
        .filter((k) => k.scope === 'device-buffer')
        .map((k) => [k.line, k.device, k.sizeBytes]),
    ).toEqual([
      [34, 'RPC[172.31.110.11:50052]', 800 * MiB],
      [35, 'RPC[172.31.110.12:50052]', 784 * MiB],
      [36, 'CPU', 432 * MiB],
    ]);
    const compute = ofKind(all, 'model').find((m) => m.line === 39);
    expect(compute?.extra).toEqual({
      'RPC[172.31.110.11:50052] compute buffer size': '1160.00 MiB',
      'RPC[172.31.110.12:50052] compute buffer size': '1160.00 MiB',
      'CPU compute buffer size': '1160.01 MiB',
      'graph nodes': '4668',
      'graph splits': '4',
    });
  });
});

describe('llama.cpp logs: figures with a decimal comma (a tool that set the user`s LC_NUMERIC)', () => {
  it('build 4232 under de_DE (2024-12): model params, model size and BPW, a weights buffer', () => {
    const all = clean('locale-de-b4232-2024-12/llama-load-comma-decimals.txt');
    const [meta, tensors] = ofKind(all, 'model');
    expect([meta?.line, meta?.nParams, meta?.modelSizeBytes, meta?.bitsPerWeight]).toEqual([
      1,
      292_800,
      Math.round(1.12 * MiB),
      32,
    ]);
    expect(tensors?.extra).toEqual({ 'CPU_Mapped model buffer size': '1,12 MiB' });
    // The buffers' text is read by the compute-buffer advice through bytesOf.
    expect(bytesOf('1,12', 'MiB')).toBe(Math.round(1.12 * MiB));
  });

  it('the first RPC run (2024-04): each server`s KV buffer', () => {
    const all = clean('rpc-decimal-comma-2024-04/llama-cli-rpc-two-servers.txt');
    expect(ofKind(all, 'kv').map((k) => [k.line, k.scope, k.device, k.sizeBytes])).toEqual([
      [14, 'device-buffer', 'RPC', 34 * MiB],
      [15, 'device-buffer', 'RPC', 30 * MiB],
    ]);
  });
});

describe('llama.cpp logs: a device printed twice in one block is two buffers', () => {
  it('the first RPC run (2024-04): two servers both named RPC, each with its weights', () => {
    const all = clean('rpc-decimal-comma-2024-04/llama-cli-rpc-two-servers.txt');
    expect(ofKind(all, 'model').find((m) => m.source === 'llm_load_tensors')?.extra).toEqual({
      'ggml ctx size': '0,44 MiB',
      'offloaded layers': '33/33',
      'CPU buffer size': '296,88 MiB',
      'RPC buffer size': '7072,53 MiB',
      'RPC#2 buffer size': '6537,36 MiB',
    });
  });
});

describe('ollama: a model refused for memory is a failure (no llama.cpp line follows)', () => {
  it('systemctl status under a Chinese locale (2026-03): `model request too large for system`', () => {
    const all = parseFixture('llama-log', 'llama-cpp/ollama-too-large-2026-03/journal-status.txt');
    expect(all.map((r) => [r.kind, r.line, r.kind === 'diagnostic' ? r.reason : null])).toEqual([
      ['diagnostic', 3, 'engine out of memory'],
    ]);
  });
});

describe('llama.cpp logs: the loader of May–June 2023 tags its GPU lines with the backend', () => {
  it('llama-cpp-python 0.1.57 (cuBLAS, 2023-06): `[cublas] total VRAM used: 12353 MB`', () => {
    const all = clean('llama-cpp-python-0.1.57-cublas-2023-06/high-level-api-verbose.txt');
    const [loader] = ofKind(all, 'model');
    expect([loader?.line, loader?.nLayer, loader?.nCtx, loader?.extra?.['total VRAM used']]).toEqual([
      2,
      32,
      8192,
      '12353 MB',
    ]);
    expect(ofKind(all, 'kv').map((k) => [k.line, k.sizeBytes])).toEqual([[20, 4096 * MiB]]);
  });
});

describe('llama.cpp logs: llm_load_print_meta of August–September 2023 (`model size` is the parameter count)', () => {
  it('ggml-org/ci, build 1121 (2023-08-30): `model size = 6.74 B` reads as 6.74 billion parameters', () => {
    const all = clean('ci-b1121-2023-08-gguf-v2/main-open-llama-7b-f16.txt');
    const meta = ofKind(all, 'model').find((m) => m.source === 'llm_load_print_meta');
    expect([meta?.line, meta?.nParams, meta?.modelSizeBytes, meta?.modelType, meta?.nLayer, meta?.nHeadKv]).toEqual([
      8,
      6_740_000_000,
      undefined,
      '7B',
      32,
      32,
    ]);
    expect(ofKind(all, 'kv').map((k) => [k.line, k.sizeBytes])).toEqual([[44, 256 * MiB]]);
  });
});
