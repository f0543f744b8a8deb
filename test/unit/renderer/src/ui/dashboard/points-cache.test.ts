// The downsample cache: the same series at the same view is downsampled once, whatever the
// number of frames that ask; a new point, another window or another width computes again.
import { describe, expect, it } from 'vitest';
import { PointsCache } from '../../../../../../renderer/src/ui/dashboard/points-cache';
import { SeriesStore } from '../../../../../../renderer/src/ui/dashboard/series-store';
import { seriesPoints, type TrackSeries } from '../../../../../../renderer/src/ui/dashboard/panel-model';

const rss: TrackSeries = { key: 'rssBytes', label: 'RSS', color: '#000', sourceUnit: 'bytes' };
const clock: TrackSeries = { key: 'cpufreq.policy0.KHz', label: 'policy0', color: '#000', sourceUnit: 'khz' };

function storeWith(n: number): SeriesStore {
  const store = new SeriesStore();
  store.ingest(
    Array.from({ length: n }, (_, i) => ({
      tMs: i * 100,
      source: 'procfs',
      values: { rssBytes: 1e6 + i, 'cpufreq.policy0.KHz': 1_500_000 },
    })),
  );
  return store;
}

describe('PointsCache through seriesPoints', () => {
  it('downsamples a series once for repeated frames with no change', () => {
    const store = storeWith(10_000);
    const cache = new PointsCache();
    const input = { store, cache, domain: { t0: 0, t1: 999_900 }, plotWidthPx: 500, roofline: null, promptTokens: 0 };
    const first = seriesPoints(rss, input);
    const second = seriesPoints(rss, { ...input, domain: { t0: 0, t1: 999_900 } });
    expect(cache.computed).toBe(1);
    expect(second).toBe(first);
    // 10,000 points on 500 columns: at most two per column (min and max).
    expect(first.points.count).toBeLessThanOrEqual(1000);
    expect(first.yMin).toBe(1e6);
    expect(first.yMax).toBe(1e6 + 9999);
  });

  it('computes again when a point arrives, the window moves or the width changes', () => {
    const store = storeWith(100);
    const cache = new PointsCache();
    const input = { store, cache, domain: { t0: 0, t1: 9900 }, plotWidthPx: 500, roofline: null, promptTokens: 0 };
    seriesPoints(rss, input);
    store.ingest([{ tMs: 10_000, source: 'procfs', values: { rssBytes: 5e6 } }]);
    expect(seriesPoints(rss, input).yMax).toBe(5e6);
    seriesPoints(rss, { ...input, domain: { t0: 0, t1: 10_000 } });
    seriesPoints(rss, { ...input, domain: { t0: 0, t1: 10_000 }, plotWidthPx: 400 });
    expect(cache.computed).toBe(4);
  });

  it('does not reuse points of a cleared store whose new buffer reached the same version', () => {
    const store = storeWith(3);
    const cache = new PointsCache();
    const input = { store, cache, domain: { t0: 0, t1: 200 }, plotWidthPx: 100, roofline: null, promptTokens: 0 };
    expect(seriesPoints(rss, input).yMax).toBe(1e6 + 2);
    store.clear();
    store.ingest([0, 100, 200].map((tMs) => ({ tMs, source: 'procfs', values: { rssBytes: 7 } })));
    expect(store.get('rssBytes')?.version).toBe(3);
    expect(seriesPoints(rss, input).yMax).toBe(7);
  });

  it('converts to the display unit once, in the cached points (kHz → MHz)', () => {
    const store = storeWith(3);
    const cache = new PointsCache();
    const input = { store, cache, domain: { t0: 0, t1: 200 }, plotWidthPx: 100, roofline: null, promptTokens: 0 };
    const p = seriesPoints(clock, input);
    expect([...p.points.ys.subarray(0, p.points.count)]).toEqual([1500, 1500, 1500]);
    seriesPoints(clock, input);
    expect(cache.computed).toBe(1);
  });
});
