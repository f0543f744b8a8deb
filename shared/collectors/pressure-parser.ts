// Parser of the pressure collector's lines (shared/collectors/pressure-collector.ts): load
// averages (/proc/loadavg) and pressure stall information (/proc/pressure/{cpu,memory,io}, Linux
// 4.20+), as the kernel prints them (its Documentation/accounting/psi.rst):
//
//   some avg10=0.00 avg60=0.00 avg300=0.00 total=0
//   full avg10=0.00 avg60=0.00 avg300=0.00 total=0
//
// avgN: the share of the last N seconds in which some (or, `full`, all non-idle) tasks were
// stalled on the resource, in percent; total: the stall time since boot in microseconds. The
// collector prints one line a tick, the files' lines joined with `|`, each prefixed by its file:
//
//   t=<uptime s>|loadavg 0.52 0.58 0.59 2/281 5096|memory some avg10=… total=…|memory full …|cpu some …
//
// Pure and never throws: a line it cannot read is a diagnostic.
import { collectorLineParser, type CollectorParser, type CollectorRecord } from './collector';

/** The sample key of one PSI number, e.g. `psi.memory.some.avg10Pct`, `psi.io.full.totalUs`. */
export const psiKey = (resource: string, kind: 'some' | 'full', field: 'avg10' | 'avg60' | 'avg300' | 'total') =>
  `psi.${resource}.${kind}.${field === 'total' ? 'totalUs' : `${field}Pct`}`;

const PSI_LINE = /^(some|full) avg10=(\d+(?:\.\d+)?) avg60=(\d+(?:\.\d+)?) avg300=(\d+(?:\.\d+)?) total=(\d+)$/;
const RESOURCE = /^[a-z]+$/;

/** One line of a /proc/pressure file → its four values, or null when it is not one. */
export function parsePsiLine(resource: string, line: string): Record<string, number> | null {
  const m = PSI_LINE.exec(line.trim());
  if (!m || !RESOURCE.test(resource)) return null;
  const kind = m[1] as 'some' | 'full';
  return {
    [psiKey(resource, kind, 'avg10')]: Number(m[2]),
    [psiKey(resource, kind, 'avg60')]: Number(m[3]),
    [psiKey(resource, kind, 'avg300')]: Number(m[4]),
    [psiKey(resource, kind, 'total')]: Number(m[5]),
  };
}

/** /proc/loadavg (`0.52 0.58 0.59 2/281 5096`) → load averages and runnable/total tasks, or null. */
export function parseLoadavg(text: string): Record<string, number> | null {
  const m = /^(\d+\.\d+) (\d+\.\d+) (\d+\.\d+) (\d+)\/(\d+) \d+$/.exec(text.trim());
  if (!m) return null;
  return {
    load1: Number(m[1]),
    load5: Number(m[2]),
    load15: Number(m[3]),
    tasksRunnable: Number(m[4]),
    tasks: Number(m[5]),
  };
}

function parseTick(line: string): CollectorRecord {
  const parts = line.split('|');
  const time = /^t=(\d+(?:\.\d+)?)$/.exec(parts[0] ?? '');
  if (!time) return { kind: 'diagnostic', reason: 'pressure line without a time', text: line };
  const values: Record<string, number | null> = {};
  for (const part of parts.slice(1)) {
    const sp = part.indexOf(' ');
    const file = sp < 0 ? part : part.slice(0, sp);
    const rest = sp < 0 ? '' : part.slice(sp + 1);
    const read = file === 'loadavg' ? parseLoadavg(rest) : parsePsiLine(file, rest);
    if (!read) return { kind: 'diagnostic', reason: `unreadable ${file} text`, text: line };
    Object.assign(values, read);
  }
  return { kind: 'sample', uptimeMs: Math.round(Number(time[1]) * 1000), values };
}

export function createPressureParser(): CollectorParser {
  return collectorLineParser((line) => {
    if (line.startsWith('t=')) return parseTick(line);
    return { kind: 'diagnostic', reason: 'not a pressure line', text: line };
  });
}
