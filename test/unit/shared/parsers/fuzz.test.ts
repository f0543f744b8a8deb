// Fuzz (issues 8 and 11): 10,000 cases per parser, half real corpus lines mutated (characters
// replaced, inserted, deleted, tokens doubled, the line cut, spaces widened, digits turned into
// letters), half random text (binary code units and random Unicode). For every case:
// - the parser (the raw factory, without the registry's safety net) does not throw;
// - every record points at the input line and serialises to JSON;
// - never silence where a line must be read: for the formats that are nothing but readings
//   (tegrastats, perf, pmap, /proc files) every non-blank, non-comment line yields a record or a
//   diagnostic (rows of separators only — perf's empty CSV records, pmap's rules — are the one thing skipped).
// The log-like formats (llama.cpp logs, llama-bench, board transcripts) skip prose by design; there
// the property is no throw and well-formed records (see the report of the parsers branch for the
// damaged-reading cases this fuzz found that still pass in silence).
// The suite runs in `npm test`: its wall time is printed by vitest (about 3 s on the 2-core VM).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBlankLine, isCommentLine, parserFormats, type ParseRecord } from '../../../../shared/parsers/index';
import { CORPUS_FORMATS, corpusLines } from '../../../helpers/parser-corpus';

const RUNS_PER_PARSER = 10_000;
const STRICT_FORMATS = new Set(['tegrastats', 'perf', 'pmap', 'smaps', 'meminfo', 'status', 'statm']);
/** Rows of separators only: perf -x's all-empty records (`,,,,`), pmap's `---- ----` and `====` rules. */
const STRUCTURAL_RE = /^[\s,;|:=-]*$/;

function parseOne(format: string, line: string): ParseRecord[] {
  const parser = parserFormats[format]?.create({ pageSizeBytes: 4096 });
  if (!parser) throw new Error(`no parser ${format}`);
  return [...parser.push(line), ...parser.end()];
}

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 120 }),
  fc.string({ unit: fc.constantFrom(...' \t[](){}",:;|#@%=/-.*>0123456789abcxyzCKMGB'), maxLength: 200 }),
);

/** A corpus line changed in one of the ways real damage changes lines. */
function mutated(lines: string[]): fc.Arbitrary<string> {
  const line = fc.constantFrom(...lines);
  return fc.oneof(
    fc.tuple(line, fc.nat(), fc.nat({ max: 8 }), fc.string({ maxLength: 8 })).map(([l, at, len, ins]) => {
      const k = at % (l.length + 1);
      return l.slice(0, k) + ins + l.slice(k + len);
    }),
    fc.tuple(line, fc.nat()).map(([l, at]) => l.slice(0, at % (l.length + 1))),
    fc.tuple(line, fc.nat()).map(([l, at]) => {
      const tokens = l.split(' ');
      const k = at % tokens.length;
      return [...tokens.slice(0, k + 1), ...tokens.slice(k)].join(' ');
    }),
    fc.tuple(line, fc.integer({ min: 2, max: 40 })).map(([l, n]) => l.replace(/ /g, ' '.repeat(n))),
    digitsDamaged(lines),
  );
}

/** Numbers damaged only: a digit turned into a letter or a sign (the line keeps its shape and labels). */
function digitsDamaged(lines: string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...lines), fc.nat(), fc.constantFrom('x', 'O', '-', '?', 'e')).map(([l, at, c]) => {
    const digits = [...l.matchAll(/\d/g)].map((m) => m.index);
    if (digits.length === 0) return l;
    const k = digits[at % digits.length] ?? 0;
    return l.slice(0, k) + c + l.slice(k + 1);
  });
}

function checkRecords(line: string, out: ParseRecord[]): void {
  for (const r of out) {
    expect(typeof r.kind).toBe('string');
    expect(r.line).toBe(1);
    expect(() => JSON.stringify(r)).not.toThrow();
  }
  void line;
}

describe(`fuzz: ${RUNS_PER_PARSER} cases per parser`, () => {
  for (const format of CORPUS_FORMATS) {
    it(`${format}: never throws, records point at the line, never silent where a reading was`, () => {
      const lines = corpusLines(format);
      const readings = lines.filter((l) => parseOne(format, l).some((r) => r.kind !== 'diagnostic'));
      const strict = STRICT_FORMATS.has(format);
      fc.assert(
        fc.property(fc.oneof(mutated(lines), anyText), (line) => {
          const out = parseOne(format, line);
          checkRecords(line, out);
          if (strict && !isBlankLine(line) && !isCommentLine(line) && !STRUCTURAL_RE.test(line))
            expect(out.length).toBeGreaterThan(0);
        }),
        { numRuns: RUNS_PER_PARSER / 2 },
      );
      fc.assert(
        fc.property(digitsDamaged(strict ? lines : readings.length > 0 ? readings : lines), (line) => {
          const out = parseOne(format, line);
          checkRecords(line, out);
          if (strict && !isBlankLine(line) && !isCommentLine(line) && !STRUCTURAL_RE.test(line))
            expect(out.length).toBeGreaterThan(0);
        }),
        { numRuns: RUNS_PER_PARSER / 2 },
      );
    });
  }
});
