// Lines as they stand in test/fixtures/thermal/raspberry-pi-vcgencmd (vcgencmd, pmic_read_adc, dmesg)
// and the RK3588 rknpu/load formats of shared/parsers/firmware-lines.ts.
import { describe, expect, it } from 'vitest';
import { readFirmwareLine, readNpuLoad } from '../../../../shared/parsers/firmware-lines';
import { diagnostic } from '../../../../shared/parsers/records';

const read = (line: string) => readFirmwareLine(line.trim(), line, 7, line);

describe('readFirmwareLine', () => {
  it.each([
    ["temp=62.3'C ", { kind: 'vc-temp', line: 7, tempC: 62.3 }],
    ['frequency(48)=1500345728', { kind: 'vc-clock', line: 7, clockId: 48, freqHz: 1500345728 }],
    ['volt=1.2000V', { kind: 'vc-volts', line: 7, volts: 1.2 }],
    [
      '  VDD_CORE_A current(7)=10.87674000A',
      { kind: 'pmic-adc', line: 7, rail: 'VDD_CORE_A', channel: 7, quantity: 'current', value: 10.87674, unit: 'A' },
    ],
    ['NPU load:  Core0:  4%, Core1:  0%, Core2: 12%,', { kind: 'npu-load', line: 7, corePct: [4, 0, 12] }],
  ])('%s', (line, record) => {
    expect(read(line)).toEqual({ readings: [record] });
  });

  it('get_throttled and the kernel line decode the same bits (0x50005: under-voltage now and since boot)', () => {
    for (const [line, source] of [
      ['throttled=0x50005', 'vcgencmd'],
      ['[ 3741.927786] Under-voltage detected! (0x00050005)', 'kernel'],
    ] as const) {
      const r = read(line);
      expect(r && 'readings' in r ? r.readings[0] : r).toMatchObject({
        kind: 'throttled',
        source,
        bits: 0x50005,
        underVoltageNow: true,
        throttledNow: true,
        armFreqCappedNow: false,
        underVoltageOccurred: true,
        throttledOccurred: true,
        otherBits: 0,
      });
    }
  });

  it('a vcgencmd answer it cannot read is a diagnostic; other text is none of its business', () => {
    expect(read("temp=hot'C")).toEqual({
      unreadable: { kind: 'diagnostic', line: 7, reason: 'unreadable vcgencmd output', text: "temp=hot'C" },
    });
    expect(read('Linux raspberrypi 6.6.31+rpt-rpi-2712')).toBeNull();
  });
});

describe('readNpuLoad', () => {
  it('reads the single-core form and turns anything else into a diagnostic', () => {
    expect(readNpuLoad('NPU load:  0%', 3, 'raw')).toEqual([{ kind: 'npu-load', line: 3, corePct: [0] }]);
    expect(readNpuLoad('busy', 3, 'raw')).toEqual([
      { kind: 'diagnostic', line: 3, reason: 'unreadable NPU load', text: 'raw' },
    ]);
  });
});

describe('vcgencmd and rknpu answers that are not readings', () => {
  it.each([
    // raspberrypi/userland vcgencmd without access to /dev/vchiq (older userland, then newer).
    ['VCHI initialization failed'],
    ['* failed to open vchiq instance'],
    ['failed to open vchiq instance'],
    // The firmware refusing a command or its arguments.
    ['error=1 error_msg="Command not registered"'],
    ['error=2 error_msg="Invalid arguments"'],
    // The shell when the tool is not installed.
    ['-bash: vcgencmd: command not found'],
  ])('%s: a vcgencmd error diagnostic, where it used to pass as prose', (line) => {
    expect(readFirmwareLine(line, line, 3, line)).toEqual({ unreadable: diagnostic(3, 'vcgencmd error', line) });
  });

  it('rknpu `%2.d%%` per core (0.9.x on RK3588, one core on RK3566/RK3568): every core or none', () => {
    expect(readNpuLoad(' Core0:  0%, Core1:  0%, Core2:  0%,', 1, 'x')).toEqual([
      { kind: 'npu-load', line: 1, corePct: [0, 0, 0] },
    ]);
    expect(readNpuLoad('100%', 2, 'x')).toEqual([{ kind: 'npu-load', line: 2, corePct: [100] }]);
    // A core whose figure is damaged: before, [12, 0] came out and Core2's 0 stood in for Core1.
    expect(readNpuLoad(' Core0: 12%, Core1: ??%, Core2:  0%,', 3, 'x')).toEqual([
      diagnostic(3, 'unreadable NPU load', 'x'),
    ]);
  });
});
