// openSession's packed samples (shared/api/packed-samples.ts): what is unpacked is what was packed,
// order, nulls and missing values included, and the packed JSON is smaller than the samples' own;
// the walk over them (forEachPackedSample, feedPackedSamples) visits each whole sample once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../../shared/api/schemas';
import {
  feedPackedSamples,
  forEachPackedSample,
  isPackedSamplesJson,
  packSamples,
  packSessionData,
  unpackSamples,
  unpackSessionData,
  type PackedSampleSink,
} from '../../../../shared/api/packed-samples';
import { sampleStreamArbitrary } from '../../../helpers/sample-arbitrary';
import { finishedRun, session } from '../../../helpers/session-fixtures';

/** Interleaved sources, a null value, a sample missing a value its source usually has, an empty one. */
const MIXED: Sample[] = [
  { tMs: 0, source: 'engine', values: { tokens: 0 } },
  { tMs: 0, source: 'procfs', values: { rssBytes: 900e6, 'temp.cpu.C': 61.5 } },
  { tMs: 1000, source: 'procfs', values: { rssBytes: null, 'temp.cpu.C': 62 } },
  { tMs: 1000, source: 'engine', values: { tokens: 12 } },
  { tMs: 2000, source: 'procfs', values: { rssBytes: 901e6 } },
  { tMs: 2500, source: 'marker-less', values: {} },
  { tMs: 3000, source: 'procfs', values: { 'temp.cpu.C': 63, rssBytes: 902e6 } },
];

describe('packed samples', () => {
  it('unpack to the very samples packed, in their order', () => {
    expect(unpackSamples(packSamples(MIXED))).toEqual(MIXED);
    expect(unpackSamples(packSamples([]))).toEqual([]);
  });

  it('write each source and its value names once', () => {
    const packed = packSamples(MIXED);
    expect(packed.shapes).toEqual([
      { source: 'engine', keys: ['tokens'] },
      { source: 'procfs', keys: ['rssBytes', 'temp.cpu.C'] },
      { source: 'procfs', keys: ['rssBytes'] },
      { source: 'marker-less', keys: [] },
      { source: 'procfs', keys: ['temp.cpu.C', 'rssBytes'] },
    ]);
    expect(packed.cells.slice(0, 7)).toEqual([0, 0, 0, 1, 0, 900e6, 61.5]);
  });

  it('keep the samples that came whole from a truncated array', () => {
    const packed = packSamples(MIXED);
    expect(unpackSamples({ ...packed, cells: packed.cells.slice(0, 8) })).toEqual(MIXED.slice(0, 2));
  });

  it('round-trip a whole session, every other field untouched', () => {
    const data = session([finishedRun(), finishedRun({ id: 'second' })]);
    const packed = packSessionData(data);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(data).length);
    expect(unpackSessionData(JSON.parse(JSON.stringify(packed)) as typeof packed)).toEqual(data);
  });

  it('reuse a shape when a source alternates between two key orders', () => {
    const packed = packSamples([
      { tMs: 0, source: 'procfs', values: { a: 1, b: 2 } },
      { tMs: 1, source: 'procfs', values: { b: 3, a: 4 } },
      { tMs: 2, source: 'procfs', values: { a: 5, b: 6 } },
      { tMs: 3, source: 'other', values: { a: 7, b: 8 } },
      { tMs: 4, source: 'procfs', values: { b: 9, a: 10 } },
    ]);
    expect(packed.shapes).toEqual([
      { source: 'procfs', keys: ['a', 'b'] },
      { source: 'procfs', keys: ['b', 'a'] },
      { source: 'other', keys: ['a', 'b'] },
    ]);
    expect(packed.cells).toEqual([0, 0, 1, 2, 1, 1, 3, 4, 0, 2, 5, 6, 2, 3, 7, 8, 1, 4, 9, 10]);
  });

  it('walk each whole sample once: its shape, its time and where its values start', () => {
    const visits: string[] = [];
    const count = forEachPackedSample(packSamples(MIXED), (shape, tMs, at) => visits.push(`${shape} ${tMs} ${at}`));
    // Cells by hand, each sample's first cell: engine [0,0,0] at 0 · procfs [1,0,·,·] at 3 ·
    // [1,1000,·,·] at 7 · engine [0,1000,·] at 11 · procfs [2,2000,·] at 14 · empty [3,2500] at 17 ·
    // procfs [4,3000,·,·] at 19; its values start 2 cells later.
    expect(visits).toEqual(['0 0 2', '1 0 5', '1 1000 9', '0 1000 13', '2 2000 16', '3 2500 19', '4 3000 21']);
    expect(count).toBe(7);
    // A sample cut inside its values is not visited.
    const cut = packSamples(MIXED);
    expect(forEachPackedSample({ ...cut, cells: cut.cells.slice(0, 7) }, () => undefined)).toBe(2);
    expect(forEachPackedSample({ ...cut, cells: cut.cells.slice(0, 6) }, () => undefined)).toBe(1);
    expect(forEachPackedSample({ shapes: cut.shapes, cells: [9, 0, 1] }, () => undefined)).toBe(0);
  });

  it('feed every sink its own handler per shape, and skip the sinks that want none of a shape', () => {
    const got: string[] = [];
    const rssOnly: PackedSampleSink = {
      shape: (_source, keys) => {
        const k = keys.indexOf('rssBytes');
        return k < 0 ? null : (tMs, cells, at) => got.push(`rss ${tMs} ${cells[at + k]}`);
      },
    };
    const engine: PackedSampleSink = {
      shape: (source) => (source === 'engine' ? (tMs, cells, at) => got.push(`tokens ${tMs} ${cells[at]}`) : null),
    };
    expect(feedPackedSamples(packSamples(MIXED), [rssOnly, engine])).toBe(7);
    expect(got).toEqual([
      'tokens 0 0',
      'rss 0 900000000',
      'rss 1000 null',
      'tokens 1000 12',
      'rss 2000 901000000',
      'rss 3000 902000000',
    ]);
  });

  it('tell each sink how many samples of a shape the pass brings, and that the pass is over', () => {
    const calls: string[] = [];
    const counting: PackedSampleSink = {
      shape: (source, keys, count) => {
        calls.push(`${source} [${keys.join(',')}] ${count}`);
        return () => calls.push('sample');
      },
      end: () => calls.push('end'),
    };
    feedPackedSamples(packSamples(MIXED), [counting]);
    expect(calls.filter((c) => c !== 'sample')).toEqual([
      'engine [tokens] 2',
      'procfs [rssBytes,temp.cpu.C] 2',
      'procfs [rssBytes] 1',
      'marker-less [] 1',
      'procfs [temp.cpu.C,rssBytes] 1',
      'end',
    ]);
    expect(calls.at(-1)).toBe('end');
  });

  it('round-trip any sample stream, through JSON too, and walk it sample by sample', () => {
    fc.assert(
      fc.property(sampleStreamArbitrary, (samples) => {
        const packed = packSamples(samples);
        // JSON turns non-finite numbers into null, as it does for the samples themselves.
        const viaJson = JSON.parse(JSON.stringify(samples)) as Sample[];
        expect(unpackSamples(JSON.parse(JSON.stringify(packed)) as typeof packed)).toEqual(viaJson);
        expect(unpackSamples(packed)).toEqual(samples);
        const times: number[] = [];
        expect(forEachPackedSample(packed, (_shape, tMs) => times.push(tMs))).toBe(samples.length);
        expect(times).toEqual(samples.map((s) => s.tMs));
      }),
      { numRuns: 300 },
    );
  });

  it('any stream packed and stringified passes isPackedSamplesJson', () => {
    fc.assert(
      fc.property(sampleStreamArbitrary, (samples) => isPackedSamplesJson(JSON.stringify(packSamples(samples)))),
      { numRuns: 300 },
    );
  });
});

