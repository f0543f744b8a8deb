// The SSH implementation of Target (target.ts), on ssh2. One connection per board (one chain
// when jump hosts are involved), many channels over it.
//
// Order of a connection, as Tabby does it and as ssh(1) does it:
//   TCP (or the previous hop's forwardOut stream) → key exchange → host key verified against
//   known_hosts (known-hosts.ts) → only then authentication: an explicit ordered queue (agent,
//   identity files, password, keyboard-interactive) filtered by the methods the server still
//   accepts (ssh2's authHandler function form). Secrets go through util/redact.ts.
//
// Facts about ssh2 + OpenSSH this file relies on (../shared/ENVIRONMENT.md, checked here):
// - the exec command is run by the remote login shell as `$SHELL -c <command>`: exec/stream wrap
//   nothing, callers quote with shellQuote;
// - an exec channel nobody reads never emits `close` (the window fills): exec() reads both
//   streams; stream() hands them to the caller, who must read (or resume) both;
// - closing a channel without a pty does NOT kill the remote process: kill() sends a `signal`
//   channel request (OpenSSH ≥ 7.9); for process trees use signal(-pgid);
// - OpenSSH allows MaxSessions=10 session channels per connection by default: at most
//   MAX_SESSION_CHANNELS exec/stream channels are open at once, others wait; SFTP holds one more.
import { createServer, type Server, type Socket } from 'node:net';
import { readFile as readLocalFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Duplex } from 'node:stream';
import ssh2, { type ClientChannel, type ConnectConfig, type SFTPWrapper } from 'ssh2';
import type { ExecOptions, ExecResult, ReadOptions, RemoteProcess, StreamOptions, Target } from './target';
import { shellQuote } from '../../../shared/util/shell';
import { redact, redactError, registerSecret } from '../util/redact';
import {
  fingerprintSha256,
  keyTypeLabel,
  keyTypeOfBlob,
  verifyHostKey,
  type ConfirmHostKey,
  type KnownHostsStore,
} from './known-hosts';

// ssh2 is CommonJS: Node's ESM loader (the CLI runs under tsx) cannot see all of its named exports.
const { Client, utils: ssh2utils } = ssh2;
type Client = InstanceType<typeof Client>;

// ---- defaults, with their reasons -------------------------------------------------------------
/** MaxSessions is 10 in OpenSSH's default sshd_config; one goes to SFTP, one stays spare. */
export const MAX_SESSION_CHANNELS = 8;
/** Boards sit on flaky Wi-Fi: 15 s × 3 notices a dead link in ≤ 45 s (OpenSSH's default is off). */
export const DEFAULT_KEEPALIVE_INTERVAL_MS = 15_000;
export const DEFAULT_KEEPALIVE_COUNT_MAX = 3;
/** TCP + key exchange + authentication, per hop, not counting time spent in user prompts. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 20_000;
/** SFTP read/write request size: 32 KiB is what every SFTP v3 server must accept. */
const SFTP_CHUNK_BYTES = 32 * 1024;
/** Requests kept in flight, so a 16 MiB read is not 512 round trips. */
const SFTP_WINDOW = 32;
/** Reconnect: first retry after 0.5 s, doubling up to 30 s, 10 attempts (≈ 3.5 min), ±50 % jitter. */
export const DEFAULT_RECONNECT = { initialDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 10 } as const;
/** ssh(1)'s default identity files, in its order (without the DSA/SK ones). */
const DEFAULT_IDENTITY_NAMES = ['id_ed25519', 'id_ecdsa', 'id_rsa'];

// ---- errors ------------------------------------------------------------------------------------
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

// ---- options -----------------------------------------------------------------------------------
export interface SshHop {
  host: string;
  port: number;
  username: string;
  /** Identity files tried in order. Undefined → ssh(1)'s defaults under ~/.ssh that exist. */
  identityFiles?: string[];
  /** IdentitiesOnly: do not use the agent for this hop. */
  identitiesOnly?: boolean;
}

export interface CredentialRequest {
  host: string;
  port: number;
  username: string;
}

export interface SshCallbacks {
  /** Password for user@host; asked only when the server still accepts password or keyboard-interactive. */
  password?: (request: CredentialRequest) => string | undefined | Promise<string | undefined>;
  /** Passphrase of an encrypted identity file; asked only when the server still accepts publickey. */
  passphrase?: (request: { keyFile: string }) => string | undefined | Promise<string | undefined>;
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

export type LinkState = 'connecting' | 'up' | 'down' | 'closed';
type LinkListener = (state: 'down' | 'up', reason?: string) => void;

interface Link {
  /** Outermost first; the last one is the board. */
  clients: Client[];
  client: Client;
  sftp?: Promise<SFTPWrapper | null>;
  lost: boolean;
}

// ---- small helpers -----------------------------------------------------------------------------
class Semaphore {
  private waiting: Array<() => void> = [];
  private used = 0;
  constructor(private readonly size: number) {}
  async acquire(): Promise<() => void> {
    if (this.used >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.used++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.used--;
    };
  }
}

/** A connect deadline that stops counting while a human answers a prompt. */
class Deadline {
  private timer: NodeJS.Timeout | undefined;
  private remainingMs: number;
  private startedAt = 0;
  private paused = 0;
  constructor(
    ms: number,
    private readonly onExpire: () => void,
  ) {
    this.remainingMs = ms;
    this.start();
  }
  private start() {
    if (this.remainingMs <= 0) return;
    this.startedAt = Date.now();
    this.timer = setTimeout(this.onExpire, this.remainingMs);
  }
  pause() {
    if (this.paused++ > 0 || !this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.remainingMs -= Date.now() - this.startedAt;
  }
  resume() {
    if (--this.paused > 0) return;
    this.start();
  }
  clear() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.remainingMs = 0;
  }
}

function hopName(hop: { host: string; port: number; username?: string }): string {
  const host = hop.host.includes(':') && !hop.host.startsWith('[') ? `[${hop.host}]` : hop.host;
  return `${hop.username ? hop.username + '@' : ''}${host}${hop.port === 22 ? '' : ':' + hop.port}`;
}

function bareHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}

