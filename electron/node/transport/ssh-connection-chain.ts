// The connection chain of an SshTarget (ssh-target.ts): one ssh2 Client per hop, outermost first,
// each jump host's forwardOut stream carrying the next hop (ProxyJump), the last one the board.
//
// Order of a connection, as Tabby does it and as ssh(1) does it:
//   TCP (or the previous hop's forwardOut stream) → key exchange → host key verified against
//   known_hosts (known-hosts.ts) → only then authentication (ssh-auth-queue.ts).
import type { Duplex } from 'node:stream';
import ssh2, { type ConnectConfig, type SFTPWrapper } from 'ssh2';
import { redactError } from '../util/redact';
import { fingerprintSha256, keyTypeLabel, keyTypeOfBlob, verifyHostKey } from './known-hosts';
import { createAuthQueue } from './ssh-auth-queue';
import { SshError } from './ssh-errors';
import {
  bareHost,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_KEEPALIVE_COUNT_MAX,
  DEFAULT_KEEPALIVE_INTERVAL_MS,
  hopName,
  type SshHop,
  type SshTargetOptions,
} from './ssh-options';

// ssh2 is CommonJS: Node's ESM loader (the CLI runs under tsx) cannot see all of its named exports.
const { Client } = ssh2;
export type SshClient = InstanceType<typeof Client>;

/** One established chain. */
export interface Link {
  /** Outermost first; the last one is the board. */
  clients: SshClient[];
  /** The board's client: channels are opened on it. */
  client: SshClient;
  /** Clients that have emitted 'close' (a hop can close while the next one connects). */
  closed: WeakSet<SshClient>;
  /** The link's SFTP session, opened on first use (ssh-sftp.ts). */
  sftp?: Promise<SFTPWrapper | null>;
  /** Set once any hop closed: the link is unusable from then on. */
  lost: boolean;
}

export interface ChainContext {
  options: SshTargetOptions;
  /** The target's label, for messages. */
  label: string;
  /** Passwords by hop name, asked once per target (ssh-auth-queue.ts). */
  passwords: Map<string, string | null>;
  log: (line: string) => void;
  /** Called once when any hop of an established link closes. */
  onLost: (link: Link, reason: string) => void;
  /** Aborted: the chain is abandoned where it is (no hop is left connecting or connected). */
  signal?: AbortSignal;
}

function abandoned(label: string): SshError {
  return new SshError(`${label}: connection abandoned`, 'SSH_CLOSED');
}

/** Connect every hop in order and return the established link. */
export async function openChain(context: ChainContext): Promise<Link> {
  const { options, label } = context;
  const hops = [...(options.jumps ?? []), options.target];
  const clients: SshClient[] = [];
  const closed = new WeakSet<SshClient>();
  let sock: Duplex | undefined;
  try {
    for (const [i, hop] of hops.entries()) {
      const next = hops[i + 1];
      const client = await connectHop(context, hop, sock, next ? 'jump host' : 'host', closed);
      clients.push(client);
      if (context.signal?.aborted) throw abandoned(label);
      if (next) sock = await forwardThrough(client, hop, next);
    }
    // A hop that closed while the next one was connecting (its own 'close' came before the
    // listeners below exist) makes the chain unusable.
    if (clients.some((c) => closed.has(c)))
      throw new SshError(`${label}: a hop of the chain closed while connecting`, 'SSH_LINK_DOWN');
  } catch (error) {
    for (const c of clients.reverse()) c.end();
    throw error;
  }
  const board = clients.at(-1);
  if (!board) throw new SshError(`${label}: no host to connect to`, 'SSH_HANDSHAKE');
  const link: Link = { clients, client: board, closed, lost: false };
  for (const c of clients) {
    let lastError: Error | undefined;
    c.on('error', (e: Error) => {
      lastError = e;
    });
    c.on('close', () =>
      context.onLost(link, lastError ? `ssh link lost: ${lastError.message}` : 'ssh link lost: connection closed'),
    );
  }
  return link;
}

/** End every hop, innermost first. */
export function endChain(link: Link): void {
  for (const c of [...link.clients].reverse()) c.end();
}

