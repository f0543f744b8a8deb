// Fuzz: mutated GGUF headers (the real stories260K header, generated headers with per-layer arrays
// and a vocabulary, the 2^28-layer header) and random bytes, read and turned into a KV answer
// the way `kvscope kv --gguf` does. Every case ends in a result or one of our errors — never
// another exception — and the heap stays bounded (nothing sized by a count in the file).
// Wall time of this file: see the closing note of issue 11 (measured, not asserted).
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GgufError, readGgufHeader } from '../../../../../electron/node/model/gguf-reader';
import { computeKvForShape, KvShapeError } from '../../../../../shared/kv/kv-theory';
import { ModelConfigError, modelShapeFromGguf } from '../../../../../shared/kv/model-config';
import { arr, buildGgufHeader, layerBombHeader, str, u32, virtualFile } from '../../../../helpers/gguf-fixture';

const RUNS = 10_000;

// The first 64 KiB of the real model hold its whole header (metadata ends at byte ~10k).
const stories = new Uint8Array(readFileSync('../shared/models/stories260K.gguf').subarray(0, 64 * 1024));
const perLayer = buildGgufHeader([
  ['general.architecture', str('gemma3')],
  ['gemma3.block_count', u32(6)],
  ['gemma3.embedding_length', u32(256)],
  ['gemma3.attention.head_count', u32(4)],
  ['gemma3.attention.head_count_kv', arr('u32', [1, 1, 1, 1, 1, 2])],
  ['gemma3.attention.sliding_window', u32(512)],
  ['gemma3.attention.sliding_window_pattern', arr('bool', [true, true, true, true, true, false])],
  ['tokenizer.ggml.tokens', arr('string', ['<pad>', '<s>', 'a', 'b'])],
]);
const SEEDS = [stories, perLayer, layerBombHeader()];

/** A seed with mutations: bytes overwritten, extreme counts planted at any offset, a cut. */
const mutatedHeader = fc
  .record({
    seed: fc.nat(SEEDS.length - 1),
    bytes: fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 8 }),
    counts: fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom(0n, 1n, 255n, 1024n, 1025n, 2n ** 24n + 1n, 2n ** 32n, 2n ** 53n, 2n ** 64n - 1n),
      ),
      { maxLength: 3 },
    ),
    cut: fc.option(fc.nat(), { nil: undefined }),
  })
  .map(({ seed, bytes, counts, cut }) => {
    const base = SEEDS[seed] ?? stories;
    const out = base.slice(0, cut === undefined ? base.length : cut % (base.length + 1));
    const view = new DataView(out.buffer);
    for (const [at, value] of bytes) if (out.length) out[at % out.length] = value;
    for (const [at, value] of counts) if (out.length >= 8) view.setBigUint64(at % (out.length - 7), value, true);
    return out;
  });

/** Random bytes, half of them behind a valid preamble so the parser gets past the magic. */
const randomHeader = fc.tuple(fc.boolean(), fc.uint8Array({ maxLength: 512 })).map(([preamble, bytes]) => {
  if (!preamble) return bytes;
  const out = new Uint8Array(8 + bytes.length);
  out.set([0x47, 0x47, 0x55, 0x46, 3, 0, 0, 0]);
  out.set(bytes, 8);
  return out;
});

/** What `kvscope kv --gguf` does with a file: read, shape, compute. Returns 'ok' or the error's name. */
async function kvAnswer(bytes: Uint8Array): Promise<string> {
  try {
    const header = await readGgufHeader(virtualFile(bytes, 0).readRange);
    const { shape } = modelShapeFromGguf(header.metadata);
    computeKvForShape(shape, { ctx: 4096, budgetBytes: 2 ** 31 });
    return 'ok';
  } catch (error) {
    if (error instanceof GgufError || error instanceof ModelConfigError || error instanceof KvShapeError) {
      // One line, and no terminal escape (ESC, U+001B) from the file.
      expect(error.message).not.toMatch(/[\n\r]/);
      expect(error.message).not.toContain(String.fromCharCode(0x1b));
      return error.name;
    }
    throw error;
  }
}

describe('GGUF fuzz (fast-check)', () => {
  it(`${RUNS} mutated headers and ${RUNS} random ones: a result or our error, heap bounded`, async () => {
    const outcomes = new Map<string, number>();
    const heapStart = process.memoryUsage().heapUsed;
    let heapMax = heapStart;
    for (const arbitrary of [mutatedHeader, randomHeader]) {
      await fc.assert(
        fc.asyncProperty(arbitrary, async (bytes) => {
          const outcome = await kvAnswer(bytes);
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          heapMax = Math.max(heapMax, process.memoryUsage().heapUsed);
        }),
        { numRuns: RUNS },
      );
    }
    // Both kinds of outcome happen: the mutations are neither all harmless nor all fatal.
    expect(outcomes.get('ok')).toBeGreaterThan(0);
    expect(outcomes.get('GgufError')).toBeGreaterThan(0);
    // Nothing sized by a count in the file: the heap never grows by more than a few dozen MB.
    expect(heapMax - heapStart).toBeLessThan(256 * 1024 * 1024);
  });
});
