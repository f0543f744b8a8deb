// The snapshot of a finished run's samples (electron/node/session/run-snapshot.ts), on real SQLite
// files: openSession's read (readPackedSession) gives the stored text, which unpacks to the samples
// readSession reads from the rows; it is used only while it covers every row of its run, and a
// text that is not packed samples (a crafted file) is never used.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { RunRequestSchema, type Sample } from '../../../../../shared/api/schemas';
import {
  packedSamplesOf,
  packSamples,
  unpackSamples,
  unpackSessionData,
} from '../../../../../shared/api/packed-samples';
import {
  previewPackedSamples,
  PREVIEW_MIN_SAMPLES_PER_BUCKET,
  STORED_PREVIEW_BUCKETS,
  StoredPreviewJson,
} from '../../../../../shared/api/packed-preview';
import { RawJson } from '../../../../../shared/api/raw-json';
import {
  createSession,
  openSession,
  readPackedSession,
  readSession,
  type SessionStore,
} from '../../../../../electron/node/session/session-store';
import { sampleStreamArbitrary } from '../../../../helpers/sample-arbitrary';
import { finishedRun } from '../../../../helpers/session-fixtures';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const file = () => join(dir, `s-${++files}.kvscope`);

const request = RunRequestSchema.parse({ target: { kind: 'local' }, engine: { kind: 'demo', demo: {} } });
const outcome = {
  exitCode: 0,
  signal: null,
  oomKilled: false,
  lostSamples: 0,
  diagnostics: 0,
  durationMs: 2000,
  stderrTail: [],
  collectors: {},
};
const end = { label: 'r', state: 'done', error: null, endedAt: '2026-01-01T00:00:10.000Z', outcome } as const;

/** A session of one run holding `samples`, finished (as the app's recorder ends a run) or not (a killed writer). */
function writeRun(
  samples: readonly Sample[],
  finished: boolean,
  handedToFinish?: readonly Sample[],
): { path: string; store: SessionStore; seq: number } {
  const path = file();
  const store = createSession(path, { appVersion: 'test' });
  const seq = store.addRun({ id: 'r', label: 'r', request, state: 'running' });
  store.appendSamples(seq, samples);
  if (finished) store.finishRun(seq, { ...end, analysis: finishedRun().analysis }, handedToFinish);
  return { path, store, seq };
}

const firstRunSamples = (path: string) => readPackedSession(path).runs[0]?.samples;

const A: Sample = { tMs: 0, source: 'procfs', values: { rssBytes: 100, swapBytes: null } };
const B: Sample = { tMs: 1000, source: 'engine', values: { tokens: 3 } };
const C: Sample = { tMs: 2000, source: 'procfs', values: { rssBytes: 250, swapBytes: 8 } };

