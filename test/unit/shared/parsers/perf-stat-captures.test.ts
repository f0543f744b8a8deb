// Real perf stat captures found in public sources, one describe per fixture folder (each folder's SOURCE
// says where the capture was published). Kept apart from perf-stat-parser.test.ts, which is past 700 lines.
import { describe, expect, it } from 'vitest';
import { diagnostics, ofKind, parse, parseFixture } from '../../../helpers/parser-test-kit';

const perfFixture = (rel: string) => parseFixture('perf', `perf/${rel}`);

describe('perf 3.0-era `(scaled from N%)` (test/fixtures/perf/x86-perf3.0-scaled-from/SOURCE)', () => {
  it('`-r 6` with metrics: the run share is read, and is not left in the metric unit', () => {
    const all = perfFixture('x86-perf3.0-scaled-from/lkml-weiner-2011-dd-repeat6.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'perf-header')).toEqual([
      { kind: 'perf-header', line: 1, target: 'dd if=/dev/zero of=zeroes bs=32k count=262144', runs: 6 },
    ]);
    expect(
      ofKind(all, 'perf').map((r) => [r.line, r.event, r.value, r.stddevPct, r.runPct, r.metricValue, r.metricUnit]),
    ).toEqual([
      [3, 'cache-misses', 140671831, 0.198, 82.8, 4.923, 'M/sec'],
      [4, 'cache-references', 726265014, 1.104, 83.06, 25.417, 'M/sec'],
      [5, 'branch-misses', 144092383, 0.493, 83.17, 4.157, '%'],
      [6, 'branches', 3466608296, 0.421, 67.89, 121.319, 'M/sec'],
      [7, 'instructions', 17882351343, 0.457, 84.73, 0.417, 'IPC'],
      [8, 'cycles', 42848633897, 0.604, 83.08, 1499.554, 'M/sec'],
      [9, 'page-faults', 236, 0.323, null, 0, 'M/sec'],
      [10, 'CPU-migrations', 8026, 6.291, null, 0, 'M/sec'],
      [11, 'context-switches', 2372358, 0.003, null, 0.083, 'M/sec'],
      [12, 'task-clock-msecs', 28574.25554, 0.409, null, 0.031, 'CPUs'],
    ]);
    expect(ofKind(all, 'perf-elapsed').map((r) => [r.line, r.clock, r.seconds, r.stddevPct])).toEqual([
      [14, 'elapsed', 912.625436885, 3.851],
    ]);
  });

  it('`-r 3` without metrics: every counter a reading with its variance and run share, none a diagnostic', () => {
    const all = perfFixture('x86-perf3.0-scaled-from/lkml-arcangeli-2011-thp-repeat3.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'perf').map((r) => [r.line, r.event, r.value, r.stddevPct, r.runPct, r.metricValue])).toEqual([
      [3, 'dTLB-loads', 69195836, 3.546, 50.3, null],
      [4, 'dTLB-load-misses', 60708, 11.776, 52.62, null],
      [5, 'dTLB-stores', 676266476, 5.654, 69.54, null],
      [6, 'dTLB-store-misses', 29856, 4.081, 89.22, null],
      [7, 'iTLB-loads', 1055848782, 4.526, 80.18, null],
      [8, 'iTLB-load-misses', 8689, 2.987, 58.2, null],
    ]);
    expect(ofKind(all, 'perf-elapsed').map((r) => [r.line, r.seconds, r.stddevPct])).toEqual([
      [10, 7.314454164, 0.023],
    ]);
  });
});

