import { describe, expect, it } from 'vitest';
import { createThermalParser } from '../../../../shared/parsers/thermal-parsers';
import { decodeThrottled, errnoName, parseSysfsTempRead } from '../../../../shared/parsers/sysfs-values';
import type { SensorRecord } from '../../../../shared/parsers/records';
import { diagnostics, ofKind, parse, parseFixture } from '../../../helpers/parser-test-kit';
import { expectSurvivesNoise } from '../../../helpers/parser-noise';
import { PROTOTYPE_KEYS } from '../../../helpers/prototype-keys';

const sensorRow = (s: SensorRecord) => [s.line, s.chip, s.label, s.value, s.unit, s.crit, s.max, s.min, s.alarm];

describe('thermal, clocks, power: real captures', () => {
  it('RK3588 (Orange Pi 5 / 5 Max): lm-sensors zones, DRAM trans_stat with fused header, devfreq governors, `sensors -u`', () => {
    const all = parseFixture('thermal', 'thermal/rk3588-orange-pi-5/01_rk3588_sensors_devfreq_transstat_sbcbench.txt');
    expect(diagnostics(all)).toEqual([]);
    const sensors = ofKind(all, 'sensor');
    expect(sensors.slice(0, 9).map(sensorRow)).toEqual([
      [22, 'npu_thermal-virtual-0', 'temp1', 26.8, 'C', null, null, null, false],
      [25, 'center_thermal-virtual-0', 'temp1', 26.8, 'C', null, null, null, false],
      [28, 'bigcore1_thermal-virtual-0', 'temp1', 26.8, 'C', null, null, null, false],
      [31, 'soc_thermal-virtual-0', 'temp1', 26.8, 'C', 115, null, null, false],
      [34, 'tcpm_source_psy_6_0022-i2c-6-22', 'in0', 0, 'V', null, 0, 0, false],
      [35, 'tcpm_source_psy_6_0022-i2c-6-22', 'curr1', 0, 'A', null, 0, null, false],
      [38, 'gpu_thermal-virtual-0', 'temp1', 26.8, 'C', null, null, null, false],
      [41, 'littlecore_thermal-virtual-0', 'temp1', 27.8, 'C', null, null, null, false],
      [44, 'bigcore0_thermal-virtual-0', 'temp1', 26.8, 'C', null, null, null, false],
    ]);
    // `sensors -u`: raw values, the crit limit on its own line
    expect(sensors.slice(9).map(sensorRow)).toEqual([
      [120, 'gpu_thermal-virtual-0', 'temp1', 33.307, 'C', null, null, null, false],
      [125, 'littlecore_thermal-virtual-0', 'temp1', 34.23, 'C', null, null, null, false],
      [130, 'bigcore0_thermal-virtual-0', 'temp1', 34.23, 'C', null, null, null, false],
      [135, 'tcpm_source_psy_6_0022-i2c-6-22', 'in0', 0, 'V', null, 0, 0, false],
      [139, 'tcpm_source_psy_6_0022-i2c-6-22', 'curr1', 0, 'A', null, 0, null, false],
      [145, 'npu_thermal-virtual-0', 'temp1', 34.23, 'C', null, null, null, false],
      [150, 'center_thermal-virtual-0', 'temp1', 34.23, 'C', null, null, null, false],
      [155, 'bigcore1_thermal-virtual-0', 'temp1', 34.23, 'C', null, null, null, false],
      [160, 'soc_thermal-virtual-0', 'temp1', 34.23, 'C', 115, null, null, false],
    ]);
    expect(
      ofKind(all, 'devfreq-trans').map((r) => [r.line, r.device, r.freqHz, r.current, r.transitions, r.timeMs]),
    ).toEqual([
      [54, 'dmc', 528000000, true, [0, 0, 0, 37], 110661386],
      [55, 'dmc', 1068000000, false, [12, 0, 0, 0], 34776],
      [56, 'dmc', 1560000000, false, [0, 0, 0, 0], 0],
      [57, 'dmc', 2112000000, false, [26, 12, 0, 0], 224716],
      [95, 'dmc', 534000000, false, [0, 0, 0, 12], 438923],
      [96, 'dmc', 1320000000, false, [7, 0, 0, 0], 1660],
      [97, 'dmc', 1968000000, false, [2, 0, 0, 0], 136],
      [98, 'dmc', 2400000000, true, [3, 7, 2, 0], 1413100],
    ]);
    expect(ofKind(all, 'devfreq-trans-total')).toEqual([
      { kind: 'devfreq-trans-total', line: 58, device: 'dmc', total: 87 },
      { kind: 'devfreq-trans-total', line: 99, device: 'dmc', total: 33 },
    ]);
    const devfreq = ofKind(all, 'devfreq');
    expect(devfreq.map((d) => [d.line, d.device, d.governor, d.curFreqHz])).toEqual([
      [76, 'dmc', 'dmc_ondemand', 528e6],
      [77, 'fb000000.gpu', 'simple_ondemand', 300e6],
      [78, 'fdab0000.npu', 'rknpu_ondemand', 300e6],
      [103, 'dmc', 'performance', 2400e6],
      [104, 'fb000000.gpu', 'performance', 1000e6],
      [105, 'fdab0000.npu', 'performance', 1000e6],
    ]);
    expect(devfreq[0]?.availableFreqsHz).toEqual([528e6, 1068e6, 1560e6, 2112e6]);
    expect(devfreq[1]?.availableGovernors).toEqual([
      'rknpu_ondemand',
      'dmc_ondemand',
      'userspace',
      'powersave',
      'performance',
      'simple_ondemand',
    ]);
    expect(devfreq[3]?.availableFreqsHz).toEqual([534e6, 1320e6, 1968e6, 2400e6]);
  });

  it('Raspberry Pi vcgencmd: temps, throttled bits, clocks (id 45 → 48), volts, kernel under-voltage, EINVAL, Pi 5 PMIC', () => {
    const all = parseFixture('thermal', 'thermal/raspberry-pi-vcgencmd/03_raspberry_pi_vcgencmd_outputs.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'vc-temp').map((r) => [r.line, r.tempC])).toEqual([
      [9, 39.2],
      [11, 38.6],
      [12, 38.6],
      [14, 38.6],
      [21, 62.3],
      [36, 80.8],
      [74, 42.9],
    ]);
    const throttled = ofKind(all, 'throttled');
    expect(throttled.map((r) => [r.line, r.raw, r.bits, r.source])).toEqual([
      [10, '0x50000', 0x50000, 'vcgencmd'],
      [13, '0x50005', 0x50005, 'vcgencmd'],
      [22, '0x0', 0, 'vcgencmd'],
      [58, '0x80008', 0x80008, 'vcgencmd'],
      [60, '0', 0, 'sysfs'],
      [64, '0x00050005', 0x50005, 'kernel'],
      [65, '0x00000000', 0, 'kernel'],
      [66, '0x00050005', 0x50005, 'kernel'],
      [67, '0x00000000', 0, 'kernel'],
    ]);
    // 0x50005: under-voltage now + throttled now, both have occurred.
    expect(throttled[1]).toMatchObject({
      underVoltageNow: true,
      armFreqCappedNow: false,
      throttledNow: true,
      softTempLimitNow: false,
      underVoltageOccurred: true,
      armFreqCappedOccurred: false,
      throttledOccurred: true,
      softTempLimitOccurred: false,
      otherBits: 0,
    });
    // 0x50000: nothing now, both occurred.
    expect(throttled[0]).toMatchObject({
      underVoltageNow: false,
      throttledNow: false,
      underVoltageOccurred: true,
      throttledOccurred: true,
    });
    // 0x80008: soft temperature limit active and occurred.
    expect(throttled[3]).toMatchObject({
      softTempLimitNow: true,
      softTempLimitOccurred: true,
      underVoltageNow: false,
      throttledNow: false,
    });
    expect(ofKind(all, 'vc-clock').map((r) => [r.line, r.clockId, r.freqHz])).toEqual([
      [20, 45, 1400000000],
      [31, 48, 1500345728],
      [35, 48, 1000212864],
      [42, 43, 250000000],
      [44, 43, 249999000],
      [46, 43, 250000000],
    ]);
    expect(ofKind(all, 'vc-volts')).toEqual([{ kind: 'vc-volts', line: 51, volts: 1.2 }]);
    expect(ofKind(all, 'thermal-zone')).toEqual([
      { kind: 'thermal-zone', line: 72, zone: 'thermal_zone0', type: null, tempC: null, error: 'EINVAL', trips: [] },
    ]);
    const pmic = ofKind(all, 'pmic-adc');
    expect(pmic).toHaveLength(26);
    expect(pmic[0]).toEqual({
      kind: 'pmic-adc',
      line: 82,
      rail: '3V7_WL_SW_A',
      channel: 0,
      quantity: 'current',
      value: 0,
      unit: 'A',
    });
    expect(pmic[7]).toEqual({
      kind: 'pmic-adc',
      line: 89,
      rail: 'VDD_CORE_A',
      channel: 7,
      quantity: 'current',
      value: 10.87674,
      unit: 'A',
    });
    expect(pmic[10]).toMatchObject({ rail: '0V8_AON_A', channel: 16, value: 0.00579975 });
    expect(pmic[25]).toEqual({
      kind: 'pmic-adc',
      line: 107,
      rail: 'BATT_V',
      channel: 25,
      quantity: 'volt',
      value: 3.011108,
      unit: 'V',
    });
  });

  it('Raspberry Pi sysfs: `grep .` of a zone with trip points, `cat` transcripts (good kernel, then missing files), Pi 5 sensors', () => {
    const all = parseFixture('thermal', 'thermal/raspberry-pi-sysfs/04_raspberry_pi_thermal_cpufreq_sysfs.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'thermal-zone')).toEqual([
      {
        kind: 'thermal-zone',
        line: 8,
        zone: 'thermal_zone0',
        type: 'cpu-thermal',
        tempC: 74.01,
        error: null,
        trips: [{ index: 0, tempC: 70, type: 'active', hystC: 10 }],
      },
      { kind: 'thermal-zone', line: 70, zone: 'thermal_zone0', type: null, tempC: 42.932, error: null, trips: [] },
      { kind: 'thermal-zone', line: 81, zone: 'thermal_zone0', type: null, tempC: null, error: 'ENOENT', trips: [] },
    ]);
    expect(ofKind(all, 'cpufreq')).toEqual([
      {
        kind: 'cpufreq',
        line: 73,
        cpu: 0,
        policy: null,
        attr: 'scaling_cur_freq',
        freqKHz: 1200000,
        value: '1200000',
        error: null,
      },
      {
        kind: 'cpufreq',
        line: 76,
        cpu: 0,
        policy: null,
        attr: 'scaling_governor',
        freqKHz: null,
        value: 'ondemand',
        error: null,
      },
      {
        kind: 'cpufreq',
        line: 84,
        cpu: 0,
        policy: null,
        attr: 'scaling_cur_freq',
        freqKHz: null,
        value: null,
        error: 'ENOENT',
      },
    ]);
    expect(ofKind(all, 'sensor').map(sensorRow)).toEqual([
      [111, 'sht4x-i2c-1-44', 'temp1', 19, 'C', null, null, null, false],
      [112, 'sht4x-i2c-1-44', 'humidity1', 49.7, '%RH', null, null, null, false],
      [115, 'cpu_thermal-virtual-0', 'temp1', 25.4, 'C', null, null, null, false],
      [118, 'rp1_adc-isa-0000', 'in1', 0.946, 'V', null, null, null, false],
      [119, 'rp1_adc-isa-0000', 'in2', 2.53, 'V', null, null, null, false],
      [120, 'rp1_adc-isa-0000', 'in3', 1.38, 'V', null, null, null, false],
      [121, 'rp1_adc-isa-0000', 'in4', 1.45, 'V', null, null, null, false],
      [122, 'rp1_adc-isa-0000', 'temp1', 34.6, 'C', null, null, null, false],
    ]);
  });

  it('Jetson: zone types by index (L4T 32 and mainline), INA3221 rails with N/A and duplicate NC labels, ALARM, EAGAIN on Thor', () => {
    const all = parseFixture('thermal', 'thermal/jetson-zones-eagain/05_jetson_thermal_zones_devfreq_eagain.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'thermal-zone').map((z) => [z.line, z.zone, z.type, z.tempC, z.error])).toEqual([
      [7, 'thermal_zone0', 'AO-therm', null, null],
      [8, 'thermal_zone1', 'CPU-therm', null, null],
      [9, 'thermal_zone2', 'GPU-therm', null, null],
      [10, 'thermal_zone3', 'PLL-therm', null, null],
      [11, 'thermal_zone4', 'PMIC-Die', null, null],
      [12, 'thermal_zone5', 'thermal-fan-est', null, null],
      [19, 'thermal_zone0', 'cpu-thermal', null, null],
      // `cat: .../temp: Resource temporarily unavailable`: the path comes from the prompt line
      [149, 'thermal_zone1', null, null, 'EAGAIN'],
    ]);
    const sensors = ofKind(all, 'sensor');
    expect(sensors.map((s) => s.line)).toEqual([
      58, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 91, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 108, 109,
      110, 111, 112, 113, 114, 115, 116, 117, 118, 127,
    ]);
    const by = (line: number) => sensors.find((s) => s.line === line)!;
    expect(sensorRow(by(61))).toEqual([61, 'ina3221-i2c-1-40', 'VDD_IN', 5.05, 'V', null, null, null, false]);
    expect(sensorRow(by(65))).toEqual([65, 'ina3221-i2c-1-40', 'in5', 0.92, 'V', null, null, null, false]);
    expect(sensorRow(by(67))).toEqual([
      67,
      'ina3221-i2c-1-40',
      'sum of shunt voltages',
      7.28,
      'V',
      null,
      null,
      null,
      false,
    ]);
    expect(sensorRow(by(68))).toEqual([68, 'ina3221-i2c-1-40', 'curr1', 1.01, 'A', 3.99, 2.99, null, false]);
    expect(sensorRow(by(69))).toEqual([69, 'ina3221-i2c-1-40', 'curr2', 0.184, 'A', 32.76, 32.76, null, false]);
    expect(sensorRow(by(91))).toEqual([91, '6810000ethernet00-mdio-0', 'temp1', 95.7, 'C', 70, 60, 10, true]);
    expect([by(95).label, by(97).label, by(95).chip]).toEqual(['NC', 'NC', 'ina3221-i2c-1-41']);
    expect(sensorRow(by(101))).toEqual([
      101,
      'ina3221-i2c-1-41',
      'sum of shunt voltages',
      null,
      null,
      null,
      null,
      null,
      false,
    ]);
    expect(sensorRow(by(105))).toEqual([105, 'ina3221-i2c-1-41', 'curr4', null, 'A', 0, null, null, false]);
    expect(sensorRow(by(127))).toEqual([127, 'thermal-fan-est-virtual-0', 'temp1', 40.6, 'C', null, null, null, false]);
    expect(
      ofKind(all, 'devfreq').map((d) => [d.line, d.device, d.governor, d.curFreqHz, d.availableFreqsHz?.length]),
    ).toEqual([
      [76, '15340000.vic', 'wmark_active', 435e6, 26],
      [77, '15480000.nvdec', 'userspace', 525e6, 33],
      [78, '17000000.ga10b', 'nvhost_podgov', 306e6, 5],
    ]);
  });
});

