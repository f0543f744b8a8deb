// Random sample streams for property tests of the packed form (shared/api/packed-samples.ts) and
// of what consumes it: few sources and keys, so shapes repeat, alternate and differ in key order;
// values are numbers (non-finite ones included, as a damaged collector could give), null or absent.
import fc from 'fast-check';
import type { Sample } from '../../shared/api/schemas';

const SOURCES = ['engine', 'procfs', 'tegrastats'] as const;
const KEYS = ['tokens', 'rssBytes', 'rssAnonBytes', 'rssFileBytes', 'temp.cpu.C', 'started', 'swapBytes'] as const;

const value = fc.oneof(fc.integer({ min: 0, max: 5_000_000_000 }), fc.double({ noNaN: false }), fc.constant(null));

/** One sample; its keys in a random order (a missing key stays missing). */
export const sampleArbitrary: fc.Arbitrary<Sample> = fc.record({
  tMs: fc.integer({ min: 0, max: 100_000 }),
  source: fc.constantFrom(...SOURCES),
  values: fc
    .uniqueArray(fc.constantFrom(...KEYS), { maxLength: KEYS.length })
    .chain((keys) => fc.tuple(...keys.map((key) => value.map((v) => [key, v] as const))))
    .map((pairs) => Object.fromEntries(pairs) as Sample['values']),
});

/** A stream of samples in time order, as a run records them (equal times allowed). */
export const sampleStreamArbitrary: fc.Arbitrary<Sample[]> = fc
  .array(sampleArbitrary, { maxLength: 60 })
  .map((samples) => [...samples].sort((a, b) => a.tMs - b.tMs));
