// Fuzz (issues 8 and 11): 10,000 cases per parser, half real corpus lines mutated (characters
// replaced, inserted, deleted or flipped to any code unit, fields doubled, the line cut, numbers
// made huge/NaN/inf, a NUL inside, a CR at the end, spaces widened, digits turned into letters, a
// word renamed "constructor", "__proto__"…: test/helpers/fuzz-lines.ts), half random text (binary
// code units and random Unicode). For every case:
// - the parser (the raw factory, without the registry's safety net) does not throw;
// - every record points at the input line and holds no NaN or Infinity (JSON would turn them into null),
//   and data only: no Object.prototype member read as a value, no prototype set from a key;
// - never silence where a line must be read: for the formats that are nothing but readings
//   (tegrastats, perf, pmap, /proc files) every non-blank, non-comment line yields a record or a
//   diagnostic (rows of separators only — perf's empty CSV records, pmap's rules — are the one thing skipped).
// The log-like formats (llama.cpp logs, llama-bench, board transcripts) skip prose by design; there
// the property is no throw and well-formed records (see the report of the parsers branch for the
// damaged-reading cases this fuzz found that still pass in silence).
// The suite runs in `npm test`: its wall time is printed by vitest (about 2 s on the 2-core VM).
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { isBlankLine, isCommentLine, parserFormats, type ParseRecord } from '../../../../shared/parsers/index';
import { digitsDamaged, expectFiniteNumbers, expectPlainData, fuzzLine } from '../../../helpers/fuzz-lines';
import { CORPUS_FORMATS, corpusLines } from '../../../helpers/parser-corpus';

const RUNS_PER_PARSER = 10_000;
/** Not a speed check: room for 10,000 cases on the 2-core VM while other suites run. */
const FUZZ_TIMEOUT_MS = 60_000;
const STRICT_FORMATS = new Set(['tegrastats', 'perf', 'pmap', 'smaps', 'meminfo', 'status', 'statm']);
/**
 * Rows of separators only: perf -x's all-empty records (`,,,,`), pmap's `---- ----` and `====` rules (also with the
 * en and em dashes a blog's typography makes of them, `——– ——-`).
 */
const STRUCTURAL_RE = /^[\s,;|:=\u2013\u2014-]*$/;

function parseOne(format: string, line: string): ParseRecord[] {
  const parser = parserFormats[format]?.create({ pageSizeBytes: 4096 });
  if (!parser) throw new Error(`no parser ${format}`);
  return [...parser.push(line), ...parser.end()];
}

/** Plain checks (no expect() per record: 10,000 cases stay cheap). */
function checkRecords(out: ParseRecord[]): void {
  for (const r of out) {
    if (typeof r.kind !== 'string' || r.line !== 1) throw new Error(`record off its line: ${JSON.stringify(r)}`);
    expectFiniteNumbers(r);
    expectPlainData(r);
  }
}

/** Never silence where a line must be read. */
function checkNotSilent(strict: boolean, line: string, out: ParseRecord[]): void {
  if (out.length > 0 || !strict || isBlankLine(line) || isCommentLine(line) || STRUCTURAL_RE.test(line)) return;
  throw new Error('a line read as nothing');
}

describe(`fuzz: ${RUNS_PER_PARSER} cases per parser`, () => {
  for (const format of CORPUS_FORMATS) {
    it(
      `${format}: never throws, records point at the line, never silent where a reading was`,
      () => {
        const lines = corpusLines(format);
        const readings = lines.filter((l) => parseOne(format, l).some((r) => r.kind !== 'diagnostic'));
        const strict = STRICT_FORMATS.has(format);
        const check = (line: string) => {
          const out = parseOne(format, line);
          checkRecords(out);
          checkNotSilent(strict, line, out);
        };
        fc.assert(fc.property(fuzzLine(lines), check), { numRuns: RUNS_PER_PARSER / 2 });
        const damaged = strict ? lines : readings.length > 0 ? readings : lines;
        fc.assert(fc.property(digitsDamaged(damaged), check), { numRuns: RUNS_PER_PARSER / 2 });
      },
      FUZZ_TIMEOUT_MS,
    );
  }
});
