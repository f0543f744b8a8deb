// "This computer": the Target that runs commands with the local POSIX shell. Runs, samplers
// and probes use the very same shell scripts here as on a board over SSH.
import { spawn } from 'node:child_process';
import { open, writeFile, chmod } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathUnderHome } from '../../../shared/util/shell';
import type { ExecOptions, ExecResult, ReadOptions, RemoteProcess, StreamOptions, Target } from './target';
import { readRange, readToEnd } from '../util/read-range';

const SHELL = '/bin/sh';

/** A target path on this computer: `~/…` (pathUnderHome) is under this user's home. */
export function localPath(path: string): string {
  const rest = pathUnderHome(path);
  return rest === null ? path : join(homedir(), rest);
}

export class LocalTarget implements Target {
  readonly kind = 'local' as const;
  readonly id = 'local';
  readonly label = 'This computer';

  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(SHELL, ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'], signal: options.signal });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let timer: NodeJS.Timeout | undefined;
      if (options.timeoutMs) {
        timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
      }
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      child.on('error', (e) => {
        if (timer) clearTimeout(timer);
        reject(e);
      });
      child.on('close', (code, signal) => {
        if (timer) clearTimeout(timer);
        resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err), code, signal });
      });
      child.stdin.on('error', () => {}); // a command that does not read its stdin closes it early
      child.stdin.end(options.stdin ?? '');
    });
  }

  stream(command: string, options: StreamOptions = {}): RemoteProcess {
    const child = spawn(SHELL, ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'], signal: options.signal });
    child.on('error', () => {}); // reported through `exit`
    const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      child.on('close', (code, signal) => resolve({ code, signal }));
      child.on('error', () => resolve({ code: null, signal: null }));
    });
    child.stdin.on('error', () => {});
    return {
      stdout: child.stdout,
      stderr: child.stderr,
      stdin: child.stdin,
      exit,
      kill: (signal = 'SIGTERM') => void child.kill(signal),
    };
  }

  async readFile(path: string, options: ReadOptions = {}): Promise<Buffer> {
    const handle = await open(localPath(path), 'r');
    try {
      const offset = options.offset ?? 0;
      if (options.length !== undefined) return await readRange(handle, offset, options.length);
      // procfs and sysfs files say size 0: they are read until the end, as over SFTP (ssh-sftp.ts).
      const stat = await handle.stat();
      return stat.isFile() && stat.size > 0
        ? await readRange(handle, offset, Math.max(0, stat.size - offset))
        : await readToEnd(handle, offset);
    } finally {
      await handle.close();
    }
  }

  async writeFile(path: string, data: string | Buffer, mode?: number): Promise<void> {
    const file = localPath(path);
    await writeFile(file, data, mode === undefined ? undefined : { mode });
    if (mode !== undefined) await chmod(file, mode);
  }

  signal(pid: number, signal: NodeJS.Signals): Promise<void> {
    try {
      process.kill(pid, signal);
    } catch (error) {
      // A process that already ended is what the caller wanted.
      const e: NodeJS.ErrnoException = error instanceof Error ? error : new Error(String(error));
      if (e.code !== 'ESRCH') return Promise.reject(e);
    }
    return Promise.resolve();
  }

  forwardPort(remoteHost: string, remotePort: number): Promise<{ localPort: number; close(): Promise<void> }> {
    // Loopback on this computer is already reachable: nothing to forward.
    if (!['127.0.0.1', 'localhost', '::1'].includes(remoteHost))
      return Promise.reject(new Error(`local target reaches ${remoteHost} directly; no forward needed`));
    return Promise.resolve({ localPort: remotePort, close: () => Promise.resolve() });
  }

  async close(): Promise<void> {}
}