describe('POWER9 hv_24x7, perf 5.8-rc (test/fixtures/perf/power9-perf5.8-metric-only/SOURCE)', () => {
  it('`-M … -I 1000` stopped with Ctrl-C: the line behind the echoed `^C` is a reading like the others', () => {
    const all = perfFixture('power9-perf5.8-metric-only/lkml-kjain-2020-07-20-M-I1000.txt');
    expect(diagnostics(all).map((d) => d.line)).toEqual([1]); // the `command# ./perf stat …` line
    expect(ofKind(all, 'perf').map((r) => [r.line, r.tSec, r.event, r.value, r.metricValue])).toEqual([
      [3, 1.00007637, 'hv_24x7/pm_pb_cyc,chip=0/', 7807494, 2.0],
      [4, 1.00007637, 'hv_24x7/pm_pb_cyc,chip=1/', 7807456, 2.0],
      [5, 2.000259226, 'hv_24x7/pm_pb_cyc,chip=0/', 7807490, 2.0],
      [6, 2.000259226, 'hv_24x7/pm_pb_cyc,chip=1/', 7799691, 1.9],
      [7, 2.745238246, 'hv_24x7/pm_pb_cyc,chip=0/', 5816562, 1.5],
      [8, 2.745238246, 'hv_24x7/pm_pb_cyc,chip=1/', 5816580, 1.5],
      [12, null, 'hv_24x7/pm_pb_cyc,chip=0/', 21431546, 5.4],
      [13, null, 'hv_24x7/pm_pb_cyc,chip=1/', 21423727, 5.4],
    ]);
  });
});

describe('human --metric-only / --topdown tables, real captures', () => {
  const metrics = (all: ReturnType<typeof perfFixture>) =>
    ofKind(all, 'perf-metric').map((m) => [m.line, m.tSec, m.aggr ?? null, m.name, m.value, m.unit]);

  it('POWER9 `--metric-only -M PowerBUS_Frequency -I 1000`: `unit  name` header, rows, `^C` row, the totals row', () => {
    const all = perfFixture('power9-perf5.8-metric-only/lkml-kjain-2020-07-20-metric-only-I1000.txt');
    expect(diagnostics(all).map((d) => d.line)).toEqual([1]); // the `command# ./perf stat …` line
    expect(metrics(all)).toEqual([
      [3, 1.000073877, null, 'PowerBUS_Frequency_0', 2.0, 'GHz'],
      [3, 1.000073877, null, 'PowerBUS_Frequency_1', 2.0, 'GHz'],
      [4, 2.000240551, null, 'PowerBUS_Frequency_0', 2.0, 'GHz'],
      [4, 2.000240551, null, 'PowerBUS_Frequency_1', 1.9, 'GHz'],
      [5, 2.452590532, null, 'PowerBUS_Frequency_0', 0.9, 'GHz'],
      [5, 2.452590532, null, 'PowerBUS_Frequency_1', 0.9, 'GHz'],
      [9, null, null, 'PowerBUS_Frequency_0', 4.8, 'GHz'],
      [9, null, null, 'PowerBUS_Frequency_1', 4.8, 'GHz'],
    ]);
    expect(ofKind(all, 'perf-elapsed').map((r) => [r.line, r.seconds])).toEqual([[11, 2.452654834]]);
  });

  it('POWER9 `--metric-only` of five metrics: names wider than their columns, values not under them', () => {
    const all = perfFixture('power9-perf5.8-metric-only/lkml-kjain-2020-07-24-metric-only-I1000.txt');
    expect(diagnostics(all).map((d) => d.line)).toEqual([1]); // the `[root@…]# ./perf stat …` line
    const rows = metrics(all);
    expect(rows).toHaveLength(7 * 5);
    expect(rows.filter(([line]) => line === 3 || line === 10)).toEqual([
      [3, 1.000067388, null, 'Total_Memory_BW', 36.4, 'MB'],
      [3, 1.000067388, null, 'Memory_RD_BW_Chip_1', 0.2, 'MB'],
      [3, 1.000067388, null, 'Memory_WR_BW_Chip_1', 36.3, 'MB'],
      [3, 1.000067388, null, 'Memory_WR_BW_Chip_0', 65.0, 'MB'],
      [3, 1.000067388, null, 'Memory_RD_BW_Chip_0', 72.1, 'MB'],
      [10, null, null, 'Total_Memory_BW', 194.4, 'MB'],
      [10, null, null, 'Memory_RD_BW_Chip_1', 1.3, 'MB'],
      [10, null, null, 'Memory_WR_BW_Chip_1', 193.1, 'MB'],
      [10, null, null, 'Memory_WR_BW_Chip_0', 361.0, 'MB'],
      [10, null, null, 'Memory_RD_BW_Chip_0', 434.3, 'MB'],
    ]);
    expect(rows.filter(([line]) => line === 8).map(([, t, , , v]) => [t, v])).toEqual([
      [5.367865273, 13.2],
      [5.367865273, 0.1],
      [5.367865273, 13.1],
      [5.367865273, 23.5],
      [5.367865273, 28.3],
    ]);
  });

  it('perf 4.8 `--topdown -a` (test/fixtures/perf/x86-perf4.8-topdown-human/SOURCE): names with blanks, a row per core', () => {
    const all = perfFixture('x86-perf4.8-topdown-human/commit-239bd47f8355-topdown-a.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(metrics(all)).toEqual([
      [6, null, 'S0-C0', 'retiring', 23.8, '%'],
      [6, null, 'S0-C0', 'bad speculation', 11.6, '%'],
      [6, null, 'S0-C0', 'frontend bound', 28.3, '%'],
      [6, null, 'S0-C0', 'backend bound', 36.3, '%'],
      [7, null, 'S0-C1', 'retiring', 16.2, '%'],
      [7, null, 'S0-C1', 'bad speculation', 15.7, '%'],
      [7, null, 'S0-C1', 'frontend bound', 36.5, '%'],
      [7, null, 'S0-C1', 'backend bound', 31.6, '%'],
    ]);
    expect(ofKind(all, 'perf-elapsed').map((r) => [r.line, r.seconds])).toEqual([[9, 0.000579956]]);
  });

  it('a line under ` Performance counter stats` that no row follows stays a diagnostic, at its own line', () => {
    const lines = [
      " Performance counter stats for 'x':",
      '',
      'nr_vmscan_write 667839',
      '     1,234      cycles',
      'more words',
    ];
    const all = parse('perf', lines.join('\n'));
    expect(diagnostics(all).map((d) => [d.line, d.text])).toEqual([
      [3, 'nr_vmscan_write 667839'],
      [5, 'more words'],
    ]);
    expect(ofKind(all, 'perf').map((r) => [r.line, r.event, r.value])).toEqual([[4, 'cycles', 1234]]);
    const last = parse('perf', [" Performance counter stats for 'x':", '', 'retiring  bad speculation'].join('\n'));
    expect(diagnostics(last).map((d) => d.line)).toEqual([3]);
  });
});