describe('snapshot of a finished run', () => {
  it('unpacks to the samples readSession reads from the rows, for any stream', () => {
    fc.assert(
      fc.property(sampleStreamArbitrary, (samples) => {
        const { path, store } = writeRun(samples, true);
        store.close();
        const stored = firstRunSamples(path);
        expect(stored).toBeInstanceOf(RawJson);
        expect(unpackSessionData(readPackedSession(path))).toEqual(readSession(path));
        rmSync(path);
      }),
      { numRuns: 40 },
    );
  });

  it('packed from the samples the writer hands over (an import) is the same text as packed from the rows, for any stream', () => {
    fc.assert(
      fc.property(sampleStreamArbitrary, (samples) => {
        const fromRows = writeRun(samples, true);
        const handed = writeRun(samples, true, samples);
        fromRows.store.close();
        handed.store.close();
        expect(firstRunSamples(handed.path)).toEqual(firstRunSamples(fromRows.path));
        rmSync(fromRows.path);
        rmSync(handed.path);
      }),
      { numRuns: 40 },
    );
  });

  it('handed samples that are not all the rows are not used: the rows decide', () => {
    const { path, store } = writeRun([A, B, C], true, [A, B]);
    store.close();
    expect(unpackSamples((firstRunSamples(path) as RawJson<never>).parse())).toEqual([A, B, C]);
  });

  it('is the packed rows as one JSON text', () => {
    const { path, store } = writeRun([A, B, C], true);
    store.close();
    expect(firstRunSamples(path)).toEqual(
      new RawJson(
        '{"shapes":[{"source":"procfs","keys":["rssBytes","swapBytes"]},{"source":"engine","keys":["tokens"]}],' +
          '"cells":[0,0,100,null,1,1000,3,0,2000,250,8]}',
      ),
    );
  });

  it('is not used once samples were appended to the run after it: all of them come from the rows', () => {
    const { path, store, seq } = writeRun([A, B], true);
    store.close();
    const again = openSession(path);
    again.appendSamples(seq, [C]);
    again.close();
    const stored = firstRunSamples(path);
    expect(stored).not.toBeInstanceOf(RawJson);
    expect(unpackSamples(stored as Exclude<typeof stored, RawJson<unknown> | undefined>)).toEqual([A, B, C]);
  });

  it('does not exist for a run whose writer was killed: its samples come from the rows', () => {
    const { path, store } = writeRun([A, B, C], false);
    store.close();
    expect(unpackSessionData(readPackedSession(path)).runs[0]?.samples).toEqual([A, B, C]);
    expect(firstRunSamples(path)).not.toBeInstanceOf(RawJson);
  });

  it.each([
    ['text that would reach outside its place in the answer', '{"shapes":[],"cells":[]},"id":7,"x":{"cells":[]}'],
    ['a string among the cells', '{"shapes":[],"cells":["x"]}'],
    ['not JSON', '{"shapes":[{"source":"procfs","keys":["rssBytes"]}],"cells":[0,0,1e]}'],
  ])('is not used when its text is %s (a crafted file): the rows decide', (_what, text) => {
    const { path, store } = writeRun([A, B, C], true);
    store.close();
    const db = new Database(path);
    db.prepare('UPDATE run_packed SET packed = ?').run(text);
    db.close();
    expect(firstRunSamples(path)).not.toBeInstanceOf(RawJson);
    expect(unpackSessionData(readPackedSession(path)).runs[0]?.samples).toEqual([A, B, C]);
  });

  it('leaves what readSession reads (reports, exports, CSV) to the rows', () => {
    const { path, store } = writeRun([A, B, C], true);
    store.close();
    const db = new Database(path);
    db.prepare('UPDATE run_packed SET packed = ?').run('{"shapes":[],"cells":[]}');
    db.close();
    expect(readSession(path).runs[0]?.samples).toEqual([A, B, C]);
    // …while openSession trusts a well-formed snapshot that still covers its 3 rows.
    expect(firstRunSamples(path)).toEqual(new RawJson('{"shapes":[],"cells":[]}'));
  });

  it('comes with finishing a run in a file written before the table existed, which keeps schema 2', () => {
    const path = file();
    const store = createSession(path, { appVersion: 'test' });
    store.close();
    const old = new Database(path);
    old.exec('DROP TABLE run_packed');
    old.close();
    const again = openSession(path);
    const seq = again.addRun({ id: 'r', label: 'r', request, state: 'running' });
    again.appendSamples(seq, [A, B, C]);
    again.flush();
    // Before the end: no table, and the run is read from its rows.
    expect(unpackSessionData(readPackedSession(path)).runs[0]?.samples).toEqual([A, B, C]);
    again.finishRun(seq, { ...end, analysis: finishedRun().analysis });
    again.close();
    expect(firstRunSamples(path)).toBeInstanceOf(RawJson);
    expect(unpackSessionData(readPackedSession(path))).toEqual(readSession(path));
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
  });

  it('is refused with the file when its table computes (a generated column)', () => {
    const { path, store } = writeRun([A, B, C], true);
    store.close();
    const db = new Database(path);
    db.exec('DROP TABLE run_packed');
    db.exec(
      'CREATE TABLE run_packed (run INTEGER PRIMARY KEY, samples INTEGER, last_sample_id INTEGER, ' +
        "raw TEXT, packed TEXT GENERATED ALWAYS AS (raw || '') VIRTUAL)",
    );
    db.close();
    expect(() => readPackedSession(path)).toThrow(/generated or hidden columns in run_packed/);
  });

  it('is passed over, the file still read, when its table lacks a column (a newer or damaged layout)', () => {
    const { path, store } = writeRun([A, B, C], true);
    store.close();
    const db = new Database(path);
    db.exec('DROP TABLE run_packed');
    db.exec('CREATE TABLE run_packed (run INTEGER PRIMARY KEY, packed TEXT)');
    db.prepare('INSERT INTO run_packed VALUES (1, ?)').run('{"shapes":[],"cells":[]}');
    db.close();
    expect(firstRunSamples(path)).not.toBeInstanceOf(RawJson);
    expect(unpackSessionData(readPackedSession(path)).runs[0]?.samples).toEqual([A, B, C]);
  });
});

