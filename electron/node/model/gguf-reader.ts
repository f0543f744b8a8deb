// Reads the header of a GGUF model file — magic, version, counts and the key/value metadata —
// through a byte-range reader, so a multi-gigabyte model on a board is never copied: only the
// first few megabytes travel over the SSH link.
//
// Format: ggml's docs/gguf.md. Little-endian (big-endian files exist and are detected by their
// version field); v1 uses u32 for counts, string lengths and array lengths, v2/v3 use u64.
// KV value types: 0 u8, 1 i8, 2 u16, 3 i16, 4 u32, 5 i32, 6 f32, 7 bool, 8 string, 9 array,
// 10 u64, 11 i64, 12 f64. The tensor-info section after the metadata is not read.
//
// Why our own reader rather than @huggingface/gguf (checked at 0.4.6): that parser fetches fixed
// 2 MB chunks, caps the header at 50 MB, materialises every array (a 256k-entry vocabulary
// becomes 256k JS strings) and then parses all tensor infos before returning. We need less and
// must be frugal: chunks start at 1 MiB and double while the metadata goes on (a vocabulary array
// can be several MB), arrays longer than `maxArrayElements` are counted and skipped (fixed-size
// elements without reading them at all), and reading stops right after the last KV pair.
// Damaged input gives a GgufError naming the offset, never a RangeError or a hang.
//
// Model files are untrusted (they come from boards and downloads): every count, length and
// nesting depth is checked against shared/kv/model-limits.ts GGUF_LIMITS before anything is
// allocated for it, the values kept in memory are charged against one budget, and parsing yields
// to the event loop every GGUF_YIELD_EVERY_MS, so a hostile header costs bounded memory and never
// blocks timers, sockets or IPC for long.
import { open, stat } from 'node:fs/promises';
import type { GgufArraySummary } from '../../../shared/kv/model-config';
import { GGUF_LIMITS, quoteUntrusted } from '../../../shared/kv/model-limits';
import { shellPath } from '../../../shared/util/shell';
import type { Target } from '../transport/target';
import { describeFileError } from '../util/describe-error';
import { readRange } from '../util/read-range';

/** Reads `length` bytes at `offset`; may return fewer at the end of the file. */
export type ReadRange = (offset: number, length: number) => Promise<Uint8Array>;

export type GgufValue = number | string | boolean | GgufValue[] | GgufArraySummary;

export interface GgufHeaderOptions {
  /** Refuse files whose metadata runs past this many bytes (at most GGUF_LIMITS.headerBytes). */
  maxBytes?: number;
  initialChunkBytes?: number;
  maxChunkBytes?: number;
  /** Arrays with more elements are returned as a GgufArraySummary (count and type only). */
  maxArrayElements?: number;
}

export interface GgufHeader {
  version: 1 | 2 | 3;
  littleEndian: boolean;
  tensorCount: number;
  kvCount: number;
  metadata: Record<string, GgufValue>;
  /** GGUF type of each key: "u32", "string", "array<string>", … */
  types: Record<string, string>;
  /** File offset just past the last KV pair (where the tensor infos begin). */
  metadataEndOffset: number;
  /** Bytes the byte-range reader returned, and how many reads it took. */
  bytesRead: number;
  reads: number;
}

export class GgufError extends Error {
  override name = 'GgufError';
}

// Defaults, each with its reason.
/** 1 MiB holds the whole header of most models without a tokenizer, and little more travels for the rest. */
export const GGUF_INITIAL_CHUNK_BYTES = 1 << 20;
/** Doubling stops here: the read that ends the metadata overshoots it by at most 4 MiB (≈ 0.4 s on a 10 MB/s link). */
export const GGUF_MAX_CHUNK_BYTES = 4 << 20;
/** Largest metadata we accept (GGUF_LIMITS.headerBytes; a smaller maxBytes may be asked for, never a larger one). */
export const GGUF_MAX_HEADER_BYTES = GGUF_LIMITS.headerBytes;
/** Per-layer arrays (head_count_kv, sliding_window_pattern) have ≤ a few hundred entries; vocabularies have 32k–256k. */
export const GGUF_MAX_ARRAY_ELEMENTS = 1024;
/** Continuous parsing longer than this yields to the event loop (timers, sockets and IPC keep running). */
export const GGUF_YIELD_EVERY_MS = 8;

