// A long run's preview (shared/api/packed-preview.ts) draws the same picture: checked against the
// samples it came from, on random streams (few keys and sources, nulls, equal times) and on the
// UI bench's 8-hour run. The slices are the ones the module's header defines: `buckets` equal
// parts of [first tMs, last tMs], the last closed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  packSamples,
  unpackSamples,
  type PackedSamples,
  type StoredPackedSessionData,
} from '../../../../shared/api/packed-samples';
import {
  packedSampleCount,
  previewPackedSamples,
  previewSessionData,
  PREVIEW_MIN_SAMPLES_PER_BUCKET,
} from '../../../../shared/api/packed-preview';
import { RawJson } from '../../../../shared/api/raw-json';
import type { Sample } from '../../../../shared/api/schemas';
import { sampleArbitrary } from '../../../helpers/sample-arbitrary';
import { runSamplesAt } from '../../../../bench/run-samples';

const longStream = fc
  .array(sampleArbitrary, { minLength: 1, maxLength: 400 })
  .map((samples) => [...samples].sort((a, b) => a.tMs - b.tMs));

/** Per key, per slice: the lowest and highest number (as a string key `slice`). */
function extremesPerSlice(samples: readonly Sample[], buckets: number, tMin: number, tMax: number) {
  const out = new Map<string, Map<number, { min: number; max: number }>>();
  const span = tMax - tMin;
  for (const { tMs, values } of samples) {
    const slice = span > 0 ? Math.min(buckets - 1, Math.floor(((tMs - tMin) / span) * buckets)) : 0;
    for (const [key, v] of Object.entries(values)) {
      if (typeof v !== 'number' || Number.isNaN(v)) continue;
      let ofKey = out.get(key);
      if (!ofKey) out.set(key, (ofKey = new Map()));
      const e = ofKey.get(slice);
      ofKey.set(slice, e ? { min: Math.min(e.min, v), max: Math.max(e.max, v) } : { min: v, max: v });
    }
  }
  return out;
}

/** Each key's last value that is a number, as the readouts show it. */
function lastNumbers(samples: readonly Sample[]): Record<string, number> {
  const last: Record<string, number> = {};
  for (const { values } of samples)
    for (const [key, v] of Object.entries(values)) if (typeof v === 'number') last[key] = v;
  return last;
}

/** The RSS-against-tokens rows as the memory chart pairs them: each RSS with the highest count so far. */
function memoryPairs(samples: readonly Sample[]): string[] {
  let tokens = 0;
  const rows: string[] = [];
  for (const { tMs, values } of samples) {
    if (typeof values.tokens === 'number' && values.tokens > tokens) tokens = values.tokens;
    if (typeof values.rssBytes === 'number') rows.push(`${tMs}:${values.rssBytes}:${tokens}`);
  }
  return rows;
}

