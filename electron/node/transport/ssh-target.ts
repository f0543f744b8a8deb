// The SSH implementation of Target (target.ts), on ssh2. One connection per board (one chain
// when jump hosts are involved), many channels over it. This class only composes the roles:
//   ssh-options.ts           what a target is built from, the defaults and their reasons
//   ssh-connection-chain.ts  TCP / ProxyJump hops, host key check, handshake errors
//   ssh-auth-queue.ts        agent, identity files, password, keyboard-interactive
//   ssh-link.ts              link state, 'down'/'up' events, reconnect with backoff, close
//   ssh-exec.ts              exec, stream, signal (and the channel limit)
//   ssh-sftp.ts              readFile / writeFile over SFTP, exec as the fallback
//   ssh-forward.ts           local port forwards
import { redactError } from '../util/redact';
import { SshExec, type SshRemoteProcess } from './ssh-exec';
import { SshForwards, type PortForward } from './ssh-forward';
import { SshLink, type LinkListener, type LinkState } from './ssh-link';
import { hopName, type ReconnectOptions, type SshTargetOptions } from './ssh-options';
import { SshFiles } from './ssh-sftp';
import type { ExecOptions, ExecResult, ReadOptions, StreamOptions, Target } from './target';

// What callers import from here (the module's public surface before the split).
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_KEEPALIVE_COUNT_MAX,
  DEFAULT_KEEPALIVE_INTERVAL_MS,
  DEFAULT_RECONNECT,
  MAX_SESSION_CHANNELS,
  type CredentialRequest,
  type ReconnectOptions,
  type SshCallbacks,
  type SshHop,
  type SshTargetOptions,
} from './ssh-options';
export { SshError, type SshErrorCode } from './ssh-errors';
export type { LinkState } from './ssh-link';

export class SshTarget implements Target {
  readonly kind = 'ssh' as const;
  readonly id: string;
  readonly label: string;

  private readonly link: SshLink;
  private readonly commands: SshExec;
  private readonly files: SshFiles;
  private readonly forwards: SshForwards;

  private constructor(options: SshTargetOptions) {
    this.id = options.id ?? `ssh:${hopName(options.target)}`;
    this.label = options.label ?? hopName(options.target);
    this.link = new SshLink(options, this.label);
    this.commands = new SshExec(this.link, this.label);
    this.files = new SshFiles(this.link, this.commands, this.label, options.sftp !== false);
    this.forwards = new SshForwards(this.link, this.label);
  }

  /** Connect (TCP, key exchange, host key verification, authentication) and return the target. */
  static async connect(options: SshTargetOptions): Promise<SshTarget> {
    const target = new SshTarget(options);
    try {
      await target.link.open();
      return target;
    } catch (error) {
      throw redactError(error);
    }
  }

  get linkState(): LinkState {
    return this.link.linkState;
  }

  onLinkChange(listener: LinkListener): () => void {
    return this.link.onChange(listener);
  }

  /** See SshLink.reconnect: backoff with jitter; refused host keys and failed auth stop at once. */
  reconnect(options: ReconnectOptions = {}): Promise<void> {
    return this.link.reconnect(options);
  }

  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    return this.commands.exec(command, options);
  }

  stream(command: string, options: StreamOptions = {}): SshRemoteProcess {
    return this.commands.stream(command, options);
  }

  signal(pid: number, signal: NodeJS.Signals): Promise<void> {
    return this.commands.signal(pid, signal);
  }

  readFile(path: string, options: ReadOptions = {}): Promise<Buffer> {
    return this.files.readFile(path, options);
  }

  writeFile(path: string, data: string | Buffer, mode?: number): Promise<void> {
    return this.files.writeFile(path, data, mode);
  }

  forwardPort(remoteHost: string, remotePort: number): Promise<PortForward> {
    return this.forwards.forwardPort(remoteHost, remotePort);
  }

  /** Close every forward and channel and the whole chain (innermost first). Idempotent. */
  async close(): Promise<void> {
    if (!this.link.markClosed()) return;
    await this.forwards.closeAll();
    await this.link.endLink();
  }
}
