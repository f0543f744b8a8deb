// Helpers of the parser tests. `parse()` is the one entry point: it parses a text whole, then
// re-parses it fed in random byte chunks (fast-check picks the cut points, so UTF-8 characters, CRLF
// pairs and lines get split anywhere) and in 1-byte and 1-character chunks, and fails unless every
// run gives the same records. So every test in this folder is also a chunking test.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { expect } from 'vitest';
import { createParser, type ParserOptions, type ParseRecord } from '../../shared/parsers/index';
import { LineSplitter, splitLines } from '../../shared/parsers/line-splitter';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Random chunkings tried per parse (on top of the 1-byte and 1-char runs). */
const CHUNK_RUNS = 15;

export function fixture(rel: string): string {
  return readFileSync(FIXTURES + rel, 'utf8');
}

export function fixtureBytes(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(FIXTURES + rel));
}

function run(format: string, chunks: Array<string | Uint8Array>, options?: ParserOptions): ParseRecord[] {
  const parser = createParser(format, options);
  if (!parser) throw new Error(`no parser "${format}"`);
  const splitter = new LineSplitter();
  const out: ParseRecord[] = [];
  for (const chunk of chunks)
    for (const l of splitter.pushLines(chunk)) out.push(...parser.push(l.text, l.droppedChars));
  for (const l of splitter.endLines()) out.push(...parser.push(l.text, l.droppedChars));
  out.push(...parser.end());
  return out;
}

export function cut(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => Math.min(Math.max(c, 0), bytes.length)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let prev = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(prev, p));
    prev = p;
  }
  chunks.push(bytes.subarray(prev));
  return chunks;
}

/** Parse `input` and prove the records do not depend on chunking. */
export function parse(format: string, input: string | Uint8Array, options?: ParserOptions): ParseRecord[] {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const whole = run(format, [bytes], options);
  const text = new TextDecoder().decode(bytes);
  expect(run(format, [text], options)).toEqual(whole);
  expect(
    run(
      format,
      Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)),
      options,
    ),
  ).toEqual(whole);
  expect(run(format, Array.from(text), options)).toEqual(whole);
  fc.assert(
    fc.property(fc.array(fc.nat({ max: Math.max(bytes.length, 1) }), { maxLength: 40 }), (cuts) => {
      expect(run(format, cut(bytes, cuts), options)).toEqual(whole);
    }),
    { numRuns: CHUNK_RUNS },
  );
  return whole;
}

/** Parse `lines` (joined with LF) like parse() and expect no diagnostics. */
export function parseClean(format: string, lines: readonly string[], options?: ParserOptions): ParseRecord[] {
  const records = parse(format, lines.join('\n'), options);
  expect(diagnostics(records)).toEqual([]);
  return records;
}

export function parseFixture(format: string, rel: string, options?: ParserOptions): ParseRecord[] {
  const records = parse(format, fixtureBytes(rel), options);
  expectLinesConsistent(fixture(rel), records);
  return records;
}

/** parseFixture() and expect no diagnostics. */
export function parseFixtureClean(format: string, rel: string, options?: ParserOptions): ParseRecord[] {
  const records = parseFixture(format, rel, options);
  expect(diagnostics(records)).toEqual([]);
  return records;
}

/**
 * Every record points at a line of the input, and every diagnostic keeps that line's exact text
 * (or the exact lines, for a multi-line JSON object).
 */
export function expectLinesConsistent(text: string, records: ParseRecord[]): void {
  const lines = splitLines(text);
  for (const r of records) {
    expect(r.line).toBeGreaterThanOrEqual(1);
    expect(r.line).toBeLessThanOrEqual(lines.length);
    if (r.kind === 'diagnostic') {
      const kept = r.text.split('\n');
      expect(kept).toEqual(lines.slice(r.line - 1, r.line - 1 + kept.length));
    }
  }
}

export function ofKind<K extends ParseRecord['kind']>(
  records: ParseRecord[],
  kind: K,
): Array<Extract<ParseRecord, { kind: K }>> {
  return records.filter((r): r is Extract<ParseRecord, { kind: K }> => r.kind === kind);
}

export function diagnostics(records: ParseRecord[]) {
  return ofKind(records, 'diagnostic');
}

export const KiB = 1024;
export const MiB = 1024 ** 2;
export const GiB = 1024 ** 3;
