// describeError never throws, whatever was thrown; describeFileError names a file error in words.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  describeError,
  describeFileError,
  describeWriteError,
  whyNoFileCanBeMade,
} from '../../../../../electron/node/util/describe-error';

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

describe('describeWriteError: where a file could not be made, from the path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-write-error-'));
  const writing = (path: string) =>
    describeWriteError(
      thrownBy(() => writeFileSync(path, 'x')),
      path,
    );
  it('a folder that does not exist', () => {
    expect(writing(join(dir, 'gone', 'r.html'))).toBe('its folder does not exist');
  });
  it('a folder that is there but takes no file (procfs answers ENOENT, which read as a missing folder)', () => {
    expect(writing('/proc/kvscope-describe-error.html')).toBe(
      'its folder takes no new file (a file system such as /proc or /sys)',
    );
  });
  it('a symbolic link to a missing folder', () => {
    const link = join(dir, 'dangling.html');
    symlinkSync(join(dir, 'gone', 'target.html'), link);
    expect(writing(link)).toBe('it is a symbolic link to a place where no file can be made');
  });
  it('other errors in describeFileError words', () => {
    mkdirSync(join(dir, 'sub'));
    expect(writing(join(dir, 'sub'))).toBe('is a directory');
  });
  it('whyNoFileCanBeMade: a file where the folder should be', () => {
    expect(whyNoFileCanBeMade(join(import.meta.filename, 'r.html'))).toBe('a part of the path is not a directory');
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
