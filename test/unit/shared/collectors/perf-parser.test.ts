// The perf collector's parser on real perf output: this VM's perf 6.1 as the collector streams it
// (test/fixtures/perf/x86-vm-perf6.1-collector-interval), perf 5.12 `-x, -I` interval rows
// (x86-perf5.12-csv-interval-summary), and the names ARM boards with PMUs print: a big.LITTLE
// board's PMU-qualified events (arm-biglittle-perf6.15), Apple M1's `:u` events
// (apple-m1-asahi-not-counted), a Raspberry Pi 4's `<not supported>` branches (rpi4-and-arm-semicolon-csv).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CollectorRecord } from '../../../../shared/collectors/collector';
import { createPerfParser, parsePerfHeader, perfKey, perfKeyParts } from '../../../../shared/collectors/perf-parser';
import { createPerfStatParser } from '../../../../shared/parsers/perf-stat-parser';
import type { PerfRecord } from '../../../../shared/parsers/records';
import { projectRoot } from '../../../helpers/cli';

const fixture = (dir: string, name: string) =>
  readFileSync(join(projectRoot, 'test/fixtures/perf', dir, name), 'utf8').split('\n');

function pushAll(lines: readonly string[]): CollectorRecord[] {
  const parser = createPerfParser();
  return lines.map((l) => parser.push(l)).filter((r): r is CollectorRecord => r !== null);
}

/** The counter records the one perf stat parser reads from a capture. */
function counters(lines: readonly string[]): PerfRecord[] {
  const p = createPerfStatParser();
  return [...lines.flatMap((l) => p.push(l)), ...p.end()].filter((r): r is PerfRecord => r.kind === 'perf');
}

