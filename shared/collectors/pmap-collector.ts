// The engine's memory map at a low rate: the largest anonymous mapping (on growth-mode engines
// the KV cache, one mapping that grows with the tokens), the anonymous total and the number of
// mappings. Where /proc/<pid>/smaps is readable one long-lived awk reads it per tick with getline
// (no process per tick) and prints it as a `pmap -x` table; else `pmap -x` runs once a tick (one
// fork every 5 s by default). Either way the table is read by the one pmap parser
// (shared/parsers/pmap-parser.ts) through shared/collectors/pmap-collector-parser.ts. The table
// sums every mapping of smaps, so it also gives the totals on kernels without smaps_rollup (< 4.14).
import type { CollectorDefinition } from './collector';
import { AWK_INTERACTIVE_SH, awkWord, EMIT_AWK, SAY_SH, TAG_LINES_SH, TICKER_SH } from './collector-script';
import { createPmapCollectorParser } from './pmap-collector-parser';
import { unchangedWalkEveryTicks } from './procfs-sampler-script';

// Per tick: `t=<uptime>`, then smaps as `pmap -x` (procps-ng 3.3 columns) with its `total` footer.
// The tick leaves in ONE printf: mawk's unbuffered output (-W interactive) writes every printf
// argument apart, and a printf per row made ~1,500 write(2) calls a tick (~0.7 ms of CPU a tick on
// the 2-core x86 VM). Only the lines it keeps are split: smaps has ~20 lines a mapping, four of
// them read here. What remains is the kernel's: generating smaps walks every page table of the
// process (~5 ms for a node process with ~120 mappings and 1.2 GB mapped, the same for `pmap -x`).
// So a tick first reads statm (no walk): unchanged since the last walk, the tick is one line,
// `t=<uptime> same` (the last table again, at this time: the parser repeats its reading), up to
// UNCHANGED_WALK_PERIOD_MS (procfs-sampler-script.ts). Printing the whole table again instead (~6 KB, ~130
// rows of a node process through the awk and the launcher's tag filter) made such a tick cost the
// pipeline 0.39 ms of CPU; the one line, 0.21 ms, most of it the ticker and the two reads (perf
// stat, 2-core x86 VM, the engine stopped so its map could not change).
const smapsAwk = String.raw`
function row() {
  if (addr == "") return
  o = o sprintf("%s %d %d %d %s %s\n", addr, size, rss, dirty, mode, (name == "" ? "[ anon ]" : name))
  ts += size; tr += rss; td += dirty; addr = ""
}
BEGIN { stale += 0; walkSt = ""; walkTick = 0; tick = -1 }
{
  tick++
  f = "/proc/" pid "/smaps"
  if ((getline l < "/proc/uptime") > 0) { split(l, ua, " "); close("/proc/uptime") }
  # statm unchanged since the last walk (same size, same resident pages): the walk would read
  # the same map, so the tick says "the same table" in one line, until "stale" ticks have passed.
  sf = "/proc/" pid "/statm"; st = ""; if ((getline st < sf) > 0) close(sf); else { close(sf); exit 0 }
  if (st == walkSt && stale > 0 && tick - walkTick < stale) { emit("t=" ua[1] " same"); next }
  if ((getline l < f) <= 0) { close(f); exit 0 }
  walkSt = st; walkTick = tick
  o = "Address           Kbytes     RSS   Dirty Mode  Mapping\n"
  addr = ""; ts = 0; tr = 0; td = 0
  do {
    c = substr(l, 1, 1)
    if (c == "S") {
      if (substr(l, 1, 5) == "Size:") { split(l, w, " "); size = w[2] }
      else if (substr(l, 1, 13) == "Shared_Dirty:") { split(l, w, " "); dirty += w[2] }
    } else if (c == "R") {
      if (substr(l, 1, 4) == "Rss:") { split(l, w, " "); rss = w[2] }
    } else if (c == "P") {
      if (substr(l, 1, 14) == "Private_Dirty:") { split(l, w, " "); dirty += w[2] }
    } else if (l ~ /^[0-9a-f]+-[0-9a-f]+ /) {
      row()
      n = split(l, w, " ")
      split(w[1], range, "-"); addr = range[1]
      p = w[2]; mode = substr(p, 1, 3) (substr(p, 4, 1) == "s" ? "s" : "-") "-"
      name = ""; for (i = 6; i <= n; i++) name = name (i > 6 ? " " : "") w[i]
      size = 0; rss = 0; dirty = 0
    }
  } while ((getline l < f) > 0)
  close(f); row()
  o = o "---------------- ------- ------- ------- \n" sprintf("total kB %d %d %d\n", ts, tr, td)
  emit("t=" ua[1] "\n" substr(o, 1, length(o) - 1))
}
`;

/** Said when the engine's smaps cannot be read: what a user sees and what to do about it. */
export const PMAP_DENIED_REASON =
  '/proc/<pid>/smaps of the engine is not readable: it runs as another user; profile as that user or as root';
const DENIED_REASON = PMAP_DENIED_REASON.replace('<pid>', '$P');

function pmapScript(): string {
  return `#!/bin/sh
# KVScope pmap collector. $1 = pid, $2 = interval in seconds, $3 = while statm is unchanged,
# walk smaps again only every N ticks (default 0: every tick).
${SAY_SH}
P="$1"; I="$2"; U="\${3:-0}"
# smaps there but not readable: another user's process. pmap reads the same file (or maps, under
# the same ptrace check), so it cannot help; it is only for kernels without smaps.
if read -r _ < "/proc/$P/smaps" 2>/dev/null; then M=smaps
elif [ -e "/proc/$P/smaps" ]; then say "! denied ${DENIED_REASON}"; exit 0
elif [ -d "/proc/$P" ] && command -v pmap >/dev/null 2>&1; then M=pmap
elif [ -d "/proc/$P" ]; then say "! absent no /proc/<pid>/smaps (kernel without CONFIG_PROC_PAGE_MONITOR) and no pmap"; exit 0
else exit 0; fi
say "H v=1 source=$M"
${TICKER_SH}
${AWK_INTERACTIVE_SH}
${TAG_LINES_SH}
if [ "$M" = smaps ]; then
  tick | awk $AWKI -v pid="$P" -v stale="$U" ${awkWord(EMIT_AWK + smapsAwk)}
else
  tick | while read -r _; do
    [ -d "/proc/$P" ] || exit 0
    read -r up _ < /proc/uptime; echo "t=$up"; pmap -x "$P" 2>&1
  done | tag_lines
fi
`;
}

export const pmapCollector: CollectorDefinition = {
  id: 'pmap',
  title: 'Memory map of the engine (smaps / pmap -x)',
  script: pmapScript(),
  tagsOwnLines: true,
  // Reading a full smaps walks every page table of the process (milliseconds for a few GB): every
  // 5 s sees a KV cache grow without costing the engine; faster than 1 s is never useful.
  interval: { defaultMs: 5000, minMs: 1000, maxMs: 300_000 },
  scriptArgs: (intervalMs) => [String(unchangedWalkEveryTicks(intervalMs))],
  createParser: createPmapCollectorParser,
  series: [
    { key: 'pmap.largestAnonBytes', label: 'largest anonymous mapping (resident)', unit: 'bytes', kind: 'gauge' },
    { key: 'pmap.anonBytes', label: 'anonymous mappings (resident)', unit: 'bytes', kind: 'gauge' },
    { key: 'pmap.mappings', label: 'mappings', unit: 'count', kind: 'gauge' },
  ],
};
