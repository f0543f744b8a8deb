// The pressure collector's parser on real kernel text: this VM's /proc/pressure/* and /proc/loadavg
// (test/fixtures/pressure/x86-vm-6.18) and the format of the kernel's
// Documentation/accounting/psi.rst, including the CPU file of kernels before 5.13 (no `full` line).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPressureParser, parseLoadavg, parsePsiLine } from '../../../../shared/collectors/pressure-parser';
import { projectRoot } from '../../../helpers/cli';

const fixture = (name: string) =>
  readFileSync(join(projectRoot, 'test/fixtures/pressure/x86-vm-6.18', name), 'utf8').trim();

/** The tick line the collector prints: the files' lines joined by `|`, each after its file name. */
function tickLine(uptime: string, files: Record<string, string>): string {
  const parts = [`t=${uptime}`];
  for (const [file, text] of Object.entries(files)) for (const l of text.split('\n')) parts.push(`${file} ${l}`);
  return parts.join('|');
}

describe('pressure collector parser', () => {
  it('reads PSI lines as psi.rst documents them', () => {
    expect(parsePsiLine('memory', 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0')).toEqual({
      'psi.memory.some.avg10Pct': 0,
      'psi.memory.some.avg60Pct': 0,
      'psi.memory.some.avg300Pct': 0,
      'psi.memory.some.totalUs': 0,
    });
    expect(parsePsiLine('io', 'full avg10=21.26 avg60=19.10 avg300=13.39 total=54982338')).toEqual({
      'psi.io.full.avg10Pct': 21.26,
      'psi.io.full.avg60Pct': 19.1,
      'psi.io.full.avg300Pct': 13.39,
      'psi.io.full.totalUs': 54982338,
    });
    expect(parsePsiLine('memory', 'some avg10=0.00 avg60=0.00 total=0')).toBeNull();
    expect(parsePsiLine('memory', 'half avg10=0.00 avg60=0.00 avg300=0.00 total=0')).toBeNull();
  });

  it('reads one tick of this machine: load averages and every pressure file', () => {
    const files = { memory: fixture('memory'), cpu: fixture('cpu'), io: fixture('io') };
    const line = tickLine('1834.97', { loadavg: fixture('loadavg'), ...files });
    const record = createPressureParser().push(line);
    expect(record?.kind).toBe('sample');
    if (record?.kind !== 'sample') return;
    expect(record.uptimeMs).toBe(1834970);
    // Written literally from the fixture files.
    expect(record.values).toMatchObject({
      load1: 16.14,
      load5: 16.51,
      load15: 13.36,
      tasksRunnable: 13,
      tasks: 318,
      'psi.cpu.some.avg10Pct': 98.74,
      'psi.cpu.some.totalUs': 1792368614,
      'psi.cpu.full.avg10Pct': 0,
      'psi.memory.some.totalUs': 22724,
      'psi.memory.full.totalUs': 1988,
      'psi.io.some.avg300Pct': 0.03,
      'psi.io.full.totalUs': 1851551,
    });
    expect(Object.keys(record.values)).toHaveLength(5 + 3 * 2 * 4);
  });

  it('a CPU file with only its `some` line (kernels before 5.13) is fine', () => {
    const record = createPressureParser().push(
      tickLine('5.00', {
        loadavg: '0.00 0.01 0.05 1/97 812',
        cpu: 'some avg10=1.53 avg60=1.87 avg300=1.73 total=1088168194',
      }),
    );
    expect(record).toMatchObject({ kind: 'sample', values: { 'psi.cpu.some.avg60Pct': 1.87, load15: 0.05 } });
  });

  it('says absent, and counts what it cannot read as diagnostics (never throws)', () => {
    const p = createPressureParser();
    const reason = 'no /proc/pressure/memory';
    expect(p.push(`! absent ${reason}`)).toEqual({ kind: 'status', status: 'absent', reason });
    expect(p.push('H v=1 files=memory,cpu,io,')).toEqual({ kind: 'header' });
    for (const bad of [
      't=abc|loadavg 0.00 0.01 0.05 1/97 812',
      't=1.00|loadavg 0.00 0.01',
      't=1.00|memory some avg10=x',
      't=1.00|Memory some avg10=0.00 avg60=0.00 avg300=0.00 total=0',
      'garbage',
      '!',
    ])
      expect(p.push(bad)?.kind).toBe('diagnostic');
    expect(parseLoadavg(fixture('loadavg'))).toEqual({
      load1: 16.14,
      load5: 16.51,
      load15: 13.36,
      tasksRunnable: 13,
      tasks: 318,
    });
  });
});
