// Lines as they stand in test/fixtures/thermal/raspberry-pi-vcgencmd (vcgencmd, pmic_read_adc, dmesg)
// and the RK3588 rknpu/load formats of shared/parsers/firmware-lines.ts.
import { describe, expect, it } from 'vitest';
import { readFirmwareLine, readNpuLoad } from '../../../../shared/parsers/firmware-lines';

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
