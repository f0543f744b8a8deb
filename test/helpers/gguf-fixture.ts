// Writes GGUF headers for tests and benchmarks (ggml docs/gguf.md): magic, version, counts and
// typed key/value pairs, little- or big-endian, v1 (u32 lengths) or v2/v3 (u64). Tensor infos
// are not written; tests that need "tensor data" after the header serve it virtually.

export type ScalarType = 'u8' | 'i8' | 'u16' | 'i16' | 'u32' | 'i32' | 'f32' | 'bool' | 'u64' | 'i64' | 'f64';
export type FixtureValue =
  | { type: ScalarType; value: number | boolean }
  | { type: 'string'; value: string }
  | { type: 'array'; of: ScalarType | 'string'; values: ReadonlyArray<number | boolean | string> };

const TYPE_ID: Record<ScalarType | 'string' | 'array', number> = {
  u8: 0,
  i8: 1,
  u16: 2,
  i16: 3,
  u32: 4,
  i32: 5,
  f32: 6,
  bool: 7,
  string: 8,
  array: 9,
  u64: 10,
  i64: 11,
  f64: 12,
};
const SIZE: Record<ScalarType, number> = {
  u8: 1,
  i8: 1,
  u16: 2,
  i16: 2,
  u32: 4,
  i32: 4,
  f32: 4,
  bool: 1,
  u64: 8,
  i64: 8,
  f64: 8,
};

/** How each scalar type is written at `at` (little- or big-endian as `le` says; a bool is a u8). */
const WRITE: Record<ScalarType, (view: DataView, at: number, n: number, le: boolean) => void> = {
  u8: (v, at, n) => v.setUint8(at, n),
  i8: (v, at, n) => v.setInt8(at, n),
  u16: (v, at, n, le) => v.setUint16(at, n, le),
  i16: (v, at, n, le) => v.setInt16(at, n, le),
  u32: (v, at, n, le) => v.setUint32(at, n, le),
  i32: (v, at, n, le) => v.setInt32(at, n, le),
  f32: (v, at, n, le) => v.setFloat32(at, n, le),
  bool: (v, at, n) => v.setUint8(at, n),
  u64: (v, at, n, le) => v.setBigUint64(at, BigInt(n), le),
  i64: (v, at, n, le) => v.setBigInt64(at, BigInt(n), le),
  f64: (v, at, n, le) => v.setFloat64(at, n, le),
};

export interface BuildOptions {
  version?: 1 | 2 | 3;
  littleEndian?: boolean;
  tensorCount?: number;
}