describe("a finished run's stored preview", () => {
  /** A run long enough for a stored preview: 8 samples per slice and more, two sources. */
  const longRun = (): Sample[] =>
    Array.from({ length: STORED_PREVIEW_BUCKETS * PREVIEW_MIN_SAMPLES_PER_BUCKET }, (_, i): Sample[] => [
      { tMs: i * 1000, source: 'engine', values: { tokens: i * 3 } },
      { tMs: i * 1000, source: 'procfs', values: { rssBytes: 1e8 + i * 4096 + (i % 9) * 1e5, swapBytes: i % 4 } },
    ]).flat();
  const previewOf = (path: string, buckets = STORED_PREVIEW_BUCKETS) =>
    readPackedSession(path, buckets).runs[0]?.samples;

  it('is read in place of the samples when asked for at its slices, and is the preview of every sample', () => {
    const samples = longRun();
    const { path, store } = writeRun(samples, true);
    store.close();
    const stored = previewOf(path);
    expect(stored).toBeInstanceOf(StoredPreviewJson);
    expect((stored as StoredPreviewJson).parse()).toEqual(
      previewPackedSamples(packSamples(samples), STORED_PREVIEW_BUCKETS),
    );
    // Not at other slices, and not without asking: the snapshot of every sample.
    expect(previewOf(path, 2048)).not.toBeInstanceOf(StoredPreviewJson);
    expect(firstRunSamples(path)).not.toBeInstanceOf(StoredPreviewJson);
    expect(unpackSamples(packedSamplesOf(firstRunSamples(path)!))).toHaveLength(samples.length);
  });

  it('is not stored for a short run', () => {
    const { path, store } = writeRun([A, B, C], true);
    store.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM run_preview').get()).toEqual({ n: 0 });
    db.close();
    expect(previewOf(path)).not.toBeInstanceOf(StoredPreviewJson);
  });

  it('is not used once rows were added to its run, nor when it is not packed samples', () => {
    const { path, store, seq } = writeRun(longRun(), true);
    store.appendSamples(seq, [{ tMs: 1e9, source: 'procfs', values: { rssBytes: 1 } }]);
    store.close();
    expect(previewOf(path)).not.toBeInstanceOf(StoredPreviewJson);
    const crafted = writeRun(longRun(), true);
    crafted.store.close();
    const db = new Database(crafted.path);
    db.prepare('UPDATE run_preview SET packed = ?').run('{"shapes":[],"cells":["x"]}');
    db.close();
    expect(previewOf(crafted.path)).not.toBeInstanceOf(StoredPreviewJson);
  });

  it('is not used for a run whose numbers are recomputed: they come from every sample', () => {
    const samples = longRun();
    const { path, store } = writeRun(samples, true);
    store.close();
    const db = new Database(path);
    db.prepare('UPDATE runs SET analysis = NULL').run();
    db.close();
    const run = readPackedSession(path, STORED_PREVIEW_BUCKETS).runs[0]!;
    expect(run.analysisSource).toBe('recomputed');
    expect(run.samples).not.toBeInstanceOf(StoredPreviewJson);
    expect(unpackSamples(packedSamplesOf(run.samples))).toHaveLength(samples.length);
  });
});
