// The engine's memory map at a low rate: the largest anonymous mapping (on growth-mode engines
// the KV cache, one mapping that grows with the tokens), the anonymous total and the number of
// mappings. A reader (shared/collectors/reader-script.ts): where /proc/<pid>/smaps is readable the
// run's reader awk reads it per tick with getline (no process per tick; at its 5 s default, every
// 5th tick of the readers at 1 s) and prints it as a `pmap -x` table; else `pmap -x` runs once a
// tick (one fork every 5 s by default). Either way the table is read by the one pmap parser
// (shared/parsers/pmap-parser.ts) through shared/collectors/pmap-collector-parser.ts. The table
// sums every mapping of smaps, so it also gives the totals on kernels without smaps_rollup (< 4.14).
import type { CollectorDefinition, ReaderPart } from './collector';
import { createPmapCollectorParser } from './pmap-collector-parser';
import { unchangedWalkEveryTicks } from './procfs-sampler-script';
import { readerScript } from './reader-script';

/** Said when the engine's smaps cannot be read: what a user sees and what to do about it. */
export const PMAP_DENIED_REASON =
  '/proc/<pid>/smaps of the engine is not readable: it runs as another user; profile as that user or as root';
const DENIED_REASON = PMAP_DENIED_REASON.replace('<pid>', '$P');

// Per tick: `t=<uptime>`, then smaps as `pmap -x` (procps-ng 3.3 columns) with its `total` footer.
// Its argument: while statm is unchanged, walk smaps again only every N ticks (default 0: every tick).
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
const reader: ReaderPart = {
  setupSh: `U="\${1:-0}"
# smaps there but not readable: another user's process. pmap reads the same file (or maps, under
# the same ptrace check), so it cannot help; it is only for kernels without smaps.
if read -r _ < "/proc/$P/smaps" 2>/dev/null; then M=smaps
elif [ -e "/proc/$P/smaps" ]; then say "! denied ${DENIED_REASON}"; return 1
elif [ -d "/proc/$P" ] && command -v pmap >/dev/null 2>&1; then M=pmap
elif [ -d "/proc/$P" ]; then say "! absent no /proc/<pid>/smaps (kernel without CONFIG_PROC_PAGE_MONITOR) and no pmap"; return 1
else return 1; fi
say "H v=1 source=$M"
export KV_PMAP_SOURCE="$M" KV_PMAP_STALE="$U"`,
  awk: String.raw`
function pmap_row(   ) {
  if (pmap_addr == "") return
  pmap_o = pmap_o sprintf("%s %d %d %d %s %s\n", pmap_addr, pmap_size, pmap_rss, pmap_dirty, pmap_mode, (pmap_name == "" ? "[ anon ]" : pmap_name))
  pmap_ts += pmap_size; pmap_tr += pmap_rss; pmap_td += pmap_dirty; pmap_addr = ""
}
function pmap_begin() {
  pmap_smaps = (ENVIRON["KV_PMAP_SOURCE"] == "smaps"); pmap_stale = ENVIRON["KV_PMAP_STALE"] + 0
  pmap_walkSt = ""; pmap_walkTick = 0; pmap_ticks = -1
  return 1
}
function pmap_tick(   ua, up, st, f, l, c, w, n, i, p, range, cmd) {
  pmap_ticks++
  split(rdTick("/proc/uptime"), ua, " "); up = ua[1]
  # Gone, or ending (its memory let go: statm all zeros, as a zombie's).
  st = rdTick("/proc/" pid "/statm"); if (st == "" || st ~ /^0 /) return 0
  if (!pmap_smaps) {
    # No smaps on this kernel: pmap -x itself, a fork a tick (every 5 s by default). In the C locale:
    # procps-ng translates its header and footer (de: "Adresse Kbytes RSS Dirty Modus Zuordnung").
    cmd = "LC_ALL=C exec pmap -x " pid " 2>&1"; pmap_o = "t=" up
    while ((cmd | getline l) > 0) pmap_o = pmap_o "\n" l
    close(cmd)
    # The engine ended while pmap read it (a table without mappings, or none): the end, not a reading.
    st = rdFresh("/proc/" pid "/statm"); if (st == "" || st ~ /^0 /) return 0
    emit(pmap_o)
    return 1
  }
  # statm unchanged since the last walk (same size, same resident pages): the walk would read
  # the same map, so the tick says "the same table" in one line, until "stale" ticks have passed.
  if (st == pmap_walkSt && pmap_stale > 0 && pmap_ticks - pmap_walkTick < pmap_stale) { emit("t=" up " same"); return 1 }
  f = "/proc/" pid "/smaps"
  if ((getline l < f) <= 0) { close(f); return 0 }
  pmap_walkSt = st; pmap_walkTick = pmap_ticks
  pmap_o = "Address           Kbytes     RSS   Dirty Mode  Mapping\n"
  pmap_addr = ""; pmap_ts = 0; pmap_tr = 0; pmap_td = 0
  do {
    c = substr(l, 1, 1)
    if (c == "S") {
      if (substr(l, 1, 5) == "Size:") { split(l, w, " "); pmap_size = w[2] }
      else if (substr(l, 1, 13) == "Shared_Dirty:") { split(l, w, " "); pmap_dirty += w[2] }
    } else if (c == "R") {
      if (substr(l, 1, 4) == "Rss:") { split(l, w, " "); pmap_rss = w[2] }
    } else if (c == "P") {
      if (substr(l, 1, 14) == "Private_Dirty:") { split(l, w, " "); pmap_dirty += w[2] }
    } else if (l ~ /^[0-9a-f]+-[0-9a-f]+ /) {
      pmap_row()
      n = split(l, w, " ")
      split(w[1], range, "-"); pmap_addr = range[1]
      p = w[2]; pmap_mode = substr(p, 1, 3) (substr(p, 4, 1) == "s" ? "s" : "-") "-"
      pmap_name = ""; for (i = 6; i <= n; i++) pmap_name = pmap_name (i > 6 ? " " : "") w[i]
      pmap_size = 0; pmap_rss = 0; pmap_dirty = 0
    }
  } while ((getline l < f) > 0)
  close(f); pmap_row()
  pmap_o = pmap_o "---------------- ------- ------- ------- \n" sprintf("total kB %d %d %d\n", pmap_ts, pmap_tr, pmap_td)
  emit("t=" up "\n" substr(pmap_o, 1, length(pmap_o) - 1))
  return 1
}
`,
};

export const pmapCollector: CollectorDefinition = {
  id: 'pmap',
  title: 'Memory map of the engine (smaps / pmap -x)',
  script: readerScript([{ id: 'pmap', reader }]),
  reader,
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
