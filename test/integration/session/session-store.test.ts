// The session file on real SQLite: round trip, batching, a writer killed with SIGKILL, files that
// are not sessions, and runs whose outcome never got written.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { RunRequestSchema, type RunAnalysis, type Sample } from '../../../shared/api/schemas';
import type { RunOutcome } from '../../../shared/run/run-record';
import { unpackSessionData } from '../../../shared/api/packed-samples';
import { RawJson } from '../../../shared/api/raw-json';
import {
  BULK_SUFFIX,
  createSession,
  FLUSH_EVERY_SAMPLES,
  openSession,
  readPackedSession,
  readSession,
  SessionError,
  SessionStore,
} from '../../../electron/node/session/session-store';
import { projectRoot } from '../../helpers/cli';
import { linearSamples } from '../../helpers/session-fixtures';
import { defined } from '../../helpers/defined';
import { writeSmallSession } from '../../helpers/hostile-session';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (name = 'session') => join(dir, `${name}-${++n}.kvscope`);

/** A second connection, as another process would see the file. */
function countSamples(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM samples').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const analysis: RunAnalysis = {
  kv: {
    theoryBytesPerToken: 32768,
    measuredBytesPerToken: 32768,
    overheadFactor: 1,
    mode: 'growth',
    baselineBytes: 104857600,
  },
  budgetBytes: null,
  oomHorizonTokens: null,
  maxSafeContextTokens: null,
  throughput: { ttftMs: 1090, prefillTokensPerSecond: null, decodeTokensPerSecond: 50, tokens: 1000 },
  lastRssBytes: 190054400,
  peakRssBytes: 190054400,
};
const outcome: RunOutcome = {
  exitCode: 0,
  signal: null,
  oomKilled: false,
  lostSamples: 0,
  diagnostics: 0,
  durationMs: 20100,
  stderrTail: [],
  collectors: { procfs: { status: 'ok', samples: 21, diagnostics: 0 } },
};
/** A demo run request as the app sends it (RunRequestSchema fills the demo's defaults). */
const request = RunRequestSchema.parse({
  target: { kind: 'local' },
  engine: { kind: 'demo', demo: { kvType: 'f16' } },
  budgetBytes: 2147483648,
});

