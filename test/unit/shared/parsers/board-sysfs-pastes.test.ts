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

describe('Android zones read from `/` (test/fixtures/thermal/android-zone-types/SOURCE)', () => {
  const zones = (file: string) =>
    ofKind(parseFixture('thermal', `thermal/android-zone-types/${file}`), 'thermal-zone').map((z) => [
      z.line,
      z.zone,
      z.type,
    ]);

  it('`poplar:/ # cat sys/class/thermal/thermal_zoneN/type` (Xperia, MSM8998): each zone named', () => {
    const read = zones('xperia_xz_premium_poplar_pr2.txt');
    expect(read).toHaveLength(19);
    expect(read.slice(0, 3)).toEqual([
      [4, 'thermal_zone0', 'battery'],
      [6, 'thermal_zone1', 'ufs_therm'],
      [8, 'thermal_zone2', 'pa_therm1'],
    ]);
    expect(read.at(-1)).toEqual([40, 'thermal_zone18', 'tsens_tz_sensor9']);
  });

  it('`adb shell cat sys/class/thermal/thermal_zoneN/type` from a desktop prompt (Xperia X Compact)', () => {
    const read = zones('xperia_x_compact_kugo_adb_pr28.txt');
    expect(read).toHaveLength(15);
    expect(read.slice(0, 2)).toEqual([
      [2, 'thermal_zone0', 'bms'],
      [4, 'thermal_zone1', 'battery'],
    ]);
    expect(read.at(-1)).toEqual([30, 'thermal_zone14', 'tsens_tz_sensor7']);
  });
});
