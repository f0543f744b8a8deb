// Readers: the collectors that read files each tick and start no tool of their own per tick
// (procfs, pressure, boardsysfs, cgroup, pmap, vcgencmd). Each one's script is built here from
// its part (ReaderPart), and the launcher gives the readers of a run ONE script (collectorPipelines): one
// ticker and one awk for all of them, ticking at the fastest reader's interval, each member on
// every N-th tick for an interval N times as long (at 1 Hz: pressure every 2nd tick, pmap every
// 5th), and all of a tick's lines in one write. The processes woken each tick cost more than the files they
// read (a ticker and an awk that read nothing: 0.19–0.32 ms of CPU a tick on the 2-core x86 VM,
// against ~0.02–0.03 ms a file, bench/collectors.bench.ts), so the four readers in one pipeline
// cost about what one of them cost alone: 1.0–1.5 ms a tick against 2.1–2.7 ms in four pipelines.
//
// A reader script, alone or shared, is started as `sh <name>.sh <pid> <interval s> <args…>`:
//  - alone, the args are the collector's own (CollectorDefinition.scriptArgs);
//  - shared, one shell-quoted word per member, in the order of the members, each that member's args.
// Each member's lines are tagged with its own id (`say` in its setup, `emit()` in its awk), so the
// spool, the parsers and the run's status per collector cannot tell a shared reader from its own.
import type { CollectorDefinition, ReaderPart } from './collector';
import { AWK_INTERACTIVE_SH, awkWord, EMIT_AWK, SAY_SH, TICKER_SH } from './collector-script';
import { shellJoin } from '../util/shell';

/**
 * How often a clock's cap (cpufreq's scaling_max_freq, devfreq's min_freq and max_freq) is read
 * while the clock it caps has not moved since the last tick (`rdCap`). cpufreq and devfreq
 * re-target the clock whenever a limit changes (a thermal cooling state, a PM QoS request, a
 * user's echo), so a limit that holds the clock back moves the clock, and is read at that tick;
 * one that changes on the far side of the clock holds nothing back, and is read within this
 * period. An idle RK3588 reads 9 such files a second at 1 Hz otherwise (3 policies, 3 devfreq
 * devices × 2).
 */
export const CAP_RECHECK_PERIOD_MS = 10_000;

export function capRecheckEveryTicks(intervalMs: number): number {
  return Math.max(1, Math.round(CAP_RECHECK_PERIOD_MS / intervalMs));
}

/** A member of a reader script; `every`: it ticks on every N-th tick of the script (default 1). */
export type ReaderCollector = Pick<CollectorDefinition, 'id'> & { reader: ReaderPart; every?: number };

/**
 * `rd(f)`: the first line of file f, or "" (no such file, unreadable, empty). `rdTick(f)`: the
 * same, read once a tick whoever asks (each reader wants /proc/uptime and the engine's stat: one
 * read each instead of one per reader). `rdFresh(f)`: read now, whatever this tick read before (a
 * reader that must see a process end within the tick), and left for the tick's later rdTick.
 * `rdCap(f, moved, tick, every)`: a clock's cap (see CAP_RECHECK_PERIOD_MS), read on its reader's
 * first tick, when `moved` (the clock it caps moved since that reader's last tick), and every
 * `every`-th of the reader's own ticks (`tick`, its count); its last reading otherwise.
 */
const RD_AWK = String.raw`
function rd(f,   l, r) { r = ""; if ((getline l < f) > 0) r = l; close(f); return r }
function rdTick(f) { if (!(f in kvRead)) kvRead[f] = rd(f); return kvRead[f] }
function rdFresh(f) { kvRead[f] = rd(f); return kvRead[f] }
function rdCap(f, moved, tick, every) {
  if (moved || !(f in kvCapAt) || tick - kvCapAt[f] >= every) { kvCap[f] = rd(f); kvCapAt[f] = tick }
  return kvCap[f]
}
`;

/**
 * The awk that runs every member's begin once and its tick on every `every`-th tick line (from
 * the first), until all have ended. A tick's lines leave in one write (emitHold, emitFlush). At a
 * rescan tick the ticker writes "+" and then the /proc listing (TICKER_SH): read here, whoever
 * ticks, into kvProcs (kvListed counts the listings), so a member that skips this tick still
 * finds it at its next one.
 */
function readerAwk(members: readonly ReaderCollector[]): string {
  const on = (m: ReaderCollector) => `kvOn_${m.id}`;
  const anyOn = members.map(on).join(' || ');
  const begin = members
    .map((m) => `  if (index(kvOn, " ${m.id} ")) { emitMember = "${m.id}"; ${on(m)} = ${m.id}_begin() }`)
    .join('\n');
  const when = (m: ReaderCollector) => ((m.every ?? 1) > 1 ? ` && kvN % ${m.every} == 0` : '');
  const tick = members
    .map((m) => `  if (${on(m)}${when(m)}) { emitMember = "${m.id}"; ${on(m)} = ${m.id}_tick() }`)
    .join('\n');
  return `${EMIT_AWK}${RD_AWK}${members.map((m) => m.reader.awk).join('\n')}
BEGIN {
  pid = ENVIRON["KV_PID"]; kvOn = " " ENVIRON["KV_ON"] " "; kvN = -1; emitHold = 1
${begin}
  emitMember = ""; emitFlush()
  if (!(${anyOn})) exit 0
}
{
  split("", kvRead); kvN++
  if ($0 == "+" && (getline kvLine) > 0) { kvProcs = kvLine; kvListed++ }
${tick}
  emitMember = ""; emitFlush()
  if (!(${anyOn})) exit 0
}
`;
}

