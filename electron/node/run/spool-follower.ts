// Follows a run's spool on the target with `tail -c +N -f`, splitting bytes into lines and
// remembering the byte offset after the last complete line: after a dropped link, following
// again from that offset loses and repeats nothing.
import { shellQuote } from '../../../shared/util/shell';
import type { RemoteProcess, Target } from '../transport/target';

export interface SpoolFollower {
  /** Byte offset of the first byte not yet delivered as a complete line. */
  readonly offset: number;
  /** Resolves when the follow stream ends (stopped, or the link dropped). */
  readonly ended: Promise<void>;
  stop(): void;
  /**
   * Stops the follow and delivers no more lines, even those already on their way: returns the
   * offset just past the last line delivered, for a reader who takes over from there.
   */
  detach(): number;
}

export function followSpool(
  target: Target,
  spoolPath: string,
  fromOffset: number,
  launcherPid: number | null,
  onLine: (line: string) => void,
): SpoolFollower {
  const start = `-c +${fromOffset + 1}`;
  // GNU tail --pid ends by itself when the launcher has ended (after printing what is left),
  // so a follower never outlives its run even when the client vanished. busybox tail has no
  // --pid: fall back to a plain -f (the client stops it).
  // The follower first prints its own pid: OpenSSH refuses channel signals for root logins, so
  // stopping it means `kill <pid>` on the target, not a signal on the channel.
  const tail = launcherPid
    ? `if tail --pid=${launcherPid} -c +1 /dev/null >/dev/null 2>&1; then exec tail --pid=${launcherPid} ${start} -f ${shellQuote(spoolPath)}; else exec tail ${start} -f ${shellQuote(spoolPath)}; fi`
    : `exec tail ${start} -f ${shellQuote(spoolPath)}`;
  const command = `echo $$; ${tail}`;
  let remotePid: number | null = null;
  let pidSeen = false;
  let detachedAt: number | null = null;
  const reader = new ByteLineReader(fromOffset, (line) => {
    if (detachedAt === null) onLine(line);
  });
  const pidReader = new ByteLineReader(0, (line) => {
    pidSeen = true;
    remotePid = Number(line) || null;
  });
  const proc: RemoteProcess = target.stream(command);
  proc.stdout.on('data', (chunk: Buffer) => {
    if (!pidSeen) {
      const nl = chunk.indexOf(10);
      if (nl === -1) return pidReader.push(chunk);
      pidReader.push(chunk.subarray(0, nl + 1));
      chunk = chunk.subarray(nl + 1);
    }
    reader.push(chunk);
  });
  proc.stderr.resume();
  const ended = proc.exit.then(() => undefined);
  return {
    get offset() {
      return detachedAt ?? reader.offset;
    },
    ended,
    stop,
    detach: () => {
      detachedAt ??= reader.offset;
      stop();
      return detachedAt;
    },
  };
  function stop() {
    if (remotePid) void target.signal(remotePid, 'SIGTERM').catch(() => {});
    proc.kill('SIGTERM');
  }
}

/**
 * Bytes in, complete lines out, with the byte offset just past the last complete line. A line
 * split across chunks (anywhere, even inside a UTF-8 sequence) is delivered once, whole.
 */
export class ByteLineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    public offset: number,
    private readonly onLine: (line: string) => void,
  ) {}

  push(chunk: Buffer): void {
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl !== -1; nl = chunk.indexOf(10, from)) {
      const piece = chunk.subarray(from, nl);
      const line = this.pendingBytes ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.pendingBytes = 0;
      this.offset += line.length + 1;
      this.onLine(line.toString('utf8'));
      from = nl + 1;
    }
    if (from < chunk.length) {
      this.pending.push(chunk.subarray(from));
      this.pendingBytes += chunk.length - from;
    }
  }
}
