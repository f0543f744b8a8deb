// The board sysfs collector's tick lines (shared/collectors/board-sysfs-collector.ts prints `t=<uptime>|<path>:<value>|…`)
// with the attributes the mainline ina3221 driver exposes (Documentation/hwmon/ina3221.rst: in1–in3 bus mV,
// curr1–curr3 mA, in4–in6 shunt µV, in7 their sum, curr4 the summed current), the rknpu load
// line of rknpu_debugger.c and devfreq Hz. Expected values are worked out by hand in the comments.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBoardSysfsCollectorParser } from '../../../../shared/collectors/board-sysfs-collector-parser';
import { projectRoot } from '../../../helpers/cli';

const read = (line: string) => createBoardSysfsCollectorParser().push(line);
/** The values of an rknpu load line `Core0: N%, Core1:  0%, Core2:  0%`. */
const npuLoad = (core0Pct: number) => ({
  'npu.core0.loadPct': core0Pct,
  'npu.core1.loadPct': 0,
  'npu.core2.loadPct': 0,
});

describe('board sysfs collector parser', () => {
  it('INA3221: rails from in1–in3 × curr1–curr3 only; shunt µV (in4–in7) and the summed curr4 make no rail', () => {
    // grep's listing of the chip (test/fixtures/board-sysfs/driver-formats/SOURCE) as the parts of one tick.
    const parts = readFileSync(
      join(projectRoot, 'test/fixtures/board-sysfs/driver-formats/ina3221_grep_all.txt'),
      'utf8',
    )
      .split('\n')
      .filter((l) => l.startsWith('/sys/'));
    expect(read(`t=812.25|${parts.join('|')}`)).toEqual({
      kind: 'sample',
      uptimeMs: 812250,
      values: {
        'power.VDD_IN.mW': 5098.48, // 5048 mV × 1010 mA
        'power.VDD_CPU_GPU_CV.mW': 927.36, // 5040 mV × 184 mA
      },
    });
  });

  // The awk prints `<path>:` with nothing after it when getline fails (the file is gone or the read errs).
  it.each([
    {
      what: 'devfreq Hz → MHz, the NPU per core',
      line: 't=10|/sys/class/devfreq/fdab0000.npu/cur_freq:1000000000|/sys/kernel/debug/rknpu/load:NPU load:  Core0: 35%, Core1:  0%, Core2:  0%,',
      want: { kind: 'sample', uptimeMs: 10000, values: { 'devfreq.fdab0000.npu.curFreqMHz': 1000, ...npuLoad(35) } },
    },
    {
      what: 'a file that reads nothing mid-run (devfreq node unplugged, EBUSY): the other parts are still the sample',
      line: 't=12.5|/sys/class/devfreq/dmc/cur_freq:528000000|/sys/class/devfreq/fdab0000.npu/cur_freq:|/sys/kernel/debug/rknpu/load:NPU load:  Core0:  4%, Core1:  0%, Core2:  0%,',
      want: {
        kind: 'sample',
        uptimeMs: 12500,
        values: { 'devfreq.dmc.curFreqMHz': 528, ...npuLoad(4) },
        unread: { reason: 'unreadable devfreq frequency', text: '/sys/class/devfreq/fdab0000.npu/cur_freq:' },
      },
    },
  ])('$what', ({ line, want }) => {
    expect(read(line)).toEqual(want);
  });

  it('a tick where nothing reads is a diagnostic that says which part failed', () => {
    expect(read('t=11|/sys/kernel/debug/rknpu/load:NPU load:  Core0: 35%, Core1: %, Core2:  0%,')).toMatchObject({
      kind: 'diagnostic',
      reason: 'unreadable NPU load',
    });
    // Nothing readable at all: the line is the diagnostic, with the part's reason.
    expect(read('t=13|/sys/class/devfreq/fdab0000.npu/cur_freq:')).toEqual({
      kind: 'diagnostic',
      reason: 'unreadable devfreq frequency',
      text: 't=13|/sys/class/devfreq/fdab0000.npu/cur_freq:',
    });
  });
});
