// How series are named to people (shared/collectors/series-names.ts). The rule: a plain key is its
// label; a pattern's key is `<label>: <what its * matched, in words>`, without the key or its unit
// suffix; a legend may be shorter; two series never share a name. The expected names below are
// written from that rule and the collectors' labels, key by key.
import { describe, expect, it } from 'vitest';
import { SERIES_UNIT_SUFFIX } from '../../../../shared/collectors/collector';
import { SERIES_SOURCES, seriesOf, type RegisteredSeries } from '../../../../shared/collectors/registry';
import { seriesLegendName, seriesName, seriesPart } from '../../../../shared/collectors/series-names';

function registered(key: string): RegisteredSeries {
  const s = seriesOf(key);
  if (!s) throw new Error(`${key} is not a registered series`);
  return s;
}
const nameOf = (key: string) => seriesName(registered(key));
const legendOf = (key: string) => seriesLegendName(registered(key));

/** Keys as the collectors write them, one or more per pattern, with the name the rule gives each. */
const NAMED: ReadonlyArray<[string, string]> = [
  // procfs: a thermal zone by its type, a cpufreq policy by its name.
  ['temp.cpu-thermal.C', 'temperature: cpu-thermal'],
  ['temp.cpu-thermal#2.C', 'temperature: cpu-thermal#2'],
  ['cpufreq.policy0.KHz', 'CPU clock: policy0'],
  ['cpufreq.policy0.max.KHz', 'CPU clock cap (scaling_max_freq): policy0'],
  // pressure: `<resource>.<some|full>` in the kernel's words.
  ['psi.memory.some.avg10Pct', 'stalled, 10 s average: memory (some)'],
  ['psi.cpu.full.avg60Pct', 'stalled, 1 min average: cpu (full)'],
  ['psi.io.some.avg300Pct', 'stalled, 5 min average: io (some)'],
  ['psi.memory.full.totalUs', 'stalled since boot: memory (full)'],
  // tegrastats: cores by their place in its CPU list, engines, zones and rails by its names.
  ['tegra.cpu.0.loadPct', 'CPU load (tegrastats): core 0'],
  ['tegra.cpu.11.freqMHz', 'CPU clock (tegrastats): core 11'],
  ['tegra.engine.NVENC.loadPct', 'engine load: NVENC'],
  ['tegra.engine.NVENC.freqMHz', 'engine clock: NVENC'],
  ['tegra.temp.AO.C', 'temperature (tegrastats): AO'],
  ['tegra.rail.VDD_IN.curmW', 'power rail, now: VDD_IN'],
  ['tegra.rail.VDD_IN.avgmW', 'power rail, average: VDD_IN'],
  // board sysfs: a devfreq device's name holds a dot of its own; a trip point is `<zone>.<index>`.
  ['devfreq.ff9a0000.gpu.curFreqMHz', 'devfreq clock: ff9a0000.gpu'],
  ['devfreq.dmc.minFreqMHz', 'devfreq clock floor: dmc'],
  ['devfreq.dmc.maxFreqMHz', 'devfreq clock ceiling: dmc'],
  ['npu.core2.loadPct', 'NPU core load (rknpu): core2'],
  ['power.VDD_CPU_GPU_CV.mW', 'power sensor (INA): VDD_CPU_GPU_CV'],
  ['trip.cpu-thermal.0.C', 'thermal trip point: cpu-thermal, trip 0'],
  ['trip.soc-thermal.12.C', 'thermal trip point: soc-thermal, trip 12'],
  // perf: an event, with a hybrid CPU's PMU after it as the per-token rows say it; msec clocks in µs.
  ['perf.cache-misses', 'perf counter per interval: cache-misses'],
  ['perf.cpu_core.cycles', 'perf counter per interval: cycles (cpu_core)'],
  ['perf.task-clockUs', 'CPU time per interval (perf): task-clock'],
];

