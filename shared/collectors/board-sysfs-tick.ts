// The tick line of the board collectors that read sysfs files and vendor tools
// (shared/collectors/board-sysfs-collector.ts, shared/collectors/vcgencmd-collector.ts):
//
//   t=<uptime s>|<part>|<part>…
//
// where each part is what a person would paste: `/sys/…/cur_freq:300000000` (`grep .` style, the
// path relative to the collector's root directory), `NPU load:  Core0:  4%, …`, `temp=48.3'C`,
// `throttled=0x50005`. The parts are read by shared/parsers/thermal-parsers.ts, the one reader of
// these formats; this file only splits the tick. Pure; never throws.
import { createThermalParser, type ThermalParseRecord } from '../parsers/thermal-parsers';

const TICK_TIME = /^t=(\d+(?:\.\d+)?)$/;

export type BoardTick =
  | { kind: 'tick'; uptimeMs: number; records: ThermalParseRecord[] }
  | { kind: 'diagnostic'; reason: string; text: string };

/** One tick line → the thermal parser's records of its parts (their own diagnostics included). */
export function readBoardTick(line: string): BoardTick {
  const parts = line.split('|');
  const time = TICK_TIME.exec(parts[0] ?? '');
  if (!time) return { kind: 'diagnostic', reason: 'board line without a time', text: line };
  // A fresh parser per tick: its state (a zone's type and temp, hwmon labels) belongs to this tick only.
  const parser = createThermalParser();
  const records: ThermalParseRecord[] = [];
  for (const part of parts.slice(1)) records.push(...parser.push(part));
  records.push(...parser.end());
  return { kind: 'tick', uptimeMs: Math.round(Number(time[1]) * 1000), records };
}
