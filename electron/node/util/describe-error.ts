// One line for anything thrown. Runs where a second failure would escape to the process (the
// API dispatch, the bridge, error redaction), so it never throws itself, whatever was thrown: an
// object without a prototype (String() throws on it), a throwing `message` getter or toString.
import { accessSync, constants, lstatSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    if (typeof error === 'string') return error;
    if (typeof error === 'number' || typeof error === 'boolean' || typeof error === 'bigint') return String(error);
    return `a non-Error value was thrown (${error === null ? 'null' : typeof error})`;
  } catch {
    return 'an unreadable error was thrown';
  }
}

/** What a file system error code means, in the words `ls` and `cat` use. */
const FILE_ERROR_WORDS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
  EDQUOT: 'disk quota exceeded',
};

/**
 * A file system error in words ("no such file") rather than Node's "ENOENT: no such file or
 * directory, open '…'", which repeats the path the caller already names.
 */
export function describeFileError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return (typeof code === 'string' ? FILE_ERROR_WORDS[code] : undefined) ?? describeError(error);
}

/**
 * A file system error of writing the file at `path` in words: as describeFileError, but a missing
 * path on a write is about where the file was to go ("no such file" is what the write was to
 * create): whyNoFileCanBeMade.
 */
export function describeWriteError(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' ? whyNoFileCanBeMade(path) : describeFileError(error);
}

/**
 * Why a new file cannot be made at `path`, read off the path itself, for a failure that does not
 * say (a write's ENOENT, SQLite's "unable to open database file"): a symbolic link to nowhere, a
 * folder that does not exist or is a file, a folder this user may not write, or a folder that is
 * there and takes no new file (procfs and sysfs answer ENOENT to a create).
 */
export function whyNoFileCanBeMade(path: string): string {
  try {
    if (lstatSync(path).isSymbolicLink()) return 'it is a symbolic link to a place where no file can be made';
  } catch {
    // Nothing there: the folder decides.
  }
  const folder = dirname(resolve(path));
  try {
    if (!statSync(folder).isDirectory()) return 'a part of the path is not a directory';
  } catch {
    return 'its folder does not exist';
  }
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    return 'its folder is not writable (permission denied)';
  }
  return 'its folder takes no new file (a file system such as /proc or /sys)';
}