describe('session store round trip', () => {
  it('stores meta, runs, samples in order, events, engine log and outcome; reads them back exactly', () => {
    const path = file();
    const store = createSession(path, {
      appVersion: '9.9.9',
      target: { kind: 'local', label: 'This computer', memTotalBytes: 8589934592 },
    });
    const seq = store.addRun({
      id: 'r1',
      label: 'demo',
      request,
      state: 'running',
    });
    store.updateRun(seq, {
      engine: { command: 'kvscope demo-engine', theoryBytesPerToken: 32768, ctx: 4096, modeHint: 'growth' },
      analysisInputs: { theoryBytesPerToken: 32768, theoryMode: 'growth', ctx: 4096, budgetBytes: null },
    });
    const samples: Sample[] = [
      { tMs: 0, source: 'engine', values: { started: 1, tokens: 0 } },
      {
        tMs: 200.5,
        source: 'procfs',
        values: { rssBytes: 123456789, rssAnonBytes: null, 'temp.cpu-thermal.C': 41.25 },
      },
      { tMs: 400, source: 'procfs', values: { rssBytes: 0.1 + 0.2, cpuBusyPct: 99.99999999999999 } },
    ];
    store.appendSamples(seq, samples);
    store.appendEngineLog(seq, 'timings', [
      { kind: 'timings', line: 1, phase: 'eval', ms: 1725.35, tokens: 500, tokensPerSecond: 289.8 },
    ]);
    store.appendEvents(seq, [
      { tMs: 0, kind: 'start', message: 'engine: kvscope demo-engine' },
      {
        tMs: 300,
        kind: 'alert',
        message: 'RSS reached 90% of the memory budget',
        data: { rssBytes: 1, budgetBytes: 2 },
      },
    ]);
    store.finishRun(seq, {
      label: 'demo',
      state: 'done',
      error: null,
      endedAt: '2026-01-01T00:00:10.000Z',
      outcome,
      analysis,
    });
    store.close();

    const data = readSession(path);
    // Finishing the run stored its samples once more, packed (run-snapshot.ts): 3 rows, the last id 3.
    const packedText =
      '{"shapes":[{"source":"engine","keys":["started","tokens"]},' +
      '{"source":"procfs","keys":["rssBytes","rssAnonBytes","temp.cpu-thermal.C"]},' +
      '{"source":"procfs","keys":["rssBytes","cpuBusyPct"]}],' +
      '"cells":[0,0,1,0,1,200.5,123456789,null,41.25,2,400,0.30000000000000004,99.99999999999999]}';
    const snapshots = new Database(path, { readonly: true });
    expect(snapshots.prepare('SELECT * FROM run_packed').all()).toEqual([
      { run: 1, samples: 3, last_sample_id: 3, packed: packedText },
    ]);
    snapshots.close();
    // openSession's read gives that text as it is, and it is the same session once unpacked.
    const packed = readPackedSession(path);
    expect(packed.runs[0]?.samples).toEqual(new RawJson(packedText));
    expect(unpackSessionData(packed)).toEqual(data);
    expect(data.meta).toMatchObject({
      format: 'kvscope-session',
      schemaVersion: 2,
      appVersion: '9.9.9',
      target: { kind: 'local', label: 'This computer', memTotalBytes: 8589934592 },
    });
    expect(data.runs).toHaveLength(1);
    const run = defined(data.runs[0], 'run 0');
    expect(run).toMatchObject({
      seq: 1,
      id: 'r1',
      label: 'demo',
      state: 'done',
      endedAt: '2026-01-01T00:00:10.000Z',
      analysisSource: 'stored',
    });
    expect(run.samples).toEqual(samples);
    expect(run.events).toEqual([
      { tMs: 0, kind: 'start', message: 'engine: kvscope demo-engine' },
      {
        tMs: 300,
        kind: 'alert',
        message: 'RSS reached 90% of the memory budget',
        data: { rssBytes: 1, budgetBytes: 2 },
      },
    ]);
    expect(run.engineLog.timings).toEqual([
      { kind: 'timings', line: 1, phase: 'eval', ms: 1725.35, tokens: 500, tokensPerSecond: 289.8 },
    ]);
    expect(run.outcome).toEqual(outcome);
    expect(run.analysis).toEqual(analysis);
    expect(run.engine).toEqual({
      command: 'kvscope demo-engine',
      theoryBytesPerToken: 32768,
      ctx: 4096,
      modeHint: 'growth',
    });
    expect(run.request).toEqual(request);
    // The file is in WAL mode with synchronous=NORMAL, and identifies itself.
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('application_id', { simple: true })).toBe(0x4b565343);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
  });

  it('batches appends: nothing reaches the file until the batch is committed, a full batch commits at once', () => {
    const path = file();
    const commits: number[] = [];
    const store = createSession(path, { appVersion: 't', onCommit: (t) => commits.push(t.samples) });
    const seq = store.addRun({ id: 'r', label: 'r', request, state: 'running' });
    const mk = (from: number, count: number) =>
      Array.from({ length: count }, (_, k) => ({ tMs: from + k, source: 'procfs', values: { i: from + k } }));
    store.appendSamples(seq, mk(0, 10));
    expect(countSamples(path)).toBe(0);
    store.flush();
    expect(countSamples(path)).toBe(10);
    // A batch of FLUSH_EVERY_SAMPLES commits without waiting for the timer.
    store.appendSamples(seq, mk(10, FLUSH_EVERY_SAMPLES));
    expect(countSamples(path)).toBe(10 + FLUSH_EVERY_SAMPLES);
    expect(commits).toEqual([10, 10 + FLUSH_EVERY_SAMPLES]);
    // Events commit at once, and take queued samples with them.
    store.appendSamples(seq, mk(10 + FLUSH_EVERY_SAMPLES, 3));
    store.appendEvents(seq, [{ tMs: 1, kind: 'oom', message: 'killed' }]);
    expect(countSamples(path)).toBe(13 + FLUSH_EVERY_SAMPLES);
    store.close();
    expect(defined(readSession(path).runs[0], 'run 0').samples.map((s) => s.values.i)).toEqual(
      Array.from({ length: 13 + FLUSH_EVERY_SAMPLES }, (_, k) => k),
    );
  });

  it('a run without a stored outcome gets its analysis recomputed from its samples', () => {
    const path = file();
    const store = createSession(path, { appVersion: 't' });
    const seq = store.addRun({ id: 'cut', label: 'cut short', request, state: 'running' });
    store.updateRun(seq, {
      engine: { command: 'x', theoryBytesPerToken: 32768, ctx: 4096, modeHint: 'growth' },
      analysisInputs: { theoryBytesPerToken: 32768, theoryMode: 'growth', ctx: 4096, budgetBytes: null },
    });
    store.appendSamples(seq, linearSamples());
    store.close();
    const run = defined(readSession(path).runs[0], 'run 0');
    expect(run.outcome).toBeNull();
    expect(run.analysisSource).toBe('recomputed');
    // linearSamples: anonymous RSS = 100 MiB + 32,768 B/token exactly.
    expect(run.analysis.kv.measuredBytesPerToken).toBe(32768);
    expect(run.analysis.kv.baselineBytes).toBe(104857600);
    expect(run.analysis.throughput.tokens).toBe(1000);
  });

  it('reopened, a session takes more runs; create over it keeps it aside as <name>.1.kvscope (session-backup.ts)', () => {
    const path = file();
    const first = createSession(path, { appVersion: 'one' });
    expect(first.previousKeptAs).toBeNull();
    first.addRun({ id: 'a', label: 'a', request, state: 'done' });
    first.close();
    const again = openSession(path);
    again.addRun({ id: 'b', label: 'b', request, state: 'done' });
    again.close();
    expect(readSession(path).runs.map((r) => r.id)).toEqual(['a', 'b']);
    const second = createSession(path, { appVersion: 'two' });
    const keptAs = path.replace(/\.kvscope$/, '.1.kvscope');
    expect(second.previousKeptAs).toBe(keptAs);
    second.close();
    const fresh = readSession(path);
    expect(fresh.meta.appVersion).toBe('two');
    expect(fresh.runs).toEqual([]);
    expect(readSession(keptAs).runs.map((r) => r.id)).toEqual(['a', 'b']);
  });
});

