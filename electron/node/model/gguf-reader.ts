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
import { open } from 'node:fs/promises';
import type { GgufArraySummary } from '../../../shared/kv/model-config';
import type { Target } from '../transport/target';

/** Reads `length` bytes at `offset`; may return fewer at the end of the file. */
export type ReadRange = (offset: number, length: number) => Promise<Uint8Array>;

export type GgufValue = number | string | boolean | GgufValue[] | GgufArraySummary;

export interface GgufHeaderOptions {
  /** Refuse files whose metadata runs past this many bytes. */
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
/** Largest metadata we accept: real headers (256k vocabularies + merges) stay well below 64 MiB. */
export const GGUF_MAX_HEADER_BYTES = 256 << 20;
/** Per-layer arrays (head_count_kv, sliding_window_pattern) have ≤ a few hundred entries; vocabularies have 32k–256k. */
export const GGUF_MAX_ARRAY_ELEMENTS = 1024;
/** GGUF keys are at most 65535 bytes (docs/gguf.md); longer means a damaged file. */
const MAX_KEY_BYTES = 65_535;
/** A single string value this large only occurs in damaged files (chat templates are ~10 kB). */
const MAX_STRING_BYTES = 64 << 20;
const MAX_KV_COUNT = 1_000_000;
const MAX_TENSOR_COUNT = 2 ** 32;
const MAX_ARRAY_DEPTH = 4;

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

  private at(): number {
    return this.pos - this.bufStart;
  }

  u8(): number {
    const v = this.buf[this.at()];
    this.pos += 1;
    return v;
  }
  i8(): number {
    const v = this.view.getInt8(this.at());
    this.pos += 1;
    return v;
  }
  u16(): number {
    const v = this.view.getUint16(this.at(), this.littleEndian);
    this.pos += 2;
    return v;
  }
  i16(): number {
    const v = this.view.getInt16(this.at(), this.littleEndian);
    this.pos += 2;
    return v;
  }
  u32(): number {
    const v = this.view.getUint32(this.at(), this.littleEndian);
    this.pos += 4;
    return v;
  }
  i32(): number {
    const v = this.view.getInt32(this.at(), this.littleEndian);
    this.pos += 4;
    return v;
  }
  f32(): number {
    const v = this.view.getFloat32(this.at(), this.littleEndian);
    this.pos += 4;
    return v;
  }
  f64(): number {
    const v = this.view.getFloat64(this.at(), this.littleEndian);
    this.pos += 8;
    return v;
  }
  /** u64 as a number: exact below 2^53, which covers every count and size a real file has. */
  u64(): number {
    const v = Number(this.view.getBigUint64(this.at(), this.littleEndian));
    this.pos += 8;
    return v;
  }
  i64(): number {
    const v = Number(this.view.getBigInt64(this.at(), this.littleEndian));
    this.pos += 8;
    return v;
  }
  text(n: number): string {
    const start = this.at();
    const v = this.decoder.decode(this.buf.subarray(start, start + n));
    this.pos += n;
    return v;
  }
}

