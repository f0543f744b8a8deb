// Fuzz (issue 8) of every collector's parser, the adapter that turns a collector's spool lines
// (`C <id> <text>`, shared/collectors/run-spool.ts) into samples: 10,000 cases each, half real lines
// in the collector's own shape damaged (test/helpers/fuzz-lines.ts: cut, code units flipped, fields
// doubled, numbers made huge/NaN/inf, NUL, CR, spaces widened), half random text. Each case is one
// line pushed into a fresh parser that has read the collector's header, then end(). For every case:
// - the parser does not throw;
// - never silence: a non-blank line gives a record (a sample, a header, a status) or a diagnostic —
//   from push() or, for a parser that groups lines (perf's interval, pmap's table), from end();
//   the one exception is a perf line the perf stat parser itself reads as no counter (a header,
//   an elapsed-time summary, a metric: shared/parsers/perf-stat-parser.ts);
// - every sample has a finite uptime and finite numbers (or null) as values; a diagnostic keeps a
//   reason and its line.
// The seeds are real: test/fixtures/<tool>/… lines (each folder has its SOURCE), put in the shape
// the collector scripts print them in (`t=<uptime> <tegrastats line>`, `t=<uptime>|<part>|…`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CollectorRecord } from '../../../../shared/collectors/collector';
import { COLLECTORS, collectorById } from '../../../../shared/collectors/registry';
import { parseSpoolLine } from '../../../../shared/collectors/run-spool';
import { createPerfStatParser } from '../../../../shared/parsers/perf-stat-parser';
import { isCommentLine } from '../../../../shared/parsers/records';
import { projectRoot } from '../../../helpers/cli';
import { expectFiniteNumbers, expectPlainData, fuzzLine } from '../../../helpers/fuzz-lines';
import { corpusLines } from '../../../helpers/parser-corpus';

const RUNS_PER_ADAPTER = 10_000;
/** Not a speed check: room for 10,000 cases on the 2-core VM while other suites run (about 1–4 s each alone). */
const FUZZ_TIMEOUT_MS = 60_000;

const fixtureText = (rel: string) => readFileSync(join(projectRoot, 'test/fixtures', rel), 'utf8');
const fixtureLines = (rel: string) =>
  fixtureText(rel)
    .split('\n')
    .filter((l) => l.trim() !== '');
/** A file's lines as one field of a tick (`memory.stat`'s `k v` lines → `k v k v …`). */
const joined = (rel: string) => fixtureLines(rel).join(' ');

/** Real lines as the collector prints them, and the lines before them (its header). */
interface Adapter {
  /** The registered collector (shared/collectors/registry.ts) whose parser is fuzzed. */
  id: string;
  /** Which of its line shapes, when one collector prints more than one (cgroup v1 and v2). */
  variant?: string;
  prelude: readonly string[];
  seeds: readonly string[];
  /** A line the adapter may read as nothing (beyond blank lines). */
  mayBeSilent?: (line: string) => boolean;
}

/**
 * `t=<uptime>|<part>|<part>…` from real part lines, one to three parts a tick. Only the lines that
 * are a reading of the collector as a part of their own: the fixtures also hold what people pasted
 * around them (prompts, `ls` listings), which no collector script prints.
 */
function ticks(id: string, lines: readonly string[]): string[] {
  const parser = collectorById(id)?.createParser();
  const parts = lines.filter((p) => !p.includes('|') && parser?.push(`t=1|${p}`)?.kind === 'sample');
  return parts.flatMap((p, k) => [
    `t=${1000 + k}.25|${p}`,
    `t=${2000 + k}.5|${p}|${parts[(k + 1) % parts.length] ?? ''}|${parts[(k + 7) % parts.length] ?? ''}`,
  ]);
}

