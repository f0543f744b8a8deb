// Why a connection failed, in the words a field engineer needs in the app (the CLI keeps the
// one-line messages of target/, which name its flags). Four cases matter and each says what to
// do next: unreachable, a refused host key (with BOTH fingerprints when it changed), failed
// authentication, a timeout. Everything else keeps its own message behind a plain prefix.
import { describeError } from '../util/describe-error';
import { knownHostName } from '../transport/known-hosts';
import { redact } from '../util/redact';
import type { PromptOutcome } from './prompt-broker';

export type ConnectErrorKind =
  | 'unreachable'
  | 'host-key-changed'
  | 'host-key-revoked'
  | 'host-key-not-accepted'
  | 'auth-failed'
  | 'cancelled'
  | 'timeout'
  | 'other';

export class ConnectError extends Error {
  constructor(
    message: string,
    readonly kind: ConnectErrorKind,
  ) {
    super(redact(message));
    this.name = 'ConnectError';
  }
}

interface ErrorFacts {
  code?: string;
  message?: string;
  host?: string;
  port?: number;
  fingerprint?: string;
  oldFingerprint?: string;
  oldEntryLocation?: string;
}

export interface ConnectErrorContext {
  /** The target's name as the user knows it. */
  label: string;
  /** How the last host-key question ended, when one was asked. */
  hostKeyOutcome?: PromptOutcome;
  /** The last host-key question was refused by the user (not timed out or cancelled). */
  promptTimeoutMs?: number;
  /** Remembered credentials were offered and refused, and have been forgotten. */
  forgotRemembered?: boolean;
  /** How the last password/passphrase question ended, when one went unanswered (cancelled, timed out). */
  credentialOutcome?: PromptOutcome;
  /** Which question that was (default: password). */
  credentialKind?: 'password' | 'passphrase';
}

function minutes(ms: number | undefined): string {
  const m = Math.round((ms ?? 0) / 60_000);
  return m >= 1 ? `${m} minute${m === 1 ? '' : 's'}` : `${Math.round((ms ?? 0) / 1000)} seconds`;
}

/** The key-type word the original message used for each key ("ED25519", "RSA"…), when present. */
function keyWords(message: string): { presented?: string; held?: string } {
  const m = /presented (\S+) key .*? holds (\S+) key/.exec(message);
  return m ? { presented: m[1], held: m[2] } : {};
}

export function describeConnectError(error: unknown, context: ConnectErrorContext): ConnectError {
  if (error instanceof ConnectError) return error;
  const e = (error ?? {}) as ErrorFacts;
  const message = typeof e.message === 'string' ? e.message : describeError(error ?? 'unknown error');
  const label = context.label;
  const code = e.code ?? '';
  const where = e.host !== undefined ? knownHostName(e.host, e.port ?? 22) : label;

  switch (code) {
    case 'HOST_KEY_CHANGED': {
      const words = keyWords(message);
      const file = e.oldEntryLocation?.replace(/:\d+$/, '');
      // Several lines: the UI shows them as they are (the two fingerprints one under the other).
      return new ConnectError(
        [
          `The host key of ${label} (${where}) has CHANGED: KVScope did not connect and sent no password or key.`,
          `Presented now: ${words.presented ? words.presented + ' ' : ''}${e.fingerprint}`,
          `Known before (${e.oldEntryLocation ?? 'known hosts'}): ${words.held ? words.held + ' ' : ''}${e.oldFingerprint}`,
          `Someone may be intercepting the connection, or the board was reinstalled. If you know it was reinstalled, compare the new ` +
            `fingerprint with the board's own (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub on the board), remove the old entry` +
            `${file ? ` (ssh-keygen -R '${where}' -f ${file})` : ''} and connect again.`,
        ].join('\n'),
        'host-key-changed',
      );
    }
    case 'HOST_KEY_REVOKED':
      return new ConnectError(
        `The host key of ${label} (${where}, ${e.fingerprint}) is marked as revoked in your known hosts: KVScope refuses it and did not connect.`,
        'host-key-revoked',
      );
    case 'HOST_KEY_UNKNOWN': {
      const why =
        context.hostKeyOutcome === 'timeout'
          ? `the question was not answered within ${minutes(context.promptTimeoutMs)}`
          : context.hostKeyOutcome === 'cancelled'
            ? 'the question was cancelled'
            : 'you did not accept it';
      return new ConnectError(
        `Not connected to ${label}: its host key (${where}, ${e.fingerprint}) is not known and ${why}. Nothing was sent to the host.`,
        'host-key-not-accepted',
      );
    }
    case 'SSH_UNREACHABLE':
    case 'SSH_JUMP_FAILED': {
      const detail = stripPrefix(message, /^cannot reach .*?:\s/);
      // A jump host that cannot be reached is named: "host name not found" is about it, not the board.
      const jump = /^cannot reach (jump host .*?):\s/.exec(message)?.[1];
      return new ConnectError(
        jump
          ? `Cannot reach ${label} through its ${jump}: ${detail}. Check the jump host's name and port (ProxyJump), and that it is on the network.`
          : `Cannot reach ${label}: ${detail}. Check that the board is powered, on the network, and that the host and port are right.`,
        'unreachable',
      );
    }
    case 'SSH_TIMEOUT':
      return new ConnectError(
        `Timed out connecting to ${label}: ${stripPrefix(message, /^timed out connecting to [^(]+/)}. The board may be busy or the network slow; try again.`.replace(
          /: \(/,
          ' (',
        ),
        'timeout',
      );
    case 'SSH_AUTH_FAILED': {
      const detail = stripPrefix(message, /^authentication failed for .*?:\s/);
      if (context.credentialOutcome === 'cancelled' || context.credentialOutcome === 'timeout') {
        const question = `the ${context.credentialKind ?? 'password'} question`;
        // What was tried before the question (an identity file not found, a public key named
        // instead of the private one) is often the real trouble; "no usable credential" adds nothing.
        const before = detail.startsWith('tried ') ? ` Before it: ${detail}.` : '';
        return new ConnectError(
          (context.credentialOutcome === 'cancelled'
            ? `Not connected to ${label}: ${question} was cancelled.`
            : `Not connected to ${label}: ${question} was not answered within ${minutes(context.promptTimeoutMs)}.`) +
            before,
          'cancelled',
        );
      }
      return new ConnectError(
        `Authentication failed for ${label}: ${detail}.` +
          (context.forgotRemembered
            ? ' The remembered password or passphrase was refused and has been forgotten; connect again to type it.'
            : /\(wrong passphrase\b/.test(detail)
              ? ' The passphrase did not unlock that key; connect again to type it.'
              : ' Check the user name, the identity file, or the password.'),
        'auth-failed',
      );
    }
    default:
      return new ConnectError(`Could not connect to ${label}: ${message}`, 'other');
  }
}

function stripPrefix(message: string, prefix: RegExp): string {
  return message.replace(prefix, '').replace(/\.$/, '');
}
