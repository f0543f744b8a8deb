// Files on an SshTarget's board (ssh-target.ts): over the link's SFTP session when the server
// offers one (many requests in flight, so a 16 MiB read is not 512 round trips), else over exec
// with POSIX tools that busybox has too.
import type { SFTPWrapper } from 'ssh2';
import { pathUnderHome, shellPath } from '../../../shared/util/shell';
import type { Link } from './ssh-connection-chain';
import { errnoError, remoteCommandError } from './ssh-errors';
import type { SshExec } from './ssh-exec';
import type { SshLink } from './ssh-link';
import type { ReadOptions } from './target';

/** SFTP read/write request size: 32 KiB is what every SFTP v3 server must accept. */
const SFTP_CHUNK_BYTES = 32 * 1024;
/** Requests kept in flight, so a 16 MiB read is not 512 round trips. */
const SFTP_WINDOW = 32;

/**
 * A target path as the SFTP server takes it: one under the home (`~/x`, pathUnderHome) is relative,
 * which the server resolves against the login's home (SFTP has no `~`); any other path as it is.
 */
function sftpPath(path: string): string {
  const rest = pathUnderHome(path);
  return rest === null ? path : rest === '' ? '.' : rest;
}

function sftpError(err: Error & { code?: number | string }, prefix: string): NodeJS.ErrnoException {
  // SFTP status codes (draft-ietf-secsh-filexfer-02 §7): 2 no such file, 3 permission denied.
  const code = err.code === 2 ? 'ENOENT' : err.code === 3 ? 'EACCES' : 'EIO';
  return errnoError(`${prefix}: ${err.message}`, code);
}

export class SshFiles {
  constructor(
    private readonly link: SshLink,
    private readonly commands: SshExec,
    private readonly label: string,
    /** false: never try SFTP (SshTargetOptions.sftp). */
    private readonly useSftp: boolean,
  ) {}

  /** The link's SFTP session (opened once per link), or null when the server has none. */
  private getSftp(link: Link): Promise<SFTPWrapper | null> {
    if (!this.useSftp) return Promise.resolve(null);
    link.sftp ??= new Promise((resolve) => {
      link.client.sftp((err, sftp) => {
        if (err) {
          this.link.log(`SFTP is not available on ${this.label} (${err.message}); using exec for files`);
          resolve(null);
        } else {
          sftp.on('error', () => undefined);
          // A closed session is opened again on next use (a link is never reused once lost).
          sftp.on('close', () => {
            link.sftp = undefined;
          });
          resolve(sftp);
        }
      });
    });
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
    const sftp = await this.getSftp(this.link.current());
    if (sftp) return this.sftpRead(sftp, path, offset, length);
    return this.execRead(path, offset, length);
  }

  async writeFile(path: string, data: string | Buffer, mode?: number): Promise<void> {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (mode !== undefined && (!Number.isInteger(mode) || mode < 0 || mode > 0o7777))
      throw new RangeError(`invalid file mode ${mode}`);
    const sftp = await this.getSftp(this.link.current());
    if (sftp) return this.sftpWrite(sftp, path, buf, mode);
    const chmod = mode !== undefined ? ` && chmod ${mode.toString(8)} ${shellPath(path)}` : '';
    const r = await this.commands.exec(`cat > ${shellPath(path)}${chmod}`, { stdin: buf });
    if (r.code !== 0) throw remoteCommandError(`cannot write ${path} on ${this.label}`, r);
  }

  private async execRead(path: string, offset: number, length: number | undefined): Promise<Buffer> {
    // `exec 3<` opens the file in the shell first, so a missing file is an error (a pipeline's
    // status would be head's); `tail -c +N` and `head -c N` exist in busybox and coreutils.
    let cmd = `exec 3< ${shellPath(path)} || exit 66; `;
    const source = offset > 0 ? `tail -c +${offset + 1} <&3` : 'cat <&3';
    cmd += length !== undefined ? `${source} | head -c ${length}` : source;
    const r = await this.commands.exec(cmd);
    if (r.code !== 0) throw remoteCommandError(`cannot read ${path} on ${this.label}`, r);
    return r.stdout;
  }

  private sftpRead(sftp: SFTPWrapper, path: string, offset: number, length: number | undefined): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      sftp.open(sftpPath(path), 'r', (err, handle) => {
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
              const again = retry.shift();
              if (again) [pos, len] = again;
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

  private sftpWrite(sftp: SFTPWrapper, path: string, data: Buffer, mode: number | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      sftp.open(sftpPath(path), 'w', mode !== undefined ? { mode } : {}, (err, handle) => {
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
            sftp.chmod(sftpPath(path), mode, (chErr) =>
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
}