const procfs = fixtureLines('collectors/x86-vm-linux6.18-procfs/procfs-collector-stdout.txt');
const perfCapture = fixtureLines('perf/x86-vm-perf6.1-collector-interval/perf-collector-stdout.txt');
const pressureDir = 'pressure/x86-vm-6.18';
const pmapCapture = fixtureLines('pmap/procps-ng-3.3-ubuntu20.04/01_pmap_x_procps3.3_ubuntu20.04_wsl.txt');
/** One whole real table (from pmap's `PID:` line on; the lines before are the shell's). */
const pmapTable = pmapCapture.slice(pmapCapture.findIndex((l) => l.startsWith('4299:')));
const cgV1 = 'cgroup/v1-linux-6.18';
const cgV2 = 'cgroup/v2-tree/root/boards.slice';

const ADAPTERS: readonly Adapter[] = [
  { id: 'procfs', prelude: procfs.slice(0, 1), seeds: procfs.slice(1) },
  {
    id: 'pressure',
    prelude: ['H v=1 files=memory,cpu,io,'],
    seeds: [
      [
        't=1834.97',
        `loadavg ${fixtureText(`${pressureDir}/loadavg`).trim()}`,
        ...['memory', 'cpu', 'io'].flatMap((f) => fixtureLines(`${pressureDir}/${f}`).map((l) => `${f} ${l}`)),
      ].join('|'),
    ],
  },
  {
    id: 'tegrastats',
    prelude: ['H v=1 tegrastats=/usr/bin/tegrastats ms=1000 uid=0 sudo='],
    seeds: corpusLines('tegrastats').map((l, k) => `t=${100 + k}.50 ${l}`),
  },
  {
    id: 'vcgencmd',
    prelude: ['H v=1 throttled=vcgencmd temp=vcgencmd clock=1'],
    seeds: ticks('vcgencmd', corpusLines('vcgencmd')),
  },
  {
    id: 'boardsysfs',
    prelude: ['H v=1 devfreq=2 npu=1 power=3 tripzones=2'],
    seeds: ticks('boardsysfs', [
      ...corpusLines('devfreq'),
      ...corpusLines('rknpu'),
      ...corpusLines('hwmon'),
      ...corpusLines('thermal'),
    ]),
  },
  {
    id: 'perf',
    prelude: perfCapture.slice(0, 1),
    seeds: [...perfCapture.slice(1), ...corpusLines('perf')],
    // perf's own non-counter lines (` Performance counter stats for …`, `1.00 seconds time elapsed`, a metric).
    mayBeSilent: (line) => {
      const read = createPerfStatParser().push(line);
      return read.every((r) => r.kind !== 'perf' && r.kind !== 'diagnostic');
    },
  },
  {
    id: 'pmap',
    prelude: ['H v=1 source=pmap', 't=12.5'],
    seeds: [...corpusLines('pmap'), 't=17.5'],
    // The tick's time, before its table, pmap's `---- ----` / `====` rules (or `——– ——-`, a blog's dashes) and `#` notes (an imported
    // file's provenance): markers, not readings (a table cut short after a row or a header is a diagnostic).
    mayBeSilent: (line) => /^t=\d+(?:\.\d+)?$/.test(line) || /^[\s=\u2013\u2014-]*$/.test(line) || isCommentLine(line),
  },
  {
    // smaps source: after a table, a tick whose map did not change is `t=<uptime> same` (the last
    // table's reading again); damaged, it must still be a sample or a diagnostic.
    id: 'pmap',
    variant: 'same',
    prelude: ['H v=1 source=smaps', 't=12.5', ...pmapTable],
    seeds: ['t=17.5 same', 't=1834.97 same', 't=5 same', 't=22.5', ...pmapTable.slice(1, 8)],
    mayBeSilent: (line) => /^t=\d+(?:\.\d+)?$/.test(line) || /^[\s=\u2013\u2014-]*$/.test(line) || isCommentLine(line),
  },
  {
    id: 'cgroup',
    variant: 'v1',
    prelude: ['H v=1 cg=1 path=/kvscope-abc'],
    seeds: [
      [
        't=5796.66',
        `use ${joined(`${cgV1}/memory.usage_in_bytes`)}`,
        `fail ${joined(`${cgV1}/memory.failcnt`)}`,
        `oomctl ${joined(`${cgV1}/memory.oom_control`)}`,
        `kmem ${joined(`${cgV1}/memory.kmem.usage_in_bytes`)}`,
        `st ${joined(`${cgV1}/memory.stat`)}`,
      ].join('|'),
    ],
  },
  {
    id: 'cgroup',
    variant: 'v2',
    prelude: ['H v=1 cg=2 path=/boards.slice/engine'],
    seeds: [
      [
        't=120.5',
        `use ${joined(`${cgV2}/engine/memory.current`)}`,
        `lim ${joined(`${cgV2}/engine/memory.max`)} ${joined(`${cgV2}/memory.max`)}`,
        `ev ${joined(`${cgV2}/engine/memory.events`)}`,
        `st ${joined(`${cgV2}/engine/memory.stat`)}`,
      ].join('|'),
    ],
  },
];

