// Linear time as a property (issue 11): every parser reads pathological input — real corpus lines
// with tokens repeated to megabytes, spaces widened, prefixes repeated, one character repeated after
// a real line's start, a whole capture without its newlines — in time proportional to its size.
//
// Timed assertions are otherwise banned from tests (speed belongs to bench/). This one is built to
// be robust on a shared, noisy machine: it never compares against a fixed speed, only the growth of
// the time with the input, where linear and super-linear differ by a factor that noise cannot fake:
// - each step compares an input of N bytes with one of 4N bytes (the best of three runs each):
//   linear ≈ 4×, quadratic ≈ 16×, so the step fails only above 8×; when the 4N run takes under
//   FLOOR_MS (100 ms) the step passes: at that size one garbage collection of the test runner's
//   heap (~50 ms, measured) or a scheduler hiccup is larger than the signal, while super-linear
//   code is far above it by the 32 KiB step;
// - an absolute ceiling far above linear and far below super-linear: 2 MiB in under 5 s (linear
//   parsers take tens of milliseconds; the quadratic tegrastats reader of before took hours), and
//   8 KiB in under 1 s while looking for the slowest inputs (so that super-linear code fails fast).
// Times are the test process's CPU time (process.cpuUsage: user + system), not wall time: vitest
// runs each file in a process of its own (pool: 'forks'), so other tests and a loaded CI machine
// do not count, while a descheduled parser's wall time grew by whatever else ran (one CI run at a
// load average of 11 failed a wall-time step).
// The parsers are created with the line cap lifted (maxLineChars) so that their own cost is what is
// measured; the cap itself is tested at the end.
import { describe, expect, it } from 'vitest';
import { MAX_LINE_CHARS, cutReason, parserFormats, parseText } from '../../../../shared/parsers/index';
import { CORPUS_FORMATS, corpusLines, corpusText } from '../../../helpers/parser-corpus';

const MiB = 1024 * 1024;
const SCAN_BYTES = 8 * 1024;
const LADDER_START_BYTES = 8 * 1024;
const LADDER_END_BYTES = 512 * 1024;
const CEILING_BYTES = 2 * MiB;
const CEILING_MS = 5000;
const SCAN_CEILING_MS = 1000;
const MAX_GROWTH = 8;
const FLOOR_MS = 100;
/** The pathological variants timed through the whole ladder, per format (the slowest of the scan). */
const WORST_PER_FORMAT = 2;

/** Characters that open or repeat structures in these formats. */
const RUN_CHARS = [' ', '\t', '[', '(', '{', '"', '|', ':', ',', '#', '@', '%', '=', '/', '-', '.', '0', 'a', '*', '>'];

type Variant = { name: string; make: (bytes: number) => string };

function fill(unit: string, bytes: number): string {
  return unit.length === 0 ? '' : unit.repeat(Math.max(1, Math.ceil(bytes / unit.length))).slice(0, bytes);
}

function variantsOf(format: string, line: string): Variant[] {
  const head = line.slice(0, 40);
  const spaces = (line.match(/ /g) ?? []).length;
  const out: Variant[] = [
    { name: 'tokens repeated', make: (b) => fill(line + ' ', b) },
    { name: 'prefix repeated', make: (b) => fill(line.slice(0, 16), b) },
    {
      name: 'spaces widened',
      make: (b) => (spaces === 0 ? line + ' '.repeat(b) : line.replace(/ /g, ' '.repeat(Math.ceil(b / spaces)))),
    },
    { name: 'no newline', make: (b) => fill(corpusText(format).replace(/\r?\n/g, ' ') + ' ', b) },
  ];
  for (const c of RUN_CHARS)
    out.push({ name: `${JSON.stringify(c)} run after the line start`, make: (b) => head + fill(c, b) });
  // Each token of the line repeated on its own (`CPU [` …, `NC 0mW/0mW` …).
  const tokens = line.trim().split(/\s+/).slice(0, 24);
  tokens.forEach((tok, k) => {
    const before = tokens.slice(0, k).join(' ');
    out.push({ name: `token ${k} (${tok.slice(0, 12)}) repeated`, make: (b) => `${before} ${fill(tok + ' ', b)}` });
  });
  return out;
}