describe('the `^C` echo', () => {
  it('a `^C` with no perf line behind it (alone, or before a `#`) stays a diagnostic, never nothing', () => {
    for (const line of ['^C', '^C   ', '^C     #.745238246          5,816,562      cycles']) {
      const all = parse('perf', line);
      expect(diagnostics(all).map((d) => [d.line, d.text])).toEqual([[1, line]]);
    }
  });
});

describe('--for-each-cgroup, perf 5.10-rc (test/fixtures/perf/x86-perf5.10-for-each-cgroup/SOURCE)', () => {
  const counters = (all: ReturnType<typeof perfFixture>) =>
    ofKind(all, 'perf').map((r) => [r.line, r.aggr, r.unit, r.event, r.value, r.metricValue]);

  it('`cycles   A`: the event stays the event and A is its cgroup (not unit `cycles` of an event `A`)', () => {
    const all = perfFixture('x86-perf5.10-for-each-cgroup/lkml-namhyung-2020-11-14-shadow-stats.txt');
    expect(diagnostics(all).map((d) => d.line)).toEqual([1]); // the `$ perf stat …` line
    expect(counters(all)).toEqual([
      [5, 'A', null, 'cycles', 3958116522, null],
      [6, 'A', null, 'instructions', 6722650929, 2.53],
      [7, 'B', null, 'cycles', 1132741, null],
      [8, 'B', null, 'instructions', 571743, 0.0],
      [9, 'C', null, 'cycles', 4007799935, null],
      [10, 'C', null, 'instructions', 6793181523, 2.56],
    ]);
  });

  it('`msec cpu-clock   A`: a counter with its unit and cgroup, not a metric timed at 992.9 s', () => {
    const all = perfFixture('x86-perf5.10-for-each-cgroup/lkml-namhyung-2020-10-23-regex-cgroups.txt');
    expect(diagnostics(all).map((d) => d.line)).toEqual([1]);
    expect(ofKind(all, 'perf-metric')).toEqual([]);
    expect(counters(all)).toEqual([
      [5, 'A', 'msec', 'cpu-clock', 992.9, 0.992],
      [6, 'A', null, 'cycles', 4155444322, 4.204],
      [7, 'B', 'msec', 'cpu-clock', 988.53, 0.988],
      [8, 'B', null, 'cycles', 4137114788, 4.185],
      [9, 'C', 'msec', 'cpu-clock', 983.94, 0.983],
      [10, 'C', null, 'cycles', 4117862551, 4.166],
    ]);
    expect(ofKind(all, 'perf').map((r) => r.runPct)).toEqual([null, 100, null, 100, null, 99.99]);
  });
});

