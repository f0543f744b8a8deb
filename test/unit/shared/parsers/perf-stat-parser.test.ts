import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPerfStatParser, parsePerfNumber } from '../../../../shared/parsers/perf-stat-parser';
import type { PerfRecord } from '../../../../shared/parsers/records';
import { diagnostics, ofKind, parse, parseFixture } from '../../../helpers/parser-test-kit';

const perfFixture = (rel: string) => parseFixture('perf', `perf/${rel}`);
const pick = (r: PerfRecord | undefined) => [
  r?.line,
  r?.tSec,
  r?.event,
  r?.value,
  r?.status,
  r?.unit,
  r?.runPct,
  r?.summary,
];

describe('perf stat: real captures', () => {
  it('x86 perf 5.12 `-x, -I1000 --summary`, before and after the summary-alignment patch and with --no-cvs-summary', () => {
    const all = perfFixture('x86-perf5.12-csv-interval-summary/01_csv_interval_summary_lkml_jinyao_2021.txt');
    expect(diagnostics(all)).toEqual([]);
    const rs = ofKind(all, 'perf');
    expect(rs).toHaveLength(48);
    // (A) interval rows, then summary rows that lost their time column (read as summary, not as intervals)
    expect(pick(rs[0])).toEqual([14, 1.001323097, 'cpu-clock', 8013.48, 'ok', 'msec', 100, false]);
    expect([rs[0]?.runTimeNs, rs[0]?.metricValue, rs[0]?.metricUnit]).toEqual([8013483384, 8.013, 'CPUs utilized']);
    expect(pick(rs[1])).toEqual([15, 1.001323097, 'context-switches', 270, 'ok', null, 100, false]);
    expect([rs[1]?.metricValue, rs[1]?.metricUnit]).toEqual([0.034, 'K/sec']);
    expect(pick(rs[7])).toEqual([21, 1.001323097, 'branch-misses', 106152, 'ok', null, 100, false]);
    expect(rs[7]?.metricUnit).toBe('of all branches');
    expect(pick(rs[8])).toEqual([22, null, 'cpu-clock', 8013.48, 'ok', 'msec', 100, true]);
    expect(rs[8]?.metricValue).toBe(7.984);
    expect(pick(rs[15])).toEqual([29, null, 'branch-misses', 106152, 'ok', null, 100, true]);
    // (B) `summary,` rows
    expect(pick(rs[16])).toEqual([32, 1.001196053, 'cpu-clock', 8012.72, 'ok', 'msec', 100, false]);
    expect(pick(rs[24])).toEqual([40, null, 'cpu-clock', 8012.72, 'ok', 'msec', 100, true]);
    expect(pick(rs[31])).toEqual([47, null, 'branch-misses', 82601, 'ok', null, 100, true]);
    // (C)
    expect(pick(rs[32])).toEqual([50, 1.001213261, 'cpu-clock', 8012.67, 'ok', 'msec', 100, false]);
    expect([rs[33]?.metricValue, rs[33]?.metricUnit]).toEqual([24.586, '/sec']);
    expect(pick(rs[47])).toEqual([65, null, 'branch-misses', 102107, 'ok', null, 100, true]);
    expect([rs[46]?.value, rs[46]?.metricValue, rs[46]?.metricUnit]).toEqual([2458033, 306.768, 'K/sec']);
  });

  it('x86 VM: every hardware event <not supported>, system-wide header, elapsed summary', () => {
    const all = perfFixture('x86-vm-kernel4.4-not-supported/03_not_supported_all_x86_vm_perftools_issue69.txt');
    expect(ofKind(all, 'perf-header')).toEqual([{ kind: 'perf-header', line: 6, target: 'system wide', runs: null }]);
    expect(ofKind(all, 'perf').map(pick)).toEqual([
      [8, null, 'cycles', null, 'not-supported', null, null, false],
      [9, null, 'instructions', null, 'not-supported', null, null, false],
      [10, null, 'cache-references', null, 'not-supported', null, null, false],
      [11, null, 'cache-misses', null, 'not-supported', null, null, false],
      [12, null, 'bus-cycles', null, 'not-supported', null, null, false],
    ]);
    expect(ofKind(all, 'perf-elapsed')).toEqual([
      { kind: 'perf-elapsed', line: 14, clock: 'elapsed', seconds: 10.00091041, stddevPct: null },
    ]);
    expect(diagnostics(all)).toEqual([]);
  });

  it('Apple M1 (Asahi): `:u` events <not counted> at (0.00%), elapsed/user/sys', () => {
    const all = perfFixture('apple-m1-asahi-not-counted/04_arm64_apple_m1_not_counted_asahi_issue38.txt');
    expect(ofKind(all, 'perf').map(pick)).toEqual([
      [6, null, 'cycles:u', null, 'not-counted', null, 0, false],
      [7, null, 'instructions:u', null, 'not-counted', null, 0, false],
    ]);
    expect(ofKind(all, 'perf-elapsed').map((r) => [r.line, r.clock, r.seconds])).toEqual([
      [9, 'elapsed', 0.000535494],
      [11, 'user', 0.000555],
      [12, 'sys', 0],
    ]);
    expect(diagnostics(all)).toEqual([]);
  });

  it('Ice Lake --topdown CSV: a header row and its values become metrics; an all-empty record is skipped', () => {
    const all = perfFixture('x86-icelake-topdown-csv/06_csv_not_counted_topdown_lkml_kanliang_2020.txt');
    expect(ofKind(all, 'perf-metric').map((m) => [m.line, m.name, m.value])).toEqual([
      [7, 'retiring', 18.0],
      [7, 'bad speculation', 16.1],
      [7, 'frontend bound', 40.4],
      [7, 'backend bound', 25.5],
    ]);
    const rs = ofKind(all, 'perf');
    expect(rs.map((r) => r.event)).toEqual([
      'slots',
      'topdown-retiring',
      'topdown-be-bound',
      'topdown-fe-bound',
      'topdown-bad-spec',
      'cycles',
    ]);
    expect(rs.every((r) => r.status === 'not-counted' && r.value === null && r.runTimeNs === 0 && r.runPct === 0)).toBe(
      true,
    );
    expect(rs[0]?.line).toBe(8);
    expect(diagnostics(all)).toEqual([]);
  });

  it('Raspberry Pi 4 (branches not supported on A72) and an Arm `-x ";"` CSV; the poster\'s elisions are diagnostics', () => {
    const all = perfFixture('rpi4-and-arm-semicolon-csv/07_rpi4_partial_and_arm_semicolon_csv.txt');
    const rs = ofKind(all, 'perf');
    expect(rs.map(pick)).toEqual([
      [9, null, 'instructions', 3801323, 'ok', null, null, false],
      [10, null, 'branches', null, 'not-supported', null, null, false],
      [11, null, 'branch-misses', 24532, 'ok', null, null, false],
      [17, null, 'ld_spec', 235733, 'ok', null, 100, false],
    ]);
    expect([rs[0]?.metricValue, rs[0]?.metricUnit]).toEqual([0.88, 'insn per cycle']);
    expect(rs[3]?.runTimeNs).toBe(1248820);
    expect(diagnostics(all).map((d) => [d.line, d.text])).toEqual([
      [7, 'root@vudu:~# perf stat /bin/ls'],
      [8, '<...>   '],
      [12, '<...>'],
    ]);
  });

  it('Arm big.LITTLE, perf 6.15: PMU-qualified names, `<not counted> msec task-clock`', () => {
    const all = perfFixture('arm-biglittle-perf6.15/09_arm_biglittle_a53_a57_all_not_counted_lkml_clark_2025.txt');
    expect(ofKind(all, 'perf-header')).toEqual([{ kind: 'perf-header', line: 11, target: 'true', runs: null }]);
    const rs = ofKind(all, 'perf');
    expect(rs.map((r) => [r.line, r.event, r.unit])).toEqual([
      [13, 'task-clock', 'msec'],
      [15, 'context-switches', null],
      [17, 'cpu-migrations', null],
      [19, 'page-faults', null],
      [21, 'armv8_cortex_a53/instructions/', null],
      [23, 'armv8_cortex_a57/instructions/', null],
      [25, 'armv8_cortex_a53/cycles/', null],
      [27, 'armv8_cortex_a57/cycles/', null],
      [29, 'armv8_cortex_a53/branches/', null],
      [31, 'armv8_cortex_a53/branch-misses/', null],
      [33, 'armv8_cortex_a57/branch-misses/', null],
    ]);
    expect(rs.every((r) => r.status === 'not-counted' && r.value === null)).toBe(true);
    expect(ofKind(all, 'perf-elapsed').map((r) => [r.line, r.clock, r.seconds])).toEqual([
      [36, 'elapsed', 0.074139992],
      [38, 'user', 0],
      [39, 'sys', 0.054797],
    ]);
    expect(diagnostics(all).map((d) => [d.line, d.text])).toEqual([[9, '  -> perf stat -- true']]);
  });
});

