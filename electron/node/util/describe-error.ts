// One line for anything thrown. Runs where a second failure would escape to the process (the
// API dispatch, the bridge, error redaction), so it never throws itself, whatever was thrown: an
// object without a prototype (String() throws on it), a throwing `message` getter or toString.
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
