// A log file as a stream of its text's bytes. Logs come off boards compressed: logrotate gzips a
// rotated `tegrastats.log.1.gz`, and a field engineer gzips a capture before copying it. gzip is
// read through zlib; the other formats a board's tools write are named, so the refusal can say
// what to run instead of "none of its lines is a reading".
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** gzip's magic number (RFC 1952, ID1 ID2). */
const GZIP_MAGIC = [0x1f, 0x8b];

/** Compressions read by no one here, by their magic numbers, with the command that unpacks each. */
const OTHER_COMPRESSIONS: ReadonlyArray<{ magic: readonly number[]; name: string; unpack: string }> = [
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], name: 'xz', unpack: 'xz -d' },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], name: 'zstd', unpack: 'zstd -d' },
  { magic: [0x42, 0x5a, 0x68], name: 'bzip2', unpack: 'bunzip2' },
  { magic: [0x50, 0x4b, 0x03, 0x04], name: 'zip', unpack: 'unzip' },
];

const HEAD_BYTES = Math.max(GZIP_MAGIC.length, ...OTHER_COMPRESSIONS.map((c) => c.magic.length));

export interface LogFileStream {
  stream: Readable;
  gzip: boolean;
}

function startsWith(head: Uint8Array, magic: readonly number[]): boolean {
  return head.length >= magic.length && magic.every((b, i) => head[i] === b);
}

/**
 * `path`'s text bytes: gunzipped when the file starts with gzip's magic number. A compression
 * read by no one here throws, naming it and its unpacking command. Errors of the file or of the
 * gzip data (truncated, damaged) come out of the stream.
 */
export function openLogFile(path: string): LogFileStream {
  const head = new Uint8Array(HEAD_BYTES);
  const fd = openSync(path, 'r');
  let n: number;
  try {
    n = readSync(fd, head, 0, HEAD_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  const start = head.subarray(0, n);
  const other = OTHER_COMPRESSIONS.find((c) => startsWith(start, c.magic));
  if (other) throw new Error(`${other.name}-compressed: unpack it first (${other.unpack})`);
  const file = createReadStream(path);
  if (!startsWith(start, GZIP_MAGIC)) return { stream: file, gzip: false };
  // pipeline: an error of either stream destroys both and comes out of the gunzip stream.
  return { stream: pipeline(file, createGunzip(), () => {}), gzip: true };
}

/** True for zlib's errors (a gzip file cut short, or damaged), which end the text but not what was read of it. */
export function isGzipDataError(error: unknown): error is Error {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('Z_');
}