describe('Khadas Edge2, RK3588S (test/fixtures/perf/khadas-edge2-rk3588s-learn-arm/SOURCE)', () => {
  it('`perf stat -e instructions,cycles` as a user: `:u` counts, IPC, elapsed/user/sys, nothing lost', () => {
    const all = perfFixture('khadas-edge2-rk3588s-learn-arm/perf-stat-instructions-cycles.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'perf-header')).toEqual([{ kind: 'perf-header', line: 1, target: './stride', runs: null }]);
    expect(ofKind(all, 'perf').map((r) => [r.line, r.event, r.value, r.status, r.metricValue, r.metricUnit])).toEqual([
      [3, 'instructions:u', 10002762164, 'ok', 0.22, 'insn per cycle'],
      [4, 'cycles:u', 45157063927, 'ok', null, null],
    ]);
    expect(ofKind(all, 'perf-elapsed').map((r) => [r.line, r.clock, r.seconds])).toEqual([
      [6, 'elapsed', 20.172522129],
      [8, 'user', 20.148369],
      [9, 'sys', 0.023335],
    ]);
  });
});

describe('perf stat -j (JSON, perf 6.0+): real perf 6.1 captures (test/fixtures/perf/x86-vm-perf6.1-json-interval)', () => {
  const json = (name: string) => perfFixture(`x86-vm-perf6.1-json-interval/${name}`);

  it('`-j -I 200 -- sleep 1`: five intervals of three counters, the idle ones <not counted>', () => {
    const all = json('perf-stat-j-I200-sleep1.txt');
    const rs = ofKind(all, 'perf');
    expect([rs.length, diagnostics(all)]).toEqual([15, []]);
    // Line 1: {"interval" : 0.200265619, "counter-value" : "0.793253", "unit" : "msec", "event" : "task-clock",
    // "event-runtime" : 793253, "pcnt-running" : 100.00, "metric-value" : 0.003961, "metric-unit" : "CPUs utilized"}
    expect(pick(rs[0])).toEqual([1, 0.200265619, 'task-clock', 0.793253, 'ok', 'msec', 100, false]);
    expect([rs[0]?.runTimeNs, rs[0]?.metricUnit]).toEqual([793253, 'CPUs utilized']);
    expect(pick(rs[1])).toEqual([2, 0.200265619, 'page-faults', 75, 'ok', null, 100, false]);
    expect(pick(rs[3])).toEqual([4, 0.400702494, 'task-clock', null, 'not-counted', 'msec', 100, false]);
    expect(pick(rs[14])).toEqual([15, 1.001605259, 'context-switches', 0, 'ok', null, 100, false]);
  });

  it('`-j` without -I: the totals, lines without an interval', () => {
    const rs = ofKind(json('perf-stat-j-summary.txt'), 'perf');
    // {"counter-value" : "69.044620", "unit" : "msec", "event" : "task-clock", …}, page-faults 64, context-switches 28
    expect(rs.map((r) => [r.tSec, r.event, r.value, r.unit, r.summary])).toEqual([
      [null, 'task-clock', 69.04462, 'msec', false],
      [null, 'page-faults', 64, null, false],
      [null, 'context-switches', 28, null, false],
    ]);
  });

  it('JSON and CSV lines in one stream are each read by their own shape', () => {
    const rs = ofKind(
      parse(
        'perf',
        [
          '{"interval" : 1.000, "counter-value" : "5.000000", "unit" : "", "event" : "page-faults"}',
          '     1.000,7,,context-switches,100,100.00,,',
        ].join('\n'),
      ),
      'perf',
    );
    expect(rs.map((r) => [r.tSec, r.event, r.value])).toEqual([
      [1, 'page-faults', 5],
      [1, 'context-switches', 7],
    ]);
  });

  it('JSON written from stat-display.c: aggregation ids, -r variance, metric-only objects; broken JSON is a diagnostic', () => {
    const all = parse(
      'perf',
      [
        '{"core" : "S0-D0-C15", "aggregate-number" : 2, "counter-value" : "233533.000000", "unit" : "", "event" : "instructions", "event-runtime" : 2865528, "pcnt-running" : 100.00, "metric-value" : 0.2979, "metric-unit" : "insn per cycle"}',
        '{"cpu" : "3", "counter-value" : "<not supported>", "unit" : "", "event" : "cycles", "event-runtime" : 0, "pcnt-running" : 100.00}',
        '{"counter-value" : "12.000000", "unit" : "", "event" : "page-faults", "variance" : 1.25, "event-runtime" : 1, "pcnt-running" : 100.00}',
        '{"socket" : "S0", "cpu-count" : 8, "GHz" : "0.817", "insn per cycle" : "2.15"}',
        // print_metric_only_json: "none" for a metric it could not compute (no cycles counted yet).
        '{"interval" : 1.001, "CPUs utilized" : "0.99", "GHz" : "none"}',
        '{"interval" : 1.0, "counter-value" : "12.0"',
        '{"interval" : "soon", "counter-value" : "1", "event" : "cycles"}',
        '{"counter-value" : "1", "event" : "a b"}',
      ].join('\n'),
    );
    const rs = ofKind(all, 'perf');
    expect(rs.map((r) => [r.aggr, r.event, r.value, r.status, r.stddevPct, r.metricValue])).toEqual([
      ['S0-D0-C15', 'instructions', 233533, 'ok', null, 0.2979],
      ['CPU3', 'cycles', null, 'not-supported', null, null],
      [null, 'page-faults', 12, 'ok', 1.25, null],
    ]);
    expect(ofKind(all, 'perf-metric').map((m) => [m.name, m.value])).toEqual([
      ['GHz', 0.817],
      ['insn per cycle', 2.15],
      ['CPUs utilized', 0.99],
      ['GHz', null],
    ]);
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [6, 'not a perf stat JSON line'],
      [7, 'not a perf stat JSON line'],
      [8, 'not a perf stat JSON line'],
    ]);
  });
});

