// The pieces of one perf stat reading that every output format shares (human, CSV, JSON): the
// empty record, `<not counted>` / `<not supported>`, event names, aggregation ids, the -I time.
import type { PerfRecord, PerfStatus } from './records';

// Aggregation ids of -A (CPU3), --per-core (S0-D0-C1; S0-C1 before dies, perf < 5.1), --per-socket,
// --per-die, --per-node (N0), --per-cluster (S0-D0-CLS1) and --per-cache (S0-D0-L3-ID0), perf 6.x.
const AGGR_RE = /^(?:CPU\d+|S\d+(?:-D\d+)?(?:-CLS\d+)?(?:-L\d+-ID\d+)?(?:-C\d+)?(?:-T\d+)?|N\d+)$/;
/** The -I time column: `%6lu.%09lu` (a C-locale dot in every version). */
export const TIME_RE = /^\d+\.\d+$/;
/**
 * An event name: `cycles`, `cycles:u`, `cpu_core/cycles/`, `r003c`, `cpu/event=0x3c,umask=0x0/`,
 * `{cycles,instructions}:S`, `sched:sched_switch`, `cycles [armv8_cortex_a53]` (--no-merge): letters,
 * digits and the punctuation of perf's event syntax (tools/perf/util/parse-events.l), never a
 * control character, `<`, `>`, quotes or U+FFFD (what undecodable bytes become). A line of noise
 * with a digit and a comma in it is then not a reading of an event named by its bytes.
 */
const EVENT_RE = /^[\p{L}_][\p{L}\p{N}_\-:/=,.@{}*?'+~#]*(?: \[[^\]\s\p{Cc}\ufffd]+\])?$/u;
/** The PMU perf appends to a --no-merge event name of a non-hybrid PMU: `cycles [armv8_cortex_a53]`. */
export const PMU_SUFFIX_RE = /^\[[^\]\s]+\]$/;

export function statusOf(value: string): PerfStatus {
  if (value === '<not supported>') return 'not-supported';
  if (value === '<not counted>') return 'not-counted';
  return 'ok';
}

export function isBadCount(text: string | undefined): boolean {
  return text === '<not supported>' || text === '<not counted>';
}

/** `--per-thread`: `<comm>-<tid>` (`llama-cli-4242`). */
export function isThreadId(text: string): boolean {
  const dash = text.lastIndexOf('-');
  return dash > 0 && dash < text.length - 1 && /^\d+$/.test(text.slice(dash + 1)) && !/\s/.test(text);
}

export function isAggrId(text: string | undefined): boolean {
  return text !== undefined && (AGGR_RE.test(text) || isThreadId(text));
}

/** --per-core/socket/die/node/cluster/cache print the number of CPUs aggregated after the id; -A and --per-thread do not. */
export function hasCpuCount(aggr: string): boolean {
  return aggr.startsWith('S') || aggr.startsWith('N');
}

export function isEventName(text: string | undefined): text is string {
  return text !== undefined && EVENT_RE.test(text);
}

export function perfRecord(line: number): PerfRecord {
  return {
    kind: 'perf',
    line,
    tSec: null,
    event: '',
    value: null,
    status: 'ok',
    unit: null,
    runPct: null,
    runTimeNs: null,
    metricValue: null,
    metricUnit: null,
    stddevPct: null,
    aggr: null,
    summary: false,
  };
}
