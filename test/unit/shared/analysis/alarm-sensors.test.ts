// The Jetson PMIC's die zone read as what its driver reports: an alarm level, not a temperature.
import { describe, expect, it } from 'vitest';
import {
  alarmEpisodes,
  alarmEpisodesOf,
  alarmOfReading,
  alarmReadingWords,
  isAlarmLevelKey,
  isAlarmLevelZone,
  isAlarmSensorSeries,
} from '../../../../shared/analysis/alarm-sensors';
import { seriesOfSamples } from '../../../../shared/analysis/time-series';
import {
  fixtureLines,
  nanoSamplerSamples,
  nanoZones,
  pmicAlarmMilli,
  tegrastatsSamples,
} from '../../../helpers/pmic-fixtures';

describe('which series are alarm levels', () => {
  it("tegrastats' PMIC@…C and the sampler's PMIC-Die zone, as the collectors name them from real lines", () => {
    // A real TX2 line (L4T 28): `PMIC@100C` among the SoC's sensors.
    const tegra = tegrastatsSamples(fixtureLines('tegrastats/tx2-l4t28/tx2_l4t28_gustavz_issue24.txt').slice(0, 1));
    const tegraKeys = Object.keys(tegra[0]?.values ?? {}).filter((k) => k.startsWith('tegra.temp.'));
    expect(tegraKeys.filter(isAlarmLevelKey)).toEqual(['tegra.temp.PMIC.C']);
    // The real Nano's zones through the procfs sampler: thermal_zone4 is PMIC-Die.
    expect(nanoZones().types[4]).toBe('PMIC-Die');
    const sysfs = nanoSamplerSamples([100000], [1479000]);
    const sysfsKeys = Object.keys(sysfs[0]?.values ?? {}).filter((k) => k.startsWith('temp.'));
    expect(sysfsKeys).toHaveLength(6);
    expect(sysfsKeys.filter(isAlarmLevelKey)).toEqual(['temp.PMIC-Die.C']);
    // A second zone of the same type is numbered by the sampler (procfs-sampler-parser.ts).
    expect(isAlarmLevelKey('temp.PMIC-Die#2.C')).toBe(true);
    // Its trip points (board sysfs collector) belong to it too, never to a temperature scale.
    expect(isAlarmSensorSeries('trip.PMIC-Die.0.C')).toBe(true);
    expect(isAlarmLevelKey('trip.PMIC-Die.0.C')).toBe(false);
    for (const k of [
      'tegra.temp.CPU.C',
      'temp.CPU-therm.C',
      'temp.thermal-fan-est.C',
      'trip.CPU-therm.0.C',
      'rpi.soc.C',
    ])
      expect(isAlarmSensorSeries(k), k).toBe(false);
    expect(isAlarmLevelZone('PMIC-Die')).toBe(true);
    expect(isAlarmLevelZone('CPU-therm')).toBe(false);
    expect(isAlarmLevelZone(null)).toBe(false);
  });
});

describe('what a reading says', () => {
  it("the driver's values: 100 °C (and the 50 °C some builds print) no alarm, 120 alarm 1, 140 alarm 2; the older driver's 125 and 145 too", () => {
    expect([50, 100, 119.9, 120, 125, 139, 140, 145].map(alarmOfReading)).toEqual([0, 0, 0, 1, 1, 1, 2, 2]);
    expect(alarmReadingWords(100)).toBe('no alarm');
    expect(alarmReadingWords(50)).toBe('no alarm');
    expect(alarmReadingWords(120)).toBe('alarm 1 (the die passed 120 °C)');
    expect(alarmReadingWords(140)).toBe('alarm 2 (the die passed 140 °C)');
    expect(alarmReadingWords(null)).toBe('–');
  });

  it('episodes: the written alarm (100, 120, 140, 120, 100 °C, one a second) is one episode, alarm 2 at its height, cleared at 4 s', () => {
    expect(pmicAlarmMilli()).toEqual([100000, 120000, 140000, 120000, 100000]);
    const byKey = seriesOfSamples(nanoSamplerSamples(pmicAlarmMilli(), [1479000]));
    const series = byKey.get('temp.PMIC-Die.C');
    expect(series?.v).toEqual([100, 120, 140, 120, 100]);
    expect(alarmEpisodes('temp.PMIC-Die.C', series ?? { t: [], v: [], length: 0 })).toEqual([
      { key: 'temp.PMIC-Die.C', startMs: 1000, endMs: 4000, cleared: true, alarm: 2 },
    ]);
    // Only alarm-level series are looked at: the real zones never give one.
    expect(alarmEpisodesOf((k) => byKey.get(k), byKey.keys())).toHaveLength(1);
  });

  it('an alarm still raised at the last reading stays open; nominal readings give none', () => {
    const series = { t: [0, 1000, 2000], v: [100, 100, 120], length: 3 };
    expect(alarmEpisodes('tegra.temp.PMIC.C', series)).toEqual([
      { key: 'tegra.temp.PMIC.C', startMs: 2000, endMs: 2000, cleared: false, alarm: 1 },
    ]);
    // A real Xavier NX / Nano / Xavier NX log of PMIC@100C and PMIC@50C lines: no alarm at all.
    const samples = tegrastatsSamples(
      fixtureLines('tegrastats/xavier-nx-and-nano-jp4.6/nano_tx2nx_xaviernx_aiblox_stresstest.txt'),
    );
    const byKey = seriesOfSamples(samples);
    expect(new Set(byKey.get('tegra.temp.PMIC.C')?.v)).toEqual(new Set([100, 50]));
    expect(alarmEpisodesOf((k) => byKey.get(k), byKey.keys())).toEqual([]);
  });
});