describe('perf collector parser', () => {
  it("reads this VM's streamed perf 6.1 output: one sample per interval on the target's clock", () => {
    const records = pushAll(fixture('x86-vm-perf6.1-collector-interval', 'perf-collector-stdout.txt'));
    expect(records[0]).toEqual({
      kind: 'header',
      note: 'not supported on this target, left out: cycles, instructions, cache-references, cache-misses, LLC-load-misses, L1-dcache-load-misses',
    });
    const samples = records.filter((r) => r.kind === 'sample');
    // Three intervals: the first is known complete when the second starts, the others on their last line.
    expect(samples).toEqual([
      {
        kind: 'sample',
        uptimeMs: 5825150 + 503,
        values: { 'perf.task-clockUs': 366630, 'perf.page-faults': 0, 'perf.context-switches': 196 },
      },
      {
        kind: 'sample',
        uptimeMs: 5825150 + 1007,
        values: { 'perf.task-clockUs': 321840, 'perf.page-faults': 0, 'perf.context-switches': 219 },
      },
      {
        kind: 'sample',
        uptimeMs: 5825150 + 1507,
        values: { 'perf.task-clockUs': 276050, 'perf.page-faults': 0, 'perf.context-switches': 153 },
      },
    ]);
    expect(records.filter((r) => r.kind === 'diagnostic')).toEqual([]);
  });

  it('reads a perf older than 3.14 (`time,value,event`, task-clock in msec without its unit field)', () => {
    // The shape perf 3.10's `-x, -I` prints (written from its print code: no unit field before 3.14,
    // nsec counters as msec with six decimals).
    const records = pushAll([
      'H v=1 t0=100.000 events=task-clock,cycles dropped=',
      '     1.000123456,999.123456,task-clock',
      '     1.000123456,1234567,cycles',
      '     2.000234567,998.5,task-clock',
      '     2.000234567,<not counted>,cycles',
    ]);
    expect(records.filter((r) => r.kind === 'sample')).toEqual([
      { kind: 'sample', uptimeMs: 101000, values: { 'perf.task-clockUs': 999123, 'perf.cycles': 1234567 } },
      { kind: 'sample', uptimeMs: 102000, values: { 'perf.task-clockUs': 998500, 'perf.cycles': null } },
    ]);
    expect(records.filter((r) => r.kind === 'diagnostic')).toEqual([]);
  });

  it('groups perf 5.12 `-x, -I` interval rows into one sample, summary rows are diagnostics', () => {
    const lines = fixture('x86-perf5.12-csv-interval-summary', '01_csv_interval_summary_lkml_jinyao_2021.txt');
    const after = lines.slice(lines.findIndex((l) => l.startsWith('# (B)')) + 1);
    const rows = after.slice(0, after.findIndex((l) => l.includes('summary,')) + 1);
    const records = pushAll(['H v=1 t0=100.5 events=cpu-clock dropped=', ...rows, '1.5,1,,cycles,1,100.00,,']);
    const samples = records.filter((r) => r.kind === 'sample');
    expect(samples[0]).toEqual({
      kind: 'sample',
      uptimeMs: 100500 + 1001,
      values: {
        'perf.cpu-clockUs': 8012720,
        'perf.context-switches': 218,
        'perf.cpu-migrations': 9,
        'perf.page-faults': 0,
        'perf.cycles': 15004518,
        'perf.instructions': 7954691,
        'perf.branches': 1590259,
        'perf.branch-misses': 82601,
      },
    });
    expect(records.filter((r) => r.kind === 'diagnostic')).toEqual([
      {
        kind: 'diagnostic',
        reason: 'perf line without an interval time',
        text: '           summary,8012.72,msec,cpu-clock,8012722903,100.00,7.986,CPUs utilized',
      },
    ]);
  });

  it('keeps the PMUs of a big.LITTLE board apart', () => {
    const keys = counters(
      fixture('arm-biglittle-perf6.15', '09_arm_biglittle_a53_a57_all_not_counted_lkml_clark_2025.txt'),
    ).map((r) => perfKey(r.event, r.unit));
    expect(keys).toEqual([
      'perf.task-clockUs',
      'perf.context-switches',
      'perf.cpu-migrations',
      'perf.page-faults',
      'perf.armv8_cortex_a53.instructions',
      'perf.armv8_cortex_a57.instructions',
      'perf.armv8_cortex_a53.cycles',
      'perf.armv8_cortex_a57.cycles',
      'perf.armv8_cortex_a53.branches',
      'perf.armv8_cortex_a53.branch-misses',
      'perf.armv8_cortex_a57.branch-misses',
    ]);
  });

  it('keys tracepoints by subsystem:event and PMU events by their terms; a name with spaces or nothing left is none', () => {
    expect(perfKey('skb:kfree_skb', null), 'a tracepoint (test/fixtures/perf/x86-tracepoint-interval-two-runs)').toBe(
      'perf.skb:kfree_skb',
    );
    expect(perfKey('sched:sched_switch:u', null)).toBe('perf.sched:sched_switch');
    expect(perfKeyParts('perf.skb:kfree_skb')).toEqual({ pmu: '', event: 'skb:kfree_skb' });
    // POWER9's hv_24x7 nest events (test/fixtures/perf/power9-perf5.8-metric-only): one per chip, kept apart.
    const power9 = counters(fixture('power9-perf5.8-metric-only', 'lkml-kjain-2020-07-20-M-I1000.txt'));
    expect(new Set(power9.map((r) => perfKey(r.event, r.unit)))).toEqual(
      new Set(['perf.hv_24x7.pm_pb_cyc_chip_0', 'perf.hv_24x7.pm_pb_cyc_chip_1']),
    );
    expect(perfKeyParts('perf.hv_24x7.pm_pb_cyc_chip_0')).toEqual({ pmu: 'hv_24x7', event: 'pm_pb_cyc_chip_0' });
    // A raw event with its modifiers after the slash (perf's `pmu/terms/mods` form), as `:u` is dropped.
    expect(perfKey('cpu/event=0x3c,umask=0x00/u', null)).toBe('perf.cpu.event_0x3c_umask_0x00');
    expect(perfKey('cpu_core/cycles/', 'msec')).toBe('perf.cpu_core.cyclesUs');
    for (const bad of ['not a name', 'cpu/,=/', '"x"', '']) expect(perfKey(bad, null), bad).toBeNull();
  });

  it("names Apple M1's user-only `cycles:u` as cycles, and a Pi 4's `<not supported>` row is left out of the sample", () => {
    const m1 = counters(fixture('apple-m1-asahi-not-counted', '04_arm64_apple_m1_not_counted_asahi_issue38.txt'));
    expect(m1.map((r) => perfKey(r.event, r.unit))).toEqual(['perf.cycles', 'perf.instructions']);
    const pi = counters(fixture('rpi4-and-arm-semicolon-csv', '07_rpi4_partial_and_arm_semicolon_csv.txt'));
    const at = (r: PerfRecord | undefined) => `1.000000000,${r?.value ?? '<not supported>'},,${r?.event},1000,100.00,,`;
    const [instructions, branches, misses] = pi;
    const records = pushAll([
      'H v=1 t0=10 events=instructions,branch-misses dropped=',
      at(instructions),
      at(branches),
      at(misses),
      at(instructions).replace(/^1\./, '2.'),
    ]);
    expect(records.find((r) => r.kind === 'sample')).toEqual({
      kind: 'sample',
      uptimeMs: 11000,
      values: { 'perf.instructions': 3801323, 'perf.branch-misses': 24532 },
    });
  });

  it('says absent/denied as the script does, and reads nothing before the header', () => {
    const p = createPerfParser();
    expect(p.push('! denied kernel.perf_event_paranoid=3 forbids perf')).toEqual({
      kind: 'status',
      status: 'denied',
      reason: 'kernel.perf_event_paranoid=3 forbids perf',
    });
    expect(p.push('1.0,5,,page-faults,1,100.00,,')).toMatchObject({
      kind: 'diagnostic',
      reason: 'perf line before the header',
    });
    expect(p.push('H v=1 t0=abc')).toMatchObject({ kind: 'diagnostic', reason: 'bad perf header' });
    expect(parsePerfHeader('H v=1 t0=1.5 events=a,b dropped=')).toEqual({
      t0Ms: 1500,
      events: ['a', 'b'],
      dropped: [],
    });
    expect(p.push('H v=1 t0=1 events=page-faults dropped=')).toEqual({ kind: 'header' });
    expect(p.push('garbage that is no perf line')).toMatchObject({
      kind: 'diagnostic',
      reason: 'not a perf stat line',
    });
  });

  // Real perf 6.1 captures of this VM (test/fixtures/perf/x86-vm-perf6.1-json-interval/SOURCE), read
  // as the collector would stream them after its header (t0=100).
  const streamed = (name: string) => {
    const parser = createPerfParser();
    const lines = [
      'H v=1 t0=100 events=task-clock,page-faults,context-switches dropped=',
      ...fixture('x86-vm-perf6.1-json-interval', name),
    ];
    const pushed = lines.map((l) => parser.push(l)).filter((r): r is CollectorRecord => r !== null);
    return { pushed, ended: parser.end() };
  };

  it('end() gives the last interval, which no next interval closes (one event: one line an interval)', () => {
    // `0.200325579,97.50,msec,task-clock,…` then `0.345183280,107.67,msec,task-clock,…` (the command ended).
    const { pushed, ended } = streamed('perf-stat-x-I200-one-event.txt');
    expect(pushed.filter((r) => r.kind === 'sample')).toEqual([
      { kind: 'sample', uptimeMs: 100_000 + 200, values: { 'perf.task-clockUs': 97_500 } },
    ]);
    expect(ended).toEqual([{ kind: 'sample', uptimeMs: 100_000 + 345, values: { 'perf.task-clockUs': 107_670 } }]);
    // Nothing is held twice.
    const again = createPerfParser();
    expect(again.end()).toEqual([]);
  });

  it('reads perf stat -j lines: one sample per interval, <not counted> intervals as gaps', () => {
    const { pushed, ended } = streamed('perf-stat-j-I200-sleep1.txt');
    const samples = [...pushed, ...ended].filter((r) => r.kind === 'sample');
    expect(samples.map((r) => r.uptimeMs)).toEqual([100_200, 100_401, 100_601, 100_801, 101_002]);
    // Interval 1: "counter-value" : "0.793253" msec task-clock, "75.000000" page-faults, "1.000000" context-switches.
    expect(samples[0]).toMatchObject({
      values: { 'perf.task-clockUs': 793, 'perf.page-faults': 75, 'perf.context-switches': 1 },
    });
    expect(samples[1]).toMatchObject({
      values: { 'perf.task-clockUs': null, 'perf.page-faults': null, 'perf.context-switches': null },
    });
    // The last interval (1.001605259 s): "0.037516" msec, "0.000000", "0.000000".
    expect(samples[4]).toMatchObject({
      values: { 'perf.task-clockUs': 38, 'perf.page-faults': 0, 'perf.context-switches': 0 },
    });
    expect(pushed.filter((r) => r.kind === 'diagnostic')).toEqual([]);
  });
});
