// A series lands in its panel by unit: today's sampler keys and a collector's new ones alike.
import { describe, expect, it } from 'vitest';
import { describeSeries } from '../../../../../../renderer/src/ui/dashboard/series-catalog';

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
    // Series of one name told apart by their statistic (the legend listed "memory.full" three times).
    expect(place('psi.memory.full.avg10Pct')).toEqual(['memory', 'memory-pressure', 'percent', 'memory.full avg10']);
    expect(place('psi.cpu.some.avg300Pct')?.[3]).toBe('cpu.some avg300');
    expect(place('tegra.rail.VDD_IN.avgmW')?.[3]).toBe('rail.VDD_IN avg');
    expect(place('tegra.rail.VDD_IN.curmW')?.[3]).toBe('rail.VDD_IN');
    expect(place('llcMisses', 'count')).toEqual(['power', 'counters', 'count', 'llc Misses']);
    // Keys a collector declares by name read in its words (shared/collectors/pmap-collector.ts,
    // cgroup-collector.ts, vcgencmd-collector.ts), not camel case split ("pmap.largest Anon").
    expect(place('pmap.largestAnonBytes')?.[3]).toBe('largest anonymous mapping (resident)');
    expect(place('cgroupUsageBytes')?.[3]).toBe('cgroup charge (usage)');
    expect(place('rpi.armFreqMHz')?.[3]).toBe('ARM clock, measured');
    expect(place('tokens')).toBeNull();
    expect(place('vmSizeBytes')).toBeNull();
  });
});
