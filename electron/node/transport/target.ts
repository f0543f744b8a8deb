// The one seam between KVScope and a machine (docs/DESIGN.md, "One Target interface"). Everything
// above it — runs, samplers, probes, engines — talks to a Target and does not know whether it
// is this computer or a board at the end of an SSH link.
import type { Readable, Writable } from 'node:stream';

export interface ExecResult {
  stdout: Buffer;
  stderr: Buffer;
  /** Exit status, or null when the process ended by a signal. */
  code: number | null;
  signal: string | null;
}

export interface ExecOptions {
  /** Bytes written to the command's stdin, then stdin is closed. */
  stdin?: string | Buffer;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface StreamOptions {
  signal?: AbortSignal;
}

/** A long-running command on the target. */
export interface RemoteProcess {
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly stdin: Writable;
  /** Resolves when the process (or its channel) ends. */
  readonly exit: Promise<{ code: number | null; signal: string | null }>;
  /** Send a signal to the command itself (not its process group). */
  kill(signal?: NodeJS.Signals): void;
}

export interface ReadOptions {
  offset?: number;
  length?: number;
}

export type TargetKind = 'local' | 'ssh';

export interface Target {
  readonly kind: TargetKind;
  readonly id: string;
  readonly label: string;
  /**
   * Run a POSIX shell command line (`sh -c`). Callers build it with shellQuote/shellJoin from
   * shared/util/shell; no unquoted value from a user interface may reach it.
   */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** Start a long-running shell command line and stream its output. */
  stream(command: string, options?: StreamOptions): RemoteProcess;
  /**
   * Read a whole file or a byte range of it. A path starting with `~/` (or `~` alone) is under
   * the target user's home (pathUnderHome in shared/util/shell.ts): a model path typed as
   * `~/models/x.gguf` is found; `~user/…` is not expanded.
   */
  readFile(path: string, options?: ReadOptions): Promise<Buffer>;
  /** Write a file (used to upload the demo engine and run scripts); `~/…` as in readFile. */
  writeFile(path: string, data: string | Buffer, mode?: number): Promise<void>;
  /** Signal a process (pid > 0) or a whole process group (pid < 0, as kill(2)). */
  signal(pid: number, signal: NodeJS.Signals): Promise<void>;
  /** Forward a local loopback port to host:port as seen from the target. */
  forwardPort?(remoteHost: string, remotePort: number): Promise<{ localPort: number; close(): Promise<void> }>;
  /** Emitted by targets whose link can drop (SSH). Local targets never call these. */
  onLinkChange?(listener: (state: 'down' | 'up', reason?: string) => void): () => void;
  /** Re-establish a dropped link with backoff; rejects when it gives up. */
  reconnect?(options?: {
    maxAttempts?: number;
    initialDelayMs?: number;
    maxDelayMs?: number;
    signal?: AbortSignal;
  }): Promise<void>;
  close(): Promise<void>;
}
