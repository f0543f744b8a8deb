// A session's samples as openSession sends them over the bridge: packed rows instead of one object
// per sample. An 8-hour session at 1 Hz holds 57,600 samples; as objects every sample repeats its
// source and the names of its values, and the answer weighs 10.6 MB of JSON (bench/ui.bench.ts).
// Packed, each distinct (source, value names) pair is written once as a "shape" and every sample
// is a shape index, its time and its values in one flat array: about a third of the bytes, and a
// third of the time to write and to parse. Unpacking gives back the very same samples, in the
// same order (a null value stays null, a missing one stays missing). A finished run's snapshot
// holds its cells as base64 of their float64 bytes instead (./float64-cells.ts: one string to
// parse, one typed array to read), where a null cell is NaN: readers of cells take NaN as null.
import { z } from 'zod';
import type { SessionData, SessionRun } from '../report/session-data';
import { cellsFromBase64, cellsToBase64, isFloat64Base64 } from './float64-cells';
import { RawJson } from './raw-json';
import type { Sample } from './schemas';

/** A sample's cells: numbers, and null (or NaN, in float64 cells) where a value is null. */
export type PackedCells = ArrayLike<number | null>;

export interface PackedSamples {
  /** Each distinct source and value names, in order of first appearance. */
  shapes: Array<{ source: string; keys: string[] }>;
  /** Per sample: its shape's index, tMs, then one value per key of the shape (null kept). */
  cells: PackedCells;
}

/** Packed samples as packed here: cells in a JSON array. */
export interface ArrayPackedSamples extends PackedSamples {
  cells: Array<number | null>;
}

/** Packed samples with their cells as base64 of their float64 bytes (a finished run's snapshot). */
export interface Float64PackedSamples {
  shapes: PackedSamples['shapes'];
  f64: string;
}

/** Packed samples as they cross the bridge: cells as a JSON array or as float64 base64. */
export type SentPackedSamples = PackedSamples | Float64PackedSamples;

export type PackedSessionRun = Omit<SessionRun, 'samples'> & { samples: SentPackedSamples };
export type PackedSessionData = Omit<SessionData, 'runs'> & { runs: PackedSessionRun[] };

/** Packed samples, or their JSON text as stored for a finished run (electron/node/session/run-snapshot.ts). */
export type StoredPackedSamples = SentPackedSamples | RawJson<SentPackedSamples>;
/**
 * The packed session as the main side reads it: a finished run's samples may still be their stored
 * JSON text, which the transport puts into the answer unparsed (shared/api/raw-json.ts). What a
 * window receives is a PackedSessionData.
 */
export type StoredPackedSessionData = Omit<SessionData, 'runs'> & {
  runs: Array<Omit<SessionRun, 'samples'> & { samples: StoredPackedSamples }>;
};

/** The samples themselves (stored text parsed, float64 cells decoded). */
export function packedSamplesOf(samples: StoredPackedSamples): PackedSamples {
  const sent = samples instanceof RawJson ? samples.parse() : samples;
  return 'f64' in sent ? { shapes: sent.shapes, cells: cellsFromBase64(sent.f64) } : sent;
}

/** The samples with their cells as float64 base64 (what a finished run's snapshot stores). */
export function toFloat64PackedSamples(packed: PackedSamples): Float64PackedSamples {
  return { shapes: packed.shapes, f64: cellsToBase64(packed.cells) };
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
  private readonly shapes: ArrayPackedSamples['shapes'] = [];
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
  finish(): ArrayPackedSamples {
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

export function packSamples(samples: readonly Sample[]): ArrayPackedSamples {
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
    // A time that is null (or NaN, in float64 cells) cannot be placed: the walk ends, as at a cut.
    if (!shape || typeof tMs !== 'number' || Number.isNaN(tMs) || at + 2 + shape.keys.length > cells.length) break;
    visit(shapeIndex as number, tMs, at + 2);
    at += 2 + shape.keys.length;
    count += 1;
  }
  return count;
}

/** cells[i] as a sample's value: null for a null (or NaN) cell and past the end. */
export function cellValue(cells: PackedCells, i: number): number | null {
  const v = cells[i];
  return v === undefined || v === null || Number.isNaN(v) ? null : v;
}

export function unpackSamples(packed: PackedSamples): Sample[] {
  const { shapes, cells } = packed;
  const samples: Sample[] = [];
  forEachPackedSample(packed, (shapeIndex, tMs, valuesAt) => {
    const shape = shapes[shapeIndex] as PackedSamples['shapes'][number];
    const values: Sample['values'] = {};
    for (let k = 0; k < shape.keys.length; k++) values[shape.keys[k] as string] = cellValue(cells, valuesAt + k);
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
export type PackedSampleHandler = (tMs: number, cells: PackedCells, valuesAt: number) => void;

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
  // buffers once instead of doubling them a dozen times over an 8-hour run.
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

const SHAPES_KEY = '{"shapes":';
const CELLS_KEY = ',"cells":[';
const F64_KEY = ',"f64":"';

/**
 * Whether `text` is JSON.stringify of a PackedSamples or a Float64PackedSamples: exactly
 * `{"shapes":[…],"cells":[…]}` with cells that are JSON numbers or null, or
 * `{"shapes":[…],"f64":"…"}` with base64 of whole float64 values; shapes of a string source and
 * string keys. A stored snapshot is checked with this before its text goes into an answer
 * unparsed (a session file is untrusted: its text must not reach outside its place in the
 * answer). Linear: the shapes (a few hundred bytes) are parsed, the cells (the megabytes) only
 * matched against a regular expression.
 */
export function isPackedSamplesJson(text: string): boolean {
  if (!text.startsWith(SHAPES_KEY)) return false;
  // Neither cells form holds a quote, so the last key found is theirs, whatever the sources and keys are named.
  const [key, end] = text.endsWith(']}') ? [CELLS_KEY, 2] : text.endsWith('"}') ? [F64_KEY, 2] : [null, 0];
  if (key === null) return false;
  const cellsAt = text.lastIndexOf(key);
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
  if (!Array.isArray(shapes) || !shapes.every(isShape)) return false;
  const cells = text.slice(cellsAt + key.length, -end);
  return key === CELLS_KEY ? JSON_CELLS.test(cells) : isFloat64Base64(cells);
}