describe('thermal: lm-sensors fan control', () => {
  // SpacemiT K3 (github.com/ThomasKaiser/sbc-bench issue 130, January 2026): its fan controller's
  // PWM duty cycle was read with no unit.
  it('a PWM duty cycle is a percentage', () => {
    const all = parse(
      'thermal',
      [
        'ctf2301-i2c-6-4c',
        'Adapter: spacemit-i2c-adapter',
        'fan1:          82 RPM',
        'pwm1:            100%  (freq = 7826 Hz)',
      ].join('\n'),
    );
    expect(ofKind(all, 'sensor').map((r) => [r.label, r.value, r.unit])).toEqual([
      ['fan1', 82, 'RPM'],
      ['pwm1', 100, '%'],
    ]);
  });
});

describe('thermal: lm-sensors energy and power under an SI prefix', () => {
  // `sensors amd_energy-*` pasted in the Phoronix forum thread on the amd_energy driver (2020-07-10, stored in
  // /work/wt/audit3-captures/sensors/amd_energy_kj_mj_phoronix_2020.txt): lm-sensors' scale_value picks the
  // prefix per value, so the socket's MJ and the cores' kJ were read as bare 3.51 and 594.13, with no unit.
  it('kJ and MJ are read in joules', () => {
    const all = parse(
      'thermal',
      [
        'amd_energy-isa-0000',
        'Adapter: ISA adapter',
        'Ecore000:    594.13 kJ',
        'Ecore005:    594.05 kJ',
        'Esocket0:      3.51 MJ',
      ].join('\n'),
    );
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'sensor').map((r) => [r.label, r.value, r.unit])).toEqual([
      ['Ecore000', 594_130, 'J'],
      ['Ecore005', 594_050, 'J'],
      ['Esocket0', 3_510_000, 'J'],
    ]);
  });

  // LTC3880 PMBus regulator on a Raspberry Pi Zero 2 W (github.com/analogdevicesinc/linux pull 1740, 2021-11-21):
  // `pout1:         1.71 mW` stays read in watts.
  it('mW is still read in watts', () => {
    const all = parse(
      'thermal',
      ['ltc3880-i2c-1-30', 'Adapter: bcm2835 (i2c@7e804000)', 'pout1:         1.71 mW'].join('\n'),
    );
    expect(ofKind(all, 'sensor').map((r) => [r.label, r.value, r.unit])).toEqual([['pout1', 0.00171, 'W']]);
  });
});

