// The GGUF header reader: the real stories260K model, a generated header with a 256k-entry
// vocabulary read through a counting byte-range reader, old/odd variants, and damaged input.
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { useTempDir } from '../../../../helpers/temp-dir';
import {
  GGUF_MAX_CHUNK_BYTES,
  GgufError,
  readGgufHeader,
  readGgufHeaderFromFile,
  readGgufHeaderFromTarget,
} from '../../../../../electron/node/model/gguf-reader';
import { LocalTarget } from '../../../../../electron/node/transport/local-target';
import type { Target } from '../../../../../electron/node/transport/target';
import { kvBytes, kvBytesPerToken } from '../../../../../shared/kv/kv-theory';
import { modelShapeFromGguf } from '../../../../../shared/kv/model-config';
import {
  arr,
  bigStringArrayHeader,
  buildGgufHeader,
  f32,
  layerBombHeader,
  manyArraysHeader,
  str,
  u32,
  virtualFile,
  vocabModelHeader,
} from '../../../../helpers/gguf-fixture';

// Relative to the project root, where vitest runs (shared/models/README.md).
const STORIES = '../shared/models/stories260K.gguf';

describe('stories260K.gguf (real llama.cpp test model)', () => {
  it('reads the header facts listed in shared/models/README.md', async () => {
    const h = await readGgufHeaderFromFile(STORIES);
    expect(h.version).toBe(3);
    expect(h.fileBytes).toBe(1185376);
    expect(h.metadata['general.architecture']).toBe('llama');
    expect(h.metadata['llama.block_count']).toBe(5);
    expect(h.metadata['llama.attention.head_count']).toBe(8);
    expect(h.metadata['llama.attention.head_count_kv']).toBe(4);
    expect(h.metadata['llama.embedding_length']).toBe(64);
    expect(h.metadata['llama.feed_forward_length']).toBe(172);
    expect(h.metadata['llama.context_length']).toBe(2048);
    expect(h.metadata['general.file_type']).toBeUndefined();
    expect(h.types['llama.block_count']).toBe('u32');
    expect(h.types['tokenizer.ggml.tokens']).toBe('array<string>');
    expect((h.metadata['tokenizer.ggml.tokens'] as string[]).length).toBe(512);
  });

  it('gives 640 B/token and 1,310,720 bytes at 2048 cells, as llama.cpp reports', async () => {
    const h = await readGgufHeaderFromFile(STORIES);
    const { shape } = modelShapeFromGguf(h.metadata);
    expect(kvBytesPerToken(shape)).toBe(640); // 2 × 5 × 4 × 8 × 2
    expect(kvBytes(shape, 0, { mode: 'reserved', ctx: 2048 })).toBe(1310720); // "size = 1.25 MiB (2048 cells …)"
  });

  it('works through a Target byte-range read', async () => {
    const { readFile } = await import('node:fs/promises');
    const calls: Array<{ offset?: number; length?: number }> = [];
    const target = {
      kind: 'local',
      id: 'fake',
      label: 'fake',
      // The file-kind check: a regular file says nothing.
      exec: () => Promise.resolve({ code: 0, signal: null, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) }),
      async readFile(path: string, options?: { offset?: number; length?: number }) {
        calls.push(options ?? {});
        const all = await readFile(path);
        const offset = options?.offset ?? 0;
        return all.subarray(offset, offset + (options?.length ?? all.length));
      },
    } as unknown as Target;
    const h = await readGgufHeaderFromTarget(target, STORIES);
    expect(h.metadata['llama.block_count']).toBe(5);
    expect(calls[0]).toEqual({ offset: 0, length: 1048576 });
  });
});