function hostKeyAlgorithmsFor(keyTypes: string[]): string[] {
  const out: string[] = [];
  for (const t of keyTypes) {
    if (t === 'ssh-rsa') out.push('rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa');
    else if (t === 'ssh-ed25519' || t.startsWith('ecdsa-sha2-nistp')) out.push(t);
  }
  return [...new Set(out)];
}

function signalName(signal: string): string {
  const name = signal.toUpperCase().replace(/^SIG/, '');
  if (!/^[A-Z][A-Z0-9]*$/.test(name)) throw new Error(`invalid signal name: ${signal}`);
  return name;
}

/**
 * Send a `signal` channel request. ssh2's ClientChannel.signal() silently drops it once our side
 * sent EOF (stdin closed), but RFC 4254 allows channel requests until CLOSE — and exec() always
 * closes stdin. OpenSSH (≥ 7.9) delivers it with killpg() to the session, EXCEPT for root logins
 * ("session signalling requires privilege separation": root sessions are served by the monitor)
 * and dropbear ignores it: best effort, callers that must stop a command use signal(-pgid).
 */
function sendChannelSignal(channel: ClientChannel, name: string): void {
  const ch = channel as unknown as {
    outgoing: { id: number; state: string };
    _client?: { _protocol?: { signal(id: number, sig: string): void } };
  };
  if (ch.outgoing.state === 'open' || ch.outgoing.state === 'eof') ch._client?._protocol?.signal(ch.outgoing.id, name);
}

function errnoError(message: string, code: string): NodeJS.ErrnoException {
  const e = new Error(redact(message)) as NodeJS.ErrnoException;
  e.code = code;
  return e;
}

function firstLine(buf: Buffer | string): string {
  return String(buf).trim().split('\n')[0] ?? '';
}

