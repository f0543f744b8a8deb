// The errors an SshTarget (ssh-target.ts) throws: SshError for the link itself, errno-like errors
// for what a remote command or file operation reports, so callers see ENOENT as they would locally.
// Every message goes through util/redact.ts.
import { redact } from '../util/redact';

export type SshErrorCode =
  | 'SSH_UNREACHABLE'
  | 'SSH_TIMEOUT'
  | 'SSH_AUTH_FAILED'
  | 'SSH_HANDSHAKE'
  | 'SSH_JUMP_FAILED'
  | 'SSH_LINK_DOWN'
  | 'SSH_CLOSED'
  | 'SSH_CHANNEL';

export class SshError extends Error {
  constructor(
    message: string,
    readonly code: SshErrorCode,
  ) {
    super(redact(message));
    this.name = 'SshError';
  }
}

export function errnoError(message: string, code: string): NodeJS.ErrnoException {
  const e = new Error(redact(message)) as NodeJS.ErrnoException;
  e.code = code;
  return e;
}

export function abortError(): Error {
  const e = new Error('the operation was aborted');
  e.name = 'AbortError';
  (e as NodeJS.ErrnoException).code = 'ABORT_ERR';
  return e;
}

/** Map a remote tool's error text to an errno-like code. */
function codeFromText(text: string): string {
  if (/no such file|not found|can't open|cannot open/i.test(text)) return 'ENOENT';
  if (/permission denied/i.test(text)) return 'EACCES';
  if (/is a directory/i.test(text)) return 'EISDIR';
  if (/no such process/i.test(text)) return 'ESRCH';
  if (/operation not permitted/i.test(text)) return 'EPERM';
  return 'EIO';
}

/** The error of a remote command that failed: `<what>: <first stderr line>`, coded from that line. */
export function remoteCommandError(
  what: string,
  result: { stderr: Buffer | string; code: number | null },
): NodeJS.ErrnoException {
  const text = String(result.stderr).trim().split('\n')[0] || `exit status ${result.code}`;
  return errnoError(`${what}: ${text}`, codeFromText(text));
}
