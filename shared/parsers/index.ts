// Parser registry: format name → parser factory. The names are the `kvscope parse <format>`
// contract (docs/DESIGN.md): tegrastats, perf, pmap, smaps, meminfo, llama-log, llama-bench; the others
// (status, statm, thermal, vcgencmd, devfreq, rknpu, hwmon) are additions.

import { createLlamaBenchParser } from './llama-bench-parser';
import { createLlamaLogParser } from './llama-log-parser';
import { capText, type LineCapOptions } from './line-cap';
import { LineSplitter } from './line-splitter';
import { createPerfStatParser } from './perf-stat-parser';
import { createPmapParser } from './pmap-parser';
import { createMeminfoParser, createSmapsParser, createStatmParser, createStatusParser } from './proc-parsers';
import { diagnostic, type LineParser, type ParseRecord } from './records';
import { createTegrastatsParser } from './tegrastats-parser';
import { createThermalParser } from './thermal-parsers';

export * from './records';
export { LineSplitter, splitLines, type SplitLine } from './line-splitter';
export { MAX_LINE_CHARS, capLines, capText, cutReason, type LineCapOptions } from './line-cap';
export { createTegrastatsParser, parseTegrastatsLine } from './tegrastats-parser';
export { createPerfStatParser, parsePerfNumber } from './perf-stat-parser';
export { createPmapParser } from './pmap-parser';
export {
  createSmapsParser,
  createMeminfoParser,
  createStatusParser,
  createStatmParser,
  parseStatmLine,
} from './proc-parsers';
export { createLlamaLogParser, stripLogPrefixes } from './llama-log-parser';
export { parseGoDurationMs } from './llama-log-server';
export { createLlamaBenchParser, benchTestName } from './llama-bench-parser';
export { createThermalParser } from './thermal-parsers';
export { parseSysfsTempRead, decodeThrottled, errnoName } from './sysfs-values';

export interface ParserOptions extends LineCapOptions {
  /** statm: bytes per page as the target reports it (`getconf PAGESIZE`). Never assumed. */
  pageSizeBytes?: number;
  /** pmap: include every mapping in the record. */
  listMappings?: boolean;
}

export interface ParserFormat {
  description: string;
  create(options?: ParserOptions): LineParser<ParseRecord>;
}

/** A format name for a board transcript that the thermal reader reads. */
function thermalReader(description: string): ParserFormat {
  return { description, create: (o) => createThermalParser(o) };
}

export const parserFormats: Record<string, ParserFormat> = {
  tegrastats: { description: 'NVIDIA Jetson tegrastats lines', create: (o) => createTegrastatsParser(o) },
  perf: {
    description: 'perf stat output (human, -x CSV, -j JSON, -I interval)',
    create: (o) => createPerfStatParser(o),
  },
  pmap: {
    description: 'pmap -x / -X / -d (procps 3.2–4.x, busybox, toybox)',
    create: (o) => createPmapParser({ listMappings: o?.listMappings, maxLineChars: o?.maxLineChars }),
  },
  smaps: { description: '/proc/<pid>/smaps_rollup or a full smaps (summed)', create: (o) => createSmapsParser(o) },
  meminfo: { description: '/proc/meminfo', create: (o) => createMeminfoParser(o) },
  'llama-log': {
    description: 'llama.cpp / llama-server / ollama logs: timings, KV cache, model',
    create: (o) => createLlamaLogParser(o),
  },
  'llama-bench': {
    description: 'llama-bench results (markdown, csv, json, jsonl)',
    create: (o) => createLlamaBenchParser(o),
  },
  status: { description: '/proc/<pid>/status', create: (o) => createStatusParser(o) },
  statm: {
    description: '/proc/<pid>/statm (bytes need --page-size)',
    create: (o) => createStatmParser({ pageSizeBytes: o?.pageSizeBytes, maxLineChars: o?.maxLineChars }),
  },
  // One reader for every board transcript (sysfs `grep . *` / `cat` / for-loop dumps, lm-sensors,
  // vendor tools): the names below say what the file holds, the reader is the same.
  thermal: thermalReader('thermal zones and trip points, cpufreq, devfreq, hwmon, lm-sensors, vcgencmd, NPU/RGA load'),
  vcgencmd: thermalReader(
    'Raspberry Pi vcgencmd output: measure_temp, measure_clock, get_throttled (same reader as thermal)',
  ),
  devfreq: thermalReader(
    'devfreq sysfs (cur/min/max/available frequencies, governor, load, trans_stat; same reader as thermal)',
  ),
  rknpu: thermalReader('Rockchip NPU load (debugfs rknpu/load) and RGA load (rkrga/load; same reader as thermal)'),
  hwmon: thermalReader('hwmon sensors (INA3221/INA2xx power rails, labels; iio ina3221x; same reader as thermal)'),
};

export function formatNames(): string[] {
  return Object.keys(parserFormats);
}

/**
 * A parser from the registry, guarded: the parsers are written never to throw, and if one still
 * does on some input, the line becomes a diagnostic instead of ending the stream.
 */
export function createParser(format: string, options?: ParserOptions): LineParser<ParseRecord> | null {
  const entry = Object.prototype.hasOwnProperty.call(parserFormats, format) ? parserFormats[format] : undefined;
  if (!entry) return null;
  const inner = entry.create(options);
  let lineNo = 0;
  return {
    push(line, droppedChars = 0) {
      lineNo++;
      try {
        return inner.push(line, droppedChars);
      } catch (error) {
        const reason = `parser error: ${error instanceof Error ? error.message : String(error)}`;
        return [diagnostic(lineNo, reason, capText(line).kept)];
      }
    },
    end() {
      try {
        return inner.end();
      } catch (error) {
        return [
          diagnostic(lineNo, `parser error at end: ${error instanceof Error ? error.message : String(error)}`, ''),
        ];
      }
    },
  };
}

/** Parse a whole text (tests, small files): lines split as a stream would split them. */
export function parseText(format: string, text: string, options?: ParserOptions): ParseRecord[] {
  const parser = createParser(format, options);
  if (!parser) return [];
  const splitter = new LineSplitter();
  const out: ParseRecord[] = [];
  for (const l of splitter.pushLines(text)) out.push(...parser.push(l.text, l.droppedChars));
  for (const l of splitter.endLines()) out.push(...parser.push(l.text, l.droppedChars));
  out.push(...parser.end());
  return out;
}