describe('a 256k-entry vocabulary through a byte-range reader', () => {
  const header = vocabModelHeader(256000);
  // 512 MiB of "tensor data" after the header, served virtually: reading any of it would show in the counts.
  const tensorBytes = 512 * 1024 * 1024;

  it('reads the metadata and counts the big arrays without materialising them', async () => {
    const file = virtualFile(header, tensorBytes);
    const h = await readGgufHeader(file.readRange);
    expect(h.metadataEndOffset).toBe(header.length);
    expect(h.tensorCount).toBe(147);
    expect(h.metadata['tokenizer.ggml.tokens']).toEqual({ kind: 'gguf-array', elementType: 'string', length: 256000 });
    expect(h.metadata['tokenizer.ggml.scores']).toEqual({ kind: 'gguf-array', elementType: 'f32', length: 256000 });
    expect(h.metadata['tokenizer.ggml.merges']).toEqual({ kind: 'gguf-array', elementType: 'string', length: 128000 });
    expect(h.metadata['tokenizer.ggml.bos_token_id']).toBe(1); // the key after the arrays was found
    const { shape, summary } = modelShapeFromGguf(h.metadata);
    expect(summary.vocabSize).toBe(256000);
    expect(kvBytesPerToken(shape)).toBe(32768); // 16 × 8 × (128 + 128)
  });

  it('reads only the header region: no read starts after the metadata, at most one chunk past it', async () => {
    const file = virtualFile(header, tensorBytes);
    const h = await readGgufHeader(file.readRange);
    expect(header.length).toBeGreaterThan(4 * 1024 * 1024); // the vocabulary makes it several MB
    for (const r of file.reads) expect(r.offset).toBeLessThan(h.metadataEndOffset);
    expect(file.bytesRead).toBeLessThanOrEqual(h.metadataEndOffset + GGUF_MAX_CHUNK_BYTES);
    expect(file.bytesRead).toBe(h.bytesRead);
    expect(file.bytesRead).toBeLessThan(file.size / 20);
    // Chunks grow (1, 2, 4 MiB, …) so a several-MB header takes a handful of reads, not thousands.
    expect(file.reads.length).toBeLessThanOrEqual(6);
  });

  it('skips fixed-size arrays without reading them', async () => {
    // One u32 key, then an 8 MiB f32 array, then one more key: the array's bytes are never fetched.
    const big = buildGgufHeader([
      ['a', u32(7)],
      ['skipped', arr('f32', new Array(2 * 1024 * 1024).fill(0))],
      ['b', str('after')],
    ]);
    const file = virtualFile(big, 0);
    const h = await readGgufHeader(file.readRange, { initialChunkBytes: 4096 });
    expect(h.metadata.b).toBe('after');
    expect(file.bytesRead).toBeLessThan(64 * 1024); // 2 small reads instead of 8 MiB
  });
});

describe('format variants', () => {
  const entries = [
    ['general.architecture', str('llama')],
    ['llama.block_count', u32(2)],
    ['llama.rope.freq_base', f32(10000)],
    ['llama.flags', { type: 'array', of: 'bool', values: [true, false] }],
    ['llama.wide', { type: 'u64', value: 2 ** 40 }],
    ['llama.neg', { type: 'i64', value: -5 }],
    ['llama.small', { type: 'i8', value: -3 }],
    ['llama.half', { type: 'u16', value: 65535 }],
    ['llama.d', { type: 'f64', value: 0.1 }],
    ['nested', { type: 'array', of: 'string', values: ['x', 'yz'] }],
  ] as const;

  it.each([
    { version: 1 as const, littleEndian: true },
    { version: 2 as const, littleEndian: true },
    { version: 3 as const, littleEndian: true },
    { version: 3 as const, littleEndian: false },
  ])('v$version littleEndian=$littleEndian', async ({ version, littleEndian }) => {
    const bytes = buildGgufHeader(entries as never, { version, littleEndian });
    const h = await readGgufHeader(virtualFile(bytes, 0).readRange);
    expect(h.version).toBe(version);
    expect(h.littleEndian).toBe(littleEndian);
    expect(h.metadata).toEqual({
      'general.architecture': 'llama',
      'llama.block_count': 2,
      'llama.rope.freq_base': 10000,
      'llama.flags': [true, false],
      'llama.wide': 1099511627776,
      'llama.neg': -5,
      'llama.small': -3,
      'llama.half': 65535,
      'llama.d': 0.1,
      nested: ['x', 'yz'],
    });
  });
});

