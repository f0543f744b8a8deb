// A session's samples as openSession sends them over the bridge: packed rows instead of one object
// per sample. An 8-hour session at 1 Hz holds 57,600 samples; as objects every sample repeats its
// source and the names of its values, and the answer weighs 10.6 MB of JSON (bench/ui.bench.ts).
// Packed, each distinct (source, value names) pair is written once as a "shape" and every sample
// is a shape index, its time and its values in one flat array: about a third of the bytes, and a
// third of the time to write and to parse. Unpacking gives back the very same samples, in the
// same order (a null value stays null, a missing one stays missing).
import { z } from 'zod';
import type { SessionData, SessionRun } from '../report/session-data';
import type { Sample } from './schemas';

export interface PackedSamples {
  /** Each distinct source and value names, in order of first appearance. */
  shapes: Array<{ source: string; keys: string[] }>;
  /** Per sample: its shape's index, tMs, then one value per key of the shape (null kept). */
  cells: Array<number | null>;
}

export type PackedSessionRun = Omit<SessionRun, 'samples'> & { samples: PackedSamples };
export type PackedSessionData = Omit<SessionData, 'runs'> & { runs: PackedSessionRun[] };

/**
 * The packed session as it crosses the bridge. Produced by session-store.ts on the main side and
 * never parsed from a window: only its outline is checked (validating 700,000 cells would cost
 * more than reading them).
 */
export const PackedSessionDataSchema = z.custom<PackedSessionData>(
  (v) => typeof v === 'object' && v !== null && Array.isArray((v as { runs?: unknown }).runs),
);

export function packSamples(samples: readonly Sample[]): PackedSamples {
  const shapes: PackedSamples['shapes'] = [];
  const shapeIndex = new Map<string, number>();
  const cells: Array<number | null> = [];
  for (const sample of samples) {
    const keys = Object.keys(sample.values);
    // JSON of [source, ...keys] cannot collide between two different shapes.
    const id = JSON.stringify([sample.source, ...keys]);
    let index = shapeIndex.get(id);
    if (index === undefined) {
      index = shapes.length;
      shapes.push({ source: sample.source, keys });
      shapeIndex.set(id, index);
    }
    cells.push(index, sample.tMs);
    for (const key of keys) cells.push(sample.values[key] ?? null);
  }
  return { shapes, cells };
}

export function unpackSamples(packed: PackedSamples): Sample[] {
  const { shapes, cells } = packed;
  const samples: Sample[] = [];
  let at = 0;
  while (at + 1 < cells.length) {
    const shape = shapes[cells[at] ?? -1];
    const tMs = cells[at + 1];
    if (!shape || typeof tMs !== 'number') break; // a truncated answer: what came whole is kept
    at += 2;
    const values: Sample['values'] = {};
    for (const key of shape.keys) values[key] = cells[at++] ?? null;
    samples.push({ tMs, source: shape.source, values });
  }
  return samples;
}

export function packSessionData(data: SessionData): PackedSessionData {
  return { ...data, runs: data.runs.map((run) => ({ ...run, samples: packSamples(run.samples) })) };
}

export function unpackSessionData(data: PackedSessionData): SessionData {
  return { ...data, runs: data.runs.map((run) => ({ ...run, samples: unpackSamples(run.samples) })) };
}
