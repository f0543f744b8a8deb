// The vcgencmd collector's tick lines (shared/collectors/vcgencmd-collector.ts) read by its parser:
// the firmware's words as vcgencmd prints them (firmware#615 / corpus thermal_cpufreq/03).
import { describe, expect, it } from 'vitest';
import { createVcgencmdCollectorParser } from '../../../../shared/collectors/vcgencmd-collector-parser';

const read = (line: string) => createVcgencmdCollectorParser().push(line);

describe('vcgencmd collector parser', () => {
  it('reads the throttled bits, the SoC temperature and the measured ARM clock of a tick', () => {
    expect(read("t=812.25|throttled=0x50005|temp=80.8'C|frequency(48)=1500345728")).toEqual({
      kind: 'sample',
      uptimeMs: 812_250,
      values: expect.objectContaining({
        'rpi.throttledBits': 0x50005,
        'rpi.underVoltageNow': 1,
        'rpi.soc.C': 80.8,
        'rpi.armFreqMHz': 1500.345728,
      }),
    });
  });

  it('a clock measured at 0 Hz is no ARM clock: the tick keeps its other readings and says why', () => {
    // A stopped block reads 0 Hz (a Pi 1's pwm, vec and dpi in the corpus); the ARM answering runs.
    const r = read("t=812.25|throttled=0x0|temp=52.6'C|frequency(0)=0");
    expect(r).toMatchObject({
      kind: 'sample',
      values: { 'rpi.throttledBits': 0, 'rpi.soc.C': 52.6 },
      unread: { reason: 'the firmware measured the ARM clock as 0 Hz: not a reading', text: 'frequency(0)=0' },
    });
    expect(r?.kind === 'sample' && 'rpi.armFreqMHz' in r.values).toBe(false);
    // Alone on its tick: a counted diagnostic saying the same, never a drop of the clock to 0.
    expect(read('t=812.25|frequency(0)=0')).toMatchObject({
      kind: 'diagnostic',
      reason: 'the firmware measured the ARM clock as 0 Hz: not a reading',
    });
  });

  it("reads cpufreq's scaling_cur_freq (kHz) as the ARM clock where the firmware limits nothing", () => {
    const line =
      't=812.25|/sys/devices/platform/soc/soc:firmware/get_throttled:50000' +
      '|/sys/class/thermal/thermal_zone0/type:cpu-thermal|/sys/class/thermal/thermal_zone0/temp:74010' +
      '|/sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq:1500000';
    expect(read(line)).toEqual({
      kind: 'sample',
      uptimeMs: 812_250,
      values: expect.objectContaining({ 'rpi.throttledBits': 0x50000, 'rpi.soc.C': 74.01, 'rpi.armFreqMHz': 1500 }),
    });
    // A value that is no number is said, not read as a clock.
    expect(read('t=812.25|/sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq:<unknown>')).toMatchObject({
      kind: 'diagnostic',
    });
  });
});
