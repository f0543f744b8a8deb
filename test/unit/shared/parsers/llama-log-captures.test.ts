// Real captures of llama.cpp logs that an earlier parser lost readings on (each folder's SOURCE
// names where it was published). Values asserted here are read off the capture by hand.
import { describe, expect, it } from 'vitest';
import { ofKind, parseFixtureClean } from '../../../helpers/parser-test-kit';

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
});
