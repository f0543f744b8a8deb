// Real captures of llama.cpp logs that an earlier parser lost readings on (each folder's SOURCE
// names where it was published). Values asserted here are read off the capture by hand.
import { describe, expect, it } from 'vitest';
import { MiB, ofKind, parseFixtureClean } from '../../../helpers/parser-test-kit';

const clean = (rel: string) => parseFixtureClean('llama-log', `llama-cpp/${rel}`);

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
