// Leak detection on constructed series: a deliberate extra per-token leak must be flagged, the
// same engine without it must not, and one-time allocation steps are not leaks.
import { describe, expect, it } from 'vitest';
import { detectLeak, LEAK_MIN_BYTES_PER_TOKEN, type LeakPoint } from '../../../../shared/analysis/leak';
import { analyzeRun } from '../../../../shared/analysis/run-analysis';
import { RESERVED_RUN, syntheticSamples } from './synthetic-run';

const MiB = 1024 * 1024;

function line(tokens: number, bytesPerToken: number, base = 100 * MiB): LeakPoint[] {
  return Array.from({ length: tokens / 8 }, (_, i) => ({
    tokens: i * 8 + 1,
    bytes: base + (i * 8 + 1) * bytesPerToken,
  }));
}

describe('detectLeak on points', () => {
  it('reserved cache, flat: no leak', () => {
    const r = detectLeak({ points: line(2000, 0), mode: 'reserved', theoryBytesPerToken: 32768 });
    expect(r.leaking).toBe(false);
    expect(r.bytesPerToken).toBe(0);
    expect(r.confidence).toBe(1);
  });

  it('reserved cache growing 8 KiB/token: leak, with threshold max(4 KiB, 5% of 32768 = 1638) = 4096', () => {
    const r = detectLeak({ points: line(2000, 8192), mode: 'reserved', theoryBytesPerToken: 32768 });
    expect(r.leaking).toBe(true);
    expect(r.bytesPerToken).toBe(8192);
    expect(r.thresholdBytesPerToken).toBe(LEAK_MIN_BYTES_PER_TOKEN);
    expect(r.reason).toMatch(/should be flat/);
  });

  it('the relative floor takes over for big models: 5% of 262144 = 13107.2 B/token', () => {
    const r = detectLeak({ points: line(2000, 8192), mode: 'reserved', theoryBytesPerToken: 262144 });
    expect(r.thresholdBytesPerToken).toBeCloseTo(13107.2, 6);
    expect(r.leaking).toBe(false);
  });

  it('too few tokens: no verdict', () => {
    const r = detectLeak({ points: line(200, 8192), mode: 'reserved', theoryBytesPerToken: 32768 });
    expect(r.leaking).toBe(false);
    expect(r.confidence).toBe(0);
    expect(r.reason).toMatch(/fewer than 256 tokens/);
  });

  it('a single step is not sustained growth', () => {
    // flat, then +32 MiB at token 1000 (an arena grows once), flat again
    const points = line(2000, 0).map((p) => ({ ...p, bytes: p.bytes + (p.tokens >= 1000 ? 32 * MiB : 0) }));
    const r = detectLeak({ points, mode: 'reserved', theoryBytesPerToken: 32768 });
    expect(r.leaking).toBe(false);
  });

  it('growth mode: flagged above theory × (1 + 10%) and 4 KiB', () => {
    expect(detectLeak({ points: line(2000, 32768), mode: 'growth', theoryBytesPerToken: 32768 }).leaking).toBe(false);
    const leaky = detectLeak({ points: line(2000, 32768 + 8192), mode: 'growth', theoryBytesPerToken: 32768 });
    expect(leaky.leaking).toBe(true);
    expect(leaky.bytesPerToken).toBe(8192); // the excess over the theory
    // an engine known to run at 1.25× is not leaking at 40960
    expect(
      detectLeak({ points: line(2000, 40960), mode: 'growth', theoryBytesPerToken: 32768, expectedOverhead: 1.25 })
        .leaking,
    ).toBe(false);
  });

  it('growth mode without theory cannot judge', () => {
    const r = detectLeak({ points: line(2000, 99999), mode: 'growth', theoryBytesPerToken: null });
    expect(r.leaking).toBe(false);
    expect(r.reason).toMatch(/no theoretical/);
  });

  it('window mode: judged as flat after the window is full', () => {
    const w = 500;
    const points = line(2000, 0).map((p) => ({
      ...p,
      bytes: 100 * MiB + Math.min(p.tokens, w) * 32768 + p.tokens * 8192,
    }));
    expect(detectLeak({ points, mode: 'window', theoryBytesPerToken: 32768, windowTokens: w }).leaking).toBe(true);
    const clean = line(2000, 0).map((p) => ({ ...p, bytes: 100 * MiB + Math.min(p.tokens, w) * 32768 }));
    expect(detectLeak({ points: clean, mode: 'window', theoryBytesPerToken: 32768, windowTokens: w }).leaking).toBe(
      false,
    );
  });
});

describe('leak verdicts from analyzeRun (demo-engine-like runs)', () => {
  it.each([
    { mode: 'reserved' as const, leak: 0, expected: false },
    { mode: 'reserved' as const, leak: 8192, expected: true },
    { mode: 'growth' as const, leak: 0, expected: false },
    { mode: 'growth' as const, leak: 8192, expected: true },
    { mode: 'window' as const, leak: 0, expected: false },
    { mode: 'window' as const, leak: 8192, expected: true },
  ])('$mode with leakBytesPerToken $leak → leaking $expected', ({ mode, leak, expected }) => {
    const samples = syntheticSamples({ ...RESERVED_RUN, mode, window: 512, leakBytesPerToken: leak });
    const a = analyzeRun({ samples, theoryBytesPerToken: 32768, theoryMode: mode, ctx: 4096 });
    expect(a.kv.mode).toBe(mode);
    expect(a.leak?.leaking).toBe(expected);
    if (expected) expect(Math.abs((a.leak?.bytesPerToken as number) - 8192)).toBeLessThan(8192 * 0.05);
  });
});
