// openSession's packed samples (shared/api/packed-samples.ts): what is unpacked is what was packed,
// order, nulls and missing values included, and the packed JSON is smaller than the samples' own.
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../../shared/api/schemas';
import { packSamples, packSessionData, unpackSamples, unpackSessionData } from '../../../../shared/api/packed-samples';
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
});
