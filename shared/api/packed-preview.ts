// A long recorded run drawn before all of its samples have crossed the bridge. An 8-hour run at
// 1 Hz is 57,600 samples (3.5 MB of packed JSON), and a time panel ~1,000 pixels wide draws at most
// the smallest and largest value of each series in each pixel column (minMaxPerPixel,
// renderer/src/ui/dashboard/TimeChart.tsx). So openSession can first send, for each series, only
// the samples that hold its smallest and largest value in each of `buckets` equal slices of the
// run's time (STORED_PREVIEW_BUCKETS: about the panels' pixel columns), and the full samples
// after it. The preview is a subset of the samples, each value as recorded and at its own time:
// nothing is averaged or invented. A finished run stores its preview beside its samples
// (electron/node/session/run-snapshot.ts); any other is reduced when asked for.
//
// Kept besides each series' extremes: its first and last value (the readouts show the last), the
// first null after a value (a gap stays a gap), and with every RSS sample kept the token count the
// RSS-against-tokens chart pairs it with (the newest count up to that sample, in any shape:
// live-run-slice.ts memoryRow), with the memory values of the same sample. A counter (the token
// count, kind 'counter' in shared/collectors/registry.ts) is kept whole: its rate over a few
// seconds (the tokens/s line) needs each of its samples. What the dashboard sums over every sample
// (the per-token costs) waits for them (Dashboard.tsx).
import {
  forEachPackedSample,
  packedSamplesOf,
  type PackedSamples,
  type StoredPackedSessionData,
} from './packed-samples';
import { RawJson } from './raw-json';
import { seriesOf } from '../collectors/registry';

/**
 * The slices a finished run's preview is stored at (electron/node/session/run-snapshot.ts), and
 * what the dashboard asks for: about one per pixel column of a time panel in a window 1,440
 * pixels wide (its canvases are ~1,040 pixels there; under 1 % of their pixels differ from the
 * full picture, test/e2e/session-preview.test.ts). Wider windows see a coarser picture for the
 * moment before every sample has arrived.
 */
export const STORED_PREVIEW_BUCKETS = 1024;

/** A run's preview as stored with it (made when the run ended), sent as it is: already reduced. */
export class StoredPreviewJson extends RawJson<PackedSamples> {}

/** A run with fewer samples per slice than this is sent whole: a preview would save too little. */
export const PREVIEW_MIN_SAMPLES_PER_BUCKET = 8;
/** The slices a page may ask for: from a narrow window to a 4K screen at twice its width. */
export const PREVIEW_BUCKETS = { min: 256, max: 8192 } as const;

/** The values kept together in a sample: the RSS-against-tokens chart reads them as one row. */
const MEMORY_KEYS: ReadonlySet<string> = new Set(['tokens', 'rssBytes', 'rssAnonBytes', 'rssFileBytes']);

/** How many samples the packed samples hold (a truncated tail left out, as every reader does). */
export function packedSampleCount(packed: PackedSamples): number {
  return forEachPackedSample(packed, () => {});
}

/** Whether a run of `samples` samples is worth a preview of `buckets` slices. */
export function previewWorthIt(samples: number, buckets: number): boolean {
  return samples >= buckets * PREVIEW_MIN_SAMPLES_PER_BUCKET;
}

/** One series' extremes in the slice being walked. */
interface KeyState {
  bucket: number;
  minAt: number;
  maxAt: number;
  min: number;
  max: number;
  firstAt: number;
  lastAt: number;
  /** Whether its previous cell was a number (a null after one starts a gap). */
  wasNumber: boolean;
  /** A counter: every cell kept. */
  whole: boolean;
}

/**
 * The samples that draw the same picture at `buckets` slices (see the top of this file), in their
 * order, each with only the values kept of it. Samples without a kept value are left out.
 */
