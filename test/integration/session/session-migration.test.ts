// Session files written by the schema-1 code (test/fixtures/sessions/v1, see its SOURCE) open with
// today's code and give the summaries that code gave: what `profile --json` printed live and what
// `report --format json` read back. Opening a file for writing migrates it in place (schema 2);
// reading a file it may not write migrates a copy in memory and leaves the file alone.
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
import { readSession, SessionStore } from '../../../electron/node/session/session-store';
import { projectRoot } from '../../helpers/cli';

const fixtures = join(projectRoot, 'test/fixtures/sessions/v1');
const dir = mkdtempSync(join(tmpdir(), 'kvscope-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function firstRun<T>(runs: readonly T[]): T {
  const run = runs.at(0);
  if (run === undefined) throw new Error('the session holds no run');
  return run;
}

/** A fresh copy of a fixture session (opening it writable migrates it). */
function copy(name: string): string {
  const to = join(dir, `${name}-${Math.random().toString(36).slice(2)}.kvscope`);
  copyFileSync(join(fixtures, `${name}.kvscope`), to);
  return to;
}
const json = <T>(name: string) => JSON.parse(readFileSync(join(fixtures, name), 'utf8')) as T;
/** `profile --json` and `report --format json` as the schema-1 code wrote them. */
const printedOf = (name: string) => json<ProfileSummaryOutput>(`${name}.profile.json`);
const reportOf = (name: string) => json<{ runs: unknown[] }>(`${name}.report.json`);
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
    const path = copy('demo');
    const data = readSession(path);
    expect(data.meta.schemaVersion).toBe(1);
    expect(data.runs).toHaveLength(1);
    const run = firstRun(data.runs);
    expect(run.analysisSource).toBe('stored');
    // Every field the schema-1 code printed, equal; newer code adds fields (budgetSource…).
    expect(summarizeRun(run)).toMatchObject(printedOf('demo'));
    expect(summarizeSession(data)).toMatchObject(printedOf('demo'));
    expect(sessionSummaryJson(data).runs).toMatchObject(reportOf('demo').runs);
    // Migrated in place: schema 2, the stored summaries became run outcomes.
    expect(userVersion(path)).toEqual({ version: 2, tables: ['engine_log', 'events', 'meta', 'runs', 'samples'] });
    expect(summarizeRun(firstRun(readSession(path).runs))).toMatchObject(printedOf('demo'));
  });

  it('a two-size sweep: the sweep profile --json printed, and the same points in the report', () => {
    const data = readSession(copy('sweep'));
    expect(data.runs.map((r) => r.state)).toEqual(['done', 'done']);
    const printed = printedOf('sweep');
    // The sweep plan was not stored by schema 1: it is inferred from the runs' context sizes.
    expect(data.meta.sweep ?? null).toBeNull();
    expect(summarizeSession(data)).toMatchObject(printed);
    expect(sessionSummaryJson(data).runs).toMatchObject(reportOf('sweep').runs);
    // The report used to compute its own sweep points (without samples and durationMs, and with
    // its own "stopped by us" test); it now shows the sweep profile printed.
    const old = json<{ sweep: SweepAnalysis }>('sweep.report-sweep.json').sweep;
    const sweep = sessionSweep(data);
    expect(sweep?.analysis.points).toEqual(printed.sweep?.points);
    const withoutCounts = (p: SweepPoint) => ({ ...p, samples: undefined, durationMs: undefined });
    expect(sweep?.analysis.points.map(withoutCounts)).toEqual(old.points.map(withoutCounts));
    expect({ ...sweep?.analysis, points: [] }).toEqual({ ...old, points: [] });
    expect(buildReportModel(data).sweep?.analysis).toEqual(sweep?.analysis);
  });

  it('a file it may not write is migrated in memory, the file left at schema 1', () => {
    const path = copy('demo');
    const store = SessionStore.openReadOnly(path);
    try {
      expect(summarizeRun(firstRun(store.read().runs))).toMatchObject(printedOf('demo'));
    } finally {
      store.close();
    }
    expect(userVersion(path)).toEqual({
      version: 1,
      tables: ['engine_log', 'events', 'meta', 'runs', 'samples', 'summaries'],
    });
  });
});
