// A log file as a stream of its text's bytes, in UTF-8. Logs come off boards compressed: logrotate
// gzips a rotated `tegrastats.log.1.gz`, and a field engineer gzips a capture before copying it.
// gzip is read through zlib; the other formats a board's tools write are named, so the refusal can
// say what to run instead of "none of its lines is a reading". And a capture saved on Windows may
// be UTF-16 (Windows PowerShell's `>` and Out-File write UTF-16LE with a byte order mark): it is
// read as the text it is.
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { pipeline, Transform, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** gzip's magic number (RFC 1952, ID1 ID2). */
const GZIP_MAGIC = [0x1f, 0x8b];

/** UTF-16's byte order marks, and the decoder each asks for. */
const UTF16_BOMS: ReadonlyArray<{ bom: readonly number[]; encoding: 'utf-16le' | 'utf-16be' }> = [
  { bom: [0xff, 0xfe], encoding: 'utf-16le' },
  { bom: [0xfe, 0xff], encoding: 'utf-16be' },
];

/** Compressions read by no one here, by their magic numbers, with the command that unpacks each. */
const OTHER_COMPRESSIONS: ReadonlyArray<{ magic: readonly number[]; name: string; unpack: string }> = [
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], name: 'xz', unpack: 'xz -d' },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], name: 'zstd', unpack: 'zstd -d' },
  { magic: [0x42, 0x5a, 0x68], name: 'bzip2', unpack: 'bunzip2' },
  { magic: [0x50, 0x4b, 0x03, 0x04], name: 'zip', unpack: 'unzip' },
];

/**
 * SQLite's header ("SQLite format 3" and a NUL): a KVScope session given where its log was meant
 * (`kvscope import tegrastats run.kvscope`) read as text "imported" the bytes of its JSON rows.
 */
const SQLITE_MAGIC = [...Buffer.from('SQLite format 3\0', 'latin1')];

const HEAD_BYTES = Math.max(GZIP_MAGIC.length, SQLITE_MAGIC.length, ...OTHER_COMPRESSIONS.map((c) => c.magic.length));

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
  if (startsWith(start, SQLITE_MAGIC))
    throw new Error(
      'an SQLite database (a KVScope session?), not a log: kvscope report or kvscope web --open reads a session',
    );
  const file = createReadStream(path);
  const utf16 = UTF16_BOMS.find((b) => startsWith(start, b.bom));
  if (utf16) return { stream: pipeline(file, utf16ToUtf8(utf16.encoding), () => {}), gzip: false };
  if (!startsWith(start, GZIP_MAGIC)) return { stream: file, gzip: false };
  // pipeline: an error of either stream destroys both and comes out of the gunzip stream.
  return { stream: pipeline(file, createGunzip(), () => {}), gzip: true };
}

/** True for zlib's errors (a gzip file cut short, or damaged), which end the text but not what was read of it. */
export function isGzipDataError(error: unknown): error is Error {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('Z_');
}

/** UTF-16 bytes → UTF-8 bytes, the byte order mark dropped; a character split between chunks is kept whole. */
function utf16ToUtf8(encoding: 'utf-16le' | 'utf-16be'): Transform {
  const decoder = new TextDecoder(encoding);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8'));
    },
    flush(done) {
      done(null, Buffer.from(decoder.decode(), 'utf8'));
    },
  });
}