function forwardThrough(client: SshClient, via: SshHop, next: SshHop): Promise<Duplex> {
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

/** Host key algorithms to prefer: the types known_hosts already holds for this host. */
function hostKeyAlgorithmsFor(keyTypes: string[]): string[] {
  const out: string[] = [];
  for (const t of keyTypes) {
    if (t === 'ssh-rsa') out.push('rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa');
    else if (t === 'ssh-ed25519' || t.startsWith('ecdsa-sha2-nistp')) out.push(t);
  }
  return [...new Set(out)];
}

/** Why a hop's connection closed before 'ready', as a message a user can act on. */
function handshakeError(
  where: string,
  hop: SshHop,
  e: (Error & { level?: string; code?: string }) | undefined,
  authSummary: () => string,
): SshError {
  if (e?.level === 'client-authentication')
    return new SshError(`authentication failed for ${hopName(hop)}: ${authSummary()}`, 'SSH_AUTH_FAILED');
  switch (e?.code) {
    case 'ECONNREFUSED':
      return new SshError(
        `cannot reach ${where}: connection refused (is sshd running on port ${hop.port}?)`,
        'SSH_UNREACHABLE',
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new SshError(`cannot reach ${where}: host name not found`, 'SSH_UNREACHABLE');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new SshError(`cannot reach ${where}: no route to host`, 'SSH_UNREACHABLE');
    case 'ETIMEDOUT':
      return new SshError(`cannot reach ${where}: connection timed out`, 'SSH_UNREACHABLE');
    case 'ECONNRESET':
    case 'EPIPE':
      return new SshError(`connection to ${where} was reset during the handshake`, 'SSH_HANDSHAKE');
  }
  // ssh2's words when the TCP connection closed before the server's banner: something listens
  // there that is no sshd, or sshd refused at once (MaxStartups, TCP wrappers, a firewall's reset).
  if (e?.message === 'Connection lost before handshake')
    return new SshError(
      `${where} closed the connection before the SSH greeting (is port ${hop.port} an sshd? sshd's MaxStartups, TCP wrappers or a firewall can also do this)`,
      'SSH_HANDSHAKE',
    );
  if (e) return new SshError(`ssh connection to ${where} failed: ${e.message}`, 'SSH_HANDSHAKE');
  return new SshError(`ssh connection to ${where} closed during the handshake`, 'SSH_HANDSHAKE');
}

async function connectHop(
  context: ChainContext,
  hop: SshHop,
  sock: Duplex | undefined,
  role: string,
  closed: WeakSet<SshClient>,
): Promise<SshClient> {
  const { options: opts, log, signal } = context;
  const where = `${role} ${hopName(hop)}`;
  // The name known_hosts holds the key under: HostKeyAlias as it is (port 22 adds no `[…]:port`).
  const keyHost = hop.hostKeyAlias ?? bareHost(hop.host);
  const keyPort = hop.hostKeyAlias ? 22 : hop.port;
  const knownTypes = await opts.knownHosts.knownKeyTypes(keyHost, keyPort).catch(() => []);
  if (signal?.aborted) throw abandoned(context.label);
  const preferred = hostKeyAlgorithmsFor(knownTypes);
  const auth = createAuthQueue(hop, {
    callbacks: opts,
    agentSocket: opts.agentSocket,
    passwords: context.passwords,
    log,
  });

  return new Promise<SshClient>((resolve, reject) => {
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
    // Abandoned (context.signal): the sockets go at once, whatever the hop was waiting for.
    const abandon = () => {
      client.destroy();
      sock?.destroy();
    };
    signal?.addEventListener('abort', abandon, { once: true });
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      deadline.clear();
      signal?.removeEventListener('abort', abandon);
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
      algorithms: preferred.length ? { serverHostKey: { remove: preferred, prepend: preferred } as never } : undefined,
      debug: opts.debug ? (line: string) => log(`[ssh2 ${hopName(hop)}] ${line}`) : undefined,
      // Runs after key exchange, before the ssh-userauth service is even requested: no
      // credential can leave before this resolves.
      hostVerifier: (key: Buffer, verify: (ok: boolean) => void) => {
        deadline.pause();
        verifyHostKey({
          store: opts.knownHosts,
          host: keyHost,
          port: keyPort,
          keyBlob: key,
          confirmHostKey: opts.confirmHostKey,
          onNote: (n) => log(`known_hosts: ${n}`),
        }).then(
          (verdict) => {
            deadline.resume();
            if (verdict.status === 'added')
              log(
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
            log(`authentication step failed: ${error.message}`);
            next(false as never);
          },
        );
      },
    };

    client.on('ready', () => {
      if (settled) return;
      settled = true;
      deadline.clear();
      signal?.removeEventListener('abort', abandon);
      // KVScope's traffic is small requests and answers: with Nagle on, a channel open that
      // follows a channel close waits for the server's delayed ACK — 40 ms per exec, measured
      // (45 ms → 4 ms per exec on loopback). A no-op for hops whose socket is a channel.
      client.setNoDelay(true);
      log(`connected to ${where} (${auth.succeeded()})`);
      resolve(client);
    });
    client.on('error', (e: Error & { level?: string; code?: string }) => {
      lastError = e;
    });
    client.on('close', () => {
      closed.add(client);
      if (settled) return;
      if (signal?.aborted) return fail(abandoned(context.label));
      if (hostKeyError) return fail(hostKeyError);
      if (timedOut)
        return fail(
          new SshError(
            `timed out connecting to ${where} (TCP, key exchange or authentication took too long)`,
            'SSH_TIMEOUT',
          ),
        );
      fail(handshakeError(where, hop, lastError, () => auth.summary()));
    });

    log(`connecting to ${where}${sock ? ' (through the previous hop)' : ''}`);
    try {
      client.connect(config);
    } catch (error) {
      fail(error as Error);
    }
  });
}
