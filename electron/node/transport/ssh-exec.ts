// Commands on an SshTarget's board (ssh-target.ts): exec (collect the output), stream (hand it
// over while it runs) and signal (kill a process or a process group).
//
// Facts about ssh2 + OpenSSH this file relies on (test/integration/ssh/ssh-target.test.ts checks them):
// - the exec command is run by the remote login shell as `$SHELL -c <command>`: exec/stream wrap
//   nothing, callers quote with shellQuote;
// - an exec channel nobody reads never emits `close` (the window fills): exec() reads both
//   streams; stream() hands them to the caller, who must read (or resume) both;
// - closing a channel without a pty does NOT kill the remote process: kill() sends a `signal`
//   channel request (OpenSSH ≥ 7.9); for process trees use signal(-pgid);
// - OpenSSH allows MaxSessions=10 session channels per connection by default: at most
//   MAX_SESSION_CHANNELS exec/stream channels are open at once, others wait; SFTP holds one more.
import { PassThrough } from 'node:stream';
import type { ClientChannel } from 'ssh2';
import { redactError } from '../util/redact';
import type { Link } from './ssh-connection-chain';
import { abortError, errnoError, remoteCommandError, SshError } from './ssh-errors';
import type { SshLink } from './ssh-link';
import { MAX_SESSION_CHANNELS } from './ssh-options';
import type { ExecOptions, ExecResult, RemoteProcess, StreamOptions } from './target';

export type SshRemoteProcess = RemoteProcess & {
  /** Resolves null when the command ran, or the error that kept it from starting (link down…). */
  readonly failure: Promise<Error | null>;
};

/** A counting semaphore: at most `size` holders, the others wait in order. */
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

/** `SIGTERM`, `term` → `TERM`; anything that is not a signal name is refused before it is sent. */
export function signalName(signal: string): string {
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

export class SshExec {
  private readonly sessions = new Semaphore(MAX_SESSION_CHANNELS);

  constructor(
    private readonly link: SshLink,
    private readonly label: string,
  ) {}

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

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (options.signal?.aborted) throw abortError();
    const release = await this.sessions.acquire();
    let link: Link;
    let channel: ClientChannel;
    let code: number | null = null;
    let signal: string | null = null;
    let sawExit = false;
    try {
      link = this.link.current();
      channel = await this.openExec(link, command, (c, sig) => {
        sawExit = true;
        code = c;
        signal = sig;
      });
    } catch (error) {
      release();
      throw error;
    }
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

  stream(command: string, options: StreamOptions = {}): SshRemoteProcess {
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
        this.link.log(`cannot signal the command on ${this.label}: ${(e as Error).message}`);
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
        const link = this.link.current();
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

  /** Signal a process (pid > 0) or a process group (pid < 0) with the board's kill(1). */
  async signal(pid: number, signal: NodeJS.Signals): Promise<void> {
    if (!Number.isSafeInteger(pid) || pid === 0 || pid === -1) throw new RangeError(`invalid pid ${pid}`);
    // `kill -TERM -123` signals process group 123 in dash, bash and busybox ash alike
    // (busybox rejects `kill -s TERM -- -123`).
    const r = await this.exec(`kill -${signalName(signal)} ${pid}`);
    if (r.code !== 0)
      throw remoteCommandError(
        `cannot send ${signal} to ${pid < 0 ? 'process group ' + -pid : 'process ' + pid} on ${this.label}`,
        r,
      );
  }
}