export function previewPackedSamples(packed: PackedSamples, buckets: number): PackedSamples {
  const { shapes, cells } = packed;
  let tMin = Infinity;
  let tMax = -Infinity;
  const starts: number[] = [];
  forEachPackedSample(packed, (_shape, tMs, valuesAt) => {
    if (tMs < tMin) tMin = tMs;
    if (tMs > tMax) tMax = tMs;
    starts.push(valuesAt - 2);
  });
  const slices = Math.max(1, Math.floor(buckets));
  const span = tMax - tMin;
  const keep = new Uint8Array(cells.length);
  const states = new Map<string, KeyState>();
  // Each shape's keys' states, found by name once per shape rather than once per cell.
  const statesOfShape: Array<KeyState[] | undefined> = [];
  const statesOf = (shapeIndex: number, bucket: number): KeyState[] => {
    let known = statesOfShape[shapeIndex];
    if (known) return known;
    known = (shapes[shapeIndex] as PackedSamples['shapes'][number]).keys.map((key) => {
      let s = states.get(key);
      if (!s) {
        s = {
          bucket,
          minAt: -1,
          maxAt: -1,
          min: Infinity,
          max: -Infinity,
          firstAt: -1,
          lastAt: -1,
          wasNumber: false,
          whole: seriesOf(key)?.kind === 'counter',
        };
        states.set(key, s);
      }
      return s;
    });
    return (statesOfShape[shapeIndex] = known);
  };
  const flush = (s: KeyState) => {
    if (s.minAt >= 0) keep[s.minAt] = 1;
    if (s.maxAt >= 0) keep[s.maxAt] = 1;
  };
  const tokensIndex = shapes.map((shape) => shape.keys.indexOf('tokens'));
  const tokensIndexOf = (shapeIndex: number) => tokensIndex[shapeIndex] ?? -1;
  // The token count's cell the memory row of each sample would take (-1: none yet).
  const tokensCellOf = new Int32Array(starts.length).fill(-1);
  let newestTokensAt = -1;
  let newestTokens = -Infinity;
  for (let i = 0; i < starts.length; i++) {
    const at = starts[i] as number;
    const tMs = cells[at + 1] as number;
    const bucket = span > 0 ? Math.min(slices - 1, Math.floor(((tMs - tMin) / span) * slices)) : 0;
    const keyStates = statesOf(cells[at] as number, bucket);
    const tokensK = tokensIndexOf(cells[at] as number);
    for (let k = 0; k < keyStates.length; k++) {
      const s = keyStates[k] as KeyState;
      const cellAt = at + 2 + k;
      const value = cells[cellAt];
      if (s.whole) keep[cellAt] = 1;
      if (typeof value !== 'number') {
        if (value === null && s.wasNumber) keep[cellAt] = 1;
        s.wasNumber = false;
        continue;
      }
      if (k === tokensK && value > newestTokens) {
        newestTokens = value;
        newestTokensAt = cellAt;
      }
      if (s.bucket !== bucket) {
        flush(s);
        s.bucket = bucket;
        s.minAt = s.maxAt = -1;
        s.min = Infinity;
        s.max = -Infinity;
      }
      if (value < s.min) {
        s.min = value;
        s.minAt = cellAt;
      }
      if (value > s.max) {
        s.max = value;
        s.maxAt = cellAt;
      }
      if (s.firstAt < 0) s.firstAt = cellAt;
      s.lastAt = cellAt;
      s.wasNumber = true;
    }
    tokensCellOf[i] = newestTokensAt;
  }
  for (const s of states.values()) {
    flush(s);
    if (s.firstAt >= 0) keep[s.firstAt] = 1;
    if (s.lastAt >= 0) keep[s.lastAt] = 1;
  }
  // A kept memory value brings the sample's other memory values, and an RSS value its token count.
  for (let i = 0; i < starts.length; i++) {
    const at = starts[i] as number;
    const { keys } = shapes[cells[at] as number] as PackedSamples['shapes'][number];
    let memoryKept = false;
    let hasRss = false;
    for (let k = 0; k < keys.length; k++) {
      if (!MEMORY_KEYS.has(keys[k] as string)) continue;
      if (keep[at + 2 + k] === 1) memoryKept = true;
      if (keys[k] === 'rssBytes') hasRss = true;
    }
    if (!memoryKept) continue;
    for (let k = 0; k < keys.length; k++) if (MEMORY_KEYS.has(keys[k] as string)) keep[at + 2 + k] = 1;
    const tokensAt = tokensCellOf[i] as number;
    if (hasRss && tokensAt >= 0) keep[tokensAt] = 1;
  }
  // Each (shape, kept keys) pair is a shape of the preview, named by its shape index and key indices.
  const outShapes: PackedSamples['shapes'] = [];
  const outCells: Array<number | null> = [];
  const shapeIds = new Map<string, number>();
  for (const at of starts) {
    const shapeIndex = cells[at] as number;
    const { source, keys } = shapes[shapeIndex] as PackedSamples['shapes'][number];
    let id = '';
    for (let k = 0; k < keys.length; k++) if (keep[at + 2 + k] === 1) id += `,${k}`;
    if (id === '') continue;
    id = `${shapeIndex}${id}`;
    let outIndex = shapeIds.get(id);
    if (outIndex === undefined) {
      outIndex = outShapes.length;
      shapeIds.set(id, outIndex);
      outShapes.push({ source, keys: keys.filter((_, k) => keep[at + 2 + k] === 1) });
    }
    outCells.push(outIndex, cells[at + 1] as number);
    for (let k = 0; k < keys.length; k++) {
      const value = cells[at + 2 + k];
      if (keep[at + 2 + k] === 1) outCells.push(typeof value === 'number' ? value : null);
    }
  }
  return { shapes: outShapes, cells: outCells };
}

/**
 * A session with each run long enough for it replaced by its preview at `buckets` slices, and
 * whether any was. A preview read as stored (StoredPreviewJson, at these slices) is kept as it
 * is; a stored run's JSON text too short to hold that many samples (at least 6 characters each)
 * is left unparsed.
 */
export function previewSessionData(
  data: StoredPackedSessionData,
  buckets: number,
): { data: StoredPackedSessionData; preview: boolean } {
  let preview = false;
  const minSamples = buckets * PREVIEW_MIN_SAMPLES_PER_BUCKET;
  const runs = data.runs.map((run) => {
    if (run.samples instanceof StoredPreviewJson) {
      preview = true;
      return run;
    }
    if (run.samples instanceof RawJson && run.samples.text.length < minSamples * 6) return run;
    const packed = packedSamplesOf(run.samples);
    if (!previewWorthIt(packedSampleCount(packed), buckets)) return run;
    preview = true;
    return { ...run, samples: previewPackedSamples(packed, buckets) };
  });
  return { data: preview ? { ...data, runs } : data, preview };
}
