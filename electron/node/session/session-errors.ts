// The one error a session file raises to its user (not a session, a newer schema, a missing or
// damaged file), and the SQLite open errors turned into it. Shared by the writer
// (session-store.ts) and the reader (session-read.ts).

/** A file that is not a session, a newer schema, a missing file: one line for the user. */
export class SessionError extends Error {
  override name = 'SessionError';
}

export function describeOpenError(path: string, error: unknown): SessionError {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string })?.code;
  if (code === 'SQLITE_NOTADB' || /not a database/i.test(message))
    return new SessionError(`${path} is not a KVScope session (not an SQLite file)`);
  if (code === 'SQLITE_CANTOPEN' || /unable to open/i.test(message))
    return new SessionError(`cannot open ${path}: ${message}`);
  return new SessionError(`${path}: ${message}`);
}
