// Session files of older schemas, brought to the current one when they are opened
// (electron/node/session/session-store.ts; read-only files are migrated in a copy in memory).
// Each step is one transaction: a file is either fully migrated or left as it was.
//
// 1 → 2: runs were stored with their `profile --json` summary (table `summaries`); from 2 on a
// run is its run record (shared/run/run-record.ts) and summaries are computed from it. The
// record's outcome is taken from the stored summary, which held every field of it: exit status,
// signal, OOM kill, lost samples, diagnostics, duration and the engine's last stderr lines.
// Collector statuses did not exist then: they stay empty, so the summary of a migrated run is
// the one that was stored. Test: test/integration/session/session-migration.test.ts on files
// written by the schema-1 code (test/fixtures/sessions/v1).
import type Database from 'better-sqlite3';
import type { RunOutcome } from '../../../shared/run/run-record';

export const SESSION_SCHEMA_VERSION = 2;

type Db = Database.Database;

interface V1Summary {
  engine?: { exitCode?: number | null; signal?: string | null; oomKilled?: boolean; stderrTail?: string[] };
  lostSamples?: number;
  diagnostics?: number;
  durationMs?: number;
}

/** The outcome a schema-1 summary describes. */
export function outcomeOfV1Summary(summary: V1Summary): RunOutcome {
  return {
    exitCode: summary.engine?.exitCode ?? null,
    signal: summary.engine?.signal ?? null,
    oomKilled: summary.engine?.oomKilled ?? false,
    lostSamples: summary.lostSamples ?? 0,
    diagnostics: summary.diagnostics ?? 0,
    durationMs: summary.durationMs ?? 0,
    stderrTail: summary.engine?.stderrTail ?? [],
    collectors: {},
  };
}

function v1ToV2(db: Db) {
  db.exec('ALTER TABLE runs ADD COLUMN outcome TEXT; ALTER TABLE runs ADD COLUMN analysis TEXT;');
  const rows = db.prepare('SELECT run, summary, analysis FROM summaries').all() as Array<{
    run: number;
    summary: string;
    analysis: string;
  }>;
  const update = db.prepare('UPDATE runs SET outcome = ?, analysis = ? WHERE seq = ?');
  for (const row of rows) {
    let summary: V1Summary;
    try {
      summary = JSON.parse(row.summary) as V1Summary;
    } catch {
      // A damaged summary: the run reads as one whose recording was cut short (recomputed).
      continue;
    }
    update.run(JSON.stringify(outcomeOfV1Summary(summary)), row.analysis, row.run);
  }
  db.exec('DROP TABLE summaries');
}

const STEPS: Record<number, (db: Db) => void> = { 1: v1ToV2 };

/** Migrates an open session of schema `from` to SESSION_SCHEMA_VERSION, one step per version. */
export function migrateSession(db: Db, from: number): void {
  for (let version = from; version < SESSION_SCHEMA_VERSION; version++) {
    const step = STEPS[version];
    if (!step) throw new Error(`no migration from session schema ${version}`);
    db.transaction(() => {
      step(db);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