describe('perf stat: output written from perf-stat(1) and the printers in tools/perf/util/stat-display.c', () => {
  it('human output of `-r 5`: thousands separators, variance, multiplexing, hybrid PMU names, elapsed with +-', () => {
    const text = [
      '# started on Sat Jan  4 10:00:00 2025',
      '',
      " Performance counter stats for './llama-cli -m m.gguf -n 64' (5 runs):",
      '',
      '          8,013.48 msec task-clock                       #    3.998 CPUs utilized               ( +-  0.21% )',
      '             1,234      context-switches                 #  154.000 /sec                        ( +-  3.10% )',
      '     2,345,678,901      cpu_core/cycles/                 #    2.927 GHz                         ( +-  1.00% )  (49.97%)',
      '       987,654,321      cpu_atom/cycles/                                                        (50.03%)',
      '                                                         #     18.8 %  tma_backend_bound',
      '',
      '            2.0043 +- 0.0042 seconds time elapsed  ( +-  0.21% )',
    ].join('\n');
    const all = parse('perf', text);
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'perf-header')).toEqual([
      { kind: 'perf-header', line: 3, target: './llama-cli -m m.gguf -n 64', runs: 5 },
    ]);
    const rs = ofKind(all, 'perf');
    expect(
      rs.map((r) => [r.line, r.event, r.value, r.unit, r.stddevPct, r.runPct, r.metricValue, r.metricUnit]),
    ).toEqual([
      [5, 'task-clock', 8013.48, 'msec', 0.21, null, 3.998, 'CPUs utilized'],
      [6, 'context-switches', 1234, null, 3.1, null, 154, '/sec'],
      [7, 'cpu_core/cycles/', 2345678901, null, 1, 49.97, 2.927, 'GHz'],
      [8, 'cpu_atom/cycles/', 987654321, null, null, 50.03, null, null],
    ]);
    expect(ofKind(all, 'perf-metric')).toEqual([
      { kind: 'perf-metric', line: 9, tSec: null, name: 'tma_backend_bound', value: 18.8, unit: '%' },
    ]);
    expect(ofKind(all, 'perf-elapsed')).toEqual([
      { kind: 'perf-elapsed', line: 11, clock: 'elapsed', seconds: 2.0043, stddevPct: 0.21 },
    ]);
  });

  it('human interval output (`-I 1000`) with its `#` column header', () => {
    const text = [
      '#           time             counts unit events',
      '     1.000137390          1,003.51 msec cpu-clock                 #    1.004 CPUs utilized',
      '     1.000137390        12,345,678      armv8_pmuv3_0/instructions/                                   (33.33%)',
      '     2.000412345     <not counted>      armv8_pmuv3_0/cycles/                                          (0.00%)',
    ].join('\n');
    const rs = ofKind(parse('perf', text), 'perf');
    expect(rs.map(pick)).toEqual([
      [2, 1.00013739, 'cpu-clock', 1003.51, 'ok', 'msec', null, false],
      [3, 1.00013739, 'armv8_pmuv3_0/instructions/', 12345678, 'ok', null, 33.33, false],
      [4, 2.000412345, 'armv8_pmuv3_0/cycles/', null, 'not-counted', null, 0, false],
    ]);
  });

  it('CSV with an aggregation column (-A, --per-core) and other separators', () => {
    const text = [
      'CPU0,1234567,,cycles,1000000,100.00,1.23,GHz',
      'S0-D0-C1,2,2469134,,cycles:u,2000000,100.00,,',
      '1234.50|msec|task-clock|1234500000|100.00|0.99|CPUs utilized',
      '     3.000100000;<not supported>;;branches;0;100.00;;',
      '5,,instructions,100,50.00,1.5%,0.10,insn per cycle',
    ].join('\n');
    const all = parse('perf', text);
    expect(diagnostics(all)).toEqual([]);
    const rs = ofKind(all, 'perf');
    expect(rs.map((r) => [r.aggr, r.event, r.value, r.unit, r.runPct, r.tSec, r.status])).toEqual([
      ['CPU0', 'cycles', 1234567, null, 100, null, 'ok'],
      ['S0-D0-C1', 'cycles:u', 2469134, null, 100, null, 'ok'],
      [null, 'task-clock', 1234.5, 'msec', 100, null, 'ok'],
      [null, 'branches', null, null, 100, 3.0001, 'not-supported'],
      [null, 'instructions', 5, null, 50, null, 'ok'],
    ]);
    expect([rs[0]?.metricValue, rs[0]?.metricUnit]).toEqual([1.23, 'GHz']);
    expect([rs[4]?.stddevPct, rs[4]?.metricValue, rs[4]?.metricUnit]).toEqual([1.5, 0.1, 'insn per cycle']);
  });

  it('reads numbers with or without thousands separators, in either locale', () => {
    expect(parsePerfNumber('8,013.48')).toBe(8013.48);
    expect(parsePerfNumber('8.013,48')).toBe(8013.48);
    expect(parsePerfNumber('1,234,567')).toBe(1234567);
    expect(parsePerfNumber('1.234.567')).toBe(1234567);
    expect(parsePerfNumber("1'234'567")).toBe(1234567);
    expect(parsePerfNumber('2345678901')).toBe(2345678901);
    expect(parsePerfNumber('0,5')).toBe(0.5);
    expect(parsePerfNumber('<not counted>')).toBeNull();
    expect(parsePerfNumber('1.2.3,4,5')).toBeNull();
    const [r] = ofKind(parse('perf', '         1.234.567      cycles\n'), 'perf');
    expect(r?.value).toBe(1234567);
  });

  it("perf's own hints are not counters and not damage", () => {
    const all = parse(
      'perf',
      "Some events weren't counted. Try disabling the NMI watchdog:\n\techo 0 > /proc/sys/kernel/nmi_watchdog\n\tperf stat ...\n\techo 1 > /proc/sys/kernel/nmi_watchdog\n",
    );
    expect(all).toEqual([]);
  });

  it('a row of names not followed by values is a diagnostic after all', () => {
    const all = parse('perf', 'hello, world\n  1234      cycles\n');
    expect(diagnostics(all)).toEqual([
      { kind: 'diagnostic', line: 1, reason: 'not a perf stat line', text: 'hello, world' },
    ]);
    expect(ofKind(all, 'perf').map((r) => r.value)).toEqual([1234]);
    expect(diagnostics(parse('perf', 'alpha,beta'))).toHaveLength(1);
  });
});

