// The app's session library over real SQLite files in a temp folder: list rows, rename, delete,
// exports, and ids that try to leave the folder (they reach no file).
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
  readdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DemoOptionsSchema } from '../../../../../shared/api/schemas';
import { createSession } from '../../../../../electron/node/session/session-store';
import {
  exportFileName,
  SessionLibrary,
  SessionLibraryError,
} from '../../../../../electron/node/session/session-library';
import { apiMethods } from '../../../../../shared/api/contract';
import { LocalFilePathSchema } from '../../../../../shared/api/session-schemas';
import { packSessionData, unpackSessionData } from '../../../../../shared/api/packed-samples';
import { resolveRawJson } from '../../../../../shared/api/raw-json';
import { defined } from '../../../../helpers/defined';
import { finishedRun } from '../../../../helpers/session-fixtures';

let root: string;
let dir: string;
let library: SessionLibrary;

/** A session as the app records one: one demo run with the fixture's stored summary and analysis. */
function writeSession(id: string, options: { userStop?: boolean; createdBy?: string } = {}): string {
  const path = join(dir, `${id}.kvscope`);
  const store = createSession(path, {
    appVersion: options.createdBy ?? 'test',
    target: { kind: 'local', label: 'This computer' },
  });
  const run = finishedRun();
  const seq = store.addRun({
    id,
    label: `demo ${id}`,
    request: {
      target: { kind: 'local' },
      engine: { kind: 'demo', demo: DemoOptionsSchema.parse({ layers: 16, kvHeads: 8, headDim: 64, kvType: 'f16' }) },
      intervalMs: 200,
      keepRunning: false,
    },
    state: 'running',
  });
  store.appendSamples(seq, run.samples);
  const events = options.userStop
    ? [...run.events, { tMs: 130600, kind: 'stop' as const, message: 'stopped by user' }]
    : run.events;
  store.appendEvents(seq, events);
  store.finishRun(seq, {
    label: `demo ${id}`,
    state: 'done',
    error: null,
    endedAt: '2026-01-01T12:02:11.000Z',
    outcome: run.outcome!,
    analysis: run.analysis,
  });
  store.close();
  return path;
}

