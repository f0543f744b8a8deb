// A series lands in its panel by unit: today's sampler keys and a collector's new ones alike.
import { describe, expect, it } from 'vitest';
import { describeSeries, describeSeriesList } from '../../../../../../renderer/src/ui/dashboard/series-catalog';

const place = (key: string, unit?: string) => {
  const d = describeSeries(key, unit ? { key, unit } : undefined);
  return d && [d.panel, d.track, d.unit, d.label];
};

describe('describeSeries', () => {
  it('places the procfs sampler’s series', () => {
    expect(place('rssBytes')).toEqual(['memory', 'process-memory', 'bytes', 'RSS']);
    expect(place('memAvailableBytes')).toEqual(['memory', 'system-memory', 'bytes', 'MemAvailable']);
    expect(place('temp.cpu-thermal.C')).toEqual(['thermal', 'temperature', 'celsius', 'cpu-thermal']);
    expect(place('cpufreq.policy0.KHz')).toEqual(['thermal', 'clocks', 'khz', 'CPU policy0']);
    expect(place('cpufreq.policy0.max.KHz')).toEqual(['thermal', 'clocks', 'khz', 'CPU policy0 cap']);
    expect(place('cpuBusyPct')).toEqual(['thermal', 'load', 'percent', 'CPU busy']);
  });

  it('places a new collector series by its unit, and hides bookkeeping', () => {
    expect(place('rail.VDD_IN.mW')).toEqual(['power', 'power', 'mw', 'VDD_IN']);
    // tegrastats and vcgencmd temperatures (tegra.temp.<zone>.C, rpi.soc.C) are temperatures too.
    expect(place('tegra.temp.gpu.C')?.slice(0, 3)).toEqual(['thermal', 'temperature', 'celsius']);
    expect(place('rpi.soc.C')?.slice(0, 3)).toEqual(['thermal', 'temperature', 'celsius']);
    expect(place('emcFreqMHz')).toEqual(['thermal', 'clocks', 'mhz', 'emc Freq']);
    expect(place('psi.memory.some10')).toBeNull(); // no unit in the name, none given
    expect(place('psi.memory.some10', '%')).toEqual(['memory', 'memory-pressure', 'percent', 'memory']);
    // Series of one name told apart by their window (the legend listed "memory.full" three times),
    // a rail's average from its reading now: the short names their collectors give them.
    expect(place('psi.memory.full.avg10Pct')).toEqual(['memory', 'memory-pressure', 'percent', 'memory (full) 10 s']);
    expect(place('psi.cpu.some.avg300Pct')?.[3]).toBe('cpu (some) 5 min');
    expect(place('tegra.rail.VDD_IN.avgmW')?.[3]).toBe('VDD_IN avg');
    expect(place('tegra.rail.VDD_IN.curmW')?.[3]).toBe('VDD_IN');
    // One panel holds a core's load and its clock, the GPU's too: each says which it is.
    expect(place('tegra.cpu.0.loadPct')).toEqual(['thermal', 'load', 'percent', 'CPU 0 load']);
    expect(place('tegra.cpu.0.freqMHz')).toEqual(['thermal', 'clocks', 'mhz', 'CPU 0 clock']);
    expect(place('tegra.gpu.loadPct')?.[3]).toBe('GPU load');
    expect(place('tegra.gpu.freqMHz')?.[3]).toBe('GPU clock');
    expect(place('tegra.temp.GPU.C')?.[3]).toBe('GPU temp');
    expect(place('llcMisses', 'count')).toEqual(['power', 'counters', 'count', 'llc Misses']);
    // Keys a collector declares by name read in its words (shared/collectors/pmap-collector.ts,
    // cgroup-collector.ts, vcgencmd-collector.ts), not camel case split ("pmap.largest Anon").
    expect(place('pmap.largestAnonBytes')?.[3]).toBe('largest anonymous mapping (resident)');
    expect(place('cgroupUsageBytes')?.[3]).toBe('cgroup charge (usage)');
    expect(place('rpi.armFreqMHz')?.[3]).toBe('ARM clock');
    expect(place('tokens')).toBeNull();
    expect(place('vmSizeBytes')).toBeNull();
  });
});

describe('describeSeriesList', () => {
  it('series of one panel whose short names coincide, case aside, are called by their full names', () => {
    const labels = (keys: string[]) => describeSeriesList(keys).map((d) => [d.key, d.label]);
    expect(
      labels([
        'devfreq.GPU.curFreqMHz', // `GPU clock`, as tegrastats' GPU clock
        'tegra.gpu.freqMHz',
        'temp.AO temp.C', // a zone typed `AO temp`, as tegrastats' AO
        'tegra.temp.AO.C',
        'gpuLoadPct', // no collector's: `gpu Load`
        'tegra.gpu.loadPct',
        'tegra.temp.GPU.C', // alone with its name
        'rssBytes',
      ]),
    ).toEqual([
      ['devfreq.GPU.curFreqMHz', 'devfreq clock: GPU'],
      ['tegra.gpu.freqMHz', 'GPU clock (GR3D)'],
      ['temp.AO temp.C', 'temperature: AO temp'],
      ['tegra.temp.AO.C', 'temperature (tegrastats): AO'],
      ['gpuLoadPct', 'gpuLoadPct'],
      ['tegra.gpu.loadPct', 'GPU load (GR3D)'],
      ['tegra.temp.GPU.C', 'GPU temp'],
      ['rssBytes', 'RSS'],
    ]);
  });

  it('the same short name in two panels is no clash (each panel has its own legend)', () => {
    // `CPU busy` (load, Thermal) and an undeclared count named so (Power and counters).
    expect(describeSeriesList(['cpuBusyPct', 'cpuBusyCount']).map((d) => [d.panel, d.label])).toEqual([
      ['thermal', 'CPU busy'],
      ['power', 'cpu Busy'],
    ]);
  });
});
