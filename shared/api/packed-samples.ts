// A session's samples as openSession sends them over the bridge: packed rows instead of one object
// per sample. An 8-hour session at 1 Hz holds 57,600 samples; as objects every sample repeats its
// source and the names of its values, and the answer weighs 10.6 MB of JSON (bench/ui.bench.ts).
// Packed, each distinct (source, value names) pair is written once as a "shape" and every sample
// is a shape index, its time and its values in one flat array: about a third of the bytes, and a
// third of the time to write and to parse. Unpacking gives back the very same samples, in the
// same order (a null value stays null, a missing one stays missing).
import { z } from 'zod';
import type { SessionData, SessionRun } from '../report/session-data';
import { RawJson } from './raw-json';
import type { Sample } from './schemas';

export interface PackedSamples {
  /** Each distinct source and value names, in order of first appearance. */
  shapes: Array<{ source: string; keys: string[] }>;
  /** Per sample: its shape's index, tMs, then one value per key of the shape (null kept). */
  cells: Array<number | null>;
}

export type PackedSessionRun = Omit<SessionRun, 'samples'> & { samples: PackedSamples };
export type PackedSessionData = Omit<SessionData, 'runs'> & { runs: PackedSessionRun[] };

/** Packed samples, or their JSON text as stored for a finished run (electron/node/session/run-snapshot.ts). */
export type StoredPackedSamples = PackedSamples | RawJson<PackedSamples>;
/**
 * The packed session as the main side reads it: a finished run's samples may still be their stored
 * JSON text, which the transport puts into the answer unparsed (shared/api/raw-json.ts). What a
 * window receives is a PackedSessionData.
 */
export type StoredPackedSessionData = Omit<SessionData, 'runs'> & {
  runs: Array<Omit<SessionRun, 'samples'> & { samples: StoredPackedSamples }>;
};

/** The samples themselves (stored text parsed). */
export function packedSamplesOf(samples: StoredPackedSamples): PackedSamples {
  return samples instanceof RawJson ? samples.parse() : samples;
}

/**
 * The packed session as it crosses the bridge. Produced by session-store.ts on the main side and
 * never parsed from a window: only its outline is checked (validating 700,000 cells would cost
 * more than reading them).
 */
export const PackedSessionDataSchema = z.custom<PackedSessionData>(
  (v) => typeof v === 'object' && v !== null && Array.isArray((v as { runs?: unknown }).runs),
);

/**
 * Packs samples one at a time, so a reader can pack straight from its rows without building a
 * Sample per row first (electron/node/session/session-read.ts). A sample's shape is matched
 * against the shapes already seen for its source by walking its keys in place: no key array and
 * no lookup string per sample, which is what packing 57,600 samples spent its time on.
 */
export class PackedSamplesWriter {
  private readonly shapes: PackedSamples['shapes'] = [];
  private readonly cells: Array<number | null> = [];
  /** The shape indices of each source, most recently used first. */
  private readonly shapesOfSource = new Map<string, number[]>();

  add(tMs: number, source: string, values: Sample['values']): void {
    const index = this.shapeOf(source, values);
    const { keys } = this.shapes[index] as PackedSamples['shapes'][number];
    this.cells.push(index, tMs);
    for (const key of keys) this.cells.push(values[key] ?? null);
  }

  /** What was added (the writer keeps no copy: add nothing after this). */
  finish(): PackedSamples {
    return { shapes: this.shapes, cells: this.cells };
  }

  private shapeOf(source: string, values: Sample['values']): number {
    let known = this.shapesOfSource.get(source);
    if (!known) this.shapesOfSource.set(source, (known = []));
    for (let k = 0; k < known.length; k++) {
      const index = known[k] as number;
      if (!sameKeys((this.shapes[index] as PackedSamples['shapes'][number]).keys, values)) continue;
      if (k > 0) known.unshift(...known.splice(k, 1)); // the next sample of this source most likely has it too
      return index;
    }
    const index = this.shapes.length;
    this.shapes.push({ source, keys: Object.keys(values) });
    known.unshift(index);
    return index;
  }
}

/** Whether values has exactly these keys, in this order (for…in walks own keys as Object.keys does). */
function sameKeys(keys: readonly string[], values: Sample['values']): boolean {
  let i = 0;
  for (const key in values) if (keys[i++] !== key) return false;
  return i === keys.length;
}

export function packSamples(samples: readonly Sample[]): PackedSamples {
  const writer = new PackedSamplesWriter();
  for (const sample of samples) writer.add(sample.tMs, sample.source, sample.values);
  return writer.finish();
}

/**
 * Walks the packed samples in order without building them: visit gets each sample's shape index,
 * its tMs and where its first value is in cells (the shape's keys give the rest). A truncated
 * tail is left out, as unpackSamples leaves it. Returns how many samples were visited.
 */