/**
 * The script of these readers: each member's setup, then, if any can run, one ticker and one awk
 * for all of them. One member: its own script (its args as they are); several: a shared one.
 */
export function readerScript(members: readonly ReaderCollector[]): string {
  if (members.length === 0) throw new Error('a reader script needs a reader');
  const shared = members.length > 1;
  const setups = members.map((m) => `${m.id}_setup() {\n${m.reader.setupSh.trim()}\n}`).join('\n');
  // Shared: the member's args are one shell-quoted word ($1 after the shift for the first member),
  // split again by eval; its lines are tagged with its own id when the launcher tags at all.
  const run = members
    .map((m, i) =>
      shared
        ? `[ -n "$TAG" ] && KVSCOPE_TAG=${m.id}; eval "${m.id}_setup \${${i + 1}}" && ON="$ON ${m.id}"`
        : `${m.id}_setup "$@" && ON="$ON ${m.id}"`,
    )
    .join('\n');
  return `#!/bin/sh
# KVScope reader script (shared/collectors/reader-script.ts): ${members.map((m) => m.id).join(', ')}.
# One ticker and one awk, no process per tick. $1 = pid, $2 = interval in seconds, then ${shared ? "one word per reader, that reader's arguments" : 'its arguments'}.
${SAY_SH}
P="$1"; I="$2"; shift 2
export KV_PID="$P"
TAG="$KVSCOPE_TAG"; TICK_ARGS=""; ON=""
${setups}
${run}
KVSCOPE_TAG="$TAG"
[ -n "$ON" ] || exit 0
export KV_ON="$ON"
${TICKER_SH}
${AWK_INTERACTIVE_SH}
tick $TICK_ARGS | awk $AWKI ${awkWord(readerAwk(members))}
`;
}

/** How the launcher starts collectors: one pipeline per collector, or one for readers that share it. */
export interface CollectorPipeline {
  /** The collector's id, or `readers<interval ms>` for a shared reader script. */
  id: string;
  intervalMs: number;
  script: string;
  /** After `<pid> <interval s>`. */
  args: string[];
  tagsOwnLines: boolean;
  /** The collectors whose lines it writes (its own id for a collector alone). */
  members: string[];
}

interface Planned {
  def: CollectorDefinition & { script: string };
  intervalMs: number;
}

/** Readers that share a ticker: it ticks at `baseMs`, each member's interval a whole multiple of it. */
interface ReaderGroup {
  baseMs: number;
  members: Planned[];
}

/** The readers in groups that can share a ticker, each at its smallest interval. Fewest groups, fastest first. */
function readerGroups(readers: readonly Planned[]): ReaderGroup[] {
  const groups: ReaderGroup[] = [];
  for (const r of [...readers].sort((x, y) => x.intervalMs - y.intervalMs)) {
    const g = groups.find((q) => r.intervalMs % q.baseMs === 0);
    if (g) g.members.push(r);
    else groups.push({ baseMs: r.intervalMs, members: [r] });
  }
  return groups;
}

/**
 * The pipelines of a run's planned collectors, in plan order: readers whose intervals are whole
 * multiples of the fastest one's share its script (two or more of them; each ticks at its own
 * interval in it, see readerGroups); every other collector has its own.
 */
export function collectorPipelines(planned: readonly Planned[]): CollectorPipeline[] {
  const groupOf = new Map<Planned, ReaderGroup>();
  for (const g of readerGroups(planned.filter((p) => p.def.reader)))
    if (g.members.length > 1) for (const m of g.members) groupOf.set(m, g);
  const out: CollectorPipeline[] = [];
  const done = new Set<ReaderGroup>();
  for (const p of planned) {
    const group = groupOf.get(p);
    if (!group) {
      out.push({
        id: p.def.id,
        intervalMs: p.intervalMs,
        script: p.def.script,
        args: p.def.scriptArgs?.(p.intervalMs) ?? [],
        tagsOwnLines: p.def.tagsOwnLines === true,
        members: [p.def.id],
      });
      continue;
    }
    if (done.has(group)) continue;
    done.add(group);
    // Members in plan order: the order of their arguments and of their turns in a tick.
    const members = planned.filter((q) => group.members.includes(q));
    out.push({
      id: `readers${Math.round(group.baseMs)}`,
      intervalMs: group.baseMs,
      script: readerScript(
        members.map((g) => ({ id: g.def.id, reader: g.def.reader!, every: g.intervalMs / group.baseMs })),
      ),
      args: members.map((g) => shellJoin(g.def.scriptArgs?.(g.intervalMs) ?? [])),
      tagsOwnLines: true,
      members: members.map((g) => g.def.id),
    });
  }
  return out;
}