describe('a preview of packed samples', () => {
  it('is a subset of the samples, each value as recorded, in their order', () => {
    fc.assert(
      fc.property(longStream, fc.integer({ min: 1, max: 40 }), (samples, buckets) => {
        const preview = unpackSamples(previewPackedSamples(packSamples(samples), buckets));
        let i = 0;
        for (const p of preview) {
          // The next original sample it can be: same time and source, every kept value equal.
          while (
            i < samples.length &&
            !(
              samples[i]!.tMs === p.tMs &&
              samples[i]!.source === p.source &&
              Object.entries(p.values).every(([k, v]) => Object.is(samples[i]!.values[k], v))
            )
          )
            i++;
          expect(i).toBeLessThan(samples.length);
          i++;
        }
      }),
      { numRuns: 300 },
    );
  });

  it("keeps each series' lowest and highest value in each slice, its last value, its gaps and the memory rows", () => {
    fc.assert(
      fc.property(longStream, fc.integer({ min: 1, max: 40 }), (samples, buckets) => {
        const preview = unpackSamples(previewPackedSamples(packSamples(samples), buckets));
        const tMin = samples[0]!.tMs;
        const tMax = samples.at(-1)!.tMs;
        expect(extremesPerSlice(preview, buckets, tMin, tMax)).toEqual(extremesPerSlice(samples, buckets, tMin, tMax));
        expect(lastNumbers(preview)).toEqual(lastNumbers(samples));
        // A counter is kept whole: its rate over any window is the same.
        const counts = (list: readonly Sample[]) =>
          list.filter((s) => 'tokens' in s.values).map((s) => [s.tMs, s.values.tokens]);
        expect(counts(preview)).toEqual(counts(samples));
        // Every RSS row drawn from the preview is one the full samples draw, with the same count.
        const full = new Set(memoryPairs(samples));
        for (const row of memoryPairs(preview)) expect(full.has(row)).toBe(true);
        // A null right after a number (a gap) is kept where it was (the numbers around it may not be).
        const gaps = (list: readonly Sample[]) => {
          const was = new Map<string, boolean>();
          const out: string[] = [];
          for (const { tMs, values } of list)
            for (const [key, v] of Object.entries(values)) {
              if (v === null && was.get(key)) out.push(`${key}@${tMs}`);
              was.set(key, typeof v === 'number');
            }
          return out;
        };
        const previewNulls = new Set(
          preview.flatMap(({ tMs, values }) =>
            Object.entries(values).flatMap(([key, v]) => (v === null ? [`${key}@${tMs}`] : [])),
          ),
        );
        for (const gap of gaps(samples)) expect(previewNulls.has(gap)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('pairs an RSS value kept with the other memory values of its sample with its token count', () => {
    // rssFileBytes' last number is at 1 ms: its sample's RSS comes along, and needs the count 1.
    const samples: Sample[] = [
      { tMs: 0, source: 'engine', values: { tokens: 0 } },
      { tMs: 0, source: 'procfs', values: { rssBytes: 0, rssFileBytes: 0 } },
      { tMs: 1, source: 'engine', values: { tokens: 1 } },
      { tMs: 1, source: 'procfs', values: { rssFileBytes: 0, rssBytes: 0 } },
      { tMs: 2, source: 'engine', values: { tokens: 2, rssFileBytes: null, rssBytes: 0 } },
    ];
    const preview = unpackSamples(previewPackedSamples(packSamples(samples), 1));
    expect(memoryPairs(preview)).toEqual(memoryPairs(samples));
  });

  it("draws the bench's 8-hour run from its token counts and a tenth of its other samples at 1,024 slices", () => {
    const samples: Sample[] = [];
    for (let i = 0; i < 8 * 3600; i++) samples.push(...runSamplesAt(i));
    const packed = packSamples(samples);
    const preview = previewPackedSamples(packed, 1024);
    expect(packedSampleCount(packed)).toBe(57_600);
    const unpacked = unpackSamples(preview);
    // The engine's 28,800 counts whole (a counter); of the 28,800 procfs ticks, a third at most.
    expect(unpacked.filter((s) => s.source === 'engine')).toHaveLength(28_800);
    expect(unpacked.filter((s) => s.source === 'procfs').length).toBeLessThan(28_800 / 3);
    // At most each slice's two extremes, the first and the last per series (no gaps here).
    for (const key of ['temp.cpu.C', 'rail.VDD_IN.mW', 'cpuBusyPct', 'swapBytes']) {
      const kept = unpacked.filter((s) => typeof s.values[key] === 'number').length;
      expect(kept).toBeLessThanOrEqual(2 * 1024 + 2);
    }
    const full = new Set(memoryPairs(samples));
    expect(memoryPairs(unpacked).every((row) => full.has(row))).toBe(true);
  });
});

describe('a session answered as its preview', () => {
  const sessionOf = (samples: PackedSamples | RawJson<PackedSamples>): StoredPackedSessionData =>
    ({ meta: {}, runs: [{ id: 'r', samples }] }) as unknown as StoredPackedSessionData;
  const buckets = 256;
  const enough = buckets * PREVIEW_MIN_SAMPLES_PER_BUCKET;
  const run = (n: number) => packSamples(Array.from({ length: n }, (_, i) => runSamplesAt(i)[1]!));

  it('leaves a run too short for it whole, and says no preview was made', () => {
    const short = sessionOf(run(enough - 1));
    expect(previewSessionData(short, buckets)).toEqual({ data: short, preview: false });
  });

  it('does not parse a stored text too short to hold enough samples', () => {
    const text = new RawJson<PackedSamples>('not even JSON');
    const stored = sessionOf(text);
    expect(previewSessionData(stored, buckets)).toEqual({ data: stored, preview: false });
  });

  it('previews a long run, stored as text or not', () => {
    const long = run(enough * 2);
    for (const samples of [long, new RawJson<PackedSamples>(JSON.stringify(long))]) {
      const { data, preview } = previewSessionData(sessionOf(samples), buckets);
      expect(preview).toBe(true);
      const previewed = data.runs[0]!.samples as PackedSamples;
      expect(packedSampleCount(previewed)).toBeLessThan(enough);
      expect(previewed).toEqual(previewPackedSamples(long, buckets));
    }
  });
});