describe('thermal: lm-sensors chassis intrusion', () => {
  // it8718 under lm-sensors (github.com/isDipesh/gnome-shell-extension-sensors issue 33, 2012): `intrusion0:  ALARM`
  // has no figure, and it came out as nothing at all, nor a diagnostic.
  it('an intrusion feature is its alarm', () => {
    const all = parse(
      'thermal',
      ['it8718-isa-0228', 'Adapter: ISA adapter', 'cpu0_vid:    +1.550 V', 'intrusion0:  ALARM'].join('\n'),
    );
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'sensor').map(sensorRow)).toEqual([
      [3, 'it8718-isa-0228', 'cpu0_vid', 1.55, 'V', null, null, null, false],
      [4, 'it8718-isa-0228', 'intrusion0', null, null, null, null, null, true],
    ]);
  });
});

describe('thermal: readings written from the kernel/driver formats', () => {
  it('RK3588 NPU load (rknpu debugfs), devfreq sysfs attributes, cpufreq policies, hwmon inputs', () => {
    // Lines as the drivers print them (test/fixtures/board-sysfs/driver-formats/SOURCE).
    const all = parseFixture('thermal', 'board-sysfs/driver-formats/npu_devfreq_cpufreq_hwmon.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'npu-load')).toEqual([
      { kind: 'npu-load', line: 1, corePct: [4, 0, 12] },
      { kind: 'npu-load', line: 2, corePct: [0] },
      { kind: 'npu-load', line: 4, corePct: [100, 99, 7] },
    ]);
    expect(
      ofKind(all, 'devfreq').map((d) => [
        d.line,
        d.device,
        d.attr,
        d.curFreqHz,
        d.loadPct,
        d.governor,
        d.availableFreqsHz,
      ]),
    ).toEqual([
      [5, 'fb000000.gpu', 'cur_freq', 300000000, null, null, null],
      [6, 'fb000000.gpu', 'load', 800000000, 37, null, null],
      [7, 'fb000000.gpu', 'governor', null, null, 'simple_ondemand', null],
      [8, 'fdab0000.npu', 'available_frequencies', null, null, null, [300e6, 400e6, 1000e6]],
    ]);
    expect(ofKind(all, 'cpufreq').map((c) => [c.line, c.cpu, c.policy, c.attr, c.freqKHz])).toEqual([
      [9, null, 4, 'scaling_cur_freq', 2256000],
      [10, null, 6, 'cpuinfo_max_freq', 2400000],
    ]);
    expect(ofKind(all, 'sensor').map(sensorRow)).toEqual([
      [11, 'hwmon1', 'curr1', 1.01, 'A', null, null, null, false],
      [12, 'hwmon1', 'in1', 5.048, 'V', null, null, null, false],
      [13, 'hwmon0', 'temp1', 45.25, 'C', null, null, null, false],
      [14, 'hwmon2', 'power1', 2.5, 'W', null, null, null, false],
      [16, 'nvme-pci-0100', 'Composite', 38.9, 'C', null, 84.8, -273.1, false],
    ]);
  });

  it('L4T 36 zone names read by grep, several zones, a negative temperature', () => {
    const text = [
      '/sys/class/thermal/thermal_zone0/type:cpu-thermal',
      '/sys/class/thermal/thermal_zone0/temp:43531',
      '/sys/class/thermal/thermal_zone1/type:gpu-thermal',
      '/sys/class/thermal/thermal_zone1/temp:-1500',
    ].join('\n');
    expect(ofKind(parse('thermal', text), 'thermal-zone').map((z) => [z.line, z.zone, z.type, z.tempC])).toEqual([
      [1, 'thermal_zone0', 'cpu-thermal', 43.531],
      [3, 'thermal_zone1', 'gpu-thermal', -1.5],
    ]);
  });

  it('reads single sysfs temperature reads and decodes throttled bits', () => {
    expect(parseSysfsTempRead('74010\n')).toEqual({ tempC: 74.01, error: null });
    expect(parseSysfsTempRead('cat: /sys/class/thermal/thermal_zone1/temp: Resource temporarily unavailable')).toEqual({
      tempC: null,
      error: 'EAGAIN',
    });
    expect(parseSysfsTempRead('Invalid argument')).toEqual({ tempC: null, error: 'EINVAL' });
    expect(parseSysfsTempRead('EAGAIN')).toEqual({ tempC: null, error: 'EAGAIN' });
    expect(parseSysfsTempRead('')).toEqual({ tempC: null, error: 'ENODATA' });
    expect(errnoName('errno 11')).toBe('EAGAIN');
    expect(errnoName('Something odd')).toBe('Something odd');
    expect(decodeThrottled(0xe000e, '0xe000e', 'vcgencmd', 1)).toMatchObject({
      underVoltageNow: false,
      armFreqCappedNow: true,
      throttledNow: true,
      softTempLimitNow: true,
      underVoltageOccurred: false,
      armFreqCappedOccurred: true,
      throttledOccurred: true,
      softTempLimitOccurred: true,
      otherBits: 0,
    });
    expect(decodeThrottled(0x100000, '0x100000', 'vcgencmd', 1).otherBits).toBe(0x100000);
  });
});

describe('thermal: robustness', () => {
  it('never throws on sysfs/sensors/vcgencmd-shaped noise', () => {
    expectSurvivesNoise(createThermalParser, 'thermal', { perLine: 6, lines: 20, runs: 500 });
  });
});