const TYPE_NAMES = [
  'u8',
  'i8',
  'u16',
  'i16',
  'u32',
  'i32',
  'f32',
  'bool',
  'string',
  'array',
  'u64',
  'i64',
  'f64',
] as const;
const FIXED_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const T_STRING = 8;
const T_ARRAY = 9;

/** A window over the file that fetches more on demand and can skip without reading. */
class RangeCursor {
  private buf = new Uint8Array(0);
  private view = new DataView(this.buf.buffer);
  private bufStart = 0;
  pos = 0;
  bytesRead = 0;
  reads = 0;
  private chunk: number;
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  littleEndian = true;

  constructor(
    private readonly readRange: ReadRange,
    private readonly maxBytes: number,
    initialChunk: number,
    private readonly maxChunk: number,
  ) {
    this.chunk = initialChunk;
  }

  has(n: number): boolean {
    return this.pos >= this.bufStart && this.pos + n <= this.bufStart + this.buf.length;
  }

  async fill(n: number, what: string): Promise<void> {
    if (this.has(n)) return;
    const end = this.pos + n;
    if (end > this.maxBytes)
      throw new GgufError(
        `GGUF metadata runs past ${this.maxBytes} bytes (${what} at offset ${this.pos}): damaged file, or raise maxBytes`,
      );
    const bufEnd = this.bufStart + this.buf.length;
    let kept: Uint8Array;
    let fetchFrom: number;
    if (this.pos >= this.bufStart && this.pos < bufEnd) {
      kept = this.buf.subarray(this.pos - this.bufStart);
      fetchFrom = bufEnd;
    } else {
      kept = new Uint8Array(0);
      fetchFrom = this.pos;
    }
    const missing = end - fetchFrom;
    const length = Math.min(Math.max(missing, this.chunk), this.maxBytes - fetchFrom);
    this.chunk = Math.min(this.chunk * 2, this.maxChunk);
    const data = await this.readRange(fetchFrom, length);
    this.reads++;
    this.bytesRead += data.length;
    if (data.length < missing) {
      throw new GgufError(
        `truncated GGUF: ${what} at offset ${this.pos} needs ${n} bytes, but the file ends at byte ${fetchFrom + data.length}`,
      );
    }
    const next = new Uint8Array(kept.length + data.length);
    next.set(kept, 0);
    next.set(data, kept.length);
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
    this.bufStart = this.pos;
  }

  /** Move past n bytes without reading them (the next fill fetches from the new position). */
  skip(n: number, what: string): void {
    if (this.pos + n > this.maxBytes)
      throw new GgufError(
        `GGUF metadata runs past ${this.maxBytes} bytes (${what} at offset ${this.pos}): damaged file, or raise maxBytes`,
      );
    this.pos += n;
  }

  /** Moves past the next n bytes (already in the buffer); returns where they start in it. */
  private advance(n: number): number {
    const at = this.pos - this.bufStart;
    this.pos += n;
    return at;
  }

  u8(): number {
    return this.view.getUint8(this.advance(1));
  }
  i8(): number {
    return this.view.getInt8(this.advance(1));
  }
  u16(): number {
    return this.view.getUint16(this.advance(2), this.littleEndian);
  }
  i16(): number {
    return this.view.getInt16(this.advance(2), this.littleEndian);
  }
  u32(): number {
    return this.view.getUint32(this.advance(4), this.littleEndian);
  }
  i32(): number {
    return this.view.getInt32(this.advance(4), this.littleEndian);
  }
  f32(): number {
    return this.view.getFloat32(this.advance(4), this.littleEndian);
  }
  f64(): number {
    return this.view.getFloat64(this.advance(8), this.littleEndian);
  }
  /** u64 as a number: exact below 2^53, which covers every count and size a real file has. */
  u64(): number {
    return Number(this.view.getBigUint64(this.advance(8), this.littleEndian));
  }
  i64(): number {
    return Number(this.view.getBigInt64(this.advance(8), this.littleEndian));
  }
  text(n: number): string {
    const start = this.advance(n);
    return this.decoder.decode(this.buf.subarray(start, start + n));
  }
}

