// The one error a session file raises to its user (not a session, a newer schema, a missing or
// damaged file), and the SQLite open errors turned into it. Shared by the writer
// (session-store.ts) and the reader (session-read.ts).
import { whyNoFileCanBeMade } from '../util/describe-error';

/** A file that is not a session, a newer schema, a missing file: one line for the user. */
export class SessionError extends Error {
  override name = 'SessionError';
}

/**
 * An SQLite message on one line: SQLite quotes a damaged schema's text in its messages, newlines
 * included, and an error said to the user (a list row, a CLI line) is one line.
 */
export function oneLineSqliteMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  return message.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

export function describeOpenError(path: string, error: unknown): SessionError {
  const message = oneLineSqliteMessage(error);
  const code = (error as { code?: string })?.code;
  if (code === 'SQLITE_NOTADB' || /not a database/i.test(message))
    return new SessionError(`${path} is not a KVScope session (not an SQLite file)`);
  const damaged = damagedFileText(path, error);
  if (damaged) return new SessionError(damaged);
  if (code === 'SQLITE_CANTOPEN' || /unable to open/i.test(message))
    return new SessionError(`cannot open ${path}: ${message}`);
  return new SessionError(`${path}: ${message}`);
}

/**
 * A new session file that SQLite could not make: its "unable to open database file" says nothing
 * of why, so the path says it (a folder that does not exist, is not writable, or takes no file).
 */
export function describeCreateError(path: string, error: unknown): SessionError {
  const code = (error as { code?: string })?.code;
  // better-sqlite3 itself refuses a missing folder ("the directory does not exist"), without a code.
  if (code === 'SQLITE_CANTOPEN' || /unable to open|directory does not exist/i.test(oneLineSqliteMessage(error)))
    return new SessionError(`cannot create ${path}: ${whyNoFileCanBeMade(path)}`);
  return describeOpenError(path, error);
}

/**
 * SQLite's "database disk image is malformed" (SQLITE_CORRUPT) in words: the file was cut short
 * (a copy that stopped, a full disk) or partly overwritten. Null for any other error.
 */
export function damagedFileText(path: string, error: unknown): string | null {
  const message = oneLineSqliteMessage(error);
  if ((error as { code?: string })?.code !== 'SQLITE_CORRUPT' && !/disk image is malformed/i.test(message)) return null;
  return `${path} is damaged: cut short or partly overwritten (SQLite: ${message})`;
}