export function forEachPackedSample(
  packed: PackedSamples,
  visit: (shapeIndex: number, tMs: number, valuesAt: number) => void,
): number {
  const { shapes, cells } = packed;
  let at = 0;
  let count = 0;
  while (at + 1 < cells.length) {
    const shapeIndex = cells[at];
    const tMs = cells[at + 1];
    const shape = typeof shapeIndex === 'number' ? shapes[shapeIndex] : undefined;
    if (!shape || typeof tMs !== 'number' || at + 2 + shape.keys.length > cells.length) break;
    visit(shapeIndex as number, tMs, at + 2);
    at += 2 + shape.keys.length;
    count += 1;
  }
  return count;
}

export function unpackSamples(packed: PackedSamples): Sample[] {
  const { shapes, cells } = packed;
  const samples: Sample[] = [];
  forEachPackedSample(packed, (shapeIndex, tMs, valuesAt) => {
    const shape = shapes[shapeIndex] as PackedSamples['shapes'][number];
    const values: Sample['values'] = {};
    for (let k = 0; k < shape.keys.length; k++) values[shape.keys[k] as string] = cells[valuesAt + k] ?? null;
    samples.push({ tMs, source: shape.source, values });
  });
  return samples;
}

export function packSessionData(data: SessionData): PackedSessionData {
  return { ...data, runs: data.runs.map((run) => ({ ...run, samples: packSamples(run.samples) })) };
}

export function unpackSessionData(data: PackedSessionData | StoredPackedSessionData): SessionData {
  return { ...data, runs: data.runs.map((run) => ({ ...run, samples: unpackSamples(packedSamplesOf(run.samples)) })) };
}

/** What a consumer does with each sample of one shape: its values are cells[valuesAt + k] for the shape's key k. */
export type PackedSampleHandler = (tMs: number, cells: ReadonlyArray<number | null>, valuesAt: number) => void;

/**
 * A consumer of packed samples that prepares once per shape (which of its keys it wants, where they
 * are) and then takes each sample of that shape without a lookup by name; null: it wants none.
 */
export interface PackedSampleSink {
  /** `count`: how many samples of this shape the pass brings (a buffer can be sized once). */
  shape(source: string, keys: readonly string[], count: number): PackedSampleHandler | null;
  /** After the last sample of the pass. */
  end?(): void;
}

/** One pass over the packed samples, each handed to every sink in turn. Returns how many samples. */
export function feedPackedSamples(packed: PackedSamples, sinks: readonly PackedSampleSink[]): number {
  // How many samples each shape has: a walk over the shape indices only, so that a sink sizes its
  // buffers once instead of doubling them five times over an 8-hour run (1,024 → 32,768 points).
  const counts = new Array<number>(packed.shapes.length).fill(0);
  forEachPackedSample(packed, (shapeIndex) => {
    counts[shapeIndex] = (counts[shapeIndex] ?? 0) + 1;
  });
  const handlers = packed.shapes.map((shape, index) =>
    sinks
      .map((sink) => sink.shape(shape.source, shape.keys, counts[index] ?? 0))
      .filter((h): h is PackedSampleHandler => h !== null),
  );
  const { cells } = packed;
  const count = forEachPackedSample(packed, (shapeIndex, tMs, valuesAt) => {
    for (const handle of handlers[shapeIndex] ?? []) handle(tMs, cells, valuesAt);
  });
  for (const sink of sinks) sink.end?.();
  return count;
}

/** A JSON number (json.org's grammar) or null. */
const JSON_CELL = String.raw`(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|null)`;
/**
 * Cells as JSON.stringify writes them: numbers and nulls, comma-separated. A regular expression
 * rather than a loop over the characters: V8 compiles it to machine code, 2 ms for the 3.5 MB of
 * an 8-hour run against 10 for the loop (node 20, 2-core x86 VM).
 */
const JSON_CELLS = new RegExp(`^(?:${JSON_CELL}(?:,${JSON_CELL})*)?$`);

const CELLS_KEY = ',"cells":[';

/**
 * Whether `text` is JSON.stringify of a PackedSamples: exactly `{"shapes":[…],"cells":[…]}` with
 * shapes of a string source and string keys, and cells that are JSON numbers or null. A stored
 * snapshot is checked with this before its text goes into an answer unparsed (a session file is
 * untrusted: its text must not reach outside its place in the answer). Linear: the shapes (a few
 * hundred bytes) are parsed, the cells (the megabytes) only matched against JSON_CELLS.
 */
export function isPackedSamplesJson(text: string): boolean {
  const SHAPES_KEY = '{"shapes":';
  if (!text.startsWith(SHAPES_KEY) || !text.endsWith(']}')) return false;
  // The cells hold no quote, so the last CELLS_KEY is theirs, whatever the sources and keys are named.
  const cellsAt = text.lastIndexOf(CELLS_KEY);
  if (cellsAt < SHAPES_KEY.length) return false;
  let shapes: unknown;
  try {
    shapes = JSON.parse(text.slice(SHAPES_KEY.length, cellsAt));
  } catch {
    return false;
  }
  const isShape = (s: unknown) => {
    const { source, keys } = (s ?? {}) as { source?: unknown; keys?: unknown };
    return typeof source === 'string' && Array.isArray(keys) && keys.every((k) => typeof k === 'string');
  };
  return Array.isArray(shapes) && shapes.every(isShape) && JSON_CELLS.test(text.slice(cellsAt + CELLS_KEY.length, -2));
}