describe('damaged input gives a GgufError that says what is wrong', () => {
  const good = buildGgufHeader([
    ['general.architecture', str('llama')],
    ['llama.block_count', u32(5)],
    ['tokenizer.ggml.tokens', arr('string', ['<unk>', '<s>', '</s>'])],
  ]);

  it('empty and short files', async () => {
    await expect(readGgufHeader(virtualFile(new Uint8Array(0), 0).readRange)).rejects.toThrow(
      /shorter than the 8-byte GGUF preamble/,
    );
    await expect(readGgufHeader(virtualFile(good.subarray(0, 5), 0).readRange)).rejects.toThrow(GgufError);
  });

  it('wrong magic', async () => {
    const text = new TextEncoder().encode('#!/bin/sh\necho not a model\n');
    await expect(readGgufHeader(virtualFile(text, 0).readRange)).rejects.toThrow(
      /not a GGUF file: starts with "#!\/b"/,
    );
  });

  it('unknown version', async () => {
    const bad = good.slice();
    new DataView(bad.buffer).setUint32(4, 7, true);
    await expect(readGgufHeader(virtualFile(bad, 0).readRange)).rejects.toThrow(/unsupported GGUF version 7/);
  });

  it('truncated inside the metadata', async () => {
    await expect(readGgufHeader(virtualFile(good.subarray(0, good.length - 3), 0).readRange)).rejects.toThrow(
      /truncated GGUF/,
    );
  });

  it('an invalid value type', async () => {
    const bad = good.slice();
    // first KV: key length (8) + "general.architecture" (20) after the 24-byte preamble → type at 52
    new DataView(bad.buffer).setUint32(52, 99, true);
    await expect(readGgufHeader(virtualFile(bad, 0).readRange)).rejects.toThrow(
      /invalid GGUF value type 99 for "general.architecture" at offset 52/,
    );
  });

  it('an implausible string length', async () => {
    const bad = good.slice();
    new DataView(bad.buffer).setBigUint64(24, 2n ** 40n, true); // the first key's length
    await expect(readGgufHeader(virtualFile(bad, 0).readRange)).rejects.toThrow(/implausible length 1099511627776/);
  });

  it('metadata larger than maxBytes', async () => {
    await expect(readGgufHeader(virtualFile(good, 0).readRange, { maxBytes: 40 })).rejects.toThrow(
      /runs past 40 bytes/,
    );
  });

  it('missing files name the path', async () => {
    await expect(readGgufHeaderFromFile('/nonexistent/model.gguf')).rejects.toThrow(
      /^cannot open \/nonexistent\/model.gguf: no such file$/,
    );
  });

  it("a directory is named as one, not with Node's EISDIR text", async () => {
    const dir = '../shared/models';
    await expect(readGgufHeaderFromFile(dir)).rejects.toThrow(new GgufError(`${dir}: is a directory, not a GGUF file`));
  });

  // QA: /dev/zero read as "shorter than the 8-byte GGUF preamble" (a damaged model?), and a named
  // pipe's open waited for a writer forever.
  it('a character device and a named pipe are named as such, on this computer and on a target, at once', async () => {
    await expect(readGgufHeaderFromFile('/dev/zero')).rejects.toThrow(
      new GgufError('/dev/zero: is a character device, not a GGUF file'),
    );
    const dir = mkdtempSync(join(tmpdir(), 'kvscope-gguf-fifo-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const fifo = join(dir, 'model.gguf');
    execFileSync('mkfifo', [fifo]);
    await expect(readGgufHeaderFromFile(fifo)).rejects.toThrow(
      new GgufError(`${fifo}: is a named pipe (FIFO), not a GGUF file`),
    );
    const target = new LocalTarget();
    await expect(readGgufHeaderFromTarget(target, fifo)).rejects.toThrow(
      new GgufError(`This computer:${fifo}: is a named pipe (FIFO), not a GGUF file`),
    );
    await expect(readGgufHeaderFromTarget(target, '/dev/zero')).rejects.toThrow(
      new GgufError('This computer:/dev/zero: is a character device, not a GGUF file'),
    );
  });

  // A model path under the target user's home (`~/models`) is read there; its kind was checked
  // with the `~` quoted, so a directory there got the read's own error instead of this one.
  it("a directory under the target user's home (`~/…`) is named as one", async () => {
    const home = mkdtempSync(join(tmpdir(), 'kvscope-gguf-home-'));
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    mkdirSync(join(home, 'models'));
    vi.stubEnv('HOME', home);
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    await expect(readGgufHeaderFromTarget(new LocalTarget(), '~/models')).rejects.toThrow(
      new GgufError('This computer:~/models: is a directory, not a GGUF file'),
    );
  });

  it('any truncation or corruption yields a GgufError or a valid header, never another exception (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: good.length }),
        fc.integer({ min: 0, max: good.length - 1 }),
        fc.integer({ min: 0, max: 255 }),
        async (cut, at, byte) => {
          const damaged = good.slice(0, cut);
          if (at < damaged.length) damaged[at] = byte;
          try {
            await readGgufHeader(virtualFile(damaged, 0).readRange, { maxBytes: 1 << 20 });
          } catch (error) {
            expect(error).toBeInstanceOf(GgufError);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('local files', () => {
  const tmp = useTempDir('kvscope-gguf-');

  it('reads a generated file and reports its size', async () => {
    const path = tmp.at('small.gguf');
    const bytes = buildGgufHeader([
      ['general.architecture', str('llama')],
      ['llama.block_count', u32(16)],
    ]);
    await writeFile(path, bytes);
    const h = await readGgufHeaderFromFile(path);
    expect(h.fileBytes).toBe(bytes.length);
    expect(h.metadata['llama.block_count']).toBe(16);
  });

  it('prefixes errors with the path', async () => {
    const path = tmp.at('garbage.gguf');
    await writeFile(path, 'GGUF');
    await expect(readGgufHeaderFromFile(path)).rejects.toThrow(new RegExp(`${path}: not a GGUF file`));
  });
});

// Model files are untrusted. Limits: shared/kv/model-limits.ts GGUF_LIMITS.
describe('hostile headers: bounded memory, bounded counts, the event loop keeps turning', () => {
  const preambleWith = (tensorCount: bigint, kvCount: bigint) => {
    const bytes = buildGgufHeader([['a', u32(1)]]);
    const view = new DataView(bytes.buffer);
    view.setBigUint64(8, tensorCount, true);
    view.setBigUint64(16, kvCount, true);
    return bytes;
  };

  it('the 200-byte header claiming 2^28 layers reads, and the model step refuses it', async () => {
    const bomb = layerBombHeader();
    expect(bomb.length).toBeLessThan(256);
    const h = await readGgufHeader(virtualFile(bomb, 0).readRange);
    expect(h.metadata['llama.block_count']).toBe(2 ** 28);
    expect(() => modelShapeFromGguf(h.metadata)).toThrow(/block_count is 268435456, beyond KVScope's limit of 1024/);
  });

  it('refuses implausible tensor, key/value and array counts before allocating for them', async () => {
    await expect(readGgufHeader(virtualFile(preambleWith(2n ** 21n, 1n), 0).readRange)).rejects.toThrow(
      /implausible tensor count 2097152 \(limit 1048576\)/,
    );
    await expect(readGgufHeader(virtualFile(preambleWith(0n, 2n ** 17n), 0).readRange)).rejects.toThrow(
      /implausible metadata count 131072 \(limit 65536\)/,
    );
    const bigArray = buildGgufHeader([['big', arr('u8', [])]]);
    new DataView(bigArray.buffer).setBigUint64(bigArray.length - 8, 2n ** 25n, true);
    await expect(readGgufHeader(virtualFile(bigArray, 1 << 26).readRange)).rejects.toThrow(
      /implausible array length 33554432 for "big" at offset \d+ \(limit 16777216\)/,
    );
  });

  it('stops keeping values at 16 MiB: thousands of 1,024-entry arrays are refused, not materialised', async () => {
    const header = manyArraysHeader(40 << 20); // ≈ 10,000 arrays of 1,024 u32
    await expect(readGgufHeader(virtualFile(header, 0).readRange)).rejects.toThrow(
      /keeps more than 16777216 bytes of values \(at "k0000204\d"\): not a real model header/,
    );
    // A real header's arrays (per-layer lists) are far below the budget.
    const fine = manyArraysHeader(1 << 20);
    const h = await readGgufHeader(virtualFile(fine, 0).readRange);
    expect((h.metadata.k00000000 as number[]).length).toBe(1024);
  });

  it('yields to the event loop while walking a 127 MB header held in memory', async () => {
    const header = bigStringArrayHeader(127_000_000);
    let turns = 0;
    let parsing = true;
    const spin = () => {
      if (!parsing) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    const h = await readGgufHeader(virtualFile(header, 0).readRange);
    parsing = false;
    expect(h.metadata.after).toBe(7);
    expect(h.metadata['tokenizer.ggml.tokens']).toEqual({ kind: 'gguf-array', elementType: 'string', length: 9769230 });
    // Before the pacing, an in-memory reader never let a setImmediate run until the header was done.
    expect(turns).toBeGreaterThan(0);
  });

  it('duplicate keys are refused; "__proto__" is an ordinary key', async () => {
    const dup = buildGgufHeader([
      ['llama.block_count', u32(5)],
      ['llama.block_count', u32(2 ** 28)],
    ]);
    await expect(readGgufHeader(virtualFile(dup, 0).readRange)).rejects.toThrow(
      /duplicate key "llama.block_count" \(key #1\)/,
    );
    const proto = buildGgufHeader([['__proto__', arr('u32', [1, 2])]]);
    const h = await readGgufHeader(virtualFile(proto, 0).readRange);
    expect(Object.getPrototypeOf(h.metadata)).toBeNull();
    expect(Object.hasOwn(h.metadata, '__proto__')).toBe(true);
  });

  it('keys appear in messages on one line, control characters escaped', async () => {
    const bad = buildGgufHeader([['evil\n\u001b[2Jkey', u32(1)]]);
    // The value type of the first key: preamble (24) + key length (8) + 12 key bytes.
    new DataView(bad.buffer).setUint32(24 + 8 + 12, 99, true);
    const error = await readGgufHeader(virtualFile(bad, 0).readRange).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(GgufError);
    expect((error as Error).message).toBe(
      'invalid GGUF value type 99 for "evil\\u000a\\u001b[2Jkey" at offset 44: damaged file',
    );
  });
});
