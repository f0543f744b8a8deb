// Parser of the perf collector's lines (shared/collectors/perf-collector.ts). Counter lines are
// read by the one perf stat parser (shared/parsers/perf-stat-parser.ts); this file only groups
// them into one sample per interval and names their series. The collector prints:
//
//   H v=1 t0=<uptime s> events=<kept,…> dropped=<not supported,…>
//   <perf stat -I -x, lines: time,value,unit,event,run time,run %,metric,metric unit>
//
// perf's `-I` time is seconds since perf started: t0 (the target's uptime just before the script
// exec'd perf) puts the samples on the run's clock. perf prints an interval's lines together and
// nothing until the next one; how many lines an interval has is learned from the first interval
// (hybrid PMUs expand one event into a line per PMU), so every later interval is a sample as soon
// as its last line arrives, the first one when the second begins, and the last one held (a
// shorter final interval, or the only one) at end().
//
// Pure and never throws: a line it cannot read is a diagnostic.
import { createPerfStatParser } from '../parsers/perf-stat-parser';
import type { PerfRecord } from '../parsers/records';
import { parseStatusLine, type CollectorParser, type CollectorRecord } from './collector';

/** perf's modifiers after an event name (`cycles:u` when perf_event_paranoid made it count user space only). */
const MODIFIERS = /:[ukhHGpPS]+$/;

/**
 * The sample key of one perf counter: `perf.<event>` (`perf.cache-misses`), `perf.<pmu>.<event>`
 * for a PMU-qualified event of a hybrid CPU (`cpu_core/cycles/`, `armv8_cortex_a53/cycles/` are
 * different cores: never summed), and `perf.<event>Us` for perf's `msec` clocks (task-clock,
 * cpu-clock), converted to microseconds. A tracepoint keeps its `subsystem:event` name
 * (`perf.sched:sched_switch`); a PMU event's terms (`hv_24x7/pm_pb_cyc,chip=0/`,
 * `cpu/event=0x3c,umask=0x00/`) are joined with `_` (`perf.hv_24x7.pm_pb_cyc_chip_0`), and the
 * modifiers after its closing slash (`cpu/cycles/u`) dropped as `:u` is. Null for a name that
 * cannot be a key (spaces, quotes, nothing left).
 */
export function perfKey(event: string, unit: string | null): string | null {
  const name = event.replace(MODIFIERS, '');
  const qualified = /^([\w.-]+)\/([^/\s]+)(?:\/[ukhHGpPS]*)?$/.exec(name);
  const terms = qualified
    ? (qualified[2] ?? '')
        .split(/[^\w:-]+/)
        .filter(Boolean)
        .join('_')
    : '';
  const base = qualified
    ? terms === ''
      ? null
      : `perf.${qualified[1]}.${terms}`
    : /^[\w.-]+(?::[\w.-]+)?$/.test(name)
      ? `perf.${name}`
      : null;
  if (base === null) return null;
  return unit === 'msec' ? `${base}Us` : base;
}

/** A perf counter key's PMU and event (perfKey read back): `perf.cycles` → ('', cycles), `perf.cpu_core.cycles` → (cpu_core, cycles). */
export function perfKeyParts(key: string): { pmu: string; event: string } | null {
  const m = /^perf\.(?:([\w-]+)\.)?([\w:-]+)$/.exec(key);
  return m ? { pmu: m[1] ?? '', event: m[2] ?? '' } : null;
}

/** A counter for people: its event, and the PMU of a hybrid CPU's core type after it, `cycles (cpu_core)`. */
export const perfCounterName = (c: { pmu: string; event: string }) => (c.pmu ? `${c.event} (${c.pmu})` : c.event);

/** A counter's value in its key's unit (msec → µs). */
function valueOf(r: PerfRecord, unit: string | null): number | null {
  if (r.value === null) return null;
  return unit === 'msec' ? Math.round(r.value * 1000) : r.value;
}

/** The clocks perf prints in msec in every version, with the unit field (3.14+) or without (before). */
const MSEC_CLOCKS = /^(?:task|cpu)-clock(?::[ukhHGpPS]+)?$/;