export function buildGgufHeader(
  entries: ReadonlyArray<[string, FixtureValue]>,
  options: BuildOptions = {},
): Uint8Array {
  const version = options.version ?? 3;
  const le = options.littleEndian ?? true;
  const wide = version >= 2;
  const enc = new TextEncoder();
  // A growable buffer: one allocation per doubling instead of one per value.
  let buf = new Uint8Array(1 << 16);
  let view = new DataView(buf.buffer);
  let at = 0;
  const reserve = (n: number) => {
    if (at + n <= buf.length) return;
    let size = buf.length;
    while (size < at + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(buf.subarray(0, at));
    buf = next;
    view = new DataView(buf.buffer);
  };
  const scalar = (type: ScalarType, v: number | boolean) => {
    reserve(8);
    const n = typeof v === 'boolean' ? (v ? 1 : 0) : v;
    WRITE[type](view, at, n, le);
    at += SIZE[type];
  };
  const len = (n: number) => scalar(wide ? 'u64' : 'u32', n);
  const str = (s: string) => {
    const bytes = enc.encode(s);
    len(bytes.length);
    reserve(bytes.length);
    buf.set(bytes, at);
    at += bytes.length;
  };

  reserve(4);
  buf.set(enc.encode('GGUF'), 0);
  at = 4;
  scalar('u32', version);
  len(options.tensorCount ?? 0);
  len(entries.length);
  for (const [key, v] of entries) {
    str(key);
    scalar('u32', TYPE_ID[v.type]);
    if (v.type === 'string') str(v.value);
    else if (v.type === 'array') {
      scalar('u32', TYPE_ID[v.of]);
      len(v.values.length);
      if (v.of === 'string') for (const s of v.values) str(String(s));
      else for (const x of v.values) scalar(v.of, x as number | boolean);
    } else scalar(v.type, v.value);
  }
  return buf.slice(0, at);
}

export const u32 = (value: number): FixtureValue => ({ type: 'u32', value });
export const f32 = (value: number): FixtureValue => ({ type: 'f32', value });
export const str = (value: string): FixtureValue => ({ type: 'string', value });
export const arr = (of: ScalarType | 'string', values: ReadonlyArray<number | boolean | string>): FixtureValue => ({
  type: 'array',
  of,
  values,
});

/**
 * The header of a Llama-3.2-1B-like model with a vocabulary of `vocab` tokens (tokens, scores,
 * token types and merges arrays — what makes real headers several MB).
 */
export function vocabModelHeader(vocab: number): Uint8Array {
  const tokens = Array.from({ length: vocab }, (_, i) => `tok_${i.toString(36)}`);
  const merges = Array.from({ length: Math.floor(vocab / 2) }, (_, i) => `m${i.toString(36)} n${i.toString(36)}`);
  return buildGgufHeader(
    [
      ['general.architecture', str('llama')],
      ['general.name', str('vocab-test')],
      ['general.file_type', u32(1)],
      ['llama.block_count', u32(16)],
      ['llama.context_length', u32(131072)],
      ['llama.embedding_length', u32(2048)],
      ['llama.attention.head_count', u32(32)],
      ['llama.attention.head_count_kv', u32(8)],
      ['llama.rope.freq_base', f32(500000)],
      ['tokenizer.ggml.model', str('gpt2')],
      ['tokenizer.ggml.tokens', arr('string', tokens)],
      ['tokenizer.ggml.scores', arr('f32', new Array(vocab).fill(0))],
      ['tokenizer.ggml.token_type', arr('i32', new Array(vocab).fill(1))],
      ['tokenizer.ggml.merges', arr('string', merges)],
      ['tokenizer.ggml.bos_token_id', u32(1)],
    ],
    { tensorCount: 147 },
  );
}

/** A byte-range reader over `header` followed by `tensorBytes` virtual zero bytes, recording every read. */
export function virtualFile(header: Uint8Array, tensorBytes: number) {
  const size = header.length + tensorBytes;
  const reads: Array<{ offset: number; length: number }> = [];
  let bytesRead = 0;
  const readRange = (offset: number, length: number): Promise<Uint8Array> => {
    const end = Math.min(size, offset + length);
    const n = Math.max(0, end - offset);
    const out = new Uint8Array(n);
    if (offset < header.length) out.set(header.subarray(offset, Math.min(header.length, end)), 0);
    reads.push({ offset, length: n });
    bytesRead += n;
    return Promise.resolve(out);
  };
  return {
    size,
    reads,
    readRange,
    get bytesRead() {
      return bytesRead;
    },
  };
}

// Hostile headers (test/integration/hostile, bench/gguf-hostile.bench.ts): small files that claim
// huge shapes, and big files built to exhaust memory or hold the event loop. The big ones are
// written byte by byte from one template, so building 127 MB costs a copy, not millions of values.

/** A ~200-byte header claiming `layers` layers (2^28 made the KV model build an entry per layer until V8 died). */
export function layerBombHeader(layers = 2 ** 28): Uint8Array {
  return buildGgufHeader([
    ['general.architecture', str('llama')],
    ['llama.block_count', u32(layers)],
    ['llama.embedding_length', u32(4096)],
    ['llama.attention.head_count', u32(32)],
    ['llama.attention.head_count_kv', u32(8)],
  ]);
}

/**
 * About `totalBytes` of keys `k00000000`, `k00000001`, … each holding an array of `elements` u32
 * (1,024: the longest array the reader materialises). Before the limits, every element was kept
 * and awaited one by one: 127 MB held the event loop for 34 s.
 */
export function manyArraysHeader(totalBytes: number, elements = 1024): Uint8Array {
  const keyLen = 9;
  const entryBytes = 8 + keyLen + 4 + 4 + 8 + 4 * elements;
  const entries = Math.max(1, Math.floor(totalBytes / entryBytes));
  const head = buildGgufHeader([]);
  const out = new Uint8Array(head.length + entries * entryBytes);
  out.set(head);
  const view = new DataView(out.buffer);
  view.setBigUint64(16, BigInt(entries), true); // v3 preamble: magic, version, tensor count, kv count (u64)
  const template = new Uint8Array(entryBytes);
  const t = new DataView(template.buffer);
  t.setBigUint64(0, BigInt(keyLen), true);
  t.setUint32(8 + keyLen, 9, true); // array
  t.setUint32(8 + keyLen + 4, 4, true); // of u32
  t.setBigUint64(8 + keyLen + 8, BigInt(elements), true);
  for (let i = 0; i < entries; i++) {
    const at = head.length + i * entryBytes;
    out.set(template, at);
    const key = `k${i.toString().padStart(8, '0')}`;
    for (let j = 0; j < keyLen; j++) view.setUint8(at + 8 + j, key.charCodeAt(j));
  }
  return out;
}

/**
 * One key whose value is an array of about `totalBytes / 13` five-byte strings: a valid header the
 * reader must walk in full (string arrays cannot be jumped over), followed by one more key.
 */
export function bigStringArrayHeader(totalBytes: number): Uint8Array {
  const elementBytes = 8 + 5;
  const n = Math.max(1, Math.floor(totalBytes / elementBytes));
  const first = buildGgufHeader([['tokenizer.ggml.tokens', arr('string', [])]]);
  const last = buildGgufHeader([['after', u32(7)]]);
  const lastEntry = last.subarray(24); // without its preamble
  const out = new Uint8Array(first.length + n * elementBytes + lastEntry.length);
  out.set(first);
  const view = new DataView(out.buffer);
  view.setBigUint64(16, 2n, true); // two keys
  view.setBigUint64(first.length - 8, BigInt(n), true); // the array length, last field of `first`
  const element = new Uint8Array(elementBytes);
  new DataView(element.buffer).setBigUint64(0, 5n, true);
  element.set(new TextEncoder().encode('tok_a'), 8);
  out.set(element, first.length);
  // Fill by doubling copies: log2(n) copyWithin calls instead of n sets.
  let filled = elementBytes;
  const total = n * elementBytes;
  while (filled < total) {
    const chunk = Math.min(filled, total - filled);
    out.copyWithin(first.length + filled, first.length, first.length + chunk);
    filled += chunk;
  }
  out.set(lastEntry, first.length + total);
  return out;
}