describe("board readers written from the drivers' formats (test/fixtures/board-sysfs/driver-formats/SOURCE)", () => {
  const board = (format: string, file: string) => parseFixture(format, `board-sysfs/driver-formats/${file}`);

  it('RGA load: one record per scheduler, `N%` as a percentage, the old unitless `N` kept raw, a word is a diagnostic', () => {
    const all = board('rknpu', 'rga_load.txt');
    expect(ofKind(all, 'rga-load').map((r) => [r.line, r.scheduler, r.name, r.loadPct, r.loadRaw])).toEqual([
      [5, 0, 'rga3_core0', 12, null],
      [8, 1, 'rga3_core1', 0, null],
      [11, 2, 'rga2', 100, null],
      [18, 0, 'rga2', null, 4500],
    ]);
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([[21, 'unreadable RGA load']]);
  });

  it('hwmon: INA3221 rails named by in<N>_label (which grep lists after the readings), iio ina3221x mW with rail_name, INA2xx µW', () => {
    const all = board('hwmon', 'hwmon_ina3221.txt');
    expect(ofKind(all, 'sensor').map((r) => [r.line, r.chip, r.label, r.name, r.value, r.unit])).toEqual([
      [1, 'hwmon3', 'curr1', 'VDD_IN', 1.01, 'A'],
      [2, 'hwmon3', 'curr2', 'VDD_CPU_GPU_CV', 0.24, 'A'],
      [3, 'hwmon3', 'in1', 'VDD_IN', 5.048, 'V'],
      [5, 'hwmon3', 'in2', 'VDD_CPU_GPU_CV', 5.04, 'V'],
      [8, 'iio:device0', 'power0', 'POM_5V_IN', 2.914, 'W'],
      [11, 'hwmon1', 'in1', null, 12.016, 'V'],
      [12, 'hwmon1', 'power1', null, 4.5125, 'W'],
    ]);
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([[13, 'unreadable hwmon value']]);
  });

  it('devfreq as pasted: `grep . *` under a prompt whose cwd is the device, a for/echo/cat loop, cat of a list and of trans_stat', () => {
    const all = board('devfreq', 'devfreq_shell.txt');
    const rows = ofKind(all, 'devfreq');
    expect(rows.map((r) => [r.line, r.device, r.attr])).toEqual([
      [2, 'fb000000.gpu', 'available_frequencies'],
      [3, 'fb000000.gpu', 'available_governors'],
      [4, 'fb000000.gpu', 'cur_freq'],
      [5, 'fb000000.gpu', 'governor'],
      [6, 'fb000000.gpu', 'load'],
      [7, 'fb000000.gpu', 'max_freq'],
      [8, 'fb000000.gpu', 'min_freq'],
      [10, 'fb000000.gpu', 'target_freq'],
      [13, 'dmc', 'cur_freq'],
      [15, 'dmc', 'governor'],
      [17, 'fdab0000.npu', 'available_frequencies'],
    ]);
    const at = (line: number) => rows.find((r) => r.line === line);
    expect(at(2)?.availableFreqsHz).toHaveLength(8);
    expect(at(6)).toMatchObject({ loadPct: 0, curFreqHz: 300_000_000 });
    expect([at(7)?.maxFreqHz, at(8)?.minFreqHz]).toEqual([1_000_000_000, 300_000_000]);
    expect([at(13)?.curFreqHz, at(15)?.governor]).toEqual([2_112_000_000, 'dmc_ondemand']);
    expect(at(17)?.availableFreqsHz?.[7]).toBe(1_000_000_000);
    expect(ofKind(all, 'devfreq-trans').map((r) => [r.device, r.freqHz, r.current, r.transitions, r.timeMs])).toEqual([
      ['fdab0000.npu', 300_000_000, true, [0, 5], 123456],
      ['fdab0000.npu', 1_000_000_000, false, [5, 0], 7890],
    ]);
    expect(ofKind(all, 'devfreq-trans-total').map((r) => [r.device, r.total])).toEqual([['fdab0000.npu', 10]]);
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([[25, 'unreadable devfreq frequency']]);
  });

  it('a sysfs path with colons in it (soc:firmware, iio:device0) splits at the attribute, not at the first colon', () => {
    const all = parse('thermal', '/sys/devices/platform/soc/soc:firmware/get_throttled:50005\n');
    expect(ofKind(all, 'throttled').map((r) => [r.bits, r.underVoltageNow, r.underVoltageOccurred])).toEqual([
      [0x50005, true, true],
    ]);
  });
});

/** `cat` over a glob: three zones' millidegrees no line attributes, then a blank line and an unrelated number. */
const GLOB_CAT = ['root@rock5b:~# cat /sys/class/thermal/thermal_zone*/temp', '46250', '45320', '47150', '', '46250'];

/** `sudo cat`, `cat <name>` under a sysfs cwd, /proc/rknpu, the pre-4.x hwmon layout: as each is printed. */
const PROMPT_FORMS = [
  'orangepi@orangepi5:~$ sudo cat /sys/class/devfreq/fb000000.gpu/cur_freq',
  '300000000',
  'root@orangepi5:/sys/class/devfreq/fdab0000.npu# cat cur_freq',
  '1000000000',
  // rknpu built with its procfs option (CONFIG_ROCKCHIP_RKNPU_PROC_FS): the same `load` under /proc.
  '/proc/rknpu/load:NPU load:  Core0: 35%, Core1:  0%, Core2:  0%,',
  // hwmon before kernel 3.x moved the attributes up: `hwmonN/device/in1_input` (mV), `curr1_input` (mA).
  '/sys/class/hwmon/hwmon0/device/in1_input:12016',
  '/sys/class/hwmon/hwmon0/device/curr1_input:375',
];

/** Lines pasted one after the other, read by the board transcript parser. */
const pasted = (...lines: string[]) => parse('thermal', lines.join('\n'));

