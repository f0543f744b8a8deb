// The life of an SshTarget's link (ssh-target.ts): connecting → up → down (a hop closed or
// keepalive gave up) → up again after reconnect(), or closed. Channels ask currentLink() for the
// link to open on; it throws SSH_LINK_DOWN / SSH_CLOSED instead of handing out a dead one.
import { redact } from '../util/redact';
import { endChain, openChain, type Link } from './ssh-connection-chain';
import { SshError } from './ssh-errors';
import { DEFAULT_RECONNECT, type ReconnectOptions, type SshTargetOptions } from './ssh-options';

export type LinkState = 'connecting' | 'up' | 'down' | 'closed';
export type LinkListener = (state: 'down' | 'up', reason?: string) => void;

/** Ask a peer that never answers our disconnect no longer than this before destroying the sockets. */
const CLOSE_GRACE_MS = 2000;

export class SshLink {
  private state: LinkState = 'connecting';
  private link: Link | undefined;
  private reconnecting: Promise<void> | undefined;
  private readonly listeners = new Set<LinkListener>();
  /** Passwords by hop name: asked once, reused by reconnects. */
  private readonly passwords = new Map<string, string | null>();
  private readonly closeController = new AbortController();

  constructor(
    private readonly options: SshTargetOptions,
    private readonly label: string,
  ) {}

  get linkState(): LinkState {
    return this.state;
  }

  /** Aborted when close() starts: long waits (reconnect backoff) end with it. */
  get closeSignal(): AbortSignal {
    return this.closeController.signal;
  }

  log(line: string): void {
    this.options.log?.(redact(line));
  }

  /** The first connection. Rejects (state 'closed') when it fails or options.connectSignal abandons it. */
  async open(): Promise<void> {
    try {
      this.link = await this.openChain(this.options.connectSignal);
      this.state = 'up';
    } catch (error) {
      this.state = 'closed';
      throw error;
    }
  }

  /** The link channels are opened on; throws when it is down or closed. */
  current(): Link {
    if (this.state === 'closed') throw new SshError(`${this.label}: target is closed`, 'SSH_CLOSED');
    if (this.state !== 'up' || !this.link || this.link.lost)
      throw new SshError(`${this.label}: ssh link is down`, 'SSH_LINK_DOWN');
    return this.link;
  }

  onChange(listener: LinkListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private openChain(signal?: AbortSignal): Promise<Link> {
    return openChain({
      options: this.options,
      label: this.label,
      passwords: this.passwords,
      log: (line) => this.log(line),
      onLost: (link, reason) => this.onLost(link, reason),
      signal,
    });
  }

  private onLost(link: Link, reason: string): void {
    if (link.lost) return;
    link.lost = true;
    endChain(link);
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
    this.reconnecting = this.reconnectLoop(options).finally(() => {
      this.reconnecting = undefined;
    });
    return this.reconnecting;
  }

  private async reconnectLoop(options: ReconnectOptions): Promise<void> {
    const initial = options.initialDelayMs ?? DEFAULT_RECONNECT.initialDelayMs;
    const max = options.maxDelayMs ?? DEFAULT_RECONNECT.maxDelayMs;
    const attempts = options.maxAttempts ?? DEFAULT_RECONNECT.maxAttempts;
    const closeSignal = this.closeController.signal;
    const cancelled = () => closeSignal.aborted || options.signal?.aborted === true;
    let lastError: Error | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (cancelled()) throw new SshError(`${this.label}: reconnect cancelled`, 'SSH_CLOSED');
      if (attempt > 1) {
        const base = Math.min(max, initial * 2 ** (attempt - 2));
        const delay = base * (0.5 + Math.random() * 0.5);
        await sleep(delay, [closeSignal, options.signal]);
        if (cancelled()) throw new SshError(`${this.label}: reconnect cancelled`, 'SSH_CLOSED');
      }
      try {
        this.log(`reconnecting to ${this.label} (attempt ${attempt} of ${attempts})`);
        const link = await this.openChain();
        // close() may have run while the chain was connecting: the state changes behind our back.
        if (this.state === 'closed') {
          endChain(link);
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
  }

  /** Mark the link closed at once (no channel opens from now on); true the first time. */
  markClosed(): boolean {
    if (this.state === 'closed') return false;
    this.state = 'closed';
    this.closeController.abort();
    return true;
  }

  /** End the chain (innermost first) and wait for every hop to close. Call after markClosed(). */
  async endLink(): Promise<void> {
    const link = this.link;
    if (!link) return;
    link.lost = true;
    const closed = link.clients.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (link.closed.has(c)) return resolve();
          c.once('close', () => resolve());
        }),
    );
    endChain(link);
    const forced = setTimeout(() => link.clients.forEach((c) => c.destroy()), CLOSE_GRACE_MS);
    await Promise.all(closed);
    clearTimeout(forced);
  }
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
