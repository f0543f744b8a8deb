// The Sessions view's Open file and Import log through the app's API (SessionFileDialog.tsx calls
// addSessionFile and importSessionLog): real logs from the corpus, real session files, the app's
// own library folder.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiMethods } from '../../../shared/api/contract';
import { packedSamplesOf, unpackSamples } from '../../../shared/api/packed-samples';
import { appServicesInTempHome } from '../../helpers/app-services';
import { orinLogLines } from '../../helpers/tegrastats-log';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function services() {
  const made = appServicesInTempHome('kvscope-session-files-api-');
  dirs.push(made.home);
  return made;
}

describe('pickLocalFile', () => {
  it('is not supported without the desktop app’s dialog (browser mode): the page types the path', async () => {
    const { services: app } = services();
    try {
      expect(await app.handlers.pickLocalFile({ purpose: 'log' })).toEqual({ supported: false, path: null });
    } finally {
      await app.dispose();
    }
  });
});

describe('importSessionLog', () => {
  it('two imports at once write two sessions, each with its own log’s readings', async () => {
    const { services: app, home } = services();
    try {
      // Two logs of the AGX Orin capture, 30 and 60 lines: the longer takes longer to read.
      const short = join(home, 'short.log');
      const long = join(home, 'long.log');
      writeFileSync(short, orinLogLines(30).join('\n') + '\n');
      writeFileSync(long, orinLogLines(60).join('\n') + '\n');
      const input = (path: string) => apiMethods.importSessionLog.input.parse({ kind: 'tegrastats', path });
      const [a, b] = await Promise.all([
        app.handlers.importSessionLog(input(long)),
        app.handlers.importSessionLog(input(short)),
      ]);
      expect(a.listing.id).not.toBe(b.listing.id);
      expect([a.samples, b.samples]).toEqual([60, 30]);
      const files = readdirSync(join(home, 'sessions'))
        .filter((f) => f.endsWith('.kvscope'))
        .sort();
      expect(files).toEqual(['import-tegrastats-1.kvscope', 'import-tegrastats.kvscope']);
      for (const [made, lines] of [
        [a, 60],
        [b, 30],
      ] as const) {
        const { data } = await app.handlers.openSession({ id: made.listing.id });
        expect(data.runs[0]?.label).toBe(`tegrastats: ${lines === 60 ? 'long' : 'short'}.log`);
        expect(unpackSamples(packedSamplesOf(data.runs[0]!.samples))).toHaveLength(lines);
      }
    } finally {
      await app.dispose();
    }
  });

  it('cancelImport stops an import under way: it fails in one line, and no session is written or listed', async () => {
    const { services: app, home } = services();
    try {
      // 3,000 lines (~700 kB): many chunks of the file's stream, so the import is still reading
      // when the cancel arrives.
      const log = join(home, 'orin.log');
      writeFileSync(log, orinLogLines(3000).join('\n') + '\n');
      const importKey = 'import-key-1';
      const input = apiMethods.importSessionLog.input.parse({ kind: 'tegrastats', path: log, importKey });
      const importing = app.handlers.importSessionLog(input);
      const refused = expect(importing).rejects.toThrow(/^import cancelled: nothing was imported$/);
      // A second import may not take a key in use.
      await expect(app.handlers.importSessionLog(input)).rejects.toThrow(
        'an import with this key is already under way',
      );
      expect(await app.handlers.cancelImport({ importKey })).toEqual({ ok: true });
      await refused;
      mkdirSync(join(home, 'sessions'), { recursive: true });
      expect(readdirSync(join(home, 'sessions'))).toEqual([]);
      expect((await app.handlers.listSessions({})).sessions).toEqual([]);
      // Answered (here: cancelled) imports are forgotten; the same key imports again, to the end.
      expect(await app.handlers.cancelImport({ importKey })).toEqual({ ok: false });
      const done = await app.handlers.importSessionLog(input);
      expect(done.samples).toBe(3000);
      expect(await app.handlers.cancelImport({ importKey })).toEqual({ ok: false });
      expect((await app.handlers.listSessions({})).sessions.map((x) => x.id)).toEqual([done.listing.id]);
    } finally {
      await app.dispose();
    }
  });

  it('a log with nothing of its kind is refused in one line and leaves no file', async () => {
    const { services: app, home } = services();
    try {
      const log = join(home, 'orin.log');
      writeFileSync(log, orinLogLines(5).join('\n') + '\n');
      await expect(
        app.handlers.importSessionLog(apiMethods.importSessionLog.input.parse({ kind: 'pmap', path: log })),
      ).rejects.toThrow(`${log}: nothing to import (none of its 5 lines is a pmap reading)`);
      mkdirSync(join(home, 'sessions'), { recursive: true });
      expect(readdirSync(join(home, 'sessions'))).toEqual([]);
    } finally {
      await app.dispose();
    }
  });
});

describe('openSession with previewBuckets', () => {
  it("answers a long run's preview, marked as one, and every sample without previewBuckets; a short run whole", async () => {
    const { services: app, home } = services();
    try {
      // An imported tegrastats log: one sample a line, stored as a finished run's packed snapshot.
      const input = (path: string) => apiMethods.importSessionLog.input.parse({ kind: 'tegrastats', path });
      writeFileSync(join(home, 'long.log'), orinLogLines(3000).join('\n') + '\n');
      writeFileSync(join(home, 'short.log'), orinLogLines(300).join('\n') + '\n');
      const long = await app.handlers.importSessionLog(input(join(home, 'long.log')));
      const short = await app.handlers.importSessionLog(input(join(home, 'short.log')));
      const ask = (id: string, previewBuckets?: number) =>
        app.handlers.openSession(apiMethods.openSession.input.parse({ id, previewBuckets }));

      const full = await ask(long.listing.id);
      expect(full.preview).toBe(false);
      const all = unpackSamples(packedSamplesOf(full.data.runs[0]!.samples));
      expect(all).toHaveLength(3000);
      const preview = await ask(long.listing.id, 256);
      expect(preview.preview).toBe(true);
      expect(preview.listing).toEqual(full.listing);
      expect(preview.data.runs[0]!.analysis).toEqual(full.data.runs[0]!.analysis);
      const some = unpackSamples(packedSamplesOf(preview.data.runs[0]!.samples));
      expect(some.length).toBeGreaterThan(0);
      expect(some.length).toBeLessThan(all.length);
      // Each series' highest value is in the preview.
      const highest = (samples: typeof all, key: string) =>
        Math.max(...samples.map((s) => s.values[key]).filter((v): v is number => typeof v === 'number'));
      for (const key of Object.keys(all[0]!.values)) expect(highest(some, key)).toBe(highest(all, key));

      expect((await ask(short.listing.id, 256)).preview).toBe(false);
      expect(() => apiMethods.openSession.input.parse({ id: long.listing.id, previewBuckets: 10 })).toThrow();
    } finally {
      await app.dispose();
    }
  });
});
