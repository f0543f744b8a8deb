// Float64 cells (shared/api/float64-cells.ts): the bytes are the cells' own float64 values,
// little-endian, read back the same whichever base64 codec the runtime has (node's Buffer here,
// Uint8Array.fromBase64 in the page: test/e2e/dashboard-session.test.ts; atob/btoa else).
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { cellsFromBase64, cellsToBase64, isFloat64Base64 } from '../../../../shared/api/float64-cells';

const runtime = globalThis as { Buffer?: unknown };
const nodeBuffer = runtime.Buffer;
afterEach(() => {
  runtime.Buffer = nodeBuffer;
});

/** What a JSON array of the cells reads back as, with NaN for its nulls. */
const asJsonWould = (cells: Array<number | null>) =>
  (JSON.parse(JSON.stringify(cells)) as Array<number | null>).map((c) => c ?? NaN);

const cellsArbitrary = fc.array(fc.oneof(fc.double(), fc.integer(), fc.constant(null)), { maxLength: 200 });

describe('float64 cells', () => {
  it.each([
    ['Buffer', false],
    ['atob and btoa only', true],
  ])('round-trip any cells as JSON would give them back, with %s', (_codec, hideBuffer) => {
    if (hideBuffer) runtime.Buffer = undefined;
    fc.assert(
      fc.property(cellsArbitrary, (cells) => {
        const text = cellsToBase64(cells);
        expect(isFloat64Base64(text)).toBe(true);
        expect(Array.from(cellsFromBase64(text))).toEqual(asJsonWould(cells));
      }),
      { numRuns: 300 },
    );
  });

  it('writes the little-endian bytes of each value: 1 is 00 00 00 00 00 00 f0 3f', () => {
    expect(cellsToBase64([1])).toBe(Buffer.from([0, 0, 0, 0, 0, 0, 0xf0, 0x3f]).toString('base64'));
  });

  it('reads back short texts, which node decodes into its shared pool of small buffers', () => {
    // A view of float64 needs its bytes at a multiple of 8 in their buffer: a pooled one is copied when not.
    for (let n = 1; n <= 9; n++) {
      const cells = Array.from({ length: n }, (_, i) => i + 0.5);
      expect(Array.from(cellsFromBase64(cellsToBase64(cells)))).toEqual(cells);
    }
  });

  it.each([
    ['', true],
    ['AAAAAAAA8D8=', true],
    ['AAAA', false],
    ['AAAAAAAA8D8', false],
    ['AAAAAAAA8D8=\n', false],
    ['AAAAAAAA"D8=', false],
    ['AAAAAAAA-D8=', false],
  ])('isFloat64Base64(%j) is %s', (text, expected) => expect(isFloat64Base64(text)).toBe(expected));
});
