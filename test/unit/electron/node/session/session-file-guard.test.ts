// The session-file guard on real SQLite files: a session written by the store passes untouched;
// the same session with a view, trigger, virtual table or generated column standing in is refused
// in one line before any query reaches the tampered table.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionFileRejected, verifySessionFile } from '../../../../../electron/node/session/session-file-guard';
import { readSession } from '../../../../../electron/node/session/session-store';
import { TAMPERINGS, tamper, writeSmallSession } from '../../../../helpers/hostile-session';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-guard-'));
/** Writes `content` to `name` in the test folder; returns its path. */
const written = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('verifySessionFile', () => {
  it('passes a session the store wrote, without changing a byte of it', () => {
    const path = join(dir, 'good.kvscope');
    writeSmallSession(path);
    const before = readFileSync(path);
    const mtimeMs = statSync(path).mtimeMs;
    expect(() => verifySessionFile(path)).not.toThrow();
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(statSync(path).mtimeMs).toBe(mtimeMs);
    expect(readSession(path).runs[0]?.samples).toHaveLength(50);
  });

  // QA (CLI helper): `kvscope report` of a damaged session left an empty -wal and a -shm beside it.
  it('a damaged session is refused, and leaves no -wal or -shm beside it', () => {
    const whole = join(dir, 'whole.kvscope');
    writeSmallSession(whole);
    const bytes = readFileSync(whole);
    const cut = join(dir, 'cut.kvscope');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(() => verifySessionFile(cut)).toThrow(/damaged/);
    expect([existsSync(`${cut}-wal`), existsSync(`${cut}-shm`)]).toEqual([false, false]);
  });

  const expected: Record<string, RegExp> = {
    'recursive view as samples': /it contains a view \("samples"\) \(a tampered file\?\)$/,
    'view as runs': /it contains a view \("runs"\)/,
    trigger: /it contains a trigger \("grow"\)/,
    'virtual table': /it contains a virtual table \("notes"\)/,
    'generated column': /it has generated or hidden columns in samples/,
    'missing column': /it has no message column in events/,
  };
  it.each(Object.keys(TAMPERINGS))('refuses a session with a %s, in one line, and readSession does too', (name) => {
    const path = join(dir, `${name.replace(/\W+/g, '-')}.kvscope`);
    writeSmallSession(path);
    tamper(path, TAMPERINGS[name] ?? '');
    const error = (() => {
      try {
        verifySessionFile(path);
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(SessionFileRejected);
    expect(error?.message).toMatch(
      new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not a KVScope session`),
    );
    expect(error?.message).toMatch(expected[name] ?? /never/);
    expect(error?.message).not.toContain('\n');
    expect(() => readSession(path)).toThrow(SessionFileRejected);
  });

  it('names a file that is not SQLite or not a session, and lets a missing file through to the store', () => {
    const text = written('text.kvscope', 'not a database at all\n'.repeat(100));
    expect(() => verifySessionFile(text)).toThrow(`${text} is not a KVScope session (not an SQLite file)`);
    const empty = written('empty.kvscope', '');
    expect(() => verifySessionFile(empty)).toThrow(`${empty} is empty (0 bytes), not a KVScope session`);
    expect(() => verifySessionFile(join(dir, 'missing.kvscope'))).not.toThrow();
  });
});
