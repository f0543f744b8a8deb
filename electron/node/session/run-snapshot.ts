// A finished run's samples, stored once more packed (shared/api/packed-samples.ts) as one JSON text:
// the snapshot. openSession sends a run's samples packed; walking an 8-hour run's 57,600 sample
// rows and parsing each row's JSON costs ~80 ms, reading one stored text a few ms, and the text goes
// into the answer unparsed (shared/api/raw-json.ts). The rows stay the record: reports, exports
// and CSV read them (session-read.ts readSessionData), and the snapshot is only ever a copy.
//
// Written when the store finishes a run (session-store.ts finishRun), from the rows just committed.
// Used only while it still covers every row of its run: it keeps how many rows it packed and the
// id of the last one, and a run with rows added after it (a writer appending to a finished run)
// is read from its rows. A run without one (files written before the table existed, a writer
// killed before the end) is read from its rows too.
//
// The table is optional, not a new schema version: a file without it is a whole session (its runs
// are read from their rows), and an older KVScope reading a file with it sees an extra plain table,
// which it lets through and ignores (session-file-guard.ts). So the format stays at schema 2 and
// files go both ways between versions. finishRun creates the table when a file lacks it.
//
// Beside it, for a run long enough (shared/api/packed-preview.ts), its preview at
// STORED_PREVIEW_BUCKETS slices of time (the optional table run_preview, kept and checked the same
// way): what the dashboard draws first when it opens the run, read as stored instead of reduced
// from the 3.5 MB snapshot of an 8-hour run at every open (40–110 ms on the test VM).
import type Database from 'better-sqlite3';
import {
  packedSampleCount,
  previewPackedSamples,
  previewWorthIt,
  STORED_PREVIEW_BUCKETS,
  StoredPreviewJson,
} from '../../../shared/api/packed-preview';
import { isPackedSamplesJson, type PackedSamples } from '../../../shared/api/packed-samples';
import { RawJson } from '../../../shared/api/raw-json';

export const RUN_SNAPSHOT_TABLE = `
CREATE TABLE IF NOT EXISTS run_packed (
  run            INTEGER PRIMARY KEY REFERENCES runs(seq),
  samples        INTEGER NOT NULL,       -- how many sample rows of the run it packs
  last_sample_id INTEGER,                -- the id of the last of them (NULL: none)
  packed         TEXT NOT NULL           -- PackedSamples JSON
);
`;

/** The table's name, for session-file-guard.ts (which refuses a file where it computes). */
export const RUN_SNAPSHOT_TABLE_NAME = 'run_packed';

export const RUN_PREVIEW_TABLE = `
CREATE TABLE IF NOT EXISTS run_preview (
  run            INTEGER PRIMARY KEY REFERENCES runs(seq),
  buckets        INTEGER NOT NULL,       -- the slices of time it was made at
  samples        INTEGER NOT NULL,       -- how many sample rows of the run it was made from
  last_sample_id INTEGER,                -- the id of the last of them (NULL: none)
  packed         TEXT NOT NULL           -- PackedSamples JSON: the preview
);
`;

export const RUN_PREVIEW_TABLE_NAME = 'run_preview';

/** What the run's sample rows are now: how many, and the id of the last. */
function rowsOf(db: Database.Database, run: number): { samples: number; lastId: number | null } {
  // Both from the index samples_by_run(run, id) (session-store.ts SCHEMA): no row is read.
  return db.prepare('SELECT count(*) AS samples, max(id) AS lastId FROM samples WHERE run = ?').get(run) as {
    samples: number;
    lastId: number | null;
  };
}

/**
 * Stores the run's samples packed (replacing an earlier snapshot of the run): `pack` is told how
 * many sample rows the run has, the count the snapshot is stored with.
 */
export function writeRunSnapshot(db: Database.Database, run: number, pack: (rowCount: number) => PackedSamples): void {
  const rows = rowsOf(db, run);
  const packed = pack(rows.samples);
  db.prepare('INSERT OR REPLACE INTO run_packed (run, samples, last_sample_id, packed) VALUES (?, ?, ?, ?)').run(
    run,
    rows.samples,
    rows.lastId,
    JSON.stringify(packed),
  );
  if (!previewWorthIt(packedSampleCount(packed), STORED_PREVIEW_BUCKETS)) {
    db.prepare('DELETE FROM run_preview WHERE run = ?').run(run);
    return;
  }
  db.prepare(
    'INSERT OR REPLACE INTO run_preview (run, buckets, samples, last_sample_id, packed) VALUES (?, ?, ?, ?, ?)',
  ).run(
    run,
    STORED_PREVIEW_BUCKETS,
    rows.samples,
    rows.lastId,
    JSON.stringify(previewPackedSamples(packed, STORED_PREVIEW_BUCKETS)),
  );
}

/**
 * The packed-samples text a stored copy of the run's samples holds (`select` reads its row: samples,
 * last_sample_id, packed, and whatever `accepts` looks at), or null: no such row or table (a file
 * written before it existed), a row `accepts` refuses, rows added to the run after it, or a text
 * that is not packed samples (a damaged or crafted file).
 */
function storedPackedText<Row extends { samples: unknown; last_sample_id: unknown; packed: unknown }>(
  db: Database.Database,
  run: number,
  select: string,
  accepts: (row: Row) => boolean = () => true,
): string | null {
  let stored: Row | undefined;
  try {
    stored = db.prepare(select).get(run) as Row | undefined;
  } catch {
    return null; // no such table, or not with these columns
  }
  if (!stored || typeof stored.packed !== 'string' || !accepts(stored)) return null;
  const rows = rowsOf(db, run);
  if (stored.samples !== rows.samples || stored.last_sample_id !== rows.lastId) return null;
  return isPackedSamplesJson(stored.packed) ? stored.packed : null;
}

/**
 * The run's stored preview at `buckets` slices as JSON text, or null (none at these slices, or
 * not usable: storedPackedText); the snapshot or the rows decide then.
 */
export function readRunPreview(db: Database.Database, run: number, buckets: number): StoredPreviewJson | null {
  const text = storedPackedText<{ buckets: unknown; samples: unknown; last_sample_id: unknown; packed: unknown }>(
    db,
    run,
    'SELECT buckets, samples, last_sample_id, packed FROM run_preview WHERE run = ?',
    (row) => row.buckets === buckets,
  );
  return text === null ? null : new StoredPreviewJson(text);
}

/** The run's stored snapshot as JSON text, or null (none, or not usable: storedPackedText); the rows decide then. */
export function readRunSnapshot(db: Database.Database, run: number): RawJson<PackedSamples> | null {
  const text = storedPackedText(db, run, 'SELECT samples, last_sample_id, packed FROM run_packed WHERE run = ?');
  return text === null ? null : new RawJson<PackedSamples>(text);
}
