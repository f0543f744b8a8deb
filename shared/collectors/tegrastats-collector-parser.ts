// Parser of the tegrastats collector's lines (shared/collectors/tegrastats-collector.ts). The script
// prefixes each tegrastats line with the target's uptime when the line arrived:
//
//   t=<uptime s> <tegrastats line as printed>
//
// The tegrastats line itself is read by shared/parsers/tegrastats-parser.ts (the one reader of that
// format); this file only turns its record into sample values with unit suffixes
// (SERIES_UNIT_SUFFIX in shared/collectors/collector.ts). Pure; never throws: a line it cannot read
// is a diagnostic.
import { collectorLineParser, type CollectorParser } from './collector';
import { parseTegrastatsLine } from '../parsers/tegrastats-parser';
import type { TegrastatsRecord } from '../parsers/records';

/** Sample keys of the tegrastats collector, shared with its series list. */
export const tegraKey = {
  cpuLoad: (core: number) => `tegra.cpu.${core}.loadPct`,
  cpuFreq: (core: number) => `tegra.cpu.${core}.freqMHz`,
  engineLoad: (name: string) => `tegra.engine.${name}.loadPct`,
  engineFreq: (name: string) => `tegra.engine.${name}.freqMHz`,
  temp: (zone: string) => `tegra.temp.${zone}.C`,
  railCur: (rail: string) => `tegra.rail.${rail}.curmW`,
  railAvg: (rail: string) => `tegra.rail.${rail}.avgmW`,
};

const TIME_PREFIX = /^t=(\d+(?:\.\d+)?) /;

/** A tegrastats record → sample values (bytes, %, MHz, °C, mW); fields the line lacks are left out. */
export function tegrastatsValues(r: TegrastatsRecord): Record<string, number | null> {
  const v: Record<string, number | null> = {};
  const put = (key: string, value: number | null) => {
    if (value !== null) v[key] = value;
  };
  put('tegra.ramUsedBytes', r.ramUsedBytes);
  put('tegra.ramTotalBytes', r.ramTotalBytes);
  put('tegra.lfbBlocks', r.ramLfbBlocks);
  put('tegra.lfbBlockBytes', r.ramLfbBlockBytes);
  put('tegra.swapUsedBytes', r.swapUsedBytes);
  put('tegra.swapTotalBytes', r.swapTotalBytes);
  put('tegra.swapCachedBytes', r.swapCachedBytes);
  put('tegra.iramUsedBytes', r.iramUsedBytes);
  put('tegra.iramTotalBytes', r.iramTotalBytes);
  put('tegra.iramLfbBytes', r.iramLfbBytes);
  r.cpus.forEach((cpu, core) => {
    // An offline core (`off`) has neither load nor clock: 0 % at 0 MHz, so the chart shows it parked.
    put(tegraKey.cpuLoad(core), cpu ? cpu.loadPct : 0);
    put(tegraKey.cpuFreq(core), cpu ? cpu.freqMHz : 0);
  });
  put('tegra.gpu.loadPct', r.gpuLoadPct);
  put('tegra.gpu.freqMHz', r.gpuFreqMHz);
  put('tegra.emc.loadPct', r.emcLoadPct);
  put('tegra.emc.freqMHz', r.emcFreqMHz);
  put('tegra.mtsFgPct', r.mtsFgPct);
  put('tegra.mtsBgPct', r.mtsBgPct);
  put('tegra.edpLimitMHz', r.edpLimitMHz);
  for (const [name, e] of Object.entries(r.engines)) {
    // `NVDEC off`: the engine is power-gated, so its clock and load are 0, not unknown.
    put(tegraKey.engineLoad(name), e.on ? e.loadPct : 0);
    put(tegraKey.engineFreq(name), e.on ? e.freqMHz : 0);
  }
  for (const [zone, c] of Object.entries(r.tempsC)) put(tegraKey.temp(zone), c);
  for (const [rail, p] of Object.entries(r.railsMw)) {
    put(tegraKey.railCur(rail), p.cur);
    put(tegraKey.railAvg(rail), p.avg);
  }
  return v;
}

export function createTegrastatsCollectorParser(): CollectorParser {
  let lineNo = 0;
  return collectorLineParser((line) => {
    const time = TIME_PREFIX.exec(line);
    if (!time) return { kind: 'diagnostic', reason: 'tegrastats line without a time', text: line };
    // A live stream has no terminal wrap: each line is read alone (no holding for a continuation).
    const record = parseTegrastatsLine(line.slice(time[0].length), ++lineNo);
    if (record.kind === 'diagnostic') return { kind: 'diagnostic', reason: record.reason, text: line };
    const values = tegrastatsValues(record);
    if (Object.keys(values).length === 0)
      return { kind: 'diagnostic', reason: 'tegrastats line without a reading', text: line };
    return { kind: 'sample', uptimeMs: Math.round(Number(time[1]) * 1000), values };
  });
}