/**
 * Gives the event loop a turn when parsing has run GGUF_YIELD_EVERY_MS without one. A byte-range
 * reader that answers from memory resolves without ever reaching the event loop, so awaiting reads
 * is not enough: a big header would otherwise hold timers, sockets and IPC for seconds.
 */
class Pacer {
  private since = performance.now();
  private ticks = 0;

  /** Cheap enough to call per element: looks at the clock every 256 calls. */
  due(): boolean {
    return (++this.ticks & 0xff) === 0 && performance.now() - this.since >= GGUF_YIELD_EVERY_MS;
  }

  async yield(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }
}

/** Read the GGUF header (up to the end of the key/value metadata) through a byte-range reader. */
export async function readGgufHeader(readRange: ReadRange, options: GgufHeaderOptions = {}): Promise<GgufHeader> {
  const maxArray = Math.min(options.maxArrayElements ?? GGUF_MAX_ARRAY_ELEMENTS, GGUF_LIMITS.arrayLength);
  const c = new RangeCursor(
    readRange,
    Math.min(options.maxBytes ?? GGUF_MAX_HEADER_BYTES, GGUF_LIMITS.headerBytes),
    options.initialChunkBytes ?? GGUF_INITIAL_CHUNK_BYTES,
    options.maxChunkBytes ?? GGUF_MAX_CHUNK_BYTES,
  );
  const pacer = new Pacer();

  try {
    await c.fill(8, 'magic and version');
  } catch (error) {
    if (error instanceof GgufError && error.message.startsWith('truncated'))
      throw new GgufError('not a GGUF file: shorter than the 8-byte GGUF preamble');
    throw error;
  }
  const magic = [c.u8(), c.u8(), c.u8(), c.u8()];
  if (String.fromCharCode(...magic) !== 'GGUF') {
    const shown = magic
      .map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`))
      .join('');
    throw new GgufError(`not a GGUF file: starts with "${shown}" instead of "GGUF"`);
  }
  // A big-endian file has its version in the high bytes when read little-endian (llama.cpp #3957).
  let version = c.u32();
  if (version !== 0 && (version & 0xffff) === 0) {
    c.littleEndian = false;
    version =
      ((version & 0xff) << 24) | (((version >>> 8) & 0xff) << 16) | (((version >>> 16) & 0xff) << 8) | (version >>> 24);
  }
  if (version !== 1 && version !== 2 && version !== 3)
    throw new GgufError(`unsupported GGUF version ${version} (this reader knows 1, 2 and 3)`);
  const lenBytes = version >= 2 ? 8 : 4;
  /** A count or length field: u32 in v1, u64 from v2. */
  const count = async (what: string): Promise<number> => {
    if (!c.has(lenBytes)) await c.fill(lenBytes, what);
    return lenBytes === 8 ? c.u64() : c.u32();
  };

  const tensorCount = await count('tensor count');
  if (tensorCount > GGUF_LIMITS.tensorCount)
    throw new GgufError(
      `implausible tensor count ${tensorCount} (limit ${GGUF_LIMITS.tensorCount}): damaged GGUF header`,
    );
  const kvCount = await count('metadata count');
  if (kvCount > GGUF_LIMITS.kvCount)
    throw new GgufError(`implausible metadata count ${kvCount} (limit ${GGUF_LIMITS.kvCount}): damaged GGUF header`);

  // Everything materialised is charged here, so no header can make us hold more than the limit.
  let keptBytes = 0;
  const keep = (bytes: number, what: string) => {
    keptBytes += bytes;
    if (keptBytes > GGUF_LIMITS.keptValueBytes)
      throw new GgufError(
        `GGUF metadata keeps more than ${GGUF_LIMITS.keptValueBytes} bytes of values (at ${what}): not a real model header`,
      );
  };

  const readString = async (what: string, limit: number): Promise<string> => {
    const start = c.pos;
    const n = await count(what);
    if (n > limit) throw new GgufError(`implausible length ${n} for ${what} at offset ${start}: damaged GGUF`);
    keep(n, what);
    if (!c.has(n)) await c.fill(n, what);
    return c.text(n);
  };

  const readType = async (what: string): Promise<number> => {
    const at = c.pos;
    if (!c.has(4)) await c.fill(4, what);
    const t = c.u32();
    if (t >= TYPE_NAMES.length)
      throw new GgufError(`invalid GGUF value type ${t} for ${what} at offset ${at}: damaged file`);
    return t;
  };

  const readArrayLength = async (what: string): Promise<number> => {
    const at = c.pos;
    const n = await count(`${what} length`);
    if (n > GGUF_LIMITS.arrayLength)
      throw new GgufError(
        `implausible array length ${n} for ${what} at offset ${at} (limit ${GGUF_LIMITS.arrayLength}): damaged GGUF`,
      );
    return n;
  };

  const readScalar = (t: number): number | boolean => {
    switch (t) {
      case 0:
        return c.u8();
      case 1:
        return c.i8();
      case 2:
        return c.u16();
      case 3:
        return c.i16();
      case 4:
        return c.u32();
      case 5:
        return c.i32();
      case 6:
        return c.f32();
      case 7:
        return c.u8() !== 0;
      case 10:
        return c.u64();
      case 11:
        return c.i64();
      case 12:
        return c.f64();
      default:
        throw new GgufError(`not a scalar type: ${t}`);
    }
  };

  // Returns the value and its type name.
  const readValue = async (t: number, what: string, depth: number): Promise<{ value: GgufValue; type: string }> => {
    if (t === T_STRING) return { value: await readString(what, GGUF_LIMITS.stringBytes), type: 'string' };
    if (t !== T_ARRAY) {
      const size = FIXED_SIZE[t] ?? 0;
      if (!c.has(size)) await c.fill(size, what);
      return { value: readScalar(t), type: TYPE_NAMES[t] ?? 'unknown' };
    }
    if (depth >= GGUF_LIMITS.arrayDepth)
      throw new GgufError(`${what}: arrays nested deeper than ${GGUF_LIMITS.arrayDepth}: damaged GGUF`);
    const elemType = await readType(`${what} element type`);
    const n = await readArrayLength(what);
    const elementType = TYPE_NAMES[elemType] ?? 'unknown';
    const type = `array<${elementType}>`;
    if (n > maxArray) {
      await skipArray(elemType, n, what, depth + 1);
      return { value: { kind: 'gguf-array', elementType, length: n }, type };
    }
    keep(8 * n, what);
    const out: GgufValue[] = [];
    const size = FIXED_SIZE[elemType];
    if (size !== undefined) {
      // Fixed-size elements: one fill, then a plain loop (no await per element).
      if (!c.has(size * n)) await c.fill(size * n, what);
      for (let i = 0; i < n; i++) out.push(readScalar(elemType));
      return { value: out, type };
    }
    for (let i = 0; i < n; i++) {
      if (pacer.due()) await pacer.yield();
      out.push((await readValue(elemType, what, depth + 1)).value);
    }
    return { value: out, type };
  };

  const skipArray = async (elemType: number, n: number, what: string, depth: number): Promise<void> => {
    const size = FIXED_SIZE[elemType];
    if (size !== undefined) {
      c.skip(size * n, what); // fixed-size elements: jump over them without reading
      return;
    }
    if (elemType === T_STRING) {
      for (let i = 0; i < n; i++) {
        const at = c.pos;
        if (!c.has(lenBytes)) await c.fill(lenBytes, what);
        const len = lenBytes === 8 ? c.u64() : c.u32();
        if (len > GGUF_LIMITS.stringBytes)
          throw new GgufError(`implausible string length ${len} in ${what}[${i}] at offset ${at}: damaged GGUF`);
        c.skip(len, what);
        if (pacer.due()) await pacer.yield();
      }
      return;
    }
    if (depth >= GGUF_LIMITS.arrayDepth)
      throw new GgufError(`${what}: arrays nested deeper than ${GGUF_LIMITS.arrayDepth}: damaged GGUF`);
    for (let i = 0; i < n; i++) {
      const inner = await readType(`${what} element type`);
      await skipArray(inner, await readArrayLength(what), what, depth + 1);
      if (pacer.due()) await pacer.yield();
    }
  };

  // No prototype: a key named "__proto__" is just a key.
  const metadata = Object.create(null) as Record<string, GgufValue>;
  const types = Object.create(null) as Record<string, string>;
  for (let i = 0; i < kvCount; i++) {
    const key = await readString(`key #${i}`, GGUF_LIMITS.keyBytes);
    const shown = quoteUntrusted(key);
    if (Object.hasOwn(metadata, key)) throw new GgufError(`duplicate key ${shown} (key #${i}): damaged GGUF`);
    const t = await readType(shown);
    const { value, type } = await readValue(t, shown, 0);
    metadata[key] = value;
    types[key] = type;
    if (pacer.due()) await pacer.yield();
  }
  return {
    version,
    littleEndian: c.littleEndian,
    tensorCount,
    kvCount,
    metadata,
    types,
    metadataEndOffset: c.pos,
    bytesRead: c.bytesRead,
    reads: c.reads,
  };
}