/** Map a remote tool's error text to an errno-like code, so callers see ENOENT as locally. */
function codeFromText(text: string): string {
  if (/no such file|not found|can't open|cannot open/i.test(text)) return 'ENOENT';
  if (/permission denied/i.test(text)) return 'EACCES';
  if (/is a directory/i.test(text)) return 'EISDIR';
  if (/no such process/i.test(text)) return 'ESRCH';
  if (/operation not permitted/i.test(text)) return 'EPERM';
  return 'EIO';
}

// ---- the target --------------------------------------------------------------------------------
export class SshTarget implements Target {
  readonly kind = 'ssh' as const;
  readonly id: string;
  readonly label: string;

  private state: LinkState = 'connecting';
  private link: Link | undefined;
  private reconnecting: Promise<void> | undefined;
  private readonly listeners = new Set<LinkListener>();
  private readonly sessions = new Semaphore(MAX_SESSION_CHANNELS);
  private readonly forwards = new Set<{ close(): Promise<void> }>();
  private readonly passwords = new Map<string, string | null>();
  private closeController = new AbortController();
  private readonly closedClients = new WeakSet<Client>();

  private constructor(private readonly options: SshTargetOptions) {
    const t = options.target;
    this.id = options.id ?? `ssh:${hopName(t)}`;
    this.label = options.label ?? hopName(t);
  }

  /** Connect (TCP, key exchange, host key verification, authentication) and return the target. */
  static async connect(options: SshTargetOptions): Promise<SshTarget> {
    const target = new SshTarget(options);
    try {
      target.link = await target.openChain();
      target.state = 'up';
      return target;
    } catch (error) {
      target.state = 'closed';
      throw redactError(error);
    }
  }

  get linkState(): LinkState {
    return this.state;
  }

  private log(line: string): void {
    this.options.log?.(redact(line));
  }

  // ---- connection chain ----------------------------------------------------------------------
  private async openChain(): Promise<Link> {
    const hops = [...(this.options.jumps ?? []), this.options.target];
    const clients: Client[] = [];
    let sock: Duplex | undefined;
    try {
      for (let i = 0; i < hops.length; i++) {
        const hop = hops[i];
        const role = i < hops.length - 1 ? 'jump host' : 'host';
        const client = await this.connectHop(hop, sock, role);
        clients.push(client);
        if (i < hops.length - 1) sock = await this.forwardThrough(client, hop, hops[i + 1]);
      }
      // A hop that closed while the next one was connecting (its own 'close' came before the
      // listeners below exist) makes the chain unusable.
      if (clients.some((c) => this.closedClients.has(c)))
        throw new SshError(`${this.label}: a hop of the chain closed while connecting`, 'SSH_LINK_DOWN');
    } catch (error) {
      for (const c of clients.reverse()) c.end();
      throw error;
    }
    const link: Link = { clients, client: clients[clients.length - 1], lost: false };
    for (const c of clients) {
      let lastError: Error | undefined;
      c.on('error', (e: Error) => {
        lastError = e;
      });
      c.on('close', () =>
        this.onLinkLost(link, lastError ? `ssh link lost: ${lastError.message}` : 'ssh link lost: connection closed'),
      );
    }
    return link;
  }

  private forwardThrough(client: Client, via: SshHop, next: SshHop): Promise<Duplex> {
    return new Promise((resolve, reject) => {
      client.forwardOut('127.0.0.1', 0, bareHost(next.host), next.port, (err, stream) => {
        if (err) {
          client.end();
          reject(
            new SshError(
              `jump host ${hopName(via)} could not open a connection to ${hopName(next)}: ${err.message}`,
              'SSH_JUMP_FAILED',
            ),
          );
        } else resolve(stream);
      });
    });
  }

  private async connectHop(hop: SshHop, sock: Duplex | undefined, role: string): Promise<Client> {
    const opts = this.options;
    const where = `${role} ${hopName(hop)}`;
    const knownTypes = await opts.knownHosts.knownKeyTypes(bareHost(hop.host), hop.port).catch(() => []);
    const preferred = hostKeyAlgorithmsFor(knownTypes);
    const auth = this.authQueue(hop);

    return new Promise<Client>((resolve, reject) => {
      const client = new Client();
      let settled = false;
      let hostKeyError: Error | undefined;
      let lastError: (Error & { level?: string; code?: string }) | undefined;
      let timedOut = false;
      const deadline = new Deadline(opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, () => {
        timedOut = true;
        client.destroy();
        sock?.destroy();
      });
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        deadline.clear();
        client.removeAllListeners('ready');
        client.destroy();
        reject(redactError(error));
      };

      const config: ConnectConfig = {
        host: bareHost(hop.host),
        port: hop.port,
        username: hop.username,
        sock,
        readyTimeout: 0, // our Deadline, which pauses during prompts, replaces ssh2's
        keepaliveInterval: opts.keepaliveIntervalMs ?? DEFAULT_KEEPALIVE_INTERVAL_MS,
        keepaliveCountMax: opts.keepaliveCountMax ?? DEFAULT_KEEPALIVE_COUNT_MAX,
        algorithms: preferred.length
          ? { serverHostKey: { remove: preferred, prepend: preferred } as never }
          : undefined,
        debug: opts.debug ? (line: string) => this.log(`[ssh2 ${hopName(hop)}] ${line}`) : undefined,
        // Runs after key exchange, before the ssh-userauth service is even requested: no
        // credential can leave before this resolves.
        hostVerifier: (key: Buffer, verify: (ok: boolean) => void) => {
          deadline.pause();
          verifyHostKey({
            store: opts.knownHosts,
            host: bareHost(hop.host),
            port: hop.port,
            keyBlob: key,
            confirmHostKey: opts.confirmHostKey,
            onNote: (n) => this.log(`known_hosts: ${n}`),
          }).then(
            (verdict) => {
              deadline.resume();
              if (verdict.status === 'added')
                this.log(
                  `added the host key of ${hopName(hop)} (${keyTypeLabel(keyTypeOfBlob(key) ?? '?')} ${fingerprintSha256(key)}) to ${verdict.file}:${verdict.line}`,
                );
              verify(true);
            },
            (error: Error) => {
              deadline.resume();
              hostKeyError = error;
              verify(false);
            },
          );
        },
        authHandler: (methodsLeft, _partial, next) => {
          deadline.pause();
          auth.next(methodsLeft).then(
            (method) => {
              deadline.resume();
              next(method as never);
            },
            (error: Error) => {
              deadline.resume();
              this.log(`authentication step failed: ${error.message}`);
              next(false as never);
            },
          );
        },
      };

      client.on('ready', () => {
        if (settled) return;
        settled = true;
        deadline.clear();
        // KVScope's traffic is small requests and answers: with Nagle on, a channel open that
        // follows a channel close waits for the server's delayed ACK — 40 ms per exec, measured
        // (45 ms → 4 ms per exec on loopback). A no-op for hops whose socket is a channel.
        client.setNoDelay(true);
        this.log(`connected to ${where} (${auth.succeeded()})`);
        resolve(client);
      });
      client.on('error', (e: Error & { level?: string; code?: string }) => {
        lastError = e;
      });
      client.on('close', () => {
        this.closedClients.add(client);
        if (settled) return;
        if (hostKeyError) return fail(hostKeyError);
        if (timedOut)
          return fail(
            new SshError(
              `timed out connecting to ${where} (TCP, key exchange or authentication took too long)`,
              'SSH_TIMEOUT',
            ),
          );
        const e = lastError;
        if (e?.level === 'client-authentication') {
          return fail(new SshError(`authentication failed for ${hopName(hop)}: ${auth.summary()}`, 'SSH_AUTH_FAILED'));
        }
        const code = e?.code;
        if (code === 'ECONNREFUSED')
          return fail(
            new SshError(
              `cannot reach ${where}: connection refused (is sshd running on port ${hop.port}?)`,
              'SSH_UNREACHABLE',
            ),
          );
        if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
          return fail(new SshError(`cannot reach ${where}: host name not found`, 'SSH_UNREACHABLE'));
        if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
          return fail(new SshError(`cannot reach ${where}: no route to host`, 'SSH_UNREACHABLE'));
        if (code === 'ETIMEDOUT')
          return fail(new SshError(`cannot reach ${where}: connection timed out`, 'SSH_UNREACHABLE'));
        if (code === 'ECONNRESET' || code === 'EPIPE')
          return fail(new SshError(`connection to ${where} was reset during the handshake`, 'SSH_HANDSHAKE'));
        if (e) return fail(new SshError(`ssh connection to ${where} failed: ${e.message}`, 'SSH_HANDSHAKE'));
        fail(new SshError(`ssh connection to ${where} closed during the handshake`, 'SSH_HANDSHAKE'));
      });

      this.log(`connecting to ${where}${sock ? ' (through the previous hop)' : ''}`);
      try {
        client.connect(config);
      } catch (error) {
        fail(error as Error);
      }
    });
  }

  // ---- authentication queue --------------------------------------------------------------------
  private authQueue(hop: SshHop) {
    const opts = this.options;
    type Step =
      | { kind: 'agent'; socket: string }
      | { kind: 'key'; file: string }
      | { kind: 'password' }
      | { kind: 'keyboard-interactive' };
    const steps: Step[] = [];
    const agentSocket = opts.agentSocket === undefined ? process.env.SSH_AUTH_SOCK : opts.agentSocket;
    if (agentSocket && !hop.identitiesOnly) steps.push({ kind: 'agent', socket: agentSocket });
    const files = hop.identityFiles ?? DEFAULT_IDENTITY_NAMES.map((n) => join(homedir(), '.ssh', n));
    for (const file of files) steps.push({ kind: 'key', file });
    if (opts.password) steps.push({ kind: 'password' }, { kind: 'keyboard-interactive' });

    const tried: string[] = [];
    let serverMethods: string[] | null = null;
    let current = '';
    const methodOf = (s: Step) => (s.kind === 'agent' || s.kind === 'key' ? 'publickey' : s.kind);
    const credential: CredentialRequest = { host: bareHost(hop.host), port: hop.port, username: hop.username };

    const getPassword = async (): Promise<string | undefined> => {
      const k = hopName(hop);
      if (!this.passwords.has(k)) {
        const pw = await opts.password?.(credential);
        if (pw !== undefined && pw !== '') registerSecret(pw);
        this.passwords.set(k, pw ?? null);
      }
      return this.passwords.get(k) ?? undefined;
    };

    let askedNone = false;
    const next = async (methodsLeft: string[] | null): Promise<unknown> => {
      if (methodsLeft) serverMethods = methodsLeft;
      // Like ssh(1): ask with "none" first to learn which methods the server accepts, so that no
      // password or passphrase is requested for a method the server would refuse anyway.
      if (methodsLeft === null && !askedNone) {
        askedNone = true;
        return { type: 'none', username: hop.username };
      }
      while (steps.length > 0) {
        const step = steps.shift() as Step;
        if (methodsLeft && !methodsLeft.includes(methodOf(step))) continue;
        switch (step.kind) {
          case 'agent':
            current = 'agent';
            tried.push('ssh-agent');
            this.log(`trying the ssh-agent keys for ${hopName(hop)}`);
            return { type: 'agent', username: hop.username, agent: step.socket };
          case 'key': {
            let data: Buffer;
            try {
              data = await readLocalFile(step.file);
            } catch (error) {
              if (hop.identityFiles)
                this.log(
                  `identity file ${step.file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}, skipped`,
                );
              continue;
            }
            let parsed = ssh2utils.parseKey(data);
            let passphrase: string | undefined;
            if (parsed instanceof Error && /encrypted|passphrase/i.test(parsed.message)) {
              if (!opts.passphrase) {
                this.log(`identity file ${step.file} is encrypted and no passphrase source is set, skipped`);
                tried.push(`key ${step.file} (encrypted, no passphrase)`);
                continue;
              }
              passphrase = await opts.passphrase({ keyFile: step.file });
              if (passphrase === undefined || passphrase === '') {
                tried.push(`key ${step.file} (encrypted, no passphrase given)`);
                continue;
              }
              registerSecret(passphrase);
              parsed = ssh2utils.parseKey(data, passphrase);
              if (parsed instanceof Error) {
                this.log(`identity file ${step.file}: wrong passphrase, skipped`);
                tried.push(`key ${step.file} (wrong passphrase)`);
                continue;
              }
            }
            const key = Array.isArray(parsed) ? parsed[0] : parsed;
            if (key instanceof Error || !key || !key.isPrivateKey()) {
              this.log(`identity file ${step.file} is not a private key ssh2 can use, skipped`);
              tried.push(`key ${step.file} (unusable)`);
              continue;
            }
            current = `key ${step.file}`;
            tried.push(current);
            this.log(`trying identity file ${step.file} for ${hopName(hop)}`);
            return { type: 'publickey', username: hop.username, key };
          }
          case 'password': {
            const pw = await getPassword();
            if (pw === undefined) continue;
            current = 'password';
            tried.push('password');
            this.log(`trying password authentication for ${hopName(hop)}`);
            return { type: 'password', username: hop.username, password: pw };
          }
          case 'keyboard-interactive': {
            const pw = await getPassword();
            if (pw === undefined) continue;
            current = 'keyboard-interactive';
            tried.push('keyboard-interactive');
            this.log(`trying keyboard-interactive authentication for ${hopName(hop)}`);
            return {
              type: 'keyboard-interactive',
              username: hop.username,
              // Answer password prompts with the password; anything else (an OTP) cannot be answered.
              prompt: (
                _name: string,
                _instructions: string,
                _lang: string,
                prompts: Array<{ prompt: string; echo?: boolean }>,
                finish: (answers: string[]) => void,
              ) => finish(prompts.map((p) => (!p.echo && /pass(word|code|phrase)?/i.test(p.prompt) ? pw : ''))),
            };
          }
        }
      }
      current = '';
      return false;
    };

    return {
      next,
      succeeded: () => (current ? `authenticated with ${current}` : 'authenticated'),
      summary: () => {
        const triedText = tried.length
          ? `tried ${tried.join(', ')}`
          : 'no usable credential (no agent, no readable identity file, no password)';
        const server = serverMethods ? `; the server accepts ${serverMethods.join(', ')}` : '';
        return triedText + server;
      },
    };
  }

  // ---- link state ----------------------------------------------------------------------------
  private onLinkLost(link: Link, reason: string): void {
    if (link.lost) return;
    link.lost = true;
    for (const c of [...link.clients].reverse()) c.end();
    if (this.link !== link || this.state !== 'up') return;
    this.state = 'down';
    this.log(reason);
    this.emit('down', reason);
    const auto = this.options.autoReconnect;
    if (auto)
      this.reconnect(typeof auto === 'object' ? auto : {}).catch((e: Error) =>
        this.log(`reconnect gave up: ${e.message}`),
      );
  }

  private emit(state: 'down' | 'up', reason?: string): void {
    for (const l of [...this.listeners]) {
      try {
        l(state, reason);
      } catch {
        // a listener's failure is its own
      }
    }
  }

  onLinkChange(listener: LinkListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Re-establish a dropped link (the whole jump chain, host keys verified again) with
   * exponential backoff and jitter; emits 'up' on success. Resolves at once when the link is
   * up; concurrent calls share one attempt loop. A refused host key or failed authentication
   * stops at once (retrying cannot fix them); giving up rejects with the last error.
   */
  reconnect(options: ReconnectOptions = {}): Promise<void> {
    if (this.state === 'closed') return Promise.reject(new SshError(`${this.label}: target is closed`, 'SSH_CLOSED'));
    if (this.state === 'up') return Promise.resolve();
    if (this.reconnecting) return this.reconnecting;
    const initial = options.initialDelayMs ?? DEFAULT_RECONNECT.initialDelayMs;
    const max = options.maxDelayMs ?? DEFAULT_RECONNECT.maxDelayMs;
    const attempts = options.maxAttempts ?? DEFAULT_RECONNECT.maxAttempts;
    const closeSignal = this.closeController.signal;
    const run = async () => {
      let lastError: Error | undefined;
      for (let attempt = 1; attempt <= attempts; attempt++) {
        if (closeSignal.aborted || options.signal?.aborted)
          throw new SshError(`${this.label}: reconnect cancelled`, 'SSH_CLOSED');
        if (attempt > 1) {
          const base = Math.min(max, initial * 2 ** (attempt - 2));
          const delay = base * (0.5 + Math.random() * 0.5);
          await sleep(delay, [closeSignal, options.signal]);
          if (closeSignal.aborted || options.signal?.aborted)
            throw new SshError(`${this.label}: reconnect cancelled`, 'SSH_CLOSED');
        }
        try {
          this.log(`reconnecting to ${this.label} (attempt ${attempt} of ${attempts})`);
          const link = await this.openChain();
          if (this.state === 'closed') {
            for (const c of [...link.clients].reverse()) c.end();
            throw new SshError(`${this.label}: target is closed`, 'SSH_CLOSED');
          }
          if (link.lost) throw new SshError(`${this.label}: the new link dropped at once`, 'SSH_LINK_DOWN');
          this.link = link;
          this.state = 'up';
          this.log(`link to ${this.label} is up again`);
          this.emit('up');
          return;
        } catch (error) {
          lastError = error as Error;
          const code = (error as { code?: string }).code ?? '';
          if (code.startsWith('HOST_KEY_') || code === 'SSH_AUTH_FAILED' || code === 'SSH_CLOSED') throw error;
          this.log(`reconnect attempt ${attempt} failed: ${lastError.message}`);
        }
      }
      throw lastError ?? new SshError(`${this.label}: could not reconnect`, 'SSH_LINK_DOWN');
    };
    this.reconnecting = run().finally(() => {
      this.reconnecting = undefined;
    });
    return this.reconnecting;
  }

  private currentLink(): Link {
    if (this.state === 'closed') throw new SshError(`${this.label}: target is closed`, 'SSH_CLOSED');
    if (this.state !== 'up' || !this.link || this.link.lost)
      throw new SshError(`${this.label}: ssh link is down`, 'SSH_LINK_DOWN');
    return this.link;
  }

  /**
   * Open an exec channel. `onExit` is attached synchronously in ssh2's callback: the exit-status
   * request often arrives in the same TCP read as the channel confirmation, and ssh2 emits
   * 'exit' as a plain event while parsing it — a listener attached after an `await` misses it.
   */
  private openExec(
    link: Link,
    command: string,
    onExit: (code: number | null, signal: string | null) => void,
  ): Promise<ClientChannel> {
    return new Promise((resolve, reject) => {
      link.client.exec(command, (err, channel) => {
        if (err)
          return reject(
            link.lost
              ? new SshError(`${this.label}: ssh link is down`, 'SSH_LINK_DOWN')
              : new SshError(`cannot open a channel on ${this.label}: ${err.message}`, 'SSH_CHANNEL'),
          );
        // Node's autoDestroy would call ssh2's Channel.destroy() — which sends CHANNEL_CLOSE — as
        // soon as the server's EOF ends stdout and our stdin is finished. sshd sends exit-status
        // only after it reaps the command, so under load our CLOSE wins the race and the exit
        // status is lost (code null). Like ssh(1), wait for the server's CLOSE instead.
        const state = channel as unknown as {
          _readableState?: { autoDestroy: boolean };
          _writableState?: { autoDestroy: boolean };
        };
        if (state._readableState) state._readableState.autoDestroy = false;
        if (state._writableState) state._writableState.autoDestroy = false;
        channel.on('exit', (c: number | null, sig?: string) => onExit(typeof c === 'number' ? c : null, sig ?? null));
        resolve(channel);
      });
    });
  }

  // ---- Target: exec / stream -----------------------------------------------------------------
  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (options.signal?.aborted) throw abortError();
    const release = await this.sessions.acquire();
    let channel: ClientChannel;
    let code: number | null = null;
    let signal: string | null = null;
    let sawExit = false;
    try {
      const link = this.currentLink();
      channel = await this.openExec(link, command, (c, sig) => {
        sawExit = true;
        code = c;
        signal = sig;
      });
    } catch (error) {
      release();
      throw error;
    }
    const link = this.link as Link;
    return new Promise<ExecResult>((resolve, reject) => {
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        fn();
      };
      // Timeout/abort: ask the server to kill the command, close the channel and answer at once.
      // The session slot is released only when the server has really closed the channel.
      const stop = (why: Error) =>
        settle(() => {
          try {
            sendChannelSignal(channel, 'KILL');
          } catch {
            // an unsupported signal name cannot happen here; a closing channel is fine
          }
          channel.close();
          reject(why);
        });
      const onAbort = () => stop(abortError());
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.timeoutMs !== undefined)
        timer = setTimeout(
          () => stop(errnoError(`command timed out after ${options.timeoutMs} ms on ${this.label}`, 'ETIMEDOUT')),
          options.timeoutMs,
        );
      channel.on('data', (d: Buffer) => out.push(d));
      channel.stderr.on('data', (d: Buffer) => err.push(d));
      channel.on('close', () => {
        release();
        settle(() => {
          if (!sawExit && link.lost)
            reject(new SshError(`${this.label}: ssh link lost while running a command`, 'SSH_LINK_DOWN'));
          else resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err), code, signal });
        });
      });
      channel.on('error', () => {
        // errors surface as close without exit
      });
      if (options.stdin !== undefined) channel.end(options.stdin);
      else channel.end();
    });
  }

  stream(command: string, options: StreamOptions = {}): RemoteProcess & { readonly failure: Promise<Error | null> } {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const stdin = new PassThrough();
    let channel: ClientChannel | undefined;
    let pendingSignal: string | undefined;
    let finished = false;
    let resolveExit!: (v: { code: number | null; signal: string | null }) => void;
    let resolveFailure!: (e: Error | null) => void;
    const exit = new Promise<{ code: number | null; signal: string | null }>((r) => (resolveExit = r));
    const failure = new Promise<Error | null>((r) => (resolveFailure = r));

    const sendSignal = (name: string) => {
      if (!channel) {
        pendingSignal = name;
        return;
      }
      try {
        sendChannelSignal(channel, name);
      } catch (e) {
        this.log(`cannot signal the command on ${this.label}: ${(e as Error).message}`);
      }
    };
    const onAbort = () => {
      sendSignal('TERM');
      channel?.close();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    void (async () => {
      const release = await this.sessions.acquire();
      try {
        if (options.signal?.aborted) throw abortError();
        const link = this.currentLink();
        let code: number | null = null;
        let signal: string | null = null;
        const ch = await this.openExec(link, command, (c, sig) => {
          code = c;
          signal = sig;
        });
        channel = ch;
        if (pendingSignal) sendSignal(pendingSignal);
        ch.pipe(stdout);
        ch.stderr.pipe(stderr);
        stdin.pipe(ch);
        ch.on('error', () => {
          // surfaces as close
        });
        await new Promise<void>((resolve) => ch.on('close', () => resolve()));
        finished = true;
        stdin.unpipe(ch);
        if (!stdout.writableEnded) stdout.end();
        if (!stderr.writableEnded) stderr.end();
        resolveFailure(null);
        resolveExit({ code, signal });
      } catch (error) {
        const e = redactError(error);
        if (!finished) {
          stderr.write(`kvscope: could not start the command on ${this.label}: ${e.message}\n`);
          stdout.end();
          stderr.end();
        }
        resolveFailure(e);
        resolveExit({ code: null, signal: null });
      } finally {
        options.signal?.removeEventListener('abort', onAbort);
        release();
      }
    })();

    return {
      stdout,
      stderr,
      stdin,
      exit,
      failure,
      kill: (signal: NodeJS.Signals = 'SIGTERM') => sendSignal(signalName(signal)),
    };
  }

  // ---- Target: files -------------------------------------------------------------------------
  private getSftp(link: Link): Promise<SFTPWrapper | null> {
    if (this.options.sftp === false) return Promise.resolve(null);
    if (!link.sftp) {
      link.sftp = new Promise((resolve) => {
        link.client.sftp((err, sftp) => {
          if (err) {
            this.log(`SFTP is not available on ${this.label} (${err.message}); using exec for files`);
            resolve(null);
          } else {
            sftp.on('error', () => undefined);
            sftp.on('close', () => {
              if (this.link === link) link.sftp = undefined;
            });
            resolve(sftp);
          }
        });
      });
    }
    return link.sftp;
  }

  async readFile(path: string, options: ReadOptions = {}): Promise<Buffer> {
    const offset = options.offset ?? 0;
    const length = options.length;
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw new RangeError(`offset must be a whole number ≥ 0, got ${offset}`);
    if (length !== undefined && (!Number.isSafeInteger(length) || length < 0))
      throw new RangeError(`length must be a whole number ≥ 0, got ${length}`);
    if (length === 0) return Buffer.alloc(0);
    const link = this.currentLink();
    const sftp = await this.getSftp(link);
    if (sftp) return this.sftpRead(sftp, path, offset, length);
    return this.execRead(path, offset, length);
  }

  private async execRead(path: string, offset: number, length: number | undefined): Promise<Buffer> {
    // `exec 3<` opens the file in the shell first, so a missing file is an error (a pipeline's
    // status would be head's); `tail -c +N` and `head -c N` exist in busybox and coreutils.
    let cmd = `exec 3< ${shellQuote(path)} || exit 66; `;
    const source = offset > 0 ? `tail -c +${offset + 1} <&3` : 'cat <&3';
    cmd += length !== undefined ? `${source} | head -c ${length}` : source;
    const r = await this.exec(cmd);
    if (r.code !== 0) {
      const text = firstLine(r.stderr) || `exit status ${r.code}`;
      throw errnoError(`cannot read ${path} on ${this.label}: ${text}`, codeFromText(text));
    }
    return r.stdout;
  }

  private sftpRead(sftp: SFTPWrapper, path: string, offset: number, length: number | undefined): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      sftp.open(path, 'r', (err, handle) => {
        if (err) return reject(sftpError(err, `cannot read ${path} on ${this.label}`));
        sftp.fstat(handle, (statErr, stats) => {
          // Regular files: read up to the size in parallel. procfs/sysfs report size 0 and
          // are read until a 0-byte read (EOF), the same way.
          const size = !statErr && stats.isFile() && stats.size > 0 ? stats.size : undefined;
          let end = length !== undefined ? offset + length : Infinity;
          if (size !== undefined) end = Math.min(end, size);
          const pieces = new Map<number, Buffer>();
          const retry: Array<[number, number]> = [];
          let nextPos = offset;
          let inFlight = 0;
          let eofAt = Infinity;
          let failed: Error | undefined;
          let done = false;
          const finish = () => {
            if (done) return;
            done = true;
            sftp.close(handle, () => undefined);
            if (failed) return reject(failed);
            const parts: Buffer[] = [];
            let pos = offset;
            const limit = Math.min(end, eofAt);
            while (pos < limit) {
              const p = pieces.get(pos);
              if (!p) break;
              const take = p.subarray(0, Math.min(p.length, limit - pos));
              parts.push(take);
              pos += take.length;
            }
            resolve(Buffer.concat(parts));
          };
          const pump = () => {
            if (done) return;
            // Unknown size (procfs, sysfs): one request at a time, until a 0-byte read.
            const window = size === undefined ? 1 : SFTP_WINDOW;
            while (!failed && inFlight < window) {
              let pos: number;
              let len: number;
              if (retry.length) [pos, len] = retry.shift() as [number, number];
              else {
                const limit = Math.min(end, eofAt);
                if (nextPos >= limit) break;
                pos = nextPos;
                len = Math.min(SFTP_CHUNK_BYTES, limit - pos);
                nextPos += len;
              }
              if (pos >= eofAt) continue;
              inFlight++;
              const buf = Buffer.allocUnsafe(len);
              sftp.read(handle, buf, 0, len, pos, (readErr, bytesRead) => {
                inFlight--;
                if (readErr) failed ??= sftpError(readErr, `cannot read ${path} on ${this.label}`);
                else if (bytesRead === 0) eofAt = Math.min(eofAt, pos);
                else {
                  pieces.set(pos, buf.subarray(0, bytesRead));
                  if (bytesRead < len) {
                    if (size === undefined) retry.push([pos + bytesRead, len - bytesRead]);
                    else if (pos + bytesRead < Math.min(end, size)) retry.push([pos + bytesRead, len - bytesRead]);
                  }
                }
                if (inFlight === 0 && (failed || (retry.length === 0 && nextPos >= Math.min(end, eofAt)))) finish();
                else pump();
              });
            }
            if (inFlight === 0) finish();
          };
          pump();
        });
      });
    });
  }

  async writeFile(path: string, data: string | Buffer, mode?: number): Promise<void> {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (mode !== undefined && (!Number.isInteger(mode) || mode < 0 || mode > 0o7777))
      throw new RangeError(`invalid file mode ${mode}`);
    const link = this.currentLink();
    const sftp = await this.getSftp(link);
    if (sftp) return this.sftpWrite(sftp, path, buf, mode);
    const chmod = mode !== undefined ? ` && chmod ${mode.toString(8)} ${shellQuote(path)}` : '';
    const r = await this.exec(`cat > ${shellQuote(path)}${chmod}`, { stdin: buf });
    if (r.code !== 0) {
      const text = firstLine(r.stderr) || `exit status ${r.code}`;
      throw errnoError(`cannot write ${path} on ${this.label}: ${text}`, codeFromText(text));
    }
  }

  private sftpWrite(sftp: SFTPWrapper, path: string, data: Buffer, mode: number | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      sftp.open(path, 'w', mode !== undefined ? { mode } : {}, (err, handle) => {
        if (err) return reject(sftpError(err, `cannot write ${path} on ${this.label}`));
        let pos = 0;
        let inFlight = 0;
        let failed: Error | undefined;
        let closing = false;
        const close = () => {
          if (closing) return;
          closing = true;
          sftp.close(handle, (closeErr) => {
            if (failed) return reject(failed);
            if (closeErr) return reject(sftpError(closeErr, `cannot write ${path} on ${this.label}`));
            // open()'s mode applies only to a new file and passes through the umask: set it.
            if (mode === undefined) return resolve();
            sftp.chmod(path, mode, (chErr) =>
              chErr ? reject(sftpError(chErr, `cannot chmod ${path} on ${this.label}`)) : resolve(),
            );
          });
        };
        const pump = () => {
          while (!failed && inFlight < SFTP_WINDOW && pos < data.length) {
            const len = Math.min(SFTP_CHUNK_BYTES, data.length - pos);
            const at = pos;
            pos += len;
            inFlight++;
            sftp.write(handle, data, at, len, at, (wErr) => {
              inFlight--;
              if (wErr) failed ??= sftpError(wErr, `cannot write ${path} on ${this.label}`);
              if (inFlight === 0 && (failed || pos >= data.length)) close();
              else pump();
            });
          }
          if (inFlight === 0 && (failed || pos >= data.length)) close();
        };
        pump();
      });
    });
  }

  // ---- Target: signals, ports ----------------------------------------------------------------
  async signal(pid: number, signal: NodeJS.Signals): Promise<void> {
    if (!Number.isSafeInteger(pid) || pid === 0 || pid === -1) throw new RangeError(`invalid pid ${pid}`);
    // `kill -TERM -123` signals process group 123 in dash, bash and busybox ash alike
    // (busybox rejects `kill -s TERM -- -123`).
    const r = await this.exec(`kill -${signalName(signal)} ${pid}`);
    if (r.code !== 0) {
      const text = firstLine(r.stderr) || `exit status ${r.code}`;
      throw errnoError(
        `cannot send ${signal} to ${pid < 0 ? 'process group ' + -pid : 'process ' + pid} on ${this.label}: ${text}`,
        codeFromText(text),
      );
    }
  }

  async forwardPort(remoteHost: string, remotePort: number): Promise<{ localPort: number; close(): Promise<void> }> {
    if (!Number.isInteger(remotePort) || remotePort < 1 || remotePort > 65535)
      throw new RangeError(`invalid port ${remotePort}`);
    this.currentLink();
    const sockets = new Set<Socket>();
    const server: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      let link: Link;
      try {
        link = this.currentLink();
      } catch {
        socket.destroy();
        return;
      }
      link.client.forwardOut('127.0.0.1', socket.remotePort ?? 0, remoteHost, remotePort, (err, channel) => {
        if (err) {
          this.log(`port forward to ${remoteHost}:${remotePort} on ${this.label} failed: ${err.message}`);
          socket.destroy();
          return;
        }
        socket.pipe(channel).pipe(socket);
        socket.on('error', () => channel.close());
        channel.on('error', () => socket.destroy());
        channel.on('close', () => socket.destroy());
        socket.on('close', () => channel.close());
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    const localPort = typeof address === 'object' && address ? address.port : 0;
    const handle = {
      localPort,
      close: async () => {
        this.forwards.delete(handle);
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
    this.forwards.add(handle);
    return handle;
  }

  /** Close every channel and the whole chain (innermost first). Idempotent. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.closeController.abort();
    await Promise.all([...this.forwards].map((f) => f.close()));
    const link = this.link;
    if (!link) return;
    link.lost = true;
    const closed = link.clients.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (this.closedClients.has(c)) return resolve();
          c.once('close', () => resolve());
        }),
    );
    for (const c of [...link.clients].reverse()) c.end();
    // A peer that never answers our disconnect must not keep close() waiting.
    const forced = setTimeout(() => link.clients.forEach((c) => c.destroy()), 2000);
    await Promise.all(closed);
    clearTimeout(forced);
  }
}

function sftpError(err: Error & { code?: number | string }, prefix: string): NodeJS.ErrnoException {
  // SFTP status codes (draft-ietf-secsh-filexfer-02 §7): 2 no such file, 3 permission denied.
  const code = err.code === 2 ? 'ENOENT' : err.code === 3 ? 'EACCES' : 'EIO';
  return errnoError(`${prefix}: ${err.message}`, code);
}

function abortError(): Error {
  const e = new Error('the operation was aborted');
  e.name = 'AbortError';
  (e as NodeJS.ErrnoException).code = 'ABORT_ERR';
  return e;
}

function sleep(ms: number, signals: Array<AbortSignal | undefined>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      for (const s of signals) s?.removeEventListener('abort', done);
      resolve();
    }
    for (const s of signals) s?.addEventListener('abort', done, { once: true });
  });
}
