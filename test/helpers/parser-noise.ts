// The robustness properties of the parser tests: fed text shaped like a format (pieces glued in any
// order) or arbitrary text, a parser never throws and every record points at a line. The pieces
// live in test/fixtures/noise/<format>.json (hand-written; see the SOURCE note there).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { LineParser } from '../../shared/parsers/records';
import { FIXTURES } from './parser-test-kit';

/** The pieces of text shaped like `format`, from test/fixtures/noise/<format>.json. */
export function noisePieces(format: string): string[] {
  return JSON.parse(readFileSync(`${FIXTURES}noise/${format}.json`, 'utf8')) as string[];
}

/** The records `parser` gives for `lines` pushed one by one, then its end(). */
export function feed<R extends { kind: string; line: number }>(parser: LineParser<R>, lines: readonly string[]): R[] {
  return [...lines.flatMap((l) => parser.push(l)), ...parser.end()];
}

export interface NoiseShape {
  /** At most this many pieces glued into one line. */
  perLine: number;
  /** At most this many lines fed to one parser. */
  lines: number;
  /** fast-check runs. */
  runs: number;
}

/**
 * Property: lines glued from the pieces of `format` (noisePieces: text shaped like the format, in any
 * order) never make a fresh parser throw, every record points at a line (≥ 1), and, when `kinds` is
 * given, is one of them.
 */
export function expectSurvivesNoise<R extends { kind: string; line: number }>(
  create: () => LineParser<R>,
  format: string,
  shape: NoiseShape,
  kinds?: readonly string[],
): void {
  const line = fc.array(fc.constantFrom(...noisePieces(format)), { maxLength: shape.perLine }).map((p) => p.join(''));
  expectSurvives(create, line, shape, kinds);
}

/** The same property on arbitrary text: lines of up to `maxChars` of any code units. */
export function expectSurvivesAnyText<R extends { kind: string; line: number }>(
  create: () => LineParser<R>,
  maxChars: number,
  shape: Omit<NoiseShape, 'perLine'>,
  kinds?: readonly string[],
): void {
  expectSurvives(create, fc.string({ unit: 'binary', maxLength: maxChars }), shape, kinds);
}

function expectSurvives<R extends { kind: string; line: number }>(
  create: () => LineParser<R>,
  line: fc.Arbitrary<string>,
  shape: Omit<NoiseShape, 'perLine'>,
  kinds?: readonly string[],
): void {
  fc.assert(
    fc.property(fc.array(line, { maxLength: shape.lines }), (lines) => {
      for (const r of feed(create(), lines)) {
        expect(r.line).toBeGreaterThanOrEqual(1);
        if (kinds) expect(kinds).toContain(r.kind);
      }
    }),
    { numRuns: shape.runs },
  );
}