describe('sysfs as people paste it: prompts, grep, loops, failed reads (lines as each tool prints them)', () => {
  it('`sudo cat`, `cat <name>` under a prompt whose cwd is the device, /proc/rknpu, the pre-4.x hwmon `device/` layout', () => {
    const all = pasted(...PROMPT_FORMS);
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'devfreq').map((r) => [r.line, r.device, r.curFreqHz])).toEqual([
      [2, 'fb000000.gpu', 300_000_000],
      [4, 'fdab0000.npu', 1_000_000_000],
    ]);
    expect(ofKind(all, 'npu-load').map((r) => r.corePct)).toEqual([[35, 0, 0]]);
    expect(ofKind(all, 'sensor').map((r) => [r.chip, r.label, r.value, r.unit])).toEqual([
      ['hwmon0', 'in1', 12.016, 'V'],
      ['hwmon0', 'curr1', 0.375, 'A'],
    ]);
  });

  it('RGA load behind `grep .` (driver 1.2: `\\t load = N%`, per-process lines): one record per scheduler', () => {
    const p = '/sys/kernel/debug/rkrga/load:';
    const all = pasted(
      `${p}num of scheduler = 3`,
      `${p}================= load ==================`,
      `${p}scheduler[0]: rga3_core0`,
      `${p}\t load = 12%`,
      `${p}-----------------------------------`,
      `${p}scheduler[1]: rga3_core1`,
      `${p}\t load = 0%`,
      `${p}-----------------------------------`,
      `${p}scheduler[2]: rga2`,
      `${p}\t load = 3%`,
      `${p}-----------------------------------`,
      `${p}\t process 1: pid = 2211, name: /usr/bin/gst-launch-1.0`,
    );
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'rga-load').map((r) => [r.line, r.scheduler, r.name, r.loadPct])).toEqual([
      [4, 0, 'rga3_core0', 12],
      [7, 1, 'rga3_core1', 0],
      [10, 2, 'rga2', 3],
    ]);
  });

  it('a read that failed where a reading was is a diagnostic with its errno (coreutils, busybox and grep wording)', () => {
    const all = pasted(
      'cat: /sys/kernel/debug/rknpu/load: Permission denied',
      "cat: can't open '/sys/class/hwmon/hwmon1/in1_input': Remote I/O error",
      'grep: /sys/kernel/debug/rkrga/load: Permission denied',
      'cat: /sys/class/thermal/thermal_zone0/trip_point_0_temp: Invalid argument',
      'cat: /sys/devices/platform/soc/soc:firmware/get_throttled: No such device',
      'cat: /sys/bus/i2c/drivers/ina3221x/6-0040/iio:device0/in_power0_input: Resource temporarily unavailable',
      'grep: /sys/class/devfreq/dmc/device: Is a directory',
    );
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [1, 'NPU load read failed: EACCES'],
      [2, 'hwmon read failed: EREMOTEIO'],
      [3, 'RGA load read failed: EACCES'],
      [4, 'thermal zone read failed: EINVAL'],
      [5, 'get_throttled read failed: ENODEV'],
      [6, 'hwmon read failed: EAGAIN'],
    ]);
  });

  it('the numbers after a `cat` over a glob are diagnostics, not dropped and not given to one zone', () => {
    const all = pasted(...GLOB_CAT);
    expect(ofKind(all, 'thermal-zone')).toEqual([]);
    expect(diagnostics(all).map((d) => d.line)).toEqual([2, 3, 4]);
    expect(new Set(diagnostics(all).map((d) => d.reason))).toEqual(
      new Set(['value of a cat over several files (whose is unknown)']),
    );
  });

  // The shell expands `thermal_zone*` the same way for both cats: the n-th temperature is the n-th
  // type's zone. RK3588's zone types as its device tree names them; the temperatures first, then the
  // types, is the order of the AskUbuntu question 1110943 ("what do the thermal zones correspond to").
  const RK3588_TYPES = [
    'soc-thermal',
    'bigcore0-thermal',
    'bigcore1-thermal',
    'littlecore-thermal',
    'center-thermal',
    'gpu-thermal',
    'npu-thermal',
  ];
  const RK3588_TEMPS = ['46250', '45320', '45320', '46250', '45320', '44400', '45320'];
  const zones = (all: ReturnType<typeof pasted>) =>
    ofKind(all, 'thermal-zone').map((z) => [z.line, z.zone, z.type, z.tempC]);
  it('`cat thermal_zone*/type` and `cat thermal_zone*/temp` are paired by order, in either order, the zone number unknown', () => {
    const want = RK3588_TYPES.map((type, i) => [0, null, type, Number(RK3588_TEMPS[i]) / 1000]);
    const typesFirst = pasted(
      'root@rock5b:~# cat /sys/class/thermal/thermal_zone*/type',
      ...RK3588_TYPES,
      'root@rock5b:~# cat /sys/class/thermal/thermal_zone*/temp',
      ...RK3588_TEMPS,
    );
    expect(diagnostics(typesFirst)).toEqual([]);
    expect(zones(typesFirst)).toEqual(want.map(([, ...rest], i) => [10 + i, ...rest]));
    const tempsFirst = pasted(
      'user@rock5b:~$ cat /sys/class/thermal/thermal_zone*/temp',
      ...RK3588_TEMPS,
      'user@rock5b:~$ cat /sys/class/thermal/thermal_zone*/type',
      ...RK3588_TYPES,
    );
    expect(diagnostics(tempsFirst)).toEqual([]);
    expect(zones(tempsFirst)).toEqual(want.map(([, ...rest], i) => [2 + i, ...rest]));
    // Relative to a sysfs prompt's directory.
    const relative = pasted(
      'root@rock5b:/sys/class/thermal# cat thermal_zone*/type',
      ...RK3588_TYPES.slice(0, 2),
      'root@rock5b:/sys/class/thermal# cat thermal_zone*/temp',
      ...RK3588_TEMPS.slice(0, 2),
    );
    expect(zones(relative).map((z) => z.slice(2))).toEqual([
      ['soc-thermal', 46.25],
      ['bigcore0-thermal', 45.32],
    ]);
  });

  // Android's shell prompt has no user (`<device>:<cwd> # `): an msm8953 board's paste in a blog post
  // on reading Snapdragon thermal zones (coloradmin.cn/o/1432470.html), its first lines. `*/temp`
  // there also spans the cooling devices, so its numbers are no zone's; a named file's is.
  it('Android prompts: a relative `cat` under `<device>:/sys/… #` reads as under a user@host prompt', () => {
    const all = pasted(
      'msm8953_64:/sys/class/thermal # cat */temp',
      '25000',
      '-40',
      '309',
      'msm8953_64:/sys/class/thermal # cat */type',
      'bms',
      'pa_therm1',
      'tsens_tz_sensor5',
      'msm8953_64:/sys/class/thermal # cat thermal_zone0/temp',
      '25000',
    );
    expect(diagnostics(all).map((d) => [d.line, d.text])).toEqual([
      [2, '25000'],
      [3, '-40'],
      [4, '309'],
    ]);
    expect(zones(all)).toEqual([[10, 'thermal_zone0', null, 25]]);
  });

  // The one-liner that pairs them itself: paste's TAB-joined rows, or aligned by `column -t` with sed
  // putting the point in (`27800` → `27.8°C`), the row's order the command's.
  it("`paste` of the zones' types and temperatures, raw or through column and sed: a zone per row", () => {
    const all = pasted(
      "user@nuc:~$ paste <(cat /sys/class/thermal/thermal_zone*/type) <(cat /sys/class/thermal/thermal_zone*/temp) | column -s $'\\t' -t | sed 's/\\(.\\)..$/.\\1°C/'",
      'acpitz        27.8°C',
      'pch_skylake   42.5°C',
      'x86_pkg_temp  41.0°C',
      'user@nuc:~$ paste <(cat /sys/class/thermal/thermal_zone*/temp) <(cat /sys/class/thermal/thermal_zone*/type)',
      '27800\tacpitz',
      '4100x\tx86_pkg_temp',
      'user@nuc:~$ paste a b',
      'acpitz\t27800',
    );
    expect(zones(all)).toEqual([
      [2, null, 'acpitz', 27.8],
      [3, null, 'pch_skylake', 42.5],
      [4, null, 'x86_pkg_temp', 41],
      [6, null, 'acpitz', 27.8],
    ]);
    // A row whose temperature does not read is said; rows after another paste are not zones.
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([[7, 'unreadable thermal zone temperature']]);
  });

  it('lists of different lengths, or of other globs, are not paired: each temperature a diagnostic', () => {
    const cases = [
      // `*/type` in /sys/class/thermal lists the cooling devices' types too.
      [
        'root@rock5b:/sys/class/thermal# cat */type',
        'soc-thermal',
        'gpu-thermal',
        'pwm-fan',
        'root@rock5b:/sys/class/thermal# cat */temp',
        '46250',
        '44400',
      ],
      // One type fewer than temperatures.
      [
        '# cat /sys/class/thermal/thermal_zone*/type',
        'soc-thermal',
        '# cat /sys/class/thermal/thermal_zone*/temp',
        '46250',
        '44400',
      ],
      // Two temperature lists and no type list.
      ['# cat /sys/class/thermal/thermal_zone*/temp', '46250', '# cat /sys/class/thermal/thermal_zone*/temp', '46251'],
    ];
    for (const lines of cases) {
      const all = pasted(...lines);
      expect(ofKind(all, 'thermal-zone'), lines.join(' | ')).toEqual([]);
      expect(
        diagnostics(all).map((d) => d.text),
        lines.join(' | '),
      ).toEqual(lines.filter((l) => /^\d+$/.test(l)));
    }
  });
});