describe('series names', () => {
  it('a plain key is named by its label', () => {
    expect(nameOf('rssBytes')).toBe('RSS');
    expect(nameOf('tegra.gpu.loadPct')).toBe('GPU load (GR3D)');
    expect(nameOf('rpi.soc.C')).toBe('SoC temperature (firmware)');
    expect(seriesPart(registered('tegra.gpu.loadPct'))).toBeNull();
  });

  it('a pattern’s key by its label and what the * matched, in words', () => {
    for (const [key, name] of NAMED) expect(nameOf(key), key).toBe(name);
  });

  it('never says the sample key or its unit suffix', () => {
    for (const [key] of NAMED) {
      const s = registered(key);
      const name = seriesName(s);
      const suffix = SERIES_UNIT_SUFFIX[s.unit];
      expect(name.includes(key), key).toBe(false);
      if (suffix) expect(name.endsWith(suffix), key).toBe(false);
      expect(name, key).not.toMatch(/\b(?:tegra|temp|cpufreq|psi|devfreq|npu|power|trip|perf)\.\S/);
    }
  });

  it('tells apart the series one key family could confuse', () => {
    const pairs: Array<[string, string]> = [
      // a thermal zone typed `cpu` and tegrastats' CPU zone; two zones differing in case only
      ['temp.cpu.C', 'tegra.temp.CPU.C'],
      ['temp.cpu.C', 'temp.CPU.C'],
      // perf's msec clock (µs) and a counter of the same event name
      ['perf.task-clockUs', 'perf.task-clock'],
      // a policy's cap, which `cpufreq.*.KHz` would also match as `policy0.max`
      ['cpufreq.policy0.max.KHz', 'cpufreq.policy0.KHz'],
      // a rail now and its average; tegrastats' rail and an INA sensor of the same name
      ['tegra.rail.VDD_IN.curmW', 'tegra.rail.VDD_IN.avgmW'],
      ['tegra.rail.VDD_IN.curmW', 'power.VDD_IN.mW'],
      // the same zone's two trip points; a core's load and its clock
      ['trip.cpu-thermal.0.C', 'trip.cpu-thermal.1.C'],
      ['tegra.cpu.0.loadPct', 'tegra.cpu.0.freqMHz'],
    ];
    for (const [a, b] of pairs) expect(nameOf(a), `${a} / ${b}`).not.toBe(nameOf(b));
    expect(nameOf('cpufreq.policy0.max.KHz')).toBe('CPU clock cap (scaling_max_freq): policy0');
  });

  it('odd parts: spaces, dots, unicode and markup stay the name they are; an empty part is no series', () => {
    expect(nameOf('temp.CPU therm.C')).toBe('temperature: CPU therm');
    expect(nameOf('temp.soc.thermal.C')).toBe('temperature: soc.thermal');
    expect(nameOf('temp.température.C')).toBe('temperature: température');
    expect(nameOf('tegra.temp.温度.C')).toBe('temperature (tegrastats): 温度');
    expect(nameOf('tegra.rail.VDD_<b>.curmW')).toBe('power rail, now: VDD_<b>');
    // A part that is not of the collector's shape is shown as it is, not guessed at.
    expect(nameOf('psi.memory.avg10Pct')).toBe('stalled, 10 s average: memory');
    expect(nameOf('trip.cpu-thermal.C')).toBe('thermal trip point: cpu-thermal');
    // `*` matches one character or more: these keys are no series, so nothing names them.
    for (const key of ['temp..C', 'tegra.rail..curmW', 'cpufreq..KHz', 'perf.']) expect(seriesOf(key), key).toBeNull();
  });

  it('no two keys of any pattern or plain key get one name', () => {
    const parts = ['0', '1', 'AO', 'cpu', 'CPU', 'a.b', 'a b', 'x.0', 'some', 'memory.some', 'memory.full'];
    const moreParts = ['cpu_core.cycles', 'policy0', 'policy0.max', 'température', '温度', 'VDD_IN', 'core0'];
    const keys = new Set<string>();
    for (const source of SERIES_SOURCES)
      for (const def of source.series) {
        const star = def.key.indexOf('*');
        if (star < 0) keys.add(def.key);
        else
          for (const part of [...parts, ...moreParts])
            keys.add(def.key.slice(0, star) + part + def.key.slice(star + 1));
      }
    const byName = new Map<string, string>();
    for (const key of keys) {
      const name = nameOf(key);
      expect(byName.get(name), `${key} and ${byName.get(name)} are both "${name}"`).toBeUndefined();
      byName.set(name, key);
    }
    expect(byName.size).toBe(keys.size);
  });

  it('a legend is the collector’s short name where it gives one, else the full name', () => {
    expect(legendOf('tegra.rail.VDD_IN.curmW')).toBe('VDD_IN');
    expect(legendOf('tegra.rail.VDD_IN.avgmW')).toBe('VDD_IN avg');
    expect(legendOf('tegra.temp.AO.C')).toBe('AO temp');
    expect(legendOf('tegra.cpu.3.loadPct')).toBe('CPU 3 load');
    expect(legendOf('tegra.cpu.3.freqMHz')).toBe('CPU 3 clock');
    expect(legendOf('temp.cpu-thermal.C')).toBe('cpu-thermal');
    expect(legendOf('cpufreq.policy4.max.KHz')).toBe('CPU policy4 cap');
    expect(legendOf('psi.memory.some.avg10Pct')).toBe('memory (some) 10 s');
    expect(legendOf('power.VDD_IN.mW')).toBe('VDD_IN (INA)');
    expect(legendOf('trip.cpu-thermal.0.C')).toBe('cpu-thermal, trip 0');
    expect(legendOf('rssAnonBytes')).toBe('anon RSS');
    expect(legendOf('tegra.gpu.loadPct')).toBe('GPU load');
    // none given: the name
    expect(legendOf('engineCpuPct')).toBe('engine CPU');
    expect(legendOf('perf.cpu_atom.cycles')).toBe('perf counter per interval: cycles (cpu_atom)');
  });
});
