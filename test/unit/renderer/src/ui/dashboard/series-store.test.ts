// The series store: any key becomes a series; overlap between live events and getRun is ignored;
// token counts are thinned to one point per 100 ms; a full buffer drops its oldest half. Samples
// arrive as objects (live events, getRun) or packed (an opened session): both give the same store.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feedPackedSamples, packSamples } from '../../../../../../shared/api/packed-samples';
import type { Sample } from '../../../../../../shared/api/schemas';
import { SeriesBuffer, SeriesStore } from '../../../../../../renderer/src/ui/dashboard/series-store';
import { sampleStreamArbitrary } from '../../../../../helpers/sample-arbitrary';

type Ingest = (store: SeriesStore, samples: Sample[]) => void;
const INGESTS: Array<[string, Ingest]> = [
  ['as objects', (store, samples) => store.ingest(samples)],
  ['packed', (store, samples) => void feedPackedSamples(packSamples(samples), [store.packedSink()])],
];

/** Every series of the store as [key, times, values], keys sorted, plus its time range. */
function contents(store: SeriesStore) {
  const series = store
    .keys()
    .sort()
    .map((key) => {
      const b = store.get(key)!;
      return [key, [...b.t.subarray(0, b.length)], [...b.v.subarray(0, b.length)]];
    });
  return { series, range: store.timeRange() };
}

describe.each(INGESTS)('SeriesStore, samples %s', (_how, ingest) => {
  it('makes a series of every numeric key and ignores repeats, nulls and the sampler’s token copy', () => {
    const s = new SeriesStore();
    ingest(s, [
      { tMs: 0, source: 'procfs', values: { rssBytes: 100, 'temp.cpu.C': 40, tokens: 9, swapBytes: null } },
      { tMs: 100, source: 'procfs', values: { rssBytes: 110, 'rail.VDD_IN.mW': 5000 } },
      { tMs: 50, source: 'procfs', values: { rssBytes: 999 } }, // older than the last: overlap
      { tMs: 60, source: 'engine', values: { tokens: 3, started: 1 } },
      { tMs: 70, source: 'procfs', values: { swapBytes: null, cpuBusyPct: Infinity } }, // no finite value: no series
    ]);
    expect(s.keys().sort()).toEqual(['rail.VDD_IN.mW', 'rssBytes', 'temp.cpu.C', 'tokens']);
    const rss = s.get('rssBytes')!;
    expect([...rss.t.subarray(0, rss.length)]).toEqual([0, 100]);
    expect([...rss.v.subarray(0, rss.length)]).toEqual([100, 110]);
    expect(s.timeRange()).toEqual([0, 100]);
  });

  it('thins token points closer than 100 ms: the newest slides forward', () => {
    const s = new SeriesStore();
    // Tokens at 0, 10, 20, …, 250 ms (one per 10 ms spool tick).
    ingest(
      s,
      Array.from({ length: 26 }, (_, i) => ({ tMs: i * 10, source: 'engine', values: { tokens: i } })),
    );
    const b = s.get('tokens')!;
    // A new point is appended when it is ≥ 100 ms after the point before the newest, else it
    // replaces the newest. By hand: [0] → [0,10] → 20…90 replace: [0,90] → 100 (100−0 ≥ 100)
    // appends: [0,90,100] → 110…180 replace (180−90 < 100): [0,90,180] → 190 (190−90 ≥ 100)
    // appends → 200…250 replace (250−180 < 100): [0,90,180,250].
    expect([...b.t.subarray(0, b.length)]).toEqual([0, 90, 180, 250]);
    expect([...b.v.subarray(0, b.length)]).toEqual([0, 9, 18, 25]);
  });
});

describe('SeriesStore', () => {
  it('holds the same series whether the samples came as objects or packed', () => {
    fc.assert(
      fc.property(sampleStreamArbitrary, sampleStreamArbitrary, (first, second) => {
        const [objects, packed] = INGESTS.map(([, ingest]) => {
          const store = new SeriesStore();
          ingest(store, first);
          ingest(store, second); // a second batch: overlap with the first is ignored the same way
          return store;
        }) as [SeriesStore, SeriesStore];
        expect(contents(packed)).toEqual(contents(objects));
        expect(packed.version).toBe(objects.version);
      }),
      { numRuns: 300 },
    );
  });

  it('drops the oldest half when full', () => {
    const b = new SeriesBuffer(8);
    for (let i = 0; i < 9; i++) b.push(i, i * 2);
    expect(b.length).toBe(5);
    expect(b.dropped).toBe(4);
    expect([...b.t.subarray(0, b.length)]).toEqual([4, 5, 6, 7, 8]);
  });

  it('reserves room for what is coming in one allocation, never past the cap, keeping the points held', () => {
    const b = new SeriesBuffer(5000);
    for (let i = 0; i < 3; i++) b.push(i, i * 2);
    b.reserve(3000);
    expect(b.t.length).toBe(3003);
    expect([...b.v.subarray(0, b.length)]).toEqual([0, 2, 4]);
    const before = b.t;
    for (let i = 3; i < 3003; i++) b.push(i, i);
    expect(b.t).toBe(before); // no growth on the way
    b.reserve(1e9);
    expect(b.t.length).toBe(5000);
  });

  it('fed a packed session, sizes each series for its shape once', () => {
    const store = new SeriesStore();
    const samples = Array.from({ length: 3000 }, (_, i) => ({
      tMs: i * 1000,
      source: 'procfs',
      values: { rssBytes: 1e6 + i, 'temp.cpu.C': i < 10 ? null : 50 },
    }));
    feedPackedSamples(packSamples(samples), [store.packedSink()]);
    expect(store.get('rssBytes')?.t.length).toBe(3000);
    expect(store.get('rssBytes')?.length).toBe(3000);
    expect(store.get('temp.cpu.C')?.length).toBe(2990);
  });
});
