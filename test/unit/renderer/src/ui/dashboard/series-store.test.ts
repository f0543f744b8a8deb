// The series store: any key becomes a series; overlap between live events and getRun is ignored;
// token counts are thinned to one point per 100 ms; a full buffer drops its oldest half.
import { describe, expect, it } from 'vitest';
import { SeriesBuffer, SeriesStore } from '../../../../../../renderer/src/ui/dashboard/series-store';

describe('SeriesStore', () => {
  it('makes a series of every numeric key and ignores repeats, nulls and the sampler’s token copy', () => {
    const s = new SeriesStore();
    s.ingest([
      { tMs: 0, source: 'procfs', values: { rssBytes: 100, 'temp.cpu.C': 40, tokens: 9, swapBytes: null } },
      { tMs: 100, source: 'procfs', values: { rssBytes: 110, 'rail.VDD_IN.mW': 5000 } },
      { tMs: 50, source: 'procfs', values: { rssBytes: 999 } }, // older than the last: overlap
      { tMs: 60, source: 'engine', values: { tokens: 3, started: 1 } },
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
    s.ingest(Array.from({ length: 26 }, (_, i) => ({ tMs: i * 10, source: 'engine', values: { tokens: i } })));
    const b = s.get('tokens')!;
    // A new point is appended when it is ≥ 100 ms after the point before the newest, else it
    // replaces the newest. By hand: [0] → [0,10] → 20…90 replace: [0,90] → 100 (100−0 ≥ 100)
    // appends: [0,90,100] → 110…180 replace (180−90 < 100): [0,90,180] → 190 (190−90 ≥ 100)
    // appends → 200…250 replace (250−180 < 100): [0,90,180,250].
    expect([...b.t.subarray(0, b.length)]).toEqual([0, 90, 180, 250]);
    expect([...b.v.subarray(0, b.length)]).toEqual([0, 9, 18, 25]);
  });

  it('drops the oldest half when full', () => {
    const b = new SeriesBuffer(8);
    for (let i = 0; i < 9; i++) b.push(i, i * 2);
    expect(b.length).toBe(5);
    expect(b.dropped).toBe(4);
    expect([...b.t.subarray(0, b.length)]).toEqual([4, 5, 6, 7, 8]);
  });
});
