// Fuzz (issue 8) of the probe parser, the reader of the probe script's output from a target
// (shared/probe/probe-parser.ts): 10,000 cases, each a real probe output (test/fixtures/probe/*,
// built from real board captures: test/fixtures/probe/SOURCE) with one line damaged the ways
// test/helpers/fuzz-lines.ts damages lines, or replaced by random text. For every case the parser
// does not throw, its result holds no NaN or Infinity, and its diagnostics keep a section and a reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProbeOutput } from '../../../../shared/probe/probe-parser';
import { projectRoot } from '../../../helpers/cli';
import { expectFiniteNumbers, expectPlainData, fuzzLine } from '../../../helpers/fuzz-lines';

const RUNS = 10_000;
/** Not a speed check: room for 10,000 cases on the 2-core VM while other suites run. */
const FUZZ_TIMEOUT_MS = 60_000;

const PROBE = join(projectRoot, 'test/fixtures/probe');
const outputs = readdirSync(PROBE, { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== 'invalid')
  .map((e) => readFileSync(join(PROBE, e.name, 'probe-output.txt'), 'utf8').split('\n'));

describe(`fuzz: ${RUNS} damaged probe outputs`, () => {
  it(
    'never throws; finite numbers; every diagnostic says where and why',
    () => {
      expect(outputs.length).toBeGreaterThanOrEqual(5);
      const damaged = fc
        .constantFrom(...outputs)
        .chain((lines) =>
          fc
            .tuple(fc.nat({ max: lines.length - 1 }), fuzzLine(lines))
            .map(([at, line]) => [...lines.slice(0, at), line, ...lines.slice(at + 1)]),
        );
      fc.assert(
        fc.property(damaged, (lines) => {
          const result = parseProbeOutput(lines.join('\n'));
          expectFiniteNumbers(result);
          expectPlainData(result);
          for (const d of result.diagnostics)
            if (d.section === '' || d.reason === '')
              throw new Error(`diagnostic without a place: ${JSON.stringify(d)}`);
        }),
        { numRuns: RUNS },
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});