/** What a path is when it is not a regular file (GGUF files are; the rest is refused before it is opened). */
type NotAFile = 'directory' | 'character device' | 'block device' | 'named pipe (FIFO)' | 'socket';

/**
 * The refusal of a path that is no regular file. Said before opening it: a named pipe's open waits
 * for a writer forever, and a character device such as /dev/zero stats as empty ("shorter than the
 * GGUF preamble", said of /dev/zero, was read as a damaged model).
 */
function notAFileMessage(kind: NotAFile): string {
  return `is a ${kind}, not a GGUF file`;
}

/** Read the header of a local GGUF file. */
export async function readGgufHeaderFromFile(
  path: string,
  options: GgufHeaderOptions = {},
): Promise<GgufHeader & { fileBytes: number }> {
  let kind: NotAFile | null;
  try {
    const st = await stat(path);
    kind = st.isFile()
      ? null
      : st.isDirectory()
        ? 'directory'
        : st.isCharacterDevice()
          ? 'character device'
          : st.isBlockDevice()
            ? 'block device'
            : st.isFIFO()
              ? 'named pipe (FIFO)'
              : 'socket';
  } catch (error) {
    throw new GgufError(`cannot open ${path}: ${describeFileError(error)}`);
  }
  if (kind !== null) throw new GgufError(`${path}: ${notAFileMessage(kind)}`);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new GgufError(`cannot open ${path}: ${describeFileError(error)}`);
  }
  try {
    const { size } = await handle.stat();
    const readLocal: ReadRange = (offset, length) =>
      readRange(handle, offset, Math.max(0, Math.min(length, size - offset)));
    const header = await readGgufHeader(readLocal, options);
    return { ...header, fileBytes: size };
  } catch (error) {
    if (error instanceof GgufError) throw new GgufError(`${path}: ${error.message}`);
    throw error;
  } finally {
    await handle.close();
  }
}