/** A session whose writer was killed: its run has samples but no outcome and no analysis. */
function writeKilledSession() {
  const store = createSession(join(dir, 'killed.kvscope'), { appVersion: 'test', target: null });
  const run = finishedRun();
  const seq = store.addRun({ id: 'killed', label: 'killed', request: run.request, state: 'running' });
  store.appendSamples(seq, run.samples);
  store.close();
  return run;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kvscope-library-'));
  dir = join(root, 'sessions');
  mkdirSync(dir);
  library = new SessionLibrary(dir);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('listing', () => {
  it('lists each session with its target, model, duration and headline numbers', () => {
    writeSession('run-a');
    writeSession('run-b', { userStop: true });
    const rows = library.list();
    expect(rows.map((r) => r.id).sort()).toEqual(['run-a', 'run-b']);
    const a = rows.find((r) => r.id === 'run-a')!;
    expect(a.name).toBe('demo run-a');
    expect(a.target).toBe('This computer');
    expect(a.model).toBe('demo 16L×8H×64 f16');
    expect(a.state).toBe('done');
    expect(a.runs).toBe(1);
    // The fixture's stored numbers, as written in test/helpers/session-fixtures.ts.
    expect(a.headline).toEqual({
      peakRssBytes: 912261120,
      theoryBytesPerToken: 32768,
      measuredBytesPerToken: 33110,
      decodeTokensPerSecond: 15.2,
      maxSafeContextTokens: 39000,
      tokens: 2000,
    });
    expect(a.error).toBeNull();
    expect(rows.find((r) => r.id === 'run-b')!.state).toBe('stopped');
  });

  it('shows a damaged file as a row with its error, and ignores files that are not sessions by name', () => {
    writeFileSync(join(dir, 'broken.kvscope'), 'not sqlite at all');
    writeFileSync(join(dir, 'notes.txt'), 'x');
    writeFileSync(join(dir, '-dash.kvscope'), 'x');
    const rows = library.list();
    expect(rows.map((r) => [r.id, r.error?.includes('is not a KVScope session')])).toEqual([['broken', true]]);
  });

  it('makes a row from the stored outcome and analysis without reading a sample', () => {
    const path = writeSession('run-a');
    // A damaged sample: reading the session whole fails on it, the row never reads it, nor does
    // openSession's read of the finished run (its samples come from the snapshot taken at its end).
    const db = new Database(path);
    db.prepare("UPDATE samples SET vals = '{not json' WHERE id = (SELECT min(id) FROM samples)").run();
    db.close();
    const [row] = library.list();
    expect(row?.error).toBeNull();
    expect(row?.headline?.peakRssBytes).toBe(912261120);
    expect(() => library.read('run-a')).toThrow(/damaged sample/);
    expect(unpackSessionData(library.readPacked('run-a').data).runs[0]?.samples).toEqual(finishedRun().samples);
  });

  it('recomputes the numbers from the samples of a run whose writer died before storing them', () => {
    const run = writeKilledSession();
    const [row] = library.list();
    const lastTokens = Math.max(...run.samples.map((s) => Number(s.values.tokens ?? 0)));
    expect(row?.state).toBe('recovered');
    expect(row?.headline?.tokens).toBe(lastTokens);
    expect(row?.durationMs).toBe(Math.max(...run.samples.map((s) => s.tMs)));
  });

  it.each([
    ['finished', () => writeSession('run-a')],
    ['killed before its summary', () => writeKilledSession()],
  ])('opens a %s session packed (openSession) with the same row and content as read whole', (_kind, write) => {
    write();
    const [id] = library.list().map((r) => r.id);
    const whole = new SessionLibrary(dir).read(defined(id, 'session id'));
    const packed = new SessionLibrary(dir).readPacked(defined(id, 'session id'));
    expect(packed.listing).toEqual(whole.listing);
    expect(resolveRawJson(packed.data)).toEqual(packSessionData(whole.data));
    expect(unpackSessionData(packed.data)).toEqual(whole.data);
  });

  it('reads a session once for its row and its content, and keeps the row for the next list', () => {
    writeSession('run-a');
    const opened = library.read('run-a');
    expect(opened.data.runs[0]?.samples.length).toBe(finishedRun().samples.length);
    expect(library.list()[0]).toBe(opened.listing);
  });

  it('names a sweep by its first and last runs, whose numbers the row shows', () => {
    copyFileSync(
      new URL('../../../../fixtures/sessions/v1/sweep.kvscope', import.meta.url),
      join(dir, 'sweep.kvscope'),
    );
    const [row] = library.list();
    // The fixture's two runs, read by hand with sqlite3: 'sweep ctx 512' and 'sweep ctx 1024'.
    expect(row?.name).toBe('sweep ctx 512 … sweep ctx 1024');
    expect(row?.runs).toBe(2);
  });

  it('is empty when the folder does not exist yet', () => {
    expect(new SessionLibrary(join(root, 'nothing-here')).list()).toEqual([]);
  });
});

describe('rename and delete', () => {
  it('keeps the new name in the file itself', () => {
    const path = writeSession('run-a');
    expect(library.rename('run-a', '  f16 on the Orin  ').name).toBe('f16 on the Orin');
    // A fresh library (a restarted app) reads the name from the file.
    expect(new SessionLibrary(dir).list()).toMatchObject([{ id: 'run-a', name: 'f16 on the Orin' }]);
    expect(existsSync(path)).toBe(true);
  });

  it('deletes the file and its WAL, and refuses while recording', () => {
    writeSession('run-a');
    writeFileSync(join(dir, 'run-a.kvscope-wal'), '');
    library.setRecording('run-a', true);
    expect(() => library.remove('run-a')).toThrow(/still being recorded/);
    library.setRecording('run-a', false);
    library.remove('run-a');
    expect(readdirSync(dir)).toEqual([]);
    expect(() => library.remove('run-a')).toThrow(/no session "run-a"/);
  });
});

describe('ids never leave the sessions folder', () => {
  const hostile = [
    '../outside',
    '..',
    '.',
    '/etc/passwd',
    'a/b',
    'a\\b',
    '-rf',
    '',
    'run-a\0',
    '%2e%2e',
    'x'.repeat(81),
  ];

  it.each(hostile)('the API schema refuses %j', (id) => {
    expect(apiMethods.deleteSession.input.safeParse({ id }).success).toBe(false);
    expect(apiMethods.openSession.input.safeParse({ id }).success).toBe(false);
    expect(apiMethods.exportSession.input.safeParse({ id, format: 'html' }).success).toBe(false);
  });

  it.each(hostile)('the library refuses %j even without the schema, touching nothing', (id) => {
    writeFileSync(join(root, 'outside.kvscope'), 'precious');
    expect(() => library.remove(id)).toThrow(SessionLibraryError);
    expect(() => library.read(id)).toThrow(SessionLibraryError);
    expect(existsSync(join(root, 'outside.kvscope'))).toBe(true);
  });

  it('refuses a symbolic link in the folder that points elsewhere', () => {
    const elsewhere = join(root, 'elsewhere.kvscope');
    writeFileSync(elsewhere, 'precious');
    symlinkSync(elsewhere, join(dir, 'link.kvscope'));
    expect(() => library.remove('link')).toThrow(/not a regular file/);
    expect(() => library.rename('link', 'x')).toThrow(/not a regular file/);
    expect(library.list()).toEqual([]);
    expect(existsSync(elsewhere)).toBe(true);
  });

  it('follows a symbolic link named on the command line to the session it points at', () => {
    const path = writeSession('run-a');
    const link = join(root, 'latest.kvscope');
    symlinkSync(path, link);
    const other = new SessionLibrary(join(root, 'other'));
    const id = other.addExternal(link);
    const [row] = other.list();
    expect(row?.id).toBe(id);
    expect(row?.error).toBeNull();
    expect(other.readPacked(id).data.runs).toHaveLength(1);
    expect(() => other.addExternal(join(root, 'missing.kvscope'))).toThrow(/no such session file/);
  });

  it('lists a session of its own folder named on the command line once, as its own', () => {
    const path = writeSession('run-a');
    expect(library.addExternal(path)).toBe('run-a');
    expect(library.list().map((r) => [r.id, r.external])).toEqual([['run-a', false]]);
  });

  it('never renames or deletes a file opened from the command line', () => {
    const path = writeSession('run-a');
    const other = new SessionLibrary(join(root, 'other'));
    const id = other.addExternal(path);
    expect(other.list().map((r) => r.id)).toEqual([id]);
    expect(() => other.remove(id)).toThrow(/not deleted/);
    expect(() => other.rename(id, 'x')).toThrow(/not renamed/);
    expect(existsSync(path)).toBe(true);
  });
});

describe('a session file the user opens in the app (addFile)', () => {
  it('lists a session from elsewhere with its numbers, once however often it is opened', () => {
    const path = writeSession('run-a');
    const other = new SessionLibrary(join(root, 'other'));
    const row = other.addFile(path);
    expect([row.error, row.external, row.runs]).toEqual([null, true, 1]);
    expect(other.addFile(path).id).toBe(row.id);
    expect(other.list().map((r) => r.id)).toEqual([row.id]);
  });

  it('refuses a file that is no session and lists nothing: a log, an empty file, another SQLite database', () => {
    const other = new SessionLibrary(join(root, 'other'));
    const log = join(root, 'tegrastats.log');
    writeFileSync(log, 'RAM 1802/7772MB (lfb 357x4MB) CPU [100%@1420]\n');
    const empty = join(root, 'empty.kvscope');
    writeFileSync(empty, '');
    const foreign = join(root, 'foreign.db');
    const db = new Database(foreign);
    db.exec('CREATE TABLE t (x)');
    db.close();
    // Each said once, in the reader's words (it read "<path>: not a KVScope session that can be read
    // (<path> is not a KVScope session)"), an empty file as empty.
    const exactly = (message: string) => new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
    expect(() => other.addFile(log)).toThrow(exactly(`${log} is not a KVScope session (not an SQLite file)`));
    expect(() => other.addFile(empty)).toThrow(exactly(`${empty} is empty (0 bytes), not a KVScope session`));
    expect(() => other.addFile(foreign)).toThrow(exactly(`${foreign} is not a KVScope session`));
    expect(() => other.addFile(join(root, 'missing.kvscope'))).toThrow(/no such session file/);
    // A folder is said to be one (QA: it read "no such session file").
    expect(() => other.addFile(root)).toThrow(`${root}: a folder, not a session file (a .kvscope file inside it is)`);
    expect(other.list()).toEqual([]);
  });

  it('keeps a session of its own folder as its own row', () => {
    const path = writeSession('run-a');
    expect(library.addFile(path).id).toBe('run-a');
    expect(library.list().map((r) => [r.id, r.external])).toEqual([['run-a', false]]);
  });
});

describe('the path a window names (LocalFilePathSchema)', () => {
  it.each([
    '/home/me/orin.kvscope',
    '~/logs/tegrastats.log',
    '~',
    'C:\\logs\\t.log',
    'D:/t.log',
    '\\\\server\\share\\t.log',
  ])('takes %j', (path) => expect(LocalFilePathSchema.safeParse(path).success).toBe(true));
  it.each(['orin.kvscope', './orin.kvscope', '../x', '~user/x', '', '   ', '/tmp/a\0b', '/'.repeat(4097)])(
    'refuses %j',
    (path) => expect(LocalFilePathSchema.safeParse(path).success).toBe(false),
  );
  it('is what the two methods take', () => {
    expect(apiMethods.addSessionFile.input.safeParse({ path: 'x.kvscope' }).success).toBe(false);
    expect(apiMethods.importSessionLog.input.safeParse({ kind: 'tegrastats', path: 'x.log' }).success).toBe(false);
    expect(apiMethods.importSessionLog.input.safeParse({ kind: 'sar', path: '/x.log' }).success).toBe(false);
    expect(
      apiMethods.importSessionLog.input.safeParse({ kind: 'tegrastats', path: '/x.log', intervalMs: 5 }).success,
    ).toBe(false);
    expect(apiMethods.importSessionLog.input.safeParse({ kind: 'tegrastats', path: ' /x.log ' }).data?.path).toBe(
      '/x.log',
    );
  });
});

describe('export', () => {
  it('renders html, md, csv, json and perfetto with a file name from the session name', async () => {
    writeSession('run-a');
    library.rename('run-a', 'f16 / Orin: "fan off"');
    const html = await library.export('run-a', 'html');
    expect(html.fileName).toBe('f16-Orin-fan-off.html');
    expect(html.data.toString()).toMatch(/^<!doctype html>/i);
    const csv = (await library.export('run-a', 'csv')).data.toString().trim().split('\n');
    expect(csv.length).toBeGreaterThan(1);
    expect(JSON.parse((await library.export('run-a', 'json')).data.toString())).toBeTypeOf('object');
    const perfetto = await library.export('run-a', 'perfetto');
    expect(perfetto.fileName).toBe('f16-Orin-fan-off.trace.json');
    expect(JSON.parse(perfetto.data.toString())).toBeTypeOf('object');
    expect((await library.export('run-a', 'md')).data.toString()).toMatch(/^# /m);
  });

  it('heads every report with the name the user gave the session, escaped', async () => {
    writeSession('run-a');
    library.rename('run-a', '<b>fan off</b> & q8_0');
    const html = (await library.export('run-a', 'html')).data.toString();
    expect(html).toContain('<h1>KVScope report: &lt;b&gt;fan off&lt;/b&gt; &amp; q8_0 — This computer</h1>');
    expect(html).not.toContain('<b>fan off</b>');
    const md = (await library.export('run-a', 'md')).data.toString();
    expect(md.split('\n')[0]).toMatch(/^# KVScope report: .*fan off.* — This computer$/);
    const json = JSON.parse((await library.export('run-a', 'json')).data.toString()) as { session: { name?: string } };
    expect(json.session.name).toBe('<b>fan off</b> & q8_0');
  });

  it('makes a file name of anything', () => {
    expect(exportFileName('../../etc/passwd', 'md')).toBe('etc-passwd.md');
    expect(exportFileName('...', 'csv')).toBe('kvscope-session.csv');
  });

  it.each([
    ['Orin café résumé', 'Orin-café-résumé.html'],
    // Decomposed accents (as macOS types them) are composed, not cut off as separate marks.
    ['cafe\u0301', 'café.html'],
    ['测试 q8_0', '测试-q8_0.html'],
    ['نموذج q8', 'نموذج-q8.html'],
    ['🚀 q8 👩‍👩‍👧 run', 'q8-run.html'],
    ['<script>alert(1)</script>', 'script-alert-1-script.html'],
    ['ﬁle ＡＢＣ', 'file-ABC.html'],
  ])('keeps the letters of %j as typed: %s', (name, fileName) => {
    expect(exportFileName(name, 'html')).toBe(fileName);
  });

  it('cuts a long name at 80 characters, never inside a character', () => {
    const stem = exportFileName('𠀀'.repeat(100), 'md').slice(0, -'.md'.length);
    expect(Array.from(stem)).toEqual(Array(80).fill('𠀀'));
  });
});
