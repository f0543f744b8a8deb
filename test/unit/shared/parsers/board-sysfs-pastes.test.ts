// Real board sysfs pastes from GitHub threads (test/fixtures/board-sysfs/github-issues/SOURCE), read by
// the board transcript reader (shared/parsers/thermal-parsers.ts). Expected values are read off the pastes.
import { describe, expect, it } from 'vitest';
import { diagnostics, ofKind, parseFixture } from '../../../helpers/parser-test-kit';

const real = (format: string, file: string) => parseFixture(format, `board-sysfs/github-issues/${file}`);

describe('real board sysfs pastes (test/fixtures/board-sysfs/github-issues/SOURCE)', () => {
  it("RK3399 Mali: `cat` under the GPU's devfreq directory as kbase links it (/sys/class/misc/mali0/device/devfreq/…)", () => {
    const all = real('devfreq', 'rk3399_mali_devfreq_computelibrary225.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'devfreq').map((r) => [r.line, r.device, r.attr, r.curFreqHz, r.availableFreqsHz])).toEqual([
      [5, 'ff9a0000.gpu', 'cur_freq', 200e6, null],
      [7, 'ff9a0000.gpu', 'available_frequencies', null, [200e6, 297e6, 400e6, 500e6, 594e6, 800e6]],
    ]);
  });
});

describe('`cat` of files named by a brace list: values in the order the list names the files', () => {
  it('INA219 (networkupstools/nut#2960): in0, in1, power1, curr1 read, shunt_resistor not a reading', () => {
    const all = real('hwmon', 'ina219_brace_cat_nut2960.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'sensor').map((s) => [s.line, s.chip, s.label, s.value, s.unit])).toEqual([
      [5, 'hwmon2', 'in0', -0.004, 'V'],
      [6, 'hwmon2', 'in1', 4.228, 'V'],
      [7, 'hwmon2', 'power1', 0.176, 'W'],
      [8, 'hwmon2', 'curr1', -0.04, 'A'],
    ]);
  });
});