describe('hwmon directories as `grep . /sys/class/hwmon/hwmonN/*` lists them (every attribute, sorted)', () => {
  it('INA3221 (Documentation/hwmon/ina3221.rst): limits and alarms between the readings keep the labels; in4–in7 are µV', () => {
    const all = parseFixture('hwmon', 'board-sysfs/driver-formats/ina3221_grep_all.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'sensor').map((r) => [r.label, r.name, r.value, r.unit])).toEqual([
      ['curr1', 'VDD_IN', 1.01, 'A'],
      ['curr2', 'VDD_CPU_GPU_CV', 0.184, 'A'],
      ['curr4', null, 1.194, 'A'],
      ['in1', 'VDD_IN', 5.048, 'V'],
      ['in2', 'VDD_CPU_GPU_CV', 5.04, 'V'],
      ['in4', null, 0.00505, 'V'], // 5050 µV of shunt drop, not 5.05 V
      ['in5', null, 0.00092, 'V'],
      ['in7', null, 0.00597, 'V'],
    ]);
  });
});

describe('real rknpu / rkrga pastes from GitHub threads (test/fixtures/rknpu/github-issues/SOURCE)', () => {
  const real = (file: string) => parseFixture('rknpu', `rknpu/github-issues/${file}`);

  it('RK3588 `cat` of rknpu load and rkrga load (MarcA711/Rockchip-FFmpeg-Builds#3)', () => {
    const all = real('rk3588_marca711_issue3.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'npu-load').map((r) => [r.line, r.corePct])).toEqual([[2, [4, 0, 0]]]);
    expect(ofKind(all, 'rga-load').map((r) => [r.line, r.scheduler, r.name, r.loadPct])).toEqual([
      [11, 0, 'rga3_core0', 0],
      [14, 1, 'rga3_core1', 0],
      [17, 2, 'rga2', 59],
    ]);
  });

  it('a wrapped counter (Core2: 429496%, rockchip-linux/rknpu2#102) is a diagnostic, not a reading', () => {
    const all = real('rk3588_rknpu2_issue102.txt');
    expect(ofKind(all, 'npu-load')).toEqual([]);
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [2, 'NPU load above 100% (the driver counter wrapped)'],
    ]);
  });

  it('single-core RV1126B inside a markdown list (glances#3499) and a backticked RK3588 answer (rktop#5)', () => {
    expect(ofKind(real('rv1126b_glances_pr3499.txt'), 'npu-load').map((r) => [r.line, r.corePct])).toEqual([
      [1, [0]],
      [2, [48]],
    ]);
    expect(ofKind(real('rk3588_rktop_issue5.txt'), 'npu-load').map((r) => [r.line, r.corePct])).toEqual([
      [2, [63, 65, 64]],
    ]);
  });
});

describe('real vcgencmd failures (test/fixtures/vcgencmd/github-issues/SOURCE)', () => {
  it('`VCHI initialization failed`, bare, behind `Error:` or inside a log line, is a diagnostic; the reading before it stays', () => {
    const all = parseFixture('vcgencmd', 'vcgencmd/github-issues/vchi_failed_transcripts.txt');
    expect(ofKind(all, 'throttled').map((r) => [r.line, r.bits, r.source])).toEqual([[2, 0, 'vcgencmd']]);
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [4, 'vcgencmd error'],
      [7, 'vcgencmd error'],
      [8, 'vcgencmd error'],
      [9, 'vcgencmd error'],
    ]);
  });
});

describe('thermal: a read error named like an Object.prototype member', () => {
  it.each(PROTOTYPE_KEYS)('%s is kept as the message (not a member of the errno table)', (key) => {
    expect(errnoName(key)).toBe(key);
    const text = `/sys/class/thermal/thermal_zone0/type: cpu-thermal\ncat: /sys/class/thermal/thermal_zone0/temp: ${key}\n`;
    expect(ofKind(parse('thermal', text), 'thermal-zone').map((z) => [z.zone, z.tempC, z.error])).toEqual([
      ['thermal_zone0', null, key],
    ]);
  });
});

describe('real `head`/`tail` dumps of several sysfs files and `cat` under a cwd-only prompt (test/fixtures/thermal/head-tail-and-cwd-prompts/SOURCE)', () => {
  const fromDump = (name: string) => parseFixture('thermal', `thermal/head-tail-and-cwd-prompts/${name}`);

  it('`head policy*/scaling_cur_freq` (a blog post, 2026): each `==> path <==` names the value under it', () => {
    const all = fromDump('head_policy_scaling_cur_freq.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'cpufreq').map((r) => [r.line, r.policy, r.attr, r.freqKHz])).toEqual([
      [5, 0, 'scaling_cur_freq', 2_600_062],
      [8, 10, 'scaling_cur_freq', 800_000],
      [11, 11, 'scaling_cur_freq', 800_000],
      [14, 1, 'scaling_cur_freq', 2_600_003],
      [17, 2, 'scaling_cur_freq', 2_600_005],
    ]);
  });

  it("`head` of a zone's trip point, mail-quoted and indented (Fairphone 5, LKML 2023): one zone with its trip", () => {
    const all = fromDump('head_trip_points_fairphone5.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'thermal-zone')).toEqual([
      {
        kind: 'thermal-zone',
        line: 6,
        zone: 'thermal_zone34',
        type: null,
        tempC: null,
        error: null,
        trips: [{ index: 0, tempC: 45, type: 'passive', hystC: 1 }],
      },
    ]);
  });

  it('`tail` of an IT8613E hwmon directory (fnOS, 2025): every input read, labels that come after a blank line kept', () => {
    const all = fromDump('tail_hwmon_it8613.txt');
    // `tail: error reading '…/device': Is a directory` is a subdirectory, not a reading.
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'sensor').map((s) => [s.line, s.chip, s.label, s.value, s.unit, s.name])).toEqual([
      [7, 'hwmon9', 'fan2', 1271, 'RPM', null],
      [10, 'hwmon9', 'fan3', 0, 'RPM', null],
      [22, 'hwmon9', 'fan2', 1250, 'RPM', null],
      [28, 'hwmon9', 'in0', 0.726, 'V', null],
      [34, 'hwmon9', 'in7', 3.52, 'V', '3VSB'],
      [46, 'hwmon9', 'in8', 3.124, 'V', 'Vbat'],
      [52, 'hwmon9', 'in9', 3.256, 'V', '+3.3V'],
      [67, 'hwmon9', 'temp1', 46, 'C', null],
      [73, 'hwmon9', 'temp2', 55, 'C', null],
      [76, 'hwmon9', 'temp3', 55, 'C', null],
    ]);
  });

  it('`<cwd>$ cat trans_stat` (Exynos 5422 DMC, LKML 2020): the rows belong to the device the prompt names', () => {
    const all = fromDump('cat_trans_stat_cwd_prompt_exynos.txt');
    expect(diagnostics(all)).toEqual([]);
    const rows = ofKind(all, 'devfreq-trans');
    expect(rows).toHaveLength(16);
    expect(new Set(rows.map((r) => r.device))).toEqual(new Set(['10c20000.memory-controller']));
    expect(rows.filter((r) => r.current).map((r) => [r.line, r.freqHz, r.timeMs])).toEqual([
      [7, 165_000_000, 1_795_950],
      [31, 825_000_000, 169_020],
    ]);
    expect(rows.find((r) => r.line === 28)).toMatchObject({
      freqHz: 543_000_000,
      transitions: [0, 0, 0, 1, 0, 0, 0, 2],
    });
    expect(ofKind(all, 'devfreq-trans-total').map((r) => [r.line, r.device, r.total])).toEqual([
      [15, '10c20000.memory-controller', 9],
      [32, '10c20000.memory-controller', 13],
    ]);
  });
});

