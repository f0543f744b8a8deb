// `perf stat -j` lines written from the printf formats of tools/perf/util/stat-display.c, not captures:
// no published capture of these aggregations was found. Kept apart from perf-stat-parser.test.ts, which is
// past 700 lines.
import { describe, expect, it } from 'vitest';
import { diagnostics, ofKind, parse } from '../../../helpers/parser-test-kit';

describe('perf stat -j: the aggregation keys of print_aggr_id_json', () => {
  it('`--per-cache` and `--per-cluster` (perf 6.x) name their id; the CPU count, renamed "counters" in 2025, is no metric', () => {
    // json_out(os, "\"cache\" : \"S%d-D%d-L%d-ID%d\", \"counters\" : %d", …) and
    // "\"cluster\" : \"S%d-D%d-CLS%d\", \"aggregate-number\" : %d" before the 2025 rename
    // (ctshao, "perf stat: Fix uncore aggregation number").
    const all = parse(
      'perf',
      [
        '{"cache" : "S0-D0-L3-ID0", "counters" : 8, "counter-value" : "1234.000000", "unit" : "", "event" : "cycles", "event-runtime" : 100, "pcnt-running" : 100.00}',
        '{"cluster" : "S0-D0-CLS1", "aggregate-number" : 4, "counter-value" : "5678.000000", "unit" : "", "event" : "cycles", "event-runtime" : 100, "pcnt-running" : 100.00}',
        '{"socket" : "S0", "counters" : 8, "GHz" : "0.817", "insn per cycle" : "2.15"}',
        '{"cluster" : "S0-D0-CLS1", "counters" : 4, "GHz" : "1.800"}',
      ].join('\n'),
    );
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'perf').map((r) => [r.line, r.aggr, r.event, r.value])).toEqual([
      [1, 'S0-D0-L3-ID0', 'cycles', 1234],
      [2, 'S0-D0-CLS1', 'cycles', 5678],
    ]);
    expect(ofKind(all, 'perf-metric').map((m) => [m.line, m.name, m.value])).toEqual([
      [3, 'GHz', 0.817],
      [3, 'insn per cycle', 2.15],
      [4, 'GHz', 1.8],
    ]);
  });
});