export interface PerfHeader {
  t0Ms: number;
  events: string[];
  dropped: string[];
}

/** `H v=1 t0=123.45 events=a,b dropped=c` → its fields, or null. */
export function parsePerfHeader(line: string): PerfHeader | null {
  const m = /^H v=1 t0=(\d+(?:\.\d+)?) events=(\S*) dropped=(\S*)$/.exec(line);
  if (!m) return null;
  const list = (s: string | undefined) => (s ? s.split(',').filter(Boolean) : []);
  return { t0Ms: Math.round(Number(m[1]) * 1000), events: list(m[2]), dropped: list(m[3]) };
}

/** The note a run shows next to an `ok` perf collector: which events this board does not count. */
export function droppedNote(dropped: readonly string[]): string | undefined {
  return dropped.length > 0 ? `not supported on this target, left out: ${dropped.join(', ')}` : undefined;
}

/** A counter record's series key and value (perf's msec clocks in µs); null when its name cannot be a key. */
export function perfReading(r: PerfRecord): { key: string; value: number | null } | null {
  const unit = r.unit ?? (MSEC_CLOCKS.test(r.event) ? 'msec' : null);
  const key = perfKey(r.event, unit);
  return key === null ? null : { key, value: valueOf(r, unit) };
}

/** Why a counter line is no sample of the stream: a summary row, or perf run without `-I`. */
export const NO_INTERVAL_REASON = 'perf line without an interval time';

export function createPerfParser(): CollectorParser {
  const stat = createPerfStatParser();
  let t0Ms: number | null = null;
  let perInterval: number | null = null;
  let group: { tSec: number; values: Record<string, number | null>; lines: number } | null = null;

  const flush = (): CollectorRecord | null => {
    const g = group;
    group = null;
    if (!g || t0Ms === null) return null;
    return { kind: 'sample', uptimeMs: t0Ms + Math.round(g.tSec * 1000), values: g.values };
  };

  const counter = (r: PerfRecord, text: string): CollectorRecord | null => {
    if (r.tSec === null || r.summary) return { kind: 'diagnostic', reason: NO_INTERVAL_REASON, text };
    const reading = perfReading(r);
    if (reading === null) return { kind: 'diagnostic', reason: 'perf event name not usable as a series', text };
    let out: CollectorRecord | null = null;
    if (group && group.tSec !== r.tSec) {
      perInterval ??= group.lines;
      out = flush();
    }
    group ??= { tSec: r.tSec, values: {}, lines: 0 };
    group.lines += 1;
    // `<not supported>` (a counter the script could not drop, e.g. one PMU of two) is left out;
    // `<not counted>` (the engine did not run in the interval) is a known gap: null.
    if (r.status !== 'not-supported') group.values[reading.key] = reading.value;
    if (perInterval !== null && group.lines >= perInterval) return out ?? flush();
    return out;
  };

  return {
    push(line: string): CollectorRecord | null {
      if (line === '') return null;
      if (line.startsWith('!'))
        return parseStatusLine(line) ?? { kind: 'diagnostic', reason: 'bad status line', text: line };
      if (line.startsWith('H ')) {
        const h = parsePerfHeader(line);
        if (!h) return { kind: 'diagnostic', reason: 'bad perf header', text: line };
        t0Ms = h.t0Ms;
        const note = droppedNote(h.dropped);
        return note ? { kind: 'header', note } : { kind: 'header' };
      }
      if (t0Ms === null) return { kind: 'diagnostic', reason: 'perf line before the header', text: line };
      const records = stat.push(line);
      let out: CollectorRecord | null = null;
      for (const r of records) {
        const got =
          r.kind === 'perf'
            ? counter(r, line)
            : r.kind === 'diagnostic'
              ? ({ kind: 'diagnostic', reason: r.reason, text: line } as const)
              : null;
        // One line is one counter: at most one record comes back.
        out ??= got;
      }
      return out;
    },
    // perf's last interval (and the only one of a short run) has no next interval to close it.
    end(): CollectorRecord[] {
      const last = flush();
      return last ? [last] : [];
    },
  };
}