describe('`head`/`tail` and prompts as the tools print them (coreutils head.c/tail.c wording)', () => {
  it("a read that failed under `head` is the zone's errno; relative headers resolve against the prompt's cwd", () => {
    const all = pasted(
      'root@board:~# head /sys/class/thermal/thermal_zone*/temp',
      '==> /sys/class/thermal/thermal_zone0/temp <==',
      '41500',
      '',
      '==> /sys/class/thermal/thermal_zone1/temp <==',
      "head: error reading '/sys/class/thermal/thermal_zone1/temp': Resource temporarily unavailable",
      '',
      "tail: cannot open '/sys/class/hwmon/hwmon2/in1_input' for reading: No such device or address",
      'root@board:/sys/class/devfreq/dmc# head cur_freq trans_stat',
      '==> cur_freq <==',
      '528000000',
      '',
      '==> trans_stat <==',
      '     From  :   To',
      '           : 528000000 1068000000   time(ms)',
      '*528000000:         0         0    123',
      ' 1068000000:         0         0     45',
      'Total transition : 0',
    );
    expect(ofKind(all, 'thermal-zone').map((z) => [z.line, z.zone, z.tempC, z.error])).toEqual([
      [3, 'thermal_zone0', 41.5, null],
      [6, 'thermal_zone1', null, 'EAGAIN'],
    ]);
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([[8, 'hwmon read failed: ENXIO']]);
    expect(ofKind(all, 'devfreq').map((r) => [r.line, r.device, r.curFreqHz])).toEqual([[11, 'dmc', 528_000_000]]);
    expect(ofKind(all, 'devfreq-trans').map((r) => [r.line, r.device, r.freqHz, r.current])).toEqual([
      [16, 'dmc', 528_000_000, true],
      [17, 'dmc', 1_068_000_000, false],
    ]);
  });
});

describe("vcgencmd answers behind the name elinux.org's loops print (test/fixtures/vcgencmd/elinux-loops/SOURCE)", () => {
  it('Raspberry Pi 3 B (system-stat README): every clock and every rail read, named', () => {
    const all = parseFixture('vcgencmd', 'vcgencmd/elinux-loops/pi3b_system_stats_readme.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'vc-clock').map((r) => [r.line, r.label, r.clockId, r.freqHz])).toEqual([
      [5, 'arm', 45, 600_062_000],
      [6, 'core', 1, 250_000_000],
      [7, 'h264', 28, 250_000_000],
      [8, 'isp', 42, 249_999_000],
      [9, 'v3d', 43, 250_000_000],
      [10, 'uart', 22, 47_999_000],
      [11, 'pwm', 25, 0],
      [12, 'emmc', 47, 250_000_000],
      [13, 'pixel', 29, 0],
      [14, 'vec', 10, 108_000_000],
      [15, 'hdmi', 9, 0],
      [16, 'dpi', 4, 0],
    ]);
    expect(ofKind(all, 'vc-temp').map((r) => [r.line, r.tempC])).toEqual([[19, 35.4]]);
    expect(ofKind(all, 'vc-volts').map((r) => [r.line, r.label, r.volts])).toEqual([
      [22, undefined, 1.2375],
      [24, 'core', 1.2375],
      [25, 'sdram_c', 1.2],
      [26, 'sdram_i', 1.2],
      [27, 'sdram_p', 1.225],
    ]);
  });

  it('Raspberry Pi (armv6l, 2018): the plain answers, the firmware refusing, then the loop', () => {
    const all = parseFixture('vcgencmd', 'vcgencmd/elinux-loops/pizero_shell_session_2018.txt');
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([[4, 'vcgencmd error']]);
    const clocks = ofKind(all, 'vc-clock');
    expect(clocks.map((r) => [r.line, r.label ?? null, r.clockId, r.freqHz]).slice(0, 4)).toEqual([
      [2, null, 0, 0],
      [6, null, 45, 1_100_114_000],
      [11, 'arm', 45, 1_100_000_000],
      [12, 'core', 1, 400_000_000],
    ]);
    expect(clocks).toHaveLength(14);
    expect(clocks.at(-1)).toEqual({ kind: 'vc-clock', line: 22, clockId: 4, freqHz: 0, label: 'dpi' });
  });
});

describe('real `sensors -u` with labelled features and extra attributes (test/fixtures/thermal/lm-sensors-u-labelled/SOURCE)', () => {
  const fromU = (name: string) =>
    ofKind(parseFixture('thermal', `thermal/lm-sensors-u-labelled/${name}`), 'sensor').map(sensorRow);

  it("coretemp's `Package id 0:` / `Core N:`: the unit comes from `tempN_input`", () => {
    expect(fromU('sensor_plotter_readme_coretemp.txt')).toEqual([
      [4, 'coretemp-isa-0000', 'Package id 0', 38, 'C', 105, 87, null, false],
      [9, 'coretemp-isa-0000', 'Core 0', 34, 'C', 105, 87, null, false],
      [14, 'coretemp-isa-0000', 'Core 1', 29, 'C', 105, 87, null, false],
    ]);
  });

  it('w83627dhg (Debian 10): volts under their labels, hysteresis/type/offset/div taken by their feature, cpu0_vid in volts', () => {
    expect(fromU('liquidprompt_debian10_w83627dhg.txt')).toEqual([
      [3, 'coretemp-isa-0000', 'Core 0', 48, 'C', 100, null, null, false],
      [7, 'coretemp-isa-0000', 'Core 1', 47, 'C', 100, null, null, false],
      [14, 'w83627dhg-isa-0290', 'Vcore', 1.032, 'V', null, 1.744, 0, false],
      [19, 'w83627dhg-isa-0290', 'in1', 1.008, 'V', null, 1.056, 2.024, true],
      [24, 'w83627dhg-isa-0290', '+3.3V', 3.376, 'V', null, 3.632, 2.976, false],
      [29, 'w83627dhg-isa-0290', 'fan1', 0, 'RPM', null, null, 10546, true],
      [34, 'w83627dhg-isa-0290', 'temp1', 44, 'C', null, 3, null, false],
      [41, 'w83627dhg-isa-0290', 'temp3', 44.5, 'C', null, 80, null, false],
      [48, 'w83627dhg-isa-0290', 'cpu0_vid', 0, 'V', null, null, null, false],
      [50, 'w83627dhg-isa-0290', 'intrusion0', null, null, null, null, null, true],
    ]);
  });
});

describe('real `sensors -f` pastes (test/fixtures/thermal/lm-sensors-fahrenheit/SOURCE)', () => {
  const fromF = (name: string) => parseFixture('thermal', `thermal/lm-sensors-fahrenheit/${name}`);

  it('°F values and limits are read as °C (to 0.01 °C), not taken for °C', () => {
    const all = fromF('ubuntuforums_2012_k8temp_nouveau.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'sensor').map(sensorRow)).toEqual([
      [4, 'acpitz-virtual-0', 'temp1', 55, 'C', null, null, null, false],
      [8, 'k8temp-pci-00c3', 'Core0 Temp', 62, 'C', null, null, null, false],
      [9, 'k8temp-pci-00c3', 'Core1 Temp', 65, 'C', null, null, null, false],
      [13, 'nouveau-pci-0090', 'temp1', 89, 'C', 110, 100, null, false],
    ]);
  });

  it('a label that fills its column (`Left side  :1999 RPM`) is a reading and does not end the block (MacBook Pro 5,5)', () => {
    const sensors = ofKind(fromF('ubuntuforums_2011_macbookpro55_natty.txt'), 'sensor');
    expect(sensors).toHaveLength(22);
    expect(sensors.slice(0, 5).map(sensorRow)).toEqual([
      [4, 'coretemp-isa-0000', 'Core 0', 43, 'C', 105, 95, null, false],
      [8, 'coretemp-isa-0002', 'Core 2', 43, 'C', 105, 95, null, false],
      [12, 'applesmc-isa-0300', 'Left side', 1999, 'RPM', null, null, 2000, false],
      [13, 'applesmc-isa-0300', 'Right side', 1999, 'RPM', null, null, 2000, false],
      [14, 'applesmc-isa-0300', 'TB0T', 31, 'C', null, null, null, false],
    ]);
    expect(sensorRow(sensors[21] as SensorRecord)).toEqual([
      31,
      'applesmc-isa-0300',
      'Ts0S',
      36.5,
      'C',
      null,
      null,
      null,
      false,
    ]);
  });

  it('the degree sign shown as `Â°` (a UTF-8 paste read as Latin-1) still says °F', () => {
    const all = fromF('nagios_via686a_latin1_paste.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'sensor').map(sensorRow).slice(-4)).toEqual([
      [10, 'via686a-isa-6000', 'fan2', 0, 'RPM', null, null, 0, false],
      [11, 'via686a-isa-6000', 'temp1', 43.78, 'C', null, 146.22, null, false],
      [12, 'via686a-isa-6000', 'temp2', 31.61, 'C', null, 146.22, null, false],
      [13, 'via686a-isa-6000', 'temp3', 23, 'C', null, -15.22, null, true],
    ]);
  });
});