/** Read the GGUF header (up to the end of the key/value metadata) through a byte-range reader. */
export async function readGgufHeader(readRange: ReadRange, options: GgufHeaderOptions = {}): Promise<GgufHeader> {
  const maxArray = options.maxArrayElements ?? GGUF_MAX_ARRAY_ELEMENTS;
  const c = new RangeCursor(
    readRange,
    options.maxBytes ?? GGUF_MAX_HEADER_BYTES,
    options.initialChunkBytes ?? GGUF_INITIAL_CHUNK_BYTES,
    options.maxChunkBytes ?? GGUF_MAX_CHUNK_BYTES,
  );

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
  const wide = version >= 2;
  const count = async (what: string): Promise<number> => {
    if (!c.has(wide ? 8 : 4)) await c.fill(wide ? 8 : 4, what);
    return wide ? c.u64() : c.u32();
  };

  const tensorCount = await count('tensor count');
  if (tensorCount > MAX_TENSOR_COUNT)
    throw new GgufError(`implausible tensor count ${tensorCount}: damaged GGUF header`);
  const kvCount = await count('metadata count');
  if (kvCount > MAX_KV_COUNT) throw new GgufError(`implausible metadata count ${kvCount}: damaged GGUF header`);

  const readString = async (what: string, limit: number): Promise<string> => {
    const start = c.pos;
    const n = await count(what);
    if (n > limit) throw new GgufError(`implausible length ${n} for ${what} at offset ${start}: damaged GGUF`);
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
    if (t === T_STRING) return { value: await readString(what, MAX_STRING_BYTES), type: 'string' };
    if (t !== T_ARRAY) {
      const size = FIXED_SIZE[t];
      if (!c.has(size)) await c.fill(size, what);
      return { value: readScalar(t), type: TYPE_NAMES[t] };
    }
    if (depth >= MAX_ARRAY_DEPTH)
      throw new GgufError(`${what}: arrays nested deeper than ${MAX_ARRAY_DEPTH}: damaged GGUF`);
    const elemType = await readType(`${what} element type`);
    const at = c.pos;
    const n = await count(`${what} length`);
    if (n > 2 ** 32) throw new GgufError(`implausible array length ${n} for ${what} at offset ${at}: damaged GGUF`);
    const type = `array<${TYPE_NAMES[elemType]}>`;
    if (n > maxArray) {
      await skipArray(elemType, n, what, depth + 1);
      return { value: { kind: 'gguf-array', elementType: TYPE_NAMES[elemType], length: n }, type };
    }
    const out: GgufValue[] = [];
    for (let i = 0; i < n; i++) out.push((await readValue(elemType, what, depth + 1)).value);
    return { value: out, type };
  };

  const skipArray = async (elemType: number, n: number, what: string, depth: number): Promise<void> => {
    const size = FIXED_SIZE[elemType];
    if (size !== undefined) {
      c.skip(size * n, what); // fixed-size elements: jump over them without reading
      return;
    }
    if (elemType === T_STRING) {
      const lenBytes = wide ? 8 : 4;
      for (let i = 0; i < n; i++) {
        const at = c.pos;
        if (!c.has(lenBytes)) await c.fill(lenBytes, what);
        const len = wide ? c.u64() : c.u32();
        if (len > MAX_STRING_BYTES)
          throw new GgufError(`implausible string length ${len} in ${what}[${i}] at offset ${at}: damaged GGUF`);
        c.skip(len, what);
      }
      return;
    }
    if (depth >= MAX_ARRAY_DEPTH)
      throw new GgufError(`${what}: arrays nested deeper than ${MAX_ARRAY_DEPTH}: damaged GGUF`);
    for (let i = 0; i < n; i++) {
      const inner = await readType(`${what} element type`);
      const len = await count(`${what} length`);
      if (inner === T_ARRAY || inner === T_STRING || FIXED_SIZE[inner] !== undefined)
        await skipArray(inner, len, what, depth + 1);
    }
  };

  const metadata: Record<string, GgufValue> = {};
  const types: Record<string, string> = {};
  for (let i = 0; i < kvCount; i++) {
    const key = await readString(`key #${i}`, MAX_KEY_BYTES);
    const t = await readType(`"${key}"`);
    const { value, type } = await readValue(t, `"${key}"`, 0);
    metadata[key] = value;
    types[key] = type;
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

/** Read the header of a local GGUF file. */
export async function readGgufHeaderFromFile(
  path: string,
  options: GgufHeaderOptions = {},
): Promise<GgufHeader & { fileBytes: number }> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new GgufError(`cannot open ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const { size } = await handle.stat();
    const readRange: ReadRange = async (offset, length) => {
      const n = Math.max(0, Math.min(length, size - offset));
      const buffer = Buffer.alloc(n);
      let done = 0;
      while (done < n) {
        const { bytesRead } = await handle.read(buffer, done, n - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return buffer.subarray(0, done);
    };
    const header = await readGgufHeader(readRange, options);
    return { ...header, fileBytes: size };
  } catch (error) {
    if (error instanceof GgufError) throw new GgufError(`${path}: ${error.message}`);
    throw error;
  } finally {
    await handle.close();
  }
}

/** Read the header of a GGUF file on a target (local or over SSH) with byte-range reads. */
export async function readGgufHeaderFromTarget(
  target: Target,
  path: string,
  options: GgufHeaderOptions = {},
): Promise<GgufHeader> {
  const readRange: ReadRange = (offset, length) => target.readFile(path, { offset, length });
  try {
    return await readGgufHeader(readRange, options);
  } catch (error) {
    if (error instanceof GgufError) throw new GgufError(`${target.label}:${path}: ${error.message}`);
    throw error;
  }
}
