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
import type Database from 'better-sqlite3';
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
}

/**
 * The run's stored snapshot as JSON text, or null: when there is none, when rows were added to the
 * run after it, or when its text is not packed samples (a damaged or crafted file: the rows decide).
 */
export function readRunSnapshot(db: Database.Database, run: number): RawJson<PackedSamples> | null {
  let stored: { samples: unknown; last_sample_id: unknown; packed: unknown } | undefined;
  try {
    stored = db.prepare('SELECT samples, last_sample_id, packed FROM run_packed WHERE run = ?').get(run) as
      typeof stored | undefined;
  } catch {
    // No such table (a file written before it existed) or not with these columns: the rows decide.
    return null;
  }
  if (!stored || typeof stored.packed !== 'string') return null;
  const rows = rowsOf(db, run);
  if (stored.samples !== rows.samples || stored.last_sample_id !== rows.lastId) return null;
  return isPackedSamplesJson(stored.packed) ? new RawJson<PackedSamples>(stored.packed) : null;
}
