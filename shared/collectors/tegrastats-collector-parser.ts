// Parser of the tegrastats collector's lines (shared/collectors/tegrastats-collector.ts). The script
// prefixes each tegrastats line with the target's uptime when the line arrived:
//
//   t=<uptime s> <tegrastats line as printed>
//
// The tegrastats line itself is read by shared/parsers/tegrastats-parser.ts (the one reader of that
// format); this file only turns its record into sample values with unit suffixes
// (SERIES_UNIT_SUFFIX in shared/collectors/collector.ts). Pure; never throws: a line it cannot read
// is a diagnostic.
import { ShapedValues } from '../util/shaped-values';
import { collectorLineParser, type CollectorParser } from './collector';
import { parseTegrastatsLine } from '../parsers/tegrastats-parser';
import type { TegrastatsRecord } from '../parsers/records';

/**
 * A key maker that builds each key once: a line of an AGX Orin has about 100 values, and building
 * their keys anew for every line was a sixth of an 8-hour import (bench/import.bench.ts). The
 * names are the board's cores, engines, zones and rails: a few dozen per board, bounded by the cap.
 */
function cachedKeys<T extends string | number>(make: (part: T) => string): (part: T) => string {
  const made = new Map<T, string>();
  return (part) => {
    let key = made.get(part);
    if (key === undefined) {
      key = make(part);
      if (made.size < MAX_CACHED_KEYS) made.set(part, key);
    }
    return key;
  };
}

/** Keys kept per maker: far above any board's names, so damaged input cannot grow the cache without end. */
const MAX_CACHED_KEYS = 4096;

/** Sample keys of the tegrastats collector, shared with its series list. */
export const tegraKey = {
  cpuLoad: cachedKeys((core: number) => `tegra.cpu.${core}.loadPct`),
  cpuFreq: cachedKeys((core: number) => `tegra.cpu.${core}.freqMHz`),
  engineLoad: cachedKeys((name: string) => `tegra.engine.${name}.loadPct`),
  engineFreq: cachedKeys((name: string) => `tegra.engine.${name}.freqMHz`),
  temp: cachedKeys((zone: string) => `tegra.temp.${zone}.C`),
  railCur: cachedKeys((rail: string) => `tegra.rail.${rail}.curmW`),
  railAvg: cachedKeys((rail: string) => `tegra.rail.${rail}.avgmW`),
};

const TIME_PREFIX = /^t=(\d+(?:\.\d+)?) /;

/** The record's single-number fields (number | null). */
type ScalarField = {
  [K in keyof TegrastatsRecord]: TegrastatsRecord[K] extends number | null ? K : never;
}[keyof TegrastatsRecord];

/** Sample key ← record field, in the order the values are written (memory first, then clocks). */
const MEMORY_KEYS: ReadonlyArray<readonly [key: string, field: ScalarField]> = [
  ['tegra.ramUsedBytes', 'ramUsedBytes'],
  ['tegra.ramTotalBytes', 'ramTotalBytes'],
  ['tegra.lfbBlocks', 'ramLfbBlocks'],
  ['tegra.lfbBlockBytes', 'ramLfbBlockBytes'],
  ['tegra.swapUsedBytes', 'swapUsedBytes'],
  ['tegra.swapTotalBytes', 'swapTotalBytes'],
  ['tegra.swapCachedBytes', 'swapCachedBytes'],
  ['tegra.iramUsedBytes', 'iramUsedBytes'],
  ['tegra.iramTotalBytes', 'iramTotalBytes'],
  ['tegra.iramLfbBytes', 'iramLfbBytes'],
];
const CLOCK_KEYS: ReadonlyArray<readonly [key: string, field: ScalarField]> = [
  ['tegra.gpu.loadPct', 'gpuLoadPct'],
  ['tegra.gpu.freqMHz', 'gpuFreqMHz'],
  ['tegra.emc.loadPct', 'emcLoadPct'],
  ['tegra.emc.freqMHz', 'emcFreqMHz'],
  ['tegra.mtsFgPct', 'mtsFgPct'],
  ['tegra.mtsBgPct', 'mtsBgPct'],
  ['tegra.edpLimitMHz', 'edpLimitMHz'],
];

/**
 * A tegrastats record → sample values (bytes, %, MHz, °C, mW); fields the line lacks are left out.
 * Built through `shape` (shared/util/shaped-values.ts) when given: a stream's objects then stay fast.
 */
export function tegrastatsValues(r: TegrastatsRecord, shape = new ShapedValues()): Record<string, number | null> {
  const keys: string[] = [];
  const vals: number[] = [];
  const put = (key: string, value: number | null) => {
    if (value !== null) {
      keys.push(key);
      vals.push(value);
    }
  };
  for (const [key, field] of MEMORY_KEYS) put(key, r[field]);
  r.cpus.forEach((cpu, core) => {
    // An offline core (`off`) has neither load nor clock: 0 % at 0 MHz, so the chart shows it parked.
    put(tegraKey.cpuLoad(core), cpu ? cpu.loadPct : 0);
    put(tegraKey.cpuFreq(core), cpu ? cpu.freqMHz : 0);
  });
  for (const [key, field] of CLOCK_KEYS) put(key, r[field]);
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
  return shape.make(keys, vals);
}

export function createTegrastatsCollectorParser(): CollectorParser {
  let lineNo = 0;
  const shape = new ShapedValues();
  return collectorLineParser((line) => {
    const time = TIME_PREFIX.exec(line);
    if (!time) return { kind: 'diagnostic', reason: 'tegrastats line without a time', text: line };
    // A live stream has no terminal wrap: each line is read alone (no holding for a continuation).
    const record = parseTegrastatsLine(line.slice(time[0].length), ++lineNo);
    if (record.kind === 'diagnostic') return { kind: 'diagnostic', reason: record.reason, text: line };
    // Every tegrastats release starts its line with RAM (test/fixtures/tegrastats: TX1 to Thor). The
    // format reader is lenient for pasted fragments, so `<word> <number>` reads as an engine's clock:
    // a "tegrastats" on PATH printing something else (`hello world 1796187657`) made samples of it.
    if (record.ramTotalBytes === null)
      return { kind: 'diagnostic', reason: 'not a tegrastats reading (no RAM field)', text: line };
    const values = tegrastatsValues(record, shape);
    if (Object.keys(values).length === 0)
      return { kind: 'diagnostic', reason: 'tegrastats line without a reading', text: line };
    return { kind: 'sample', uptimeMs: Math.round(Number(time[1]) * 1000), values };
  });
}