describe('--metric-only without -I, perf 6.10-rc (test/fixtures/perf/x86-tigerlake-perf6.10-metric-only/SOURCE)', () => {
  const metrics = (all: ReturnType<typeof perfFixture>) =>
    ofKind(all, 'perf-metric').map((m) => [m.line, m.tSec, m.aggr ?? null, m.name, m.value, m.unit]);

  it('`-A`: a `MiB  Test` column per uncore event, the row led by CPU0', () => {
    const all = perfFixture('x86-tigerlake-perf6.10-metric-only/commit-193a9e30207f-metric-only-A.txt');
    expect(diagnostics(all).map((d) => d.line)).toEqual([1]); // the `$ perf stat …` line
    expect(metrics(all)).toEqual([
      [6, null, 'CPU0', 'Test', 1821.0, 'MiB'],
      [6, null, 'CPU0', 'Test', 1820.5, 'MiB'],
    ]);
  });

  it('aggregated: one column, one value, then the elapsed time', () => {
    const all = perfFixture('x86-tigerlake-perf6.10-metric-only/commit-193a9e30207f-metric-only.txt');
    expect(diagnostics(all).map((d) => d.line)).toEqual([1]);
    expect(metrics(all)).toEqual([[5, null, null, 'Test', 5909.4, 'MiB']]);
    expect(ofKind(all, 'perf-elapsed').map((r) => [r.line, r.seconds])).toEqual([[7, 1.001258915]]);
  });
});

describe('perf 6.19 default metrics on a hybrid CPU (test/fixtures/perf/x86-alderlake-perf6.19-default-metrics/SOURCE)', () => {
  it('metric lines labelled `(software)` / `(cpu_atom)` are metrics, not diagnostics', () => {
    const all = perfFixture('x86-alderlake-perf6.19-default-metrics/lkml-irogers-2025-11-06-default.txt');
    expect(diagnostics(all).map((d) => d.line)).toEqual([1]); // the `$ perf stat …` line
    expect(ofKind(all, 'perf')).toHaveLength(12);
    const metrics = ofKind(all, 'perf-metric').map((m) => [m.line, m.name, m.value, m.unit]);
    expect(metrics.filter(([line]) => [17, 22, 29, 33, 35].includes(line as number))).toEqual([
      [17, 'cs/sec  cs_per_second', 824.4, null],
      [22, 'faults/sec  page_faults_per_second', 1253.1, null],
      [29, 'K/sec  branch_frequency', 6.9, null],
      [33, 'instructions  insn_per_cycle', 0.8, null],
      [35, 'branch_miss_rate', 3.8, '%'],
    ]);
    expect(metrics).toHaveLength(20); // lines 17 to 36
    expect(ofKind(all, 'perf-elapsed').map((r) => [r.line, r.seconds])).toEqual([[38, 1.007063529]]);
  });
});

