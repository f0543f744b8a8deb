// Decode roofline (docs/DESIGN.md: "tokens/s ≤ memory bandwidth / (weight bytes read per token +
// kv_bytes(n))"). Decoding one token streams every weight that token uses once (all of them for a
// dense model, the active experts for MoE) and reads the whole KV cache at the current depth, so
// on boards where decode is memory-bound that sum over the bandwidth bounds tokens/s. The
// measured speed divided by that ceiling is the efficiency — how much of the bandwidth the engine
// turns into tokens.
import type { DepthRate } from './throughput';

export interface RooflineParams {
  /** Peak (or measured sustained) DRAM bandwidth, bytes/s. */
  bandwidthBytesPerSecond: number;
  /** Weight bytes read per generated token (GGUF tensor bytes for dense models; active experts for MoE). */
  weightBytesPerToken: number;
  /** KV bytes resident at a context depth, e.g. (n) => kvBytes(shape, n); or a constant bytes/token. */
  kvBytesAtDepth: ((depthTokens: number) => number) | number;
}

function kvAt(p: RooflineParams, depth: number): number {
  return typeof p.kvBytesAtDepth === 'function' ? p.kvBytesAtDepth(depth) : p.kvBytesAtDepth * depth;
}

/** Ceiling tokens/s at a context depth, or null when the parameters cannot give one. */
export function decodeCeilingTokensPerSecond(p: RooflineParams, depthTokens: number): number | null {
  const bytes = p.weightBytesPerToken + kvAt(p, Math.max(0, depthTokens));
  if (!(p.bandwidthBytesPerSecond > 0) || !(bytes > 0) || !Number.isFinite(bytes)) return null;
  return p.bandwidthBytesPerSecond / bytes;
}

/** Measured ÷ ceiling, or null. */
export function rooflineEfficiency(
  measuredTokensPerSecond: number | null,
  ceilingTokensPerSecond: number | null,
): number | null {
  if (measuredTokensPerSecond === null || ceilingTokensPerSecond === null || !(ceilingTokensPerSecond > 0)) return null;
  const e = measuredTokensPerSecond / ceilingTokensPerSecond;
  return Number.isFinite(e) ? e : null;
}

export interface RooflinePoint {
  depthTokens: number;
  ceilingTokensPerSecond: number | null;
  measuredTokensPerSecond: number | null;
  efficiency: number | null;
}

/** The ceiling curve at the given depths. */
export function rooflineCurve(p: RooflineParams, depths: readonly number[]): RooflinePoint[] {
  return depths.map((d) => ({
    depthTokens: d,
    ceilingTokensPerSecond: decodeCeilingTokensPerSecond(p, d),
    measuredTokensPerSecond: null,
    efficiency: null,
  }));
}

/** Measured decode speed per depth bucket against the ceiling at the bucket's middle. */
export function rooflineFromDepthRates(p: RooflineParams, rates: readonly DepthRate[]): RooflinePoint[] {
  return rates.map((r) => {
    const depth = (r.depthStart + r.depthEnd) / 2;
    const ceiling = decodeCeilingTokensPerSecond(p, depth);
    return {
      depthTokens: depth,
      ceilingTokensPerSecond: ceiling,
      measuredTokensPerSecond: r.tokensPerSecond,
      efficiency: rooflineEfficiency(r.tokensPerSecond, ceiling),
    };
  });
}
