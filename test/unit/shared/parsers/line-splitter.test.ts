import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LINE_CHARS } from '../../../../shared/parsers/line-cap';
import { FallbackUtf8Decoder, LineSplitter, splitLines } from '../../../../shared/parsers/line-splitter';
import { cut, FIXTURES } from '../../../helpers/parser-test-kit';

function feed(chunks: Array<string | Uint8Array>, options?: { maxLineChars?: number }): string[] {
  const s = new LineSplitter(options);
  return [...chunks.flatMap((c) => s.push(c)), ...s.end()];
}

const enc = (text: string) => new TextEncoder().encode(text);

describe('LineSplitter', () => {
  it('splits on \\n, \\r\\n and a lone \\r; a final line without terminator is kept; no empty line after a final terminator', () => {
    expect(splitLines('a\nb\r\nc\rd')).toEqual(['a', 'b', 'c', 'd']);
    expect(splitLines('a\n')).toEqual(['a']);
    expect(splitLines('a\n\n')).toEqual(['a', '']);
    expect(splitLines('\n')).toEqual(['']);
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\r\n\r\nb')).toEqual(['a', '', 'b']);
  });

  it('holds a chunk-final \\r until it knows whether \\n follows', () => {
    expect(feed(['a\r', '\nb\r', 'c\r', ''])).toEqual(['a', 'b', 'c']);
    expect(feed(['a\r', '\r\n'])).toEqual(['a', '']);
  });

  it('drops a leading byte-order mark (bytes or text), only at the very start', () => {
    expect(feed([new Uint8Array([0xef, 0xbb]), new Uint8Array([0xbf, 0x41, 0x0a])])).toEqual(['A']);
    expect(feed(['\ufeffA\n\ufeffB'])).toEqual(['A', '\ufeffB']);
  });

  it('decodes a multi-byte character split across chunks once, whole', () => {
    const bytes = enc('t/s 116.49 ± 0.07\nMär 06 °C 中文 🙂\n');
    for (let i = 0; i <= bytes.length; i++) {
      expect(feed([bytes.subarray(0, i), bytes.subarray(i)])).toEqual(['t/s 116.49 ± 0.07', 'Mär 06 °C 中文 🙂']);
    }
  });

  it('invalid UTF-8 becomes U+FFFD, not an exception', () => {
    expect(feed([new Uint8Array([0x41, 0xff, 0xfe, 0x0a, 0xc3])])).toEqual(['A\ufffd\ufffd', '\ufffd']);
  });

  it('gives the same lines for any chunking of the same bytes', () => {
    const text = fc
      .array(fc.constantFrom('a', 'ü', '€', '🙂', '\n', '\r', '\r\n', ' ', '\t', '|', '±'), { maxLength: 60 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 20 }), (t, cuts) => {
        const bytes = enc(t);
        expect(feed(cut(bytes, cuts))).toEqual(splitLines(t));
        expect(feed(Array.from(t))).toEqual(splitLines(t));
      }),
      { numRuns: 500 },
    );
  });

  it('cuts a line over the cap to its first characters and counts the rest, the same in any chunking', () => {
    const long = 'x'.repeat(25) + '\n' + 'y'.repeat(10) + '\n' + 'z'.repeat(20);
    const expected = [
      { text: 'x'.repeat(10), droppedChars: 15 },
      { text: 'y'.repeat(10), droppedChars: 0 },
      { text: 'z'.repeat(10), droppedChars: 10 },
    ];
    const lines = (chunks: Array<string | Uint8Array>) => {
      const s = new LineSplitter({ maxLineChars: 10 });
      return [...chunks.flatMap((c) => s.pushLines(c)), ...s.endLines()];
    };
    expect(lines([long])).toEqual(expected);
    expect(lines(Array.from(long))).toEqual(expected);
    expect(feed([long], { maxLineChars: 10 })).toEqual(expected.map((l) => l.text));
    fc.assert(
      fc.property(fc.array(fc.nat({ max: long.length }), { maxLength: 10 }), (cuts) => {
        expect(lines(cut(enc(long), cuts))).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('never ends a cut line on half a surrogate pair', () => {
    const s = new LineSplitter({ maxLineChars: 4 });
    expect([...s.pushLines('abc🙂def\n'), ...s.endLines()]).toEqual([{ text: 'abc', droppedChars: 5 }]);
  });

  it('holds at most the cap while a line without a newline streams in (a 64 MiB run of bytes)', () => {
    const s = new LineSplitter();
    const chunk = new Uint8Array(1024 * 1024).fill(0x61);
    for (let i = 0; i < 64; i++) expect(s.pushLines(chunk)).toEqual([]);
    // The kept part never grows past the cap, whatever arrives: the private carry is the evidence.
    expect((s as unknown as { carry: string }).carry.length).toBe(MAX_LINE_CHARS);
    expect(s.endLines()).toEqual([
      { text: 'a'.repeat(MAX_LINE_CHARS), droppedChars: 64 * 1024 * 1024 - MAX_LINE_CHARS },
    ]);
  });

  it('the fallback UTF-8 decoder (for runtimes without TextDecoder) agrees with TextDecoder, in any chunking', () => {
    // Mostly bytes around the UTF-8 boundaries, so that broken and overlong sequences are common.
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc
        .array(
          fc.constantFrom(
            0x41,
            0x0a,
            0x7f,
            0x80,
            0x8f,
            0x90,
            0x9f,
            0xa0,
            0xbf,
            0xc0,
            0xc2,
            0xdf,
            0xe0,
            0xed,
            0xef,
            0xf0,
            0xf4,
            0xf5,
            0xff,
          ),
          { maxLength: 64 },
        )
        .map((a) => new Uint8Array(a)),
    );
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 8 }), (b, cuts) => {
        const fallback = new FallbackUtf8Decoder();
        const real = new TextDecoder('utf-8');
        const pieces = cut(b, cuts);
        const got =
          pieces.map((p) => fallback.decode(p, { stream: true })).join('') + fallback.decode(new Uint8Array(0));
        const want = pieces.map((p) => real.decode(p, { stream: true })).join('') + real.decode();
        expect(got).toBe(want);
      }),
      { numRuns: 1000 },
    );
    const valid = enc('Mär 中文 🙂 ±');
    expect(new FallbackUtf8Decoder().decode(valid)).toBe('Mär 中文 🙂 ±');
  });

  it('counts the lines of every fixture as `wc -l` does (plus an unterminated last line)', () => {
    const mine = ['tegrastats', 'perf', 'pmap', 'proc', 'llama-cpp', 'llama-bench', 'thermal', 'invalid'];
    const files = mine
      .flatMap((dir) => readdirSync(FIXTURES + dir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile() && e.name !== 'SOURCE');
    // At least the 40 captures there were when this was written (new ones only add to the check).
    expect(files.length).toBeGreaterThanOrEqual(40);
    for (const f of files) {
      const bytes = readFileSync(`${f.parentPath}/${f.name}`);
      const text = new TextDecoder().decode(bytes);
      // Terminators counted on the raw bytes: \r\n and lone \r count once, like \n.
      const terminators = (text.match(/\r\n|\r|\n/g) ?? []).length;
      const unterminated = text.length > 0 && !/[\r\n]$/.test(text) ? 1 : 0;
      expect(feed([bytes])).toHaveLength(terminators + unterminated);
    }
  });
});