describe('isPackedSamplesJson (a stored snapshot is checked before it goes into an answer unparsed)', () => {
  it.each([
    '{"shapes":[],"cells":[]}',
    '{"shapes":[{"source":"a\\",\\"cells\\":[","keys":["x"]}],"cells":[0,-1.5e+21,null]}',
    '{"shapes":[{"source":"s","keys":[]}],"cells":[0,0,0,1E-7,0,0.25]}',
  ])('accepts %s', (text) => expect(isPackedSamplesJson(text)).toBe(true));

  it.each([
    ['no shapes', '{"cells":[1]}'],
    ['a shape without keys', '{"shapes":[{"source":"s"}],"cells":[]}'],
    ['a key that is not a string', '{"shapes":[{"source":"s","keys":[1]}],"cells":[]}'],
    ['a string cell', '{"shapes":[],"cells":["1"]}'],
    ['a nested array', '{"shapes":[],"cells":[[1]]}'],
    ['a trailing comma', '{"shapes":[],"cells":[1,]}'],
    ['a leading zero', '{"shapes":[],"cells":[01]}'],
    ['NaN', '{"shapes":[],"cells":[NaN]}'],
    ['whitespace', '{"shapes":[],"cells":[1, 2]}'],
    ['text after the value', '{"shapes":[],"cells":[1]},{"shapes":[],"cells":[1]}'],
    ['an escape from the cells', '{"shapes":[],"cells":[1]}],"id":7,"x":[{"y":[1]}'],
  ])('refuses %s', (_what, text) => expect(isPackedSamplesJson(text)).toBe(false));
});