function readOne(adapter: Adapter, line: string): CollectorRecord[] {
  const def = collectorById(adapter.id);
  if (!def) throw new Error(`no collector ${adapter.id}`);
  const parser = def.createParser();
  for (const l of adapter.prelude) parser.push(l);
  const pushed = parser.push(line);
  return [...(pushed ? [pushed] : []), ...parser.end()];
}

/** Plain checks (no expect() per value: 10,000 cases of ~25 values each stay cheap). */
function checkRecord(r: CollectorRecord): void {
  expectFiniteNumbers(r);
  expectPlainData(r);
  if ((r.kind === 'sample' || r.kind === 'gone') && r.uptimeMs < 0) throw new Error(`negative uptime ${r.uptimeMs}`);
  if (r.kind === 'sample')
    for (const [k, v] of Object.entries(r.values))
      if (v !== null && typeof v !== 'number') throw new Error(`${k} is ${typeof v}`);
  if (r.kind === 'diagnostic' && (r.reason === '' || typeof r.text !== 'string'))
    throw new Error(`diagnostic without a reason or text: ${JSON.stringify(r)}`);
}

describe(`fuzz: ${RUNS_PER_ADAPTER} cases per collector adapter`, () => {
  it('every registered collector is fuzzed', () => {
    expect(new Set(ADAPTERS.map((a) => a.id))).toEqual(new Set(COLLECTORS.map((c) => c.id)));
  });

  for (const adapter of ADAPTERS) {
    const name = adapter.variant ? `${adapter.id} (${adapter.variant})` : adapter.id;
    it(
      `${name}: never throws, never silent, finite samples`,
      () => {
        // The seeds are readings: each gives a sample (else the fuzz would damage lines already unread).
        for (const seed of adapter.seeds.filter((s) => /^(?:t=\S+[| ]|S )/.test(s)).slice(0, 3))
          expect(readOne(adapter, seed).map((r) => r.kind)).toContain('sample');
        fc.assert(
          fc.property(fuzzLine(adapter.seeds), (line) => {
            const out = readOne(adapter, line);
            out.forEach(checkRecord);
            if (out.length === 0 && line.trim() !== '' && !(adapter.mayBeSilent?.(line) ?? false))
              throw new Error('a line read as nothing');
          }),
          { numRuns: RUNS_PER_ADAPTER },
        );
      },
      FUZZ_TIMEOUT_MS,
    );
  }

  it(
    'spool lines: `C <id> <text>` hands the collector its text unchanged; any other line is read or a diagnostic',
    () => {
      const seeds = ADAPTERS.flatMap((a) => [...a.prelude, ...a.seeds].slice(0, 40).map((l) => `C ${a.id} ${l}`));
      fc.assert(
        fc.property(fuzzLine(seeds), (line) => {
          const read = parseSpoolLine(line);
          expectFiniteNumbers(read);
          expectPlainData(read);
          if (read.tag === 'C')
            expect(`C ${read.collector} ${read.text}`).toBe(
              line.length === 2 + read.collector.length ? `${line} ` : line,
            );
          else if (read.tag === 'diagnostic') expect(read.text).toBe(line);
        }),
        { numRuns: RUNS_PER_ADAPTER },
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});
