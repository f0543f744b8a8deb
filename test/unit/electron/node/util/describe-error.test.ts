// describeError never throws, whatever was thrown; describeFileError names a file error in words.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeError, describeFileError } from '../../../../../electron/node/util/describe-error';

/** The error the real file system throws for `read`. */
function thrownBy(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('describeFileError', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-describe-error-'));
  it.each([
    ['a missing file', join(dir, 'missing.gguf'), 'no such file'],
    ['a directory', dir, 'is a directory'],
    ['a path through a file', join(import.meta.filename, 'x'), 'a part of the path is not a directory'],
  ])('%s: words, not "%s"', (_, path, words) => {
    expect(describeFileError(thrownBy(() => readFileSync(path)))).toBe(words);
  });
  it('an unknown code or none: the message', () => {
    expect(describeFileError(Object.assign(new Error('disk on fire'), { code: 'EFIRE' }))).toBe('disk on fire');
    expect(describeFileError(new Error('plain'))).toBe('plain');
    expect(describeFileError(null)).toBe('a non-Error value was thrown (null)');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
});

describe('describeError', () => {
  it('never throws', () => {
    const hostile = Object.create(null) as object;
    const getter = Object.defineProperty(new Error('x'), 'message', {
      get() {
        throw new Error('no');
      },
    });
    expect(describeError(hostile)).toBe('a non-Error value was thrown (object)');
    expect(describeError(getter)).toBe('an unreadable error was thrown');
    expect(describeError('text')).toBe('text');
  });
});
