// Thermal cooling devices as `grep -r . /sys/class/thermal/` lists them (drivers/thermal/thermal_sysfs.c:
// type `%s`, max_state and cur_state `%ld`), read through the board transcript parser.
import { describe, expect, it } from 'vitest';
import { diagnostics, ofKind, parse } from '../../../helpers/parser-test-kit';

const lines = (...pasted: string[]) => pasted.join('\n');
const devices = (text: string) =>
  ofKind(parse('thermal', text), 'cooling-device').map((r) => [
    r.line,
    r.device,
    r.type,
    r.curState,
    r.maxState,
    r.error,
  ]);

describe('thermal cooling devices (cooling_deviceN: type, cur_state, max_state)', () => {
  it('a real `grep -r` of /sys/class/thermal (thermald issue): each device a record, its power/ files and their errors passed over', () => {
    // Pasted in https://github.com/intel/thermal_daemon/issues/219 (grep output of /sys/class/thermal), lines as there.
    const text = lines(
      '/sys/class/thermal/cooling_device4/cur_state:0',
      '/sys/class/thermal/cooling_device5/power/runtime_active_time:0',
      '/sys/class/thermal/cooling_device5/power/runtime_active_kids:0',
      '/sys/class/thermal/cooling_device5/power/runtime_usage:0',
      '/sys/class/thermal/cooling_device5/power/runtime_status:unsupported',
      'grep: /sys/class/thermal/cooling_device5/power/autosuspend_delay_ms: Input/output error',
      '/sys/class/thermal/cooling_device5/power/async:disabled',
      '/sys/class/thermal/cooling_device5/power/runtime_suspended_time:0',
      '/sys/class/thermal/cooling_device5/power/runtime_enabled:disabled',
      '/sys/class/thermal/cooling_device5/power/control:auto',
      '/sys/class/thermal/cooling_device5/type:Processor',
      '/sys/class/thermal/cooling_device5/max_state:3',
      '/sys/class/thermal/cooling_device5/cur_state:0',
    );
    expect(devices(text)).toEqual([
      [1, 'cooling_device4', null, 0, null, null],
      [11, 'cooling_device5', 'Processor', 0, 3, null],
    ]);
    expect(diagnostics(parse('thermal', text))).toEqual([]);
  });

  it('the same files through `cat` (the format: a prompt, then the value), a failed read, a state that is no number', () => {
    const text = lines(
      'root@rock-5b:~# cat /sys/class/thermal/cooling_device0/type',
      'thermal-cpufreq-0',
      'root@rock-5b:~# cat /sys/class/thermal/cooling_device0/cur_state',
      '2',
      'root@rock-5b:~# cat /sys/class/thermal/cooling_device1/cur_state',
      'cat: /sys/class/thermal/cooling_device1/cur_state: No such device',
      '/sys/class/thermal/cooling_device2/cur_state:on',
    );
    expect(devices(text)).toEqual([
      // Each `cat` is a record of its own, as a thermal zone's are.
      [2, 'cooling_device0', 'thermal-cpufreq-0', null, null, null],
      [4, 'cooling_device0', null, 2, null, null],
      [6, 'cooling_device1', null, null, null, 'ENODEV'],
    ]);
    expect(diagnostics(parse('thermal', text)).map((d) => [d.line, d.reason])).toEqual([
      [7, 'unreadable cooling device state'],
    ]);
  });
});