describe('real lm-sensors output whose limits wrap onto a second line (test/fixtures/thermal/lm-sensors-wrapped-limits/SOURCE)', () => {
  const wrapped = (name: string) => parseFixture('thermal', `thermal/lm-sensors-wrapped-limits/${name}`);

  it('Turing RK1: the NVMe drive keeps its wrapped `(crit = +89.8 C)`, the zones after it are read', () => {
    const all = wrapped('turing_rk1_rk3588_htop1404.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'sensor').map(sensorRow).slice(3, 6)).toEqual([
      [15, 'soc_thermal-virtual-0', 'temp1', 36.1, 'C', 115, null, null, false],
      [19, 'nvme-pci-0100', 'Composite', 40.9, 'C', 89.8, 71.8, -0.1, false],
      [24, 'gpu_thermal-virtual-0', 'temp1', 35.2, 'C', null, null, null, false],
    ]);
    expect(ofKind(all, 'sensor')).toHaveLength(8);
  });

  it('DDR5 SPD hubs and an NVMe drive: `(crit low = …, crit = +85.0°C)` and `(crit = +84.8°C)` on the next line', () => {
    const all = wrapped('spd5118_nvme_perl_test.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'sensor').map(sensorRow)).toEqual([
      [3, 'spd5118-i2c-1-53', 'temp1', 29.8, 'C', 85, 55, 0, false],
      [8, 'spd5118-i2c-1-50', 'temp1', 30, 'C', 85, 55, 0, false],
      [13, 'nvme-pci-0200', 'Composite', 35.9, 'C', 84.8, 81.8, -273.1, false],
      [15, 'nvme-pci-0200', 'Sensor 1', 35.9, 'C', null, 65261.8, -273.1, false],
      [16, 'nvme-pci-0200', 'Sensor 2', 37.9, 'C', null, 65261.8, -273.1, false],
    ]);
  });
});

describe('real lm-sensors output with a subfeature that did not read (test/fixtures/thermal/lm-sensors-read-errors/SOURCE)', () => {
  const fromErr = (name: string) => parseFixture('thermal', `thermal/lm-sensors-read-errors/${name}`);

  it('PMIC5000 `sensors -u`: the failed temp1_input is a diagnostic, the block goes on (powers and currents told by unit)', () => {
    const all = fromErr('pmic5000_sensors_u_readme.txt');
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [37, "sensor pmic5000-i2c-1-4b temp1_input read failed: Can't read"],
    ]);
    expect(ofKind(all, 'sensor').map(sensorRow).slice(-7)).toEqual([
      [36, 'pmic5000-i2c-1-4b', 'temp1', null, 'C', null, 125, null, false],
      [40, 'pmic5000-i2c-1-4b', 'SWA', 0.625, 'W', null, null, null, false],
      [42, 'pmic5000-i2c-1-4b', 'SWC', 0.125, 'W', null, null, null, false],
      [44, 'pmic5000-i2c-1-4b', 'SWD', 0, 'W', null, null, null, false],
      [46, 'pmic5000-i2c-1-4b', 'SWA', 0.5, 'A', null, 3, null, false],
      [50, 'pmic5000-i2c-1-4b', 'SWC', 0.125, 'A', null, 3, null, false],
      [54, 'pmic5000-i2c-1-4b', 'SWD', 0, 'A', null, 3, null, false],
    ]);
    expect(ofKind(all, 'sensor')[0]).toMatchObject({ line: 4, label: 'SWA', value: 1.35, unit: 'V' });
  });

  it('SCMI on arm64: a kernel console line and the I/O error between the chip lines, N/A and 53.4 C still read', () => {
    const all = fromErr('scmi_arm64_lkml_2022.txt');
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [5, 'sensor scmi_sensors-virtual-0 temp1_input read failed: EIO'],
    ]);
    expect(ofKind(all, 'sensor').map(sensorRow)).toEqual([
      [6, 'scmi_sensors-virtual-0', 'avs_pvt_temp', null, null, null, null, null, false],
      [7, 'scmi_sensors-virtual-0', 'pmic_die_temp', 53.4, 'C', null, null, null, false],
      [14, 'scmi_sensors-virtual-0', 'avs_pvt_temp', -6.7, 'C', null, null, null, false],
      [15, 'scmi_sensors-virtual-0', 'pmic_die_temp', 52.3, 'C', null, null, null, false],
    ]);
  });
});

describe('real `sensors -j` output (test/fixtures/thermal/lm-sensors-json/SOURCE)', () => {
  const fromJ = (name: string) => parseFixture('thermal', `thermal/lm-sensors-json/${name}`);

  it("flutter_server_box's sample: every feature read, the failed one a diagnostic, the chips after it still read", () => {
    const all = fromJ('server_box_sensors_raw.txt');
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [45, "sensor iwlwifi_1-virtual-0 temp1_input read failed: Can't read"],
    ]);
    expect(ofKind(all, 'sensor').map(sensorRow)).toEqual([
      [4, 'coretemp-isa-0000', 'Package id 0', 51, 'C', 105, 105, null, false],
      [10, 'coretemp-isa-0000', 'Core 0', 40, 'C', 105, 105, null, false],
      [16, 'coretemp-isa-0000', 'Core 1', 40, 'C', 105, 105, null, false],
      [22, 'coretemp-isa-0000', 'Core 2', 40, 'C', 105, 105, null, false],
      [28, 'coretemp-isa-0000', 'Core 3', 40, 'C', 105, 105, null, false],
      [37, 'acpitz-acpi-0', 'temp1', 27.8, 'C', 119, null, null, false],
      [44, 'iwlwifi_1-virtual-0', 'temp1', null, null, null, null, null, false],
      [51, 'nvme-pci-0400', 'Composite', 35.85, 'C', 84.85, 83.85, -273.15, false],
      [58, 'nvme-pci-0400', 'Sensor 1', 35.85, 'C', null, 65261.85, -273.15, false],
      [63, 'nvme-pci-0400', 'Sensor 2', 37.85, 'C', null, 65261.85, -273.15, false],
    ]);
  });

  it('`sensors -j -f` (a note on lm-sensors): the JSON values are °C whatever -f says', () => {
    const all = fromJ('blog_sensors_j_f.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'sensor').map(sensorRow)).toEqual([
      [5, 'coretemp-isa-0000', 'Package id 0', 48, 'C', 100, 100, null, false],
      [11, 'coretemp-isa-0000', 'Core 0', 47, 'C', 100, 100, null, false],
      [17, 'coretemp-isa-0000', 'Core 1', 46, 'C', 100, 100, null, false],
      [26, 'pch_skylake-virtual-0', 'temp1', 44, 'C', null, null, null, false],
      [32, 'acpitz-virtual-0', 'temp1', 25, 'C', 107, null, null, false],
    ]);
  });
});
