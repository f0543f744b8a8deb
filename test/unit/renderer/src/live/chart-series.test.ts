import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunAnalysis } from '../../../../../shared/api/schemas';
import { buildChartSeries, EMPTY_CHART, theoryLine } from '../../../../../renderer/src/live/chart-series';
import { createMemoryRing } from '../../../../../renderer/src/live/ring-buffer';

const MiB = 1024 * 1024;

function analysis(kv: Partial<RunAnalysis['kv']>): RunAnalysis {
  return {
    kv: {
      theoryBytesPerToken: 32768,
      measuredBytesPerToken: 33000,
      overheadFactor: 1.007,
      mode: 'growth',
      baselineBytes: 100 * MiB,
      ...kv,
    },
    budgetBytes: 2048 * MiB,
    oomHorizonTokens: 60000,
    maxSafeContextTokens: 59000,
    throughput: { ttftMs: 100, prefillTokensPerSecond: 300, decodeTokensPerSecond: 40, tokens: 1000 },
    lastRssBytes: 130 * MiB,
    peakRssBytes: 131 * MiB,
  };
}

describe('theoryLine', () => {
  it('is baseline + tokens × theory bytes/token in growth mode', () => {
    expect(theoryLine({ analysis: analysis({}) }, 0, 1000)).toEqual([
      { x: 0, y: 100 * MiB },
      { x: 1000, y: 100 * MiB + 1000 * 32768 },
    ]);
  });

  it('stops growing at the window in window mode', () => {
    const line = theoryLine({ analysis: analysis({ mode: 'window' }), windowTokens: 256 }, 0, 1000);
    expect(line).toEqual([
      { x: 0, y: 100 * MiB },
      { x: 256, y: 100 * MiB + 256 * 32768 },
      { x: 1000, y: 100 * MiB + 256 * 32768 },
    ]);
  });

  it('is flat at baseline + the reservation in reserved mode', () => {
    expect(theoryLine({ analysis: analysis({ mode: 'reserved', theoryReservedBytes: 128 * MiB }) }, 0, 500)).toEqual([
      { x: 0, y: 228 * MiB },
      { x: 500, y: 228 * MiB },
    ]);
    // Without the analysis' number, ctx × bytes/token.
    expect(theoryLine({ analysis: analysis({ mode: 'reserved' }), ctx: 4096 }, 0, 500).at(0)?.y).toBe(
      100 * MiB + 4096 * 32768,
    );
  });

  it('is empty without a baseline or a theory slope', () => {
    expect(theoryLine({ analysis: null }, 0, 100)).toEqual([]);
    expect(theoryLine({ analysis: analysis({ baselineBytes: null }) }, 0, 100)).toEqual([]);
    expect(theoryLine({ analysis: analysis({ theoryBytesPerToken: null }) }, 0, 100)).toEqual([]);
  });
});

describe('buildChartSeries', () => {
  it('is empty for an empty ring', () => {
    expect(buildChartSeries(createMemoryRing(8), { analysis: null }, 100)).toBe(EMPTY_CHART);
  });

  it('draws each series against tokens, skipping missing values and carrying the token count', () => {
    const ring = createMemoryRing(16);
    ring.push({ tMs: 0, tokens: 0, rssBytes: 10, rssAnonBytes: 4, rssFileBytes: 6 });
    ring.push({ tMs: 100, tokens: null, rssBytes: 12, rssAnonBytes: null, rssFileBytes: 6 });
    ring.push({ tMs: 200, tokens: 50, rssBytes: 15, rssAnonBytes: 9, rssFileBytes: 6 });
    const chart = buildChartSeries(ring, { analysis: null }, 100);
    expect(chart.rss).toEqual([
      { x: 0, y: 10 },
      { x: 0, y: 12 },
      { x: 50, y: 15 },
    ]);
    expect(chart.anon).toEqual([
      { x: 0, y: 4 },
      { x: 50, y: 9 },
    ]);
    expect(chart.theory).toEqual([]);
    expect(chart.xMax).toBe(50);
    expect(chart.yMax).toBe(15);
    expect(chart.samples).toBe(3);
  });

  it('draws exactly the readings a series has, wherever its gaps are (none, first, last, all)', () => {
    const reading = fc.option(fc.integer({ min: 1, max: 1000 }), { nil: null, freq: 4 });
    fc.assert(
      fc.property(fc.array(fc.tuple(reading, reading), { maxLength: 40 }), (rows) => {
        const ring = createMemoryRing(64);
        rows.forEach(([rss, anon], i) =>
          ring.push({ tMs: i * 100, tokens: i, rssBytes: rss, rssAnonBytes: anon, rssFileBytes: null }),
        );
        // Under the limit nothing is thinned: every reading, in order, at its token count.
        const chart = buildChartSeries(ring, { analysis: null }, 100);
        const readings = (k: 0 | 1) => rows.flatMap((r, i) => (r[k] === null ? [] : [{ x: i, y: r[k] }]));
        expect(chart.rss).toEqual(readings(0));
        expect(chart.anon).toEqual(readings(1));
        expect(chart.file).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('downsamples every series to the limit, keeping the ends and the peak', () => {
    const ring = createMemoryRing(20_000);
    for (let i = 0; i < 10_000; i++) {
      const spike = i === 7_777 ? 5_000_000 : 0;
      ring.push({
        tMs: i * 10,
        tokens: i,
        rssBytes: 1_000_000 + i * 100 + spike,
        rssAnonBytes: 500_000 + i * 100,
        rssFileBytes: 500_000,
      });
    }
    const chart = buildChartSeries(ring, { analysis: analysis({ baselineBytes: 1_000_000 }) }, 2000);
    for (const series of [chart.rss, chart.anon, chart.file]) {
      expect(series.length).toBeLessThanOrEqual(2000);
      expect(series.at(0)?.x).toBe(0);
      expect(series.at(-1)?.x).toBe(9_999);
    }
    expect(chart.rss.some((p) => p.x === 7_777 && p.y === 1_000_000 + 777_700 + 5_000_000)).toBe(true);
    expect(chart.theory).toEqual([
      { x: 0, y: 1_000_000 },
      { x: 9_999, y: 1_000_000 + 9_999 * 32768 },
    ]);
  });
});
