// Session files written by the schema-1 and schema-2 code (test/fixtures/sessions/v1 and v2, see
// their SOURCE) open with today's code and give the summaries that code gave: what `profile --json`
// printed live and what `report --format json` read back. Opening a file for writing migrates it in
// place (schema 2); reading a file it may not write migrates a copy in memory and leaves the file
// alone. Neither adds the optional snapshot table (run-snapshot.ts): runs finished before it are
// read from their rows.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { summarizeRun, type ProfileSummaryOutput } from '../../../shared/analysis/run-summary';
import type { SweepAnalysis, SweepPoint } from '../../../shared/analysis/sweep';
import { sessionSummaryJson } from '../../../shared/report/render-json';
import { buildReportModel } from '../../../shared/report/report-model';
import { sessionSweep, summarizeSession } from '../../../shared/report/session-data';
import { readPackedSession, readSession, SessionStore } from '../../../electron/node/session/session-store';
import { unpackSessionData } from '../../../shared/api/packed-samples';
import { RawJson } from '../../../shared/api/raw-json';
import { projectRoot } from '../../helpers/cli';

const fixtures = join(projectRoot, 'test/fixtures/sessions');
const dir = mkdtempSync(join(tmpdir(), 'kvscope-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function firstRun<T>(runs: readonly T[]): T {
  const run = runs.at(0);
  if (run === undefined) throw new Error('the session holds no run');
  return run;
}

/** A fresh copy of a fixture session (opening it writable migrates it); `name` is "v1/demo"…. */
function copy(name: string): string {
  const to = join(dir, `${name.replace('/', '-')}-${Math.random().toString(36).slice(2)}.kvscope`);
  copyFileSync(join(fixtures, `${name}.kvscope`), to);
  return to;
}
const json = <T>(name: string) => JSON.parse(readFileSync(join(fixtures, name), 'utf8')) as T;
/** `profile --json` and `report --format json` as the code of that schema wrote them. */
const printedOf = (name: string) => json<ProfileSummaryOutput>(`${name}.profile.json`);
const reportOf = (name: string) => json<{ runs: unknown[] }>(`${name}.report.json`);
/** At schema 2 without the snapshot table: a run finished before it existed has no snapshot. */
function expectSchema2WithoutSnapshot(path: string) {
  expect(userVersion(path)).toEqual({ version: 2, tables: ['engine_log', 'events', 'meta', 'runs', 'samples'] });
}
const userVersion = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return {
      version: db.pragma('user_version', { simple: true }),
      tables: (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>
      ).map((t) => t.name),
    };
  } finally {
    db.close();
  }
};

describe('sessions of schema 1', () => {
  it('a demo run: the summary profile --json printed, and the one report --format json gave', () => {
    const path = copy('v1/demo');
    const data = readSession(path);
    expect(data.meta.schemaVersion).toBe(1);
    expect(data.runs).toHaveLength(1);
    const run = firstRun(data.runs);
    expect(run.analysisSource).toBe('stored');
    // Every field the schema-1 code printed, equal; newer code adds fields (budgetSource…).
    expect(summarizeRun(run)).toMatchObject(printedOf('v1/demo'));
    expect(summarizeSession(data)).toMatchObject(printedOf('v1/demo'));
    expect(sessionSummaryJson(data).runs).toMatchObject(reportOf('v1/demo').runs);
    // Migrated in place: the stored summaries became run outcomes.
    expectSchema2WithoutSnapshot(path);
    expect(summarizeRun(firstRun(readSession(path).runs))).toMatchObject(printedOf('v1/demo'));
  });

  it('a two-size sweep: the sweep profile --json printed, and the same points in the report', () => {
    const data = readSession(copy('v1/sweep'));
    expect(data.runs.map((r) => r.state)).toEqual(['done', 'done']);
    const printed = printedOf('v1/sweep');
    // The sweep plan was not stored by schema 1: it is inferred from the runs' context sizes.
    expect(data.meta.sweep ?? null).toBeNull();
    expect(summarizeSession(data)).toMatchObject(printed);
    expect(sessionSummaryJson(data).runs).toMatchObject(reportOf('v1/sweep').runs);
    // The report used to compute its own sweep points (without samples and durationMs, and with
    // its own "stopped by us" test); it now shows the sweep profile printed.
    const old = json<{ sweep: SweepAnalysis }>('v1/sweep.report-sweep.json').sweep;
    const sweep = sessionSweep(data);
    expect(sweep?.analysis.points).toEqual(printed.sweep?.points);
    const withoutCounts = (p: SweepPoint) => ({ ...p, samples: undefined, durationMs: undefined });
    expect(sweep?.analysis.points.map(withoutCounts)).toEqual(old.points.map(withoutCounts));
    expect({ ...sweep?.analysis, points: [] }).toEqual({ ...old, points: [] });
    expect(buildReportModel(data).sweep?.analysis).toEqual(sweep?.analysis);
  });

  it('a file it may not write is migrated in memory, the file left at schema 1', () => {
    const path = copy('v1/demo');
    const store = SessionStore.openReadOnly(path);
    try {
      expect(summarizeRun(firstRun(store.read().runs))).toMatchObject(printedOf('v1/demo'));
    } finally {
      store.close();
    }
    expect(userVersion(path)).toEqual({
      version: 1,
      tables: ['engine_log', 'events', 'meta', 'runs', 'samples', 'summaries'],
    });
  });
});

describe('sessions of schema 2', () => {
  it('a demo run: the summary profile --json printed; its run read from the rows, the file unchanged', () => {
    const path = copy('v2/demo');
    const data = readSession(path);
    expect(data.meta.schemaVersion).toBe(2);
    const run = firstRun(data.runs);
    expect(run.analysisSource).toBe('stored');
    expect(run.samples).toHaveLength(121);
    expect(summarizeRun(run)).toMatchObject(printedOf('v2/demo'));
    expect(sessionSummaryJson(data).runs).toMatchObject(reportOf('v2/demo').runs);
    expectSchema2WithoutSnapshot(path);
    // openSession's read: the run without snapshot is packed from its rows, the same samples.
    const packed = readPackedSession(path);
    expect(firstRun(packed.runs).samples).not.toBeInstanceOf(RawJson);
    expect(unpackSessionData(packed)).toEqual(readSession(path));
    expectSchema2WithoutSnapshot(path);
  });

  it('a file it may not write: read from its rows in memory, the file left at schema 2', () => {
    const path = copy('v2/demo');
    const store = SessionStore.openReadOnly(path);
    try {
      expect(summarizeRun(firstRun(store.read().runs))).toMatchObject(printedOf('v2/demo'));
      expect(firstRun(unpackSessionData(store.readPacked()).runs).samples).toHaveLength(121);
    } finally {
      store.close();
    }
    expect(userVersion(path)).toEqual({ version: 2, tables: ['engine_log', 'events', 'meta', 'runs', 'samples'] });
  });
});