describe('a bulk writer (kvscope import)', () => {
  const readings = (n: number): Sample[] =>
    Array.from({ length: n }, (_, i) => ({ tMs: i * 1000, source: 'tegrastats', values: { 'tegra.ramUsedBytes': i } }));

  it('writes beside the path and lands there whole at close, in WAL mode like any session', () => {
    const path = file('bulk');
    const store = createSession(path, { appVersion: 'test', bulk: true });
    const seq = store.addRun({ id: 'r1', label: 'bulk', request, state: 'running' });
    store.appendSamples(seq, readings(2000));
    store.flush();
    // Committed, yet nothing at the path: a writer that dies here leaves no half session there.
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith(`${basename(path)}${BULK_SUFFIX}-`))).toHaveLength(1);
    store.close();
    expect(readdirSync(dir).filter((f) => f.includes(BULK_SUFFIX))).toEqual([]);
    const db = new Database(path, { readonly: true });
    try {
      expect([db.pragma('journal_mode', { simple: true }), db.pragma('page_size', { simple: true })]).toEqual([
        'wal',
        65536,
      ]);
    } finally {
      db.close();
    }
    expect(readSession(path).runs[0]?.samples).toHaveLength(2000);
    // It takes more runs like any session.
    const again = openSession(path);
    again.addRun({ id: 'r2', label: 'more', request, state: 'running' });
    again.close();
    expect(readSession(path).runs).toHaveLength(2);
  });

  it('discarded after a failure, leaves nothing: neither its file nor one at the path', () => {
    const path = file('bulk-failed');
    const store = createSession(path, { appVersion: 'test', bulk: true });
    store.appendSamples(store.addRun({ id: 'r1', label: 'bulk', request, state: 'running' }), readings(10));
    store.discard();
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes(BULK_SUFFIX))).toEqual([]);
  });
});