/** The CPU time this process has used, in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Best of `runs` timings (CPU time) of parsing `text` as one line (then end), in ms. */
function timeParse(format: string, text: string, runs = 3): number {
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const parser = parserFormats[format]?.create({ maxLineChars: Number.MAX_SAFE_INTEGER, pageSizeBytes: 4096 });
    if (!parser) throw new Error(`no parser ${format}`);
    const t0 = cpuMs();
    parser.push(text);
    parser.end();
    best = Math.min(best, cpuMs() - t0);
  }
  return best;
}

interface Case {
  label: string;
  make: (bytes: number) => string;
}

/** The slowest-per-byte pathological inputs of a format at SCAN_BYTES. */
function worstCases(format: string): Case[] {
  const scored: Array<Case & { ms: number }> = [];
  for (const line of corpusLines(format, 16)) {
    for (const v of variantsOf(format, line)) {
      const label = `${v.name} of "${line.slice(0, 50)}"`;
      const ms = timeParse(format, v.make(SCAN_BYTES), 1);
      // Fail fast on the grossly super-linear (a linear parser reads 8 KiB in well under a millisecond).
      expect(ms, `${label}: 8 KiB took ${ms.toFixed(0)} ms`).toBeLessThan(SCAN_CEILING_MS);
      scored.push({ label, make: v.make, ms });
    }
  }
  scored.sort((a, b) => b.ms - a.ms);
  return scored.slice(0, WORST_PER_FORMAT);
}

describe('linear time on pathological input, every parser (see the comment at the top for why this timing is robust)', () => {
  for (const format of CORPUS_FORMATS) {
    it(`${format}: time grows ~4× per 4× input from 8 KiB to 512 KiB, and 2 MiB parses in under 5 s`, () => {
      for (const c of worstCases(format)) {
        for (let n = LADDER_START_BYTES; n < LADDER_END_BYTES; n *= 4) {
          const small = timeParse(format, c.make(n));
          const large = timeParse(format, c.make(4 * n));
          if (large < FLOOR_MS) continue;
          const growth = large / Math.max(small, 0.01);
          expect(
            growth,
            `${c.label}: ${n} B → ${small.toFixed(1)} ms, ${4 * n} B → ${large.toFixed(1)} ms`,
          ).toBeLessThan(MAX_GROWTH);
        }
        const ms = timeParse(format, c.make(CEILING_BYTES), 1);
        expect(ms, `${c.label}: 2 MiB took ${ms.toFixed(0)} ms`).toBeLessThan(CEILING_MS);
      }
    });
  }

  it('the known cases of issue 11 are among the inputs and stay fast: print_info + 160,000 spaces, 28 KB of `CPU [`', () => {
    // Not timed against a number: run under the same ladder rule as above.
    const llama = (b: number) => 'print_info: a' + ' '.repeat(b);
    const tegra = (b: number) => 'RAM 1/2MB ' + fill('CPU [', b);
    for (const [format, make] of [
      ['llama-log', llama],
      ['tegrastats', tegra],
    ] as const) {
      const small = timeParse(format, make(10_000));
      const large = timeParse(format, make(40_000));
      if (large >= FLOOR_MS) expect(large / Math.max(small, 0.01)).toBeLessThan(MAX_GROWTH);
      expect(timeParse(format, make(CEILING_BYTES), 1)).toBeLessThan(CEILING_MS);
    }
  });
});

describe('the line cap', () => {
  it('a 2 MiB line without a newline is one diagnostic holding its first 64 KiB, for every format', () => {
    const line = 'RAM ' + fill('CPU [1%@102,', CEILING_BYTES);
    for (const format of Object.keys(parserFormats)) {
      const out = parseText(format, line);
      const cut = out.filter((r) => r.kind === 'diagnostic' && r.reason === cutReason(line.length - MAX_LINE_CHARS));
      expect(cut, format).toHaveLength(1);
      expect(cut[0]).toMatchObject({ line: 1, text: line.slice(0, MAX_LINE_CHARS) });
    }
  });
});