describe('perf stat: robustness', () => {
  it('never throws on perf-shaped noise', () => {
    const piece = fc.constantFrom(
      '<not counted>',
      '<not supported>',
      ',',
      ';',
      ' ',
      '1,234',
      '1.5',
      'msec',
      'cycles',
      '#',
      '(',
      '50.00%',
      ')',
      '+-',
      'seconds time elapsed',
      'summary',
      'CPU0',
      'S0-D0-C0',
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.array(piece, { maxLength: 14 }).map((p) => p.join('')),
          { maxLength: 10 },
        ),
        (lines) => {
          const p = createPerfStatParser();
          const out = [...lines.flatMap((l) => p.push(l)), ...p.end()];
          for (const r of out)
            expect(['perf', 'perf-elapsed', 'perf-header', 'perf-metric', 'diagnostic']).toContain(r.kind);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('perf stat 3.x–4.x human output (test/fixtures/perf/perf3-perf4-human-formats/SOURCE)', () => {
  it('reads `task-clock (msec)` (unit after the event) and `[83.40%]` multiplexing instead of dropping them', () => {
    const all = parseFixture('perf', 'perf/perf3-perf4-human-formats/perf3_perf4_human.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'perf').map((r) => [r.line, r.event, r.unit, r.value, r.runPct, r.metricUnit])).toEqual([
      [4, 'task-clock', 'msec', 0.912345, null, 'CPUs utilized'],
      [5, 'cycles', null, 1234567, 83.4, 'GHz'],
      [6, 'instructions', null, 987654, 66.67, 'insns per cycle'],
    ]);
  });
});

describe('perf 6.1 output modes, real captures (test/fixtures/perf/x86-vm-perf6.1-output-modes/SOURCE)', () => {
  const modes = (name: string) => perfFixture(`x86-vm-perf6.1-output-modes/${name}`);
  const row = (r: PerfRecord | undefined) => [
    r?.line,
    r?.tSec,
    r?.aggr,
    r?.event,
    r?.value,
    r?.status,
    r?.unit,
    r?.stddevPct,
    r?.runTimeNs,
    r?.runPct,
    r?.metricValue,
    r?.metricUnit,
  ];

  it('`-x, -r 3`: the variance field sits before run time and run %, and each lands in its own field', () => {
    const all = modes('csv-r3.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'perf').map(row)).toEqual([
      // 1.04,msec,task-clock,6.42%,1037857,100.00,0.020,CPUs utilized
      [1, null, null, 'task-clock', 1.04, 'ok', 'msec', 6.42, 1037857, 100, 0.02, 'CPUs utilized'],
      [2, null, null, 'page-faults', 76, 'ok', null, 1.32, 1037857, 100, 65.963, 'K/sec'],
      [3, null, null, 'context-switches', 1, 'ok', null, 0, 1037857, 100, 867.94, '/sec'],
      // <not supported>,,cycles,0.00%,0,100.00,,
      [4, null, null, 'cycles', null, 'not-supported', null, 0, 0, 100, null, null],
    ]);
  });

  it('`-x, -I 200 -A`: the time column, then the CPU column', () => {
    const rs = ofKind(modes('csv-I-A.txt'), 'perf');
    expect(rs).toHaveLength(8);
    expect(row(rs[0])).toEqual([
      1,
      0.200260882,
      'CPU0',
      'task-clock',
      200.42,
      'ok',
      'msec',
      null,
      200422859,
      100,
      1.002,
      'CPUs utilized',
    ]);
    expect(row(rs[7])).toEqual([
      8,
      0.253242583,
      'CPU1',
      'context-switches',
      36,
      'ok',
      null,
      null,
      52987172,
      100,
      679.415,
      '/sec',
    ]);
  });

  it('human `-I 200 -A`: time, CPU, count', () => {
    const all = modes('human-I-A.txt');
    expect(diagnostics(all)).toEqual([]);
    const rs = ofKind(all, 'perf');
    expect(rs.map((r) => [r.line, r.tSec, r.aggr, r.event, r.value, r.metricValue])).toEqual([
      [2, 0.200278618, 'CPU0', 'task-clock', 200.93, 1.005],
      [3, 0.200278618, 'CPU1', 'task-clock', 200.95, 1.005],
      [4, 0.200278618, 'CPU0', 'context-switches', 758, 3.772],
      [5, 0.200278618, 'CPU1', 'context-switches', 856, 4.26],
      [6, 0.252090135, 'CPU0', 'task-clock', 51.27, 0.256],
      [7, 0.252090135, 'CPU1', 'task-clock', 54.65, 0.273],
      [8, 0.252090135, 'CPU0', 'context-switches', 365, 7.119],
      [9, 0.252090135, 'CPU1', 'context-switches', 77, 1.409],
    ]);
  });

  it.each([
    ['csv-per-thread.txt', 1],
    ['human-per-thread.txt', 4],
  ])('--per-thread (%s): the `comm-tid` column is the aggregation', (file, firstLine) => {
    const all = modes(file);
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'perf').map((r) => [r.line, r.aggr, r.event, r.status, r.unit])).toEqual([
      [firstLine, 'bash-24614', 'task-clock', 'not-counted', 'msec'],
      [firstLine + 1, 'bash-24614', 'page-faults', 'not-counted', null],
    ]);
  });

  it.each([
    ['csv-per-core.txt', 1, [102.4, 102.29], [1.002, 1.001]],
    ['human-per-core.txt', 4, [102.75, 102.76], [1, 1]],
  ])('--per-core (%s): core id and its CPU count before the value', (file, firstLine, values, metrics) => {
    expect(ofKind(modes(file), 'perf').map((r) => [r.line, r.aggr, r.event, r.value, r.metricValue])).toEqual([
      [firstLine, 'S0-D0-C0', 'task-clock', values[0], metrics[0]],
      [firstLine + 1, 'S0-D0-C1', 'task-clock', values[1], metrics[1]],
    ]);
  });

  it('`-x` with a tab (perf turns `-x "\\t"` into one): every field read', () => {
    const rs = ofKind(modes('tab.txt'), 'perf');
    expect(rs.map(row)).toEqual([
      [1, null, null, 'task-clock', 0.77, 'ok', 'msec', null, 767004, 100, 0.014, 'CPUs utilized'],
      [2, null, null, 'page-faults', 75, 'ok', null, null, 767004, 100, 97.783, 'K/sec'],
    ]);
  });

  it('human `-r 3`, `-j -r 3`, `--no-merge`: variance, elapsed with +-, user/sys', () => {
    const human = modes('human-r3.txt');
    expect(diagnostics(human)).toEqual([]);
    expect(ofKind(human, 'perf').map((r) => [r.event, r.value, r.status, r.stddevPct, r.metricValue])).toEqual([
      ['task-clock', 1.22, 'ok', 4.87, 0.022],
      ['page-faults', 76, 'ok', 0.88, 65.531],
      ['context-switches', 1, 'ok', null, 862.251],
      ['cycles', null, 'not-supported', null, null],
    ]);
    expect(ofKind(human, 'perf-elapsed')).toEqual([
      { kind: 'perf-elapsed', line: 9, clock: 'elapsed', seconds: 0.0543, stddevPct: 2.74 },
    ]);
    expect(ofKind(modes('json-r3.txt'), 'perf').map((r) => [r.event, r.value, r.stddevPct, r.runTimeNs])).toEqual([
      ['task-clock', 1.156835, 8.87, 1156835],
      ['page-faults', 75, 0.77, 1156835],
    ]);
    const noMerge = modes('nomerge.txt');
    expect(ofKind(noMerge, 'perf-elapsed').map((r) => [r.clock, r.seconds])).toEqual([
      ['elapsed', 0.053225855],
      ['user', 0.0014],
      ['sys', 0],
    ]);
  });

  it('`-r 3 --table`: the per-run wall times are kept as diagnostics, the final result is the elapsed record', () => {
    const all = modes('table.txt');
    expect(diagnostics(all).map((d) => [d.line, d.text.trim()])).toEqual([
      [7, '0.05527 (+0.00213) #'],
      [8, '0.05206 (-0.00107) #'],
      [9, '0.05207 (-0.00106) #'],
    ]);
    expect(ofKind(all, 'perf-elapsed').map((r) => [r.line, r.seconds, r.stddevPct])).toEqual([[12, 0.05313, 2.01]]);
  });
});

// Lines in the shape each perf version prints them, written from its print code (tools/perf/builtin-stat.c
// before 4.19, tools/perf/util/stat-display.c after; glibc's LC_NUMERIC of each locale for the
// separators). Values are the ones written in the line.
describe('perf stat across versions and locales', () => {
  const perfOf = (lines: string[]) => {
    const all = parse('perf', lines.join('\n'));
    return { all, rs: ofKind(all, 'perf'), diags: diagnostics(all) };
  };

  it.each([
    // [locale, line, value, metricValue]
    [
      'de_DE (`.` groups, `,` decimal)',
      '          8.013,48 msec task-clock    #    3,998 CPUs utilized',
      8013.48,
      3.998,
    ],
    ['de_DE, a count of 4 digits', '             1.234      context-switches #  154,000 /sec', 1234, 154],
    [
      'fr_FR glibc >= 2.28 (U+202F)',
      '     2\u202f345\u202f678\u202f901      cycles  #    2,927 GHz',
      2345678901,
      2.927,
    ],
    ['fr_FR glibc < 2.28 (plain spaces)', '     2 345 678 901      cycles  #    2,927 GHz', 2345678901, 2.927],
    ['ru_RU (U+00A0)', '        1\u00a0234,56 msec task-clock  #    0,500 CPUs utilized', 1234.56, 0.5],
    ['de_CH (U+2019)', '         1\u2019234\u2019567      instructions  #    0.80  insn per cycle', 1234567, 0.8],
    ['de_CH before glibc 2.26 (apostrophe)', "         1'234'567      instructions", 1234567, null],
    ['en_IN (3;2 grouping)', '     12,34,56,789      cycles', 123456789, null],
    ['C (no -B grouping)', '        2345678901      cycles', 2345678901, null],
  ])('human counter column in %s', (_locale, line, value, metricValue) => {
    const { rs, diags } = perfOf([line]);
    expect(diags).toEqual([]);
    expect(rs.map((r) => [r.value, r.metricValue])).toEqual([[value, metricValue]]);
  });

  it('comma-decimal locale: run %, variance and elapsed seconds are decimals, never thousands', () => {
    const { all, rs } = perfOf([
      '          1.234,56 msec task-clock    #    0,998 CPUs utilized   ( +-  0,21% )',
      '         5.678.901      cycles                                    (49,98%)',
      '',
      '           2,004 +- 0,004 seconds time elapsed  ( +-  0,21% )',
      '       1,001234567 seconds user',
    ]);
    expect(rs.map((r) => [r.value, r.metricValue, r.stddevPct, r.runPct])).toEqual([
      [1234.56, 0.998, 0.21, null],
      [5678901, null, null, 49.98],
    ]);
    expect(ofKind(all, 'perf-elapsed').map((r) => [r.clock, r.seconds, r.stddevPct])).toEqual([
      ['elapsed', 2.004, 0.21],
      ['user', 1.001234567, null],
    ]);
  });

  type Field = keyof PerfRecord;
  /** [what, lines as that perf prints them, the fields compared, each record's values of those fields] */
  const counterCases: Array<[string, string[], Field[], unknown[][]]> = [
    [
      // perf prints `%.2f` under the user's locale and the metric through print_metric_csv, which stops
      // at the first character that is not a digit or a dot (`3,998` → `3`): joined back / not trusted.
      '`-x,` and `-x;` in a comma-decimal locale: value and run % split by the decimal comma, the cut metric',
      [
        '8013,48,msec,task-clock,8013483384,100,00,3,CPUs utilized',
        '1234,,context-switches,8013483384,49,98,0,K/sec',
        '1234,,cycles,0,12%,1000,100,00,,',
        '8013,48;msec;task-clock;8013483384;100,00;3;CPUs utilized',
      ],
      ['event', 'value', 'unit', 'stddevPct', 'runTimeNs', 'runPct', 'metricValue', 'metricUnit'],
      [
        ['task-clock', 8013.48, 'msec', null, 8013483384, 100, null, 'CPUs utilized'],
        ['context-switches', 1234, null, null, 8013483384, 49.98, null, 'K/sec'],
        ['cycles', 1234, null, 0.12, 1000, 100, null, null],
        ['task-clock', 8013.48, 'msec', null, 8013483384, 100, null, 'CPUs utilized'],
      ],
    ],
    [
      'CSV of every era: 3.0–3.13 `value,event[,variance%]`, 3.14 `value,unit,event`, 4.1 run time and %, 4.9+ metric',
      [
        '1234567,cycles',
        '<not counted>,instructions',
        '1234567,cycles,0.12%',
        '     1.000123456,1234567,cycles',
        '1234567,,cycles',
        '0.912345,msec,task-clock',
        '1234567,,cycles,1000000,100.00',
        '1234567,,cycles,1000000,50.00,1.23,GHz',
      ],
      ['tSec', 'event', 'value', 'status', 'unit', 'stddevPct', 'runTimeNs', 'runPct', 'metricValue'],
      [
        [null, 'cycles', 1234567, 'ok', null, null, null, null, null],
        [null, 'instructions', null, 'not-counted', null, null, null, null, null],
        [null, 'cycles', 1234567, 'ok', null, 0.12, null, null, null],
        [1.000123456, 'cycles', 1234567, 'ok', null, null, null, null, null],
        [null, 'cycles', 1234567, 'ok', null, null, null, null, null],
        [null, 'task-clock', 0.912345, 'ok', 'msec', null, null, null, null],
        [null, 'cycles', 1234567, 'ok', null, null, 1000000, 100, null],
        [null, 'cycles', 1234567, 'ok', null, null, 1000000, 50, 1.23],
      ],
    ],
    [
      'aggregation ids: --per-core before dies, --per-socket, --per-node, --per-cluster, --per-cache, --per-thread',
      [
        'S0-C1           2        1,234      cycles',
        '     1.000123456 S0        4      <not counted>      cycles',
        'N0              8          5,678      cycles',
        'S0-D0-CLS1      4          9,012      armv8_cortex_a76/cycles/',
        'S0-D0-L3-ID0,8,1234,,cycles,1000,100.00,,',
        '     2.000000000,llama-cli-4242,777,,page-faults,1000,100.00,,',
        '       llama-cli-4242              888      page-faults',
      ],
      ['tSec', 'aggr', 'value', 'status', 'event'],
      [
        [null, 'S0-C1', 1234, 'ok', 'cycles'],
        [1.000123456, 'S0', null, 'not-counted', 'cycles'],
        [null, 'N0', 5678, 'ok', 'cycles'],
        [null, 'S0-D0-CLS1', 9012, 'ok', 'armv8_cortex_a76/cycles/'],
        [null, 'S0-D0-L3-ID0', 1234, 'ok', 'cycles'],
        [2, 'llama-cli-4242', 777, 'ok', 'page-faults'],
        [null, 'llama-cli-4242', 888, 'ok', 'page-faults'],
      ],
    ],
    [
      'event names: hybrid and big.LITTLE PMUs, modifiers, raw events, --no-merge `[pmu]`, tool events, Unicode',
      [
        '       987,654,321      cpu_atom/cycles/u                                              (50.03%)',
        '        12,345,678      armv8_pmuv3_0/r0011/',
        '            45,678      r003c:k',
        '         1,234,567      cycles [armv8_cortex_a53]',
        '         2,345,678      cycles [armv8_cortex_a76]',
        '1234,,instructions [armv8_cortex_a55],1000,100.00,,',
        '     1,001,234,567 ns   duration_time',
        '            12,345      Zyklen_ü',
      ],
      ['event', 'value', 'unit'],
      [
        ['cpu_atom/cycles/u', 987654321, null],
        ['armv8_pmuv3_0/r0011/', 12345678, null],
        ['r003c:k', 45678, null],
        ['cycles [armv8_cortex_a53]', 1234567, null],
        ['cycles [armv8_cortex_a76]', 2345678, null],
        ['instructions [armv8_cortex_a55]', 1234, null],
        ['duration_time', 1001234567, 'ns'],
        ['Zyklen_ü', 12345, null],
      ],
    ],
    [
      'JSON perf printed with printf: a bare nan and a comma-decimal locale still give the counter',
      [
        '{"counter-value" : "1234.000000", "unit" : "", "event" : "instructions", "event-runtime" : 1000, "pcnt-running" : 100.00, "metric-value" : -nan, "metric-unit" : "insn per cycle"}',
        '{"interval" : 1.000123456, "counter-value" : "0,793253", "unit" : "msec", "event" : "task-clock", "event-runtime" : 793253, "pcnt-running" : 49,98, "metric-value" : 0,003961, "metric-unit" : "CPUs utilized"}',
        '{"thread" : "llama-cli-4242", "counter-value" : "75.000000", "unit" : "", "event" : "page-faults", "event-runtime" : 1, "pcnt-running" : 100.00}',
      ],
      ['tSec', 'aggr', 'event', 'value', 'runPct', 'metricValue', 'metricUnit'],
      [
        [null, null, 'instructions', 1234, 100, null, 'insn per cycle'],
        [1.000123456, null, 'task-clock', 0.793253, 49.98, 0.003961, 'CPUs utilized'],
        [null, 'llama-cli-4242', 'page-faults', 75, 100, null, null],
      ],
    ],
  ];

  it.each(counterCases)('%s', (_what, lines, fields, expected) => {
    const { rs, diags } = perfOf(lines);
    expect(diags).toEqual([]);
    expect(rs.map((r) => fields.map((f) => r[f]))).toEqual(expected);
  });

  // A counter's further metrics (do_new_line_std in stat-display.c), perf 3.x's `%`-glued idle share,
  // perf 6.5+'s TopdownL1 group label, a multiplexed metric line, a metric perf could not compute.
  const metricLines = [
    '         1,234,567      instructions              #    0.80  insn per cycle',
    '                                                  #    0.26  stalled cycles per insn',
    '                                             #   45.67% frontend cycles idle',
    '             TopdownL1 (cpu_core)                 #     22.2 %  tma_backend_bound',
    '                                                  #     19.6 %  tma_retiring             (49.98%)',
    '                                                  #     -nan  insn per cycle',
  ];

  it('metric lines of their own (`#` continuation, perf 3.x stalled-cycles, TopdownL1): every one a metric record', () => {
    const { all, diags } = perfOf(metricLines);
    expect(diags).toEqual([]);
    expect(ofKind(all, 'perf-metric').map((m) => [m.line, m.name, m.value, m.unit])).toEqual([
      [2, 'stalled cycles per insn', 0.26, null],
      [3, 'frontend cycles idle', 45.67, '%'],
      [4, 'tma_backend_bound', 22.2, '%'],
      [5, 'tma_retiring', 19.6, '%'],
      [6, 'insn per cycle', null, null],
    ]);
  });

  it('a `#` line holding a number that is no metric is a diagnostic, a `#` header is nothing', () => {
    const { all, diags } = perfOf([
      '#           time             counts unit events',
      '# started on Tue Dec  1 10:00:00 2026',
      '#  1.2.3 broken',
    ]);
    expect(all).toEqual(diags);
    expect(diags.map((d) => [d.line, d.reason])).toEqual([[3, 'unreadable perf metric']]);
  });

  it('odd values: -nan metric, counts over 2^53 (a wrapped counter), a count too long for a double, CRLF, trailing blanks', () => {
    const { rs, diags } = perfOf([
      '         1,234      instructions              #     -nan  insn per cycle  ',
      '18,446,744,073,709,551,615      cycles',
      `${'9'.repeat(400)}      cycles`,
      '         1,234      branches   \r',
      '1234,,branch-misses,1000,100.00,,\r',
    ]);
    expect(rs.map((r) => [r.line, r.event, r.value, r.metricValue, r.metricUnit])).toEqual([
      [1, 'instructions', 1234, null, 'insn per cycle'],
      [2, 'cycles', 2 ** 64, null, null],
      [4, 'branches', 1234, null, null],
      [5, 'branch-misses', 1234, null, null],
    ]);
    expect(diags.map((d) => d.line)).toEqual([3]);
  });

  it("perf's complaints (real perf 6.1 stderr) are diagnostics that say so, to the blank line that ends them", () => {
    const denied = perfFixture('x86-vm-perf6.1-output-modes/paranoid-denied.txt');
    expect(denied.map((d) => [d.kind, d.kind === 'diagnostic' ? d.reason : ''])).toEqual(
      Array.from({ length: 15 }, () => ['diagnostic', 'perf message']),
    );
    const syntax = diagnostics(perfFixture('x86-vm-perf6.1-output-modes/syntax-error.txt'));
    expect(syntax.map((d) => [d.line, d.reason])).toEqual([
      [1, 'perf message'],
      [2, 'perf message'],
      [3, 'perf message'],
      [5, 'perf message'],
      [7, 'not a perf stat line'],
    ]);
    expect(diagnostics(perfFixture('x86-vm-perf6.1-output-modes/workload-failed.txt'))).toEqual([
      { kind: 'diagnostic', line: 1, reason: 'perf message', text: 'Workload failed: No such file or directory' },
    ]);
  });

  it('CSV: a second metric on its own line, a cgroup column, an event whose terms hold the separator', () => {
    // new_line_csv (stat-display.c): prefix, then the counter's fields left empty, then value and unit.
    const { all, rs, diags } = perfOf([
      '1234567,,instructions,1000,100.00,0.80,insn per cycle',
      ',,,,0.26,stalled cycles per insn',
      '     1.000123456,,,,,0.26,stalled cycles per insn',
      '1234,,cycles,/user.slice,1000,100.00,,',
      '5678,,cpu/event=0x3c,umask=0x0/,1000,100.00,,',
    ]);
    expect(diags).toEqual([]);
    expect(ofKind(all, 'perf-metric').map((m) => [m.line, m.tSec, m.name, m.value])).toEqual([
      [2, null, 'stalled cycles per insn', 0.26],
      [3, 1.000123456, 'stalled cycles per insn', 0.26],
    ]);
    expect(rs.map((r) => [r.line, r.event, r.value, r.aggr, r.runTimeNs, r.runPct])).toEqual([
      [1, 'instructions', 1234567, null, 1000, 100],
      [4, 'cycles', 1234, '/user.slice', 1000, 100],
      [5, 'cpu/event=0x3c,umask=0x0/', 5678, null, 1000, 100],
    ]);
  });

  it.each([
    [
      '`--metric-only -x, -I`: the header is printed once, every later row still becomes metrics',
      ['time,GHz,insn per cycle,', '     1.000123456,0.82,1.50,', '     2.000234567,0.91,1.45,'],
      [
        [2, 1.000123456, 'GHz', 0.82, null],
        [2, 1.000123456, 'insn per cycle', 1.5, null],
        [3, 2.000234567, 'GHz', 0.91, null],
        [3, 2.000234567, 'insn per cycle', 1.45, null],
      ],
    ],
    [
      // The sample in tools/perf/Documentation/topdown.txt (Linux 6.6), `perf stat -a --topdown -I1000`.
      'human `--topdown -I`: a `# time % name …` header, then rows of numbers',
      [
        '# time % tma_retiring % tma_backend_bound % tma_frontend_bound % tma_bad_speculation',
        ' 1.001141351 11.5 34.9 46.9 6.7',
        ' 2.006141972 13.4 28.1 50.4 8.1',
      ],
      [
        [2, 1.001141351, 'tma_retiring', 11.5, '%'],
        [2, 1.001141351, 'tma_backend_bound', 34.9, '%'],
        [2, 1.001141351, 'tma_frontend_bound', 46.9, '%'],
        [2, 1.001141351, 'tma_bad_speculation', 6.7, '%'],
        [3, 2.006141972, 'tma_retiring', 13.4, '%'],
        [3, 2.006141972, 'tma_backend_bound', 28.1, '%'],
        [3, 2.006141972, 'tma_frontend_bound', 50.4, '%'],
        [3, 2.006141972, 'tma_bad_speculation', 8.1, '%'],
      ],
    ],
  ])('%s', (_what, lines, expected) => {
    const { all, diags } = perfOf(lines);
    expect(diags).toEqual([]);
    expect(ofKind(all, 'perf-metric').map((m) => [m.line, m.tSec, m.name, m.value, m.unit])).toEqual(expected);
  });

  it('a capture through a terminal: colour codes around metrics and --interval-clear codes are not part of the line', () => {
    const esc = String.fromCharCode(27);
    const { all, rs, diags } = perfOf([
      `${esc}[H${esc}[2J#           time             counts unit events`,
      `     1.000123456         1,234,567      instructions   #  ${esc}[31m  0.26${esc}[m  insn per cycle`,
      `                                                  #  ${esc}[35m  0.50${esc}[m  stalled cycles per insn`,
    ]);
    expect(diags).toEqual([]);
    expect(rs.map((r) => [r.tSec, r.event, r.value, r.metricValue, r.metricUnit])).toEqual([
      [1.000123456, 'instructions', 1234567, 0.26, 'insn per cycle'],
    ]);
    expect(ofKind(all, 'perf-metric').map((m) => [m.name, m.value])).toEqual([['stalled cycles per insn', 0.5]]);
  });

  // Lines of /dev/urandom that held a digit and a comma were read as events named by their bytes.
  it.each([
    '3,y*\u001e\ufffd>=SF',
    '9,S>',
    '8,TKm\u00ab!;;\ufffdP',
    "5,'quoted'",
    '7,ab<c',
    '8,\\-,K4',
    '7,\u0003*-uv!,s,,,"~"un\u0011_',
  ])('noise %j is a diagnostic, not a reading', (line) => {
    const { rs, diags } = perfOf([line]);
    expect([rs.length, diags.length]).toEqual([0, 1]);
  });

  it("perf's own event syntax stays readable in the CSV shape noise came in", () => {
    expect(perfOf(['5,mem-loads:u', '6,sched:sched_switch', '7,probe_libc:malloc']).rs.map((r) => r.event)).toEqual([
      'mem-loads:u',
      'sched:sched_switch',
      'probe_libc:malloc',
    ]);
  });
});