describe('files that are not sessions', () => {
  it('missing file, HTML file, empty file, another SQLite database, a newer schema: one clear error each', () => {
    expect(() => readSession(join(dir, 'nope.kvscope'))).toThrow(
      new SessionError(`${join(dir, 'nope.kvscope')}: no such file`),
    );
    const html = join(dir, 'report.html');
    writeFileSync(html, '<!DOCTYPE html><p>not a session</p>\n'.repeat(200));
    expect(() => readSession(html)).toThrow(`${html} is not a KVScope session (not an SQLite file)`);
    // A session cut short (a copy that stopped, a full disk): said in words, not only SQLite's.
    const whole = join(dir, 'whole.kvscope');
    writeSmallSession(whole);
    const cut = join(dir, 'cut.kvscope');
    writeFileSync(cut, readFileSync(whole).subarray(0, 8192));
    expect(() => readSession(cut)).toThrow(
      `${cut} is damaged: cut short or partly overwritten (SQLite: database disk image is malformed)`,
    );
    const empty = join(dir, 'empty.kvscope');
    writeFileSync(empty, '');
    expect(() => readSession(empty)).toThrow(`${empty} is empty (0 bytes), not a KVScope session`);
    const other = join(dir, 'other.db');
    const db = new Database(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(() => readSession(other)).toThrow(`${other} is not a KVScope session`);
    const newer = file();
    createSession(newer, { appVersion: 't' }).close();
    const raw = new Database(newer);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => readSession(newer)).toThrow(
      `${newer} was written by a newer KVScope (session schema 99; this one reads up to 2)`,
    );
  });

  it('create refuses to overwrite a file that is not a session', () => {
    const html = join(dir, 'keep-me.html');
    writeFileSync(html, '<p>precious</p>');
    expect(() => createSession(html, { appVersion: 't' })).toThrow(
      `${html} exists and is not a KVScope session: not overwriting it`,
    );
    expect(existsSync(html)).toBe(true);
  });
});

/** test/helpers/session-writer.ts writing to `path` in a child process, for a test to SIGKILL. */
function startSessionWriter(path: string) {
  return spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'test/helpers/session-writer.ts'), path], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('crash safety', () => {
  it('a writer killed with SIGKILL mid-run leaves a file that opens, with every committed sample, in order', async () => {
    const path = file('crash');
    const child = startSessionWriter(path);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    // Wait for five commits (at least one by the 250 ms timer or the 500-sample size), then kill.
    const lastAcknowledged = await new Promise<number>((resolve, reject) => {
      let buffer = '';
      let commits = 0;
      let last = 0;
      child.stdout.on('data', (d: Buffer) => {
        buffer += d.toString();
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          const m = /^committed (\d+)$/.exec(line);
          if (!m) continue;
          last = Number(m[1]);
          if (++commits === 5) {
            child.kill('SIGKILL');
            resolve(last);
          }
        }
      });
      child.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL') reject(new Error(`writer exited (${code}) before the kill: ${stderr}`));
      });
    });
    await new Promise((r) => child.once('close', r));
    expect(child.signalCode).toBe('SIGKILL');
    // The writer never closed the file: its WAL is still there, holding the commits.
    expect(existsSync(`${path}-wal`)).toBe(true);

    const data = readSession(path);
    expect(data.meta.appVersion).toBe('crash-test');
    const run = defined(data.runs[0], 'run 0');
    expect(run.state).toBe('running');
    expect(run.outcome).toBeNull();
    expect(run.analysisSource).toBe('recomputed');
    expect(run.events).toEqual([{ tMs: 0, kind: 'start', message: 'writer started' }]);
    const stored = run.samples.map((s) => s.values.i);
    expect(stored.length).toBeGreaterThanOrEqual(lastAcknowledged);
    // Exactly 0, 1, 2, … — nothing lost before the last commit, nothing out of order, no torn batch.
    expect(stored).toEqual(Array.from({ length: stored.length }, (_, k) => k));
    expect(stored.length % 7).toBe(0);
    expect(run.samples.every((s, k) => s.tMs === k * 10)).toBe(true);

    // The recovered file takes new runs.
    const store = SessionStore.open(path);
    store.addRun({ id: 'after', label: 'after the crash', request, state: 'done' });
    store.close();
    expect(readSession(path).runs.map((r) => r.id)).toEqual(['crash-run', 'after']);
  });

  it("a new session over a killed writer's keeps every committed sample in the backup, its WAL folded in", async () => {
    const path = file('crash-kept');
    const child = startSessionWriter(path);
    const acknowledged = await new Promise<number>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        const m = /committed (\d+)\n/.exec(d.toString());
        if (m && Number(m[1]) > 0) {
          child.kill('SIGKILL');
          resolve(Number(m[1]));
        }
      });
    });
    await new Promise((r) => child.once('close', r));
    expect(existsSync(`${path}-wal`)).toBe(true);
    const fresh = createSession(path, { appVersion: 'after' });
    fresh.close();
    const keptAs = defined(fresh.previousKeptAs ?? undefined, 'previousKeptAs');
    expect([existsSync(`${keptAs}-wal`), existsSync(`${keptAs}-shm`)]).toEqual([false, false]);
    const kept = defined(readSession(keptAs).runs[0], 'kept run');
    expect(kept.id).toBe('crash-run');
    expect(kept.samples.length).toBeGreaterThanOrEqual(acknowledged);
  });
});
