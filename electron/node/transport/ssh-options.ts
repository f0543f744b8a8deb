// What an SshTarget (ssh-target.ts) is built from: the hops, the callbacks that ask a human,
// the defaults with their reasons, and how a hop is named in messages.
import type { ConfirmHostKey, KnownHostsStore } from './known-hosts';

// ---- defaults, with their reasons -------------------------------------------------------------
/** MaxSessions is 10 in OpenSSH's default sshd_config; one goes to SFTP, one stays spare. */
export const MAX_SESSION_CHANNELS = 8;
/** Boards sit on flaky Wi-Fi: 15 s × 3 notices a dead link in ≤ 45 s (OpenSSH's default is off). */
export const DEFAULT_KEEPALIVE_INTERVAL_MS = 15_000;
export const DEFAULT_KEEPALIVE_COUNT_MAX = 3;
/** TCP + key exchange + authentication, per hop, not counting time spent in user prompts. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 20_000;
/** Reconnect: first retry after 0.5 s, doubling up to 30 s, 10 attempts (≈ 3.5 min), ±50 % jitter. */
export const DEFAULT_RECONNECT = { initialDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 10 } as const;
/** ssh(1)'s NumberOfPasswordPrompts: a key's passphrase is asked up to 3 times, as ssh(1) does. */
export const MAX_PASSPHRASE_ATTEMPTS = 3;
/** ssh(1)'s default identity files, in its order (without the DSA/SK ones). */
export const DEFAULT_IDENTITY_NAMES = ['id_ed25519', 'id_ecdsa', 'id_rsa'] as const;

// ---- options -----------------------------------------------------------------------------------
export interface SshHop {
  host: string;
  port: number;
  username: string;
  /** Identity files tried in order. Undefined → ssh(1)'s defaults under ~/.ssh that exist. */
  identityFiles?: string[];
  /** IdentitiesOnly: do not use the agent for this hop. */
  identitiesOnly?: boolean;
  /**
   * ssh_config HostKeyAlias: the host key is looked up and recorded under this name (as it is, no
   * `[…]:port`), as ssh(1) does; else under the host and port.
   */
  hostKeyAlias?: string;
}

export interface CredentialRequest {
  host: string;
  port: number;
  username: string;
}

export interface PassphraseRequest {
  keyFile: string;
  /**
   * Set when asked again because the previous answer did not unlock the key: this is attempt
   * `attempt` (2 or more) of `maxAttempts`. A source that gives the same wrong answer again is not
   * asked a further time (a variable or a remembered value would only loop).
   */
  retry?: { attempt: number; maxAttempts: number };
}

export interface SshCallbacks {
  /** Password for user@host; asked only when the server still accepts password or keyboard-interactive. */
  password?: (request: CredentialRequest) => string | undefined | Promise<string | undefined>;
  /**
   * Passphrase of an encrypted identity file; asked only when the server still accepts publickey,
   * and asked again (request.retry) after a wrong one. undefined or '': none given, the key is skipped.
   */
  passphrase?: (request: PassphraseRequest) => string | undefined | Promise<string | undefined>;
  /**
   * Where `passphrase` reads from when it is not a person (`--passphrase-env KVSCOPE_PP`): the
   * failure names it, so a wrong or unset variable is found without guessing.
   */
  passphraseSource?: string;
  /** Trust a host key that is not known yet (absent → unknown keys are refused). */
  confirmHostKey?: ConfirmHostKey;
}

export interface ReconnectOptions {
  initialDelayMs?: number;
  maxDelayMs?: number;
  maxAttempts?: number;
  signal?: AbortSignal;
}

export interface SshTargetOptions extends SshCallbacks {
  target: SshHop;
  /** ProxyJump chain, outermost first. */
  jumps?: SshHop[];
  knownHosts: KnownHostsStore;
  /** ssh-agent socket; default $SSH_AUTH_SOCK; null disables the agent. */
  agentSocket?: string | null;
  keepaliveIntervalMs?: number;
  keepaliveCountMax?: number;
  connectTimeoutMs?: number;
  /**
   * Abandons the first connection when aborted (a Stop pressed while the board is connecting):
   * its sockets are destroyed at once and connect() rejects with SSH_CLOSED. Reconnects ignore it.
   */
  connectSignal?: AbortSignal;
  /** Use SFTP for readFile/writeFile when the server offers it (default true); exec otherwise. */
  sftp?: boolean;
  /** Reconnect by itself after the link drops (default false: the owner calls reconnect()). */
  autoReconnect?: boolean | ReconnectOptions;
  /** Progress and diagnostics, already redacted. */
  log?: (line: string) => void;
  /** Also log ssh2's protocol debug lines (redacted). */
  debug?: boolean;
  id?: string;
  label?: string;
}

// ---- names -------------------------------------------------------------------------------------
/** `user@host:port` as ssh(1) prints it: IPv6 in brackets, port 22 left out. */
export function hopName(hop: { host: string; port: number; username?: string }): string {
  const host = hop.host.includes(':') && !hop.host.startsWith('[') ? `[${hop.host}]` : hop.host;
  return `${hop.username ? hop.username + '@' : ''}${host}${hop.port === 22 ? '' : ':' + hop.port}`;
}

/** The host without IPv6 brackets, as sockets and known_hosts lookups take it. */
export function bareHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}