/**
 * What `path` is on the target when it exists and is no regular file (one `test` each, in one sh);
 * null otherwise. `~/…` is under the target user's home, as the reads take it (shellPath).
 */
async function notAFileOnTarget(target: Target, path: string): Promise<NotAFile | null> {
  const p = shellPath(path);
  const script =
    `if [ -d ${p} ]; then echo directory; elif [ -c ${p} ]; then echo character device; ` +
    `elif [ -b ${p} ]; then echo block device; elif [ -p ${p} ]; then echo 'named pipe (FIFO)'; ` +
    `elif [ -S ${p} ]; then echo socket; fi`;
  const result = await target.exec(script, { timeoutMs: 15_000 }).catch(() => null);
  const kind = result?.code === 0 ? result.stdout.toString().trim() : '';
  const kinds: readonly NotAFile[] = ['directory', 'character device', 'block device', 'named pipe (FIFO)', 'socket'];
  return kinds.find((k) => k === kind) ?? null;
}

/** Read the header of a GGUF file on a target (local or over SSH) with byte-range reads. */
export async function readGgufHeaderFromTarget(
  target: Target,
  path: string,
  options: GgufHeaderOptions = {},
): Promise<GgufHeader> {
  const readRange: ReadRange = (offset, length) => target.readFile(path, { offset, length });
  try {
    const kind = await notAFileOnTarget(target, path);
    if (kind !== null) throw new GgufError(notAFileMessage(kind));
    return await readGgufHeader(readRange, options);
  } catch (error) {
    if (error instanceof GgufError) throw new GgufError(`${target.label}:${path}: ${error.message}`);
    throw error;
  }
}
