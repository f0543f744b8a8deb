import { describe, expect, it } from 'vitest';
import {
  decodeCeilingTokensPerSecond,
  rooflineEfficiency,
  rooflineFromDepthRates,
} from '../../../../shared/analysis/roofline';
import { kvBytes, type ModelShape } from '../../../../shared/kv/kv-theory';

describe('decode roofline', () => {
  // Orin Nano 8GB (68 GB/s), 1e9 bytes of weights read per token, Llama-3.2-1B f16 KV (32768 B/token).
  const params = { bandwidthBytesPerSecond: 68e9, weightBytesPerToken: 1e9, kvBytesAtDepth: 32768 };

  it('ceiling = bandwidth / (weights + KV at depth)', () => {
    // 68e9 / (1e9 + 32768 × 4096 = 1134217728) = 59.95321…
    expect(decodeCeilingTokensPerSecond(params, 4096)).toBeCloseTo(59.95321561, 6);
    expect(decodeCeilingTokensPerSecond(params, 0)).toBe(68); // 68e9 / 1e9
    expect(decodeCeilingTokensPerSecond({ ...params, bandwidthBytesPerSecond: 0 }, 10)).toBeNull();
  });

  it('efficiency = measured / ceiling', () => {
    expect(rooflineEfficiency(34, 68)).toBe(0.5);
    expect(rooflineEfficiency(null, 68)).toBeNull();
  });

  it('takes the KV size from a shape (SWA layers stop growing)', () => {
    const shape: ModelShape = {
      layers: 2,
      kvHeads: 1,
      headDimK: 64,
      headDimV: 64,
      typeK: 'f16',
      typeV: 'f16',
      slidingWindow: 100,
      swaLayers: [true, false],
    };
    const p = {
      bandwidthBytesPerSecond: 1e9,
      weightBytesPerToken: 0,
      kvBytesAtDepth: (n: number) => kvBytes(shape, n),
    };
    // at 1000: global 256 × 1000 + SWA 256 × 100 = 281600 bytes → 1e9 / 281600 = 3551.136…
    expect(decodeCeilingTokensPerSecond(p, 1000)).toBeCloseTo(3551.13636, 4);
  });

  it('compares measured depth buckets with the ceiling at their middle', () => {
    const [pt] = rooflineFromDepthRates(params, [{ depthStart: 0, depthEnd: 8192, tokensPerSecond: 30 }]);
    expect(pt?.depthTokens).toBe(4096);
    expect(pt?.efficiency).toBeCloseTo(30 / 59.95321561, 6);
  });
});