describe('perf 6.x CSV on a hybrid CPU: a metric group`s rows (test/fixtures/perf/x86-hybrid-perf6.8-csv-topdownl1/SOURCE)', () => {
  it('TopdownL1 (cpu_atom) metrics are metrics with their % unit; the group`s name row is no reading', () => {
    const all = perfFixture('x86-hybrid-perf6.8-csv-topdownl1/lkml-acme-2024-02-14-csv.txt');
    // The author's prompt and `ls`'s output; the group's name, said to be no reading.
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [1, 'not a perf stat line'],
      [2, 'not a perf stat line'],
      [15, 'perf metric group name (no reading)'],
    ]);
    const counters = ofKind(all, 'perf').map((r) => [r.line, r.event, r.value, r.status, r.runPct]);
    expect(counters.filter(([line]) => [7, 8].includes(line as number))).toEqual([
      [7, 'cpu_atom/cycles/u', 775564, 'ok', 42],
      [8, 'cpu_core/cycles/u', null, 'not-counted', 0],
    ]);
    expect(counters).toHaveLength(12);
    expect(ofKind(all, 'perf-metric').map((m) => [m.line, m.name, m.value, m.unit])).toEqual([
      [16, 'tma_bad_speculation', 87.9, '%'],
      [17, 'tma_frontend_bound', 24, '%'],
      [18, 'tma_backend_bound', 31.5, '%'],
      [19, 'tma_backend_bound_aux', 31.5, '%'],
      [20, 'tma_retiring', 0, '%'],
    ]);
  });
});

describe('perf 3.x: a run share after a second metric line (test/fixtures/perf/x86-perf3-stalled-per-insn-continuation/SOURCE)', () => {
  it('`instructions` takes the `[83.51%]` that ends its `stalled cycles per insn` line; the metric stays a metric', () => {
    const all = perfFixture('x86-perf3-stalled-per-insn-continuation/netdata-8346-gzip.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'perf').map((r) => [r.line, r.event, r.value, r.runPct, r.metricValue, r.metricUnit])).toEqual([
      [3, 'task-clock', 1920.159821, null, 0.991, 'CPUs utilized'],
      [4, 'context-switches', 13, null, 0.007, 'K/sec'],
      [5, 'CPU-migrations', 0, null, 0, 'K/sec'],
      [6, 'page-faults', 258, null, 0.134, 'K/sec'],
      [7, 'cycles', 5649595479, 83.43, 2.942, 'GHz'],
      [8, 'stalled-cycles-frontend', 1808339931, 83.54, 32.01, '% frontend cycles idle'],
      [9, 'stalled-cycles-backend', 1171884577, 66.77, 20.74, '% backend  cycles idle'],
      [10, 'instructions', 8625207199, 83.51, 1.53, 'insns per cycle'],
      [12, 'branches', 1488797176, 82.58, 775.351, 'M/sec'],
    ]);
    expect(ofKind(all, 'perf-metric')).toEqual([
      { kind: 'perf-metric', line: 11, tSec: null, name: 'stalled cycles per insn', value: 0.21, unit: null },
    ]);
    // The records come in line order, the held counter before its continuation's metric.
    expect(all.map((r) => r.line)).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it("perf 4.x+: the `(66.67%)` ending an interval's continuation line goes to the counter above it", () => {
    const all = parse(
      'perf',
      [
        '     1.000123456      8,625,207,199      instructions              #    1.53  insn per cycle         ',
        '     1.000123456                                                  #    0.21  stalled cycles per insn  (66.67%)',
      ].join('\n'),
    );
    expect(ofKind(all, 'perf').map((r) => [r.line, r.tSec, r.event, r.runPct])).toEqual([
      [1, 1.000123456, 'instructions', 66.67],
    ]);
    expect(ofKind(all, 'perf-metric').map((m) => [m.line, m.tSec, m.name, m.value])).toEqual([
      [2, 1.000123456, 'stalled cycles per insn', 0.21],
    ]);
  });
});

describe('`-x, --per-socket` metric lines (test/fixtures/perf/csv-per-socket-metric-line-perf6.0/SOURCE)', () => {
  it("a counter's second metric under an aggregation id is a metric of that id, before and after perf's fix of its extra separator", () => {
    const all = perfFixture('csv-per-socket-metric-line-perf6.0/athira-2022-per-socket-stalled-per-insn.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'perf-metric')).toEqual([
      { kind: 'perf-metric', line: 22, tSec: null, name: 'stalled cycles per insn', value: 2, unit: null, aggr: 'S0' },
      {
        kind: 'perf-metric',
        line: 27,
        tSec: 0.001813453,
        name: 'stalled cycles per insn',
        value: 1.34,
        unit: null,
        aggr: 'S0',
      },
      {
        kind: 'perf-metric',
        line: 37,
        tSec: null,
        name: 'stalled cycles per insn',
        value: 1.27,
        unit: null,
        aggr: 'S0',
      },
    ]);
    const rs = ofKind(all, 'perf');
    expect(rs).toHaveLength(8 + 3 + 8);
    expect(rs.every((r) => r.aggr === 'S0' && /^[a-z]/.test(r.event))).toBe(true);
    expect(rs.filter((r) => r.event === 'instructions').map((r) => [r.line, r.tSec, r.value, r.metricValue])).toEqual([
      [21, null, 288430, 0.33],
      [26, 0.001813453, 85379, 0.32],
      [36, null, 88766, 0.35],
    ]);
  });
});

describe('perf 6.x `-j` metric lines of a metric group (real lines from a commit message)', () => {
  // `perf stat -a -j -I 1000` pasted by Ian Rogers in "perf stat: Add metric-threshold to json output",
  // https://lore.kernel.org/r/20241004234120.1495209-8-irogers@google.com (lines verbatim, a selection).
  const lines = [
    '{"interval" : 1.001089747, "counter-value" : "9237201.000000", "unit" : "", "event" : "branch-misses", "event-runtime" : 16045375017, "pcnt-running" : 100.00, "metric-value" : "1.009559", "metric-unit" : "of all branches", "metric-threshold" : "good"}',
    '{"interval" : 1.001089747, "metric-value" : "22.036686", "metric-unit" : "%  tma_backend_bound", "metric-threshold" : "bad"}',
    '{"interval" : 1.001089747, "metric-value" : "33.623465", "metric-unit" : "%  tma_retiring"}',
  ];

  it('`"metric-unit" : "%  tma_backend_bound"` is the metric tma_backend_bound in %, as the same metric reads in human and CSV output', () => {
    const all = parse('perf', lines.join('\n'));
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'perf').map((r) => [r.event, r.value, r.metricValue, r.metricUnit])).toEqual([
      ['branch-misses', 9237201, 1.009559, 'of all branches'],
    ]);
    expect(ofKind(all, 'perf-metric')).toEqual([
      { kind: 'perf-metric', line: 2, tSec: 1.001089747, name: 'tma_backend_bound', value: 22.036686, unit: '%' },
      { kind: 'perf-metric', line: 3, tSec: 1.001089747, name: 'tma_retiring', value: 33.623465, unit: '%' },
    ]);
  });

  it('the group\'s name line, `"metricgroup" : "TopdownL1"`, holds no reading: a diagnostic that says so, as its CSV form is', () => {
    const line =
      '{"interval" : 1.001089747, "event-runtime" : 16045397172, "pcnt-running" : 100.00, "metricgroup" : "TopdownL1"}';
    const all = parse('perf', line);
    expect(all.map((r) => [r.kind, r.line, r.kind === 'diagnostic' ? r.reason : null])).toEqual([
      ['diagnostic', 1, 'perf metric group name (no reading)'],
    ]);
  });
});
