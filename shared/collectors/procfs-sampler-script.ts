// The procfs sampler that runs ON the target, a reader (shared/collectors/reader-script.ts): its sh
// setup lists thermal zones and cpufreq policies once, then ONE long-lived awk (shared with the
// run's other readers) reads every file with getline per tick
// (no process spawned per tick: ~0.06 ms a tick against ~6 ms for one `cat` a tick, measured on
// a 2-core x86 VM). Ticks come from the collectors' ticker (TICKER_SH: perl, bash, or `sleep`
// where there is neither), straight into the awk. Each tick prints one line, parsed by shared/collectors/procfs-sampler-parser.ts:
//
//   H v=1 pagesize=4096 clk=100 zones=cpu-thermal,gpu-thermal policies=policy0,policy4
//   S t=<uptime s> pid=<measured> grp=<processes in the engine's group> st=<statm fields,> rss= anon= file= shmem= swap= hwm= thr= [pss= sanon=] (kB)
//     mt= ma= mf= ca= swt= swf= nvmap= (meminfo kB) cpu=<jiffies,> pc=<utime,stime> tz0= … cf0= … cm0= …
//   S t=<uptime s> gone=1            when the process has ended (then the sampler exits)
//
//
// The pid given is the engine's process group (and session) leader: the sampler measures the
// group's largest member, re-chosen at each rescan (see GROUP_RESCAN_PERIOD_MS) and whenever the measured one
// ends, and says which (pid=). At a rescan tick only, the ticker lists /proc/[0-9]* (a readdir,
// no fork: ~0.3 ms of CPU for 400 processes under dash on the 2-core x86 VM; the ticker,
// shared/collectors/collector-script.ts, is the one process besides the awk that wakes each tick)
// and the awk reads the stat line of each process it has not seen yet and of each member (~10 µs
// a process).
// Checked with mawk 1.3.4 (Debian), gawk 5 and busybox awk; bash 5 and dash 0.5.12.
// /proc/uptime is CLOCK_BOOTTIME with 10 ms resolution: the target's monotonic time.
import type { ReaderPart } from './collector';
import { readerScript } from './reader-script';

const awkProgram = String.raw`
# Fields of /proc/<p>/stat after the command name into procfs_sa[] (comm may hold spaces and
# parentheses, so count from the last ")"); [1] = state, [3] = pgrp, [4] = session,
# [22] = rss pages. False when the process is gone. procfs_saOf: whose fields they are. Read
# fresh (a member may end within the tick) and left for the other readers of this tick (the
# engine's stat: one read, not one each).
function procfs_stat(p,   l, i) {
  procfs_saOf = ""
  if (p == "") return 0
  l = rdFresh("/proc/" p "/stat"); if (l == "") return 0
  i = length(l); while (i > 0 && substr(l, i, 1) != ")") i--
  split(substr(l, i + 2), procfs_sa, " "); procfs_saOf = p; return 1
}
# The engine's process group: every process whose group or session is the engine's (the launcher
# starts it in its own session; wrappers fork or exec inside it), and the given process itself
# (a pid that leads no group). Measure the largest member by
# RSS, never a zombie nor a process with no address space ([21], vsize, is 0 once an exiting
# process has let go of its memory, before it is a zombie): a passing child (sleep, a shell's
# subshell) is small and is not chosen.
# A process found outside the group stays outside for its life (setpgid can only join a group of
# its own session, and a new session is never the engine's), so its stat is read once, not at
# every rescan: with 400 processes that was ~3 ms of CPU a rescan (2-core x86 VM). Kernel threads
# (no address space) and zombies outside the group too: tested for membership before they are
# passed over, else each was read again at every rescan (~70 kernel threads on the 2-core x86 VM,
# a hundred or more on an 8-core board: ~1.5 ms of CPU a rescan here).
# A pid gone from the list is forgotten (reuse of a pid within one rescan would need the kernel's
# pid counter to wrap in that time).
function procfs_choose(   n, i, p, best, bestRss, now) {
  n = split(procfs_procs, procfs_pl, " "); best = ""; bestRss = -1; procfs_members = 0
  for (i = 1; i <= n; i++) {
    p = substr(procfs_pl[i], 7); now[p] = 1
    if (p in procfs_outside) continue
    if (!procfs_stat(p)) continue
    if (p != pid && procfs_sa[3] != pid && procfs_sa[4] != pid) { procfs_outside[p] = 1; continue }
    if (procfs_sa[1] == "Z" || procfs_sa[21] + 0 == 0) continue
    procfs_members++
    if (procfs_sa[22] + 0 > bestRss) { bestRss = procfs_sa[22] + 0; best = p }
  }
  for (p in procfs_outside) if (!(p in now)) delete procfs_outside[p]
  return best
}
# Reads the statm (into st) and status counters (into procfs_s[]) of process p; false when it has
# ended or its memory is gone (an exiting process: statm all zeros, status without VmRSS).
# status is read again only when statm differs from its value at the last read (or another
# process is measured), else every "stale"-th tick: both come from the same counters of the
# process's memory (statm's resident = RssAnon + RssFile + RssShmem, its shared = RssFile +
# RssShmem, in pages), so an unchanged statm is an unchanged VmRSS and RssAnon; what could move
# unseen (a peak between two ticks in VmHWM, a thread started on a cached stack) waits at most
# that period. An idle engine's tick then reads ~55 lines fewer.
# (getline into $0 splits in C; one lookup a line: ~half the CPU of split() and a chain of ifs.)
function procfs_measure(p,   f) {
  procfs_st = rdFresh("/proc/" p "/statm"); if (procfs_st == "" || procfs_st ~ /^0 /) return 0
  if (p == procfs_sP && procfs_st == procfs_sSt && procfs_stale > 0 && procfs_ticks - procfs_sTick < procfs_stale) return 1
  split("", procfs_s); f = "/proc/" p "/status"
  while ((getline < f) > 0) if ($1 in procfs_want) procfs_s[$1] = $2
  close(f)
  if (!("VmRSS:" in procfs_s)) { procfs_sP = ""; return 0 }
  procfs_sP = p; procfs_sSt = procfs_st; procfs_sTick = procfs_ticks
  return 1
}
function procfs_begin(   i) {
  procfs_nz = split(ENVIRON["KV_PROCFS_ZONES"], procfs_zp, "\n"); procfs_np = split(ENVIRON["KV_PROCFS_POLS"], procfs_pp, "\n")
  split(ENVIRON["KV_PROCFS_PCAPS"], procfs_pc, "\n"); procfs_sr = 1; procfs_ticks = 0
  procfs_every = ENVIRON["KV_PROCFS_EVERY"] + 0; if (procfs_every < 1) procfs_every = 1
  procfs_rollSt = ""; procfs_rollTick = 0; procfs_stale = ENVIRON["KV_PROCFS_STALE"] + 0
  procfs_capEvery = ENVIRON["KV_PROCFS_CAPS_EVERY"] + 0; if (procfs_capEvery < 1) procfs_capEvery = 1
  # The lines read from status and meminfo.
  procfs_nw = split("VmRSS: RssAnon: RssFile: RssShmem: VmHWM: Threads: VmSwap: MemTotal: MemAvailable: MemFree: Cached: SwapTotal: SwapFree: NvMapMemUsed:", procfs_wl, " ")
  for (i = 1; i <= procfs_nw; i++) procfs_want[procfs_wl[i]] = 1
  procfs_cur = pid; procfs_members = 1; procfs_lister = "echo /proc/[0-9]*"
  return 1
}
function procfs_tick(   up, ua, fresh, l, out, alive, ok, k, base, rs, ra, rf, rh, hw, th, vs, ps, san, f, got, a, i) {
  # A rescan: the ticker has listed the /proc/<pid> directories since this member's last tick
  # (kvListed, kvProcs: the reader script reads the listing, reader-script.ts). Between rescans a measured process that ends is replaced from the last list;
  # when no member of that list is left, "gone" waits for a fresh list (up to one rescan
  # period), so a member started since the last rescan is not missed.
  up = rdTick("/proc/uptime"); split(up, ua, " ")
  fresh = (kvListed != procfs_listed); if (fresh) { procfs_listed = kvListed; procfs_procs = kvProcs }
  out = "S t=" ua[1]
  # Between rescans: is the measured process alive? When it ended and the group's leader is gone
  # too (or a zombie: its parent has not reaped it yet), /proc is listed afresh, so
  # "gone" comes at once when no member is left: here, through a shell (awk cannot read a
  # directory; ~2 ms, but only at that tick: a leader that left its engine running costs nothing
  # while the engine runs). A listing that fails (no fork under memory pressure) is no fresh list.
  alive = 0
  if (!fresh) {
    alive = procfs_stat(procfs_cur) && procfs_sa[1] != "Z"
    if (!alive && !(procfs_stat(pid) && procfs_sa[1] != "Z")) {
      if ((procfs_lister | getline l) > 0) { procfs_procs = l; fresh = 1 }
      close(procfs_lister)
    }
  }
  if (fresh || !alive) procfs_cur = procfs_choose()
  # A process that ended since, or is ending (its memory already gone: statm all zeros, status
  # without its Vm lines), is not measured: a reading of it would be a drop to zero at the run's
  # end (the likelier the larger the engine: ~90 ms to free 512 MiB here, ~0.5 s for 4 GiB). The largest other member is; with none, "gone" (or, on an old list, the next tick).
  ok = 0
  for (k = 0; k < 3 && procfs_cur != ""; k++) { if (procfs_measure(procfs_cur)) { ok = 1; break }; procfs_cur = procfs_choose() }
  if (!ok && (procfs_cur != "" || !fresh)) return 1
  if (!ok) { emit(out " gone=1"); return 0 }
  base = "/proc/" procfs_cur
  out = out " pid=" procfs_cur " grp=" procfs_members
  gsub(/ /, ",", procfs_st); out = out " st=" procfs_st
  # Counters from status every tick (cheap). smaps_rollup walks the page tables of the whole
  # address space — milliseconds for a process with large mappings (mmap'd weights, V8's
  # reservations) — so it runs every "every"-th tick only (kernel >= 4.14; else never), and
  # while the process's statm has not changed since the last walk (same size, same resident
  # pages: an engine waiting for a prompt, a cache reserved at start and filled) only every
  # "stale"-th tick: what it would read is what it read.
  rs = procfs_s["VmRSS:"]; ra = procfs_s["RssAnon:"]; rf = procfs_s["RssFile:"]; rh = procfs_s["RssShmem:"]; hw = procfs_s["VmHWM:"]; th = procfs_s["Threads:"]
  vs = procfs_s["VmSwap:"]
  ps = ""; san = ""
  if (procfs_sr && (procfs_ticks % procfs_every) == 0 && (procfs_st != procfs_rollSt || procfs_stale < 1 || procfs_ticks - procfs_rollTick >= procfs_stale)) {
    procfs_rollSt = procfs_st; procfs_rollTick = procfs_ticks
    f = base "/smaps_rollup"; got = 0
    while ((getline l < f) > 0) {
      got = 1; split(l, a, " ")
      if (a[1] == "Pss:") ps = a[2]; else if (a[1] == "Anonymous:") san = a[2]
    }
    close(f); if (!got) procfs_sr = 0
  }
  out = out " rss=" rs " anon=" ra " file=" rf " shmem=" rh " swap=" vs " hwm=" hw " thr=" th
  if (ps != "") out = out " pss=" ps " sanon=" san
  split("", procfs_v); f = "/proc/meminfo"
  while ((getline < f) > 0) if ($1 in procfs_want) procfs_v[$1] = $2
  close(f)
  out = out " mt=" procfs_v["MemTotal:"] " ma=" procfs_v["MemAvailable:"] " mf=" procfs_v["MemFree:"] " ca=" procfs_v["Cached:"]
  out = out " swt=" procfs_v["SwapTotal:"] " swf=" procfs_v["SwapFree:"] " nvmap=" procfs_v["NvMapMemUsed:"]
  l = rd("/proc/stat"); split(l, a, " ")
  out = out " cpu=" a[2] "," a[3] "," a[4] "," a[5] "," a[6] "," a[7] "," a[8] "," a[9]
  # Its CPU time from the stat read at this tick's start when there was one.
  if (procfs_saOf == procfs_cur || procfs_stat(procfs_cur)) out = out " pc=" procfs_sa[12] "," procfs_sa[13]
  # rdTick: the vcgencmd reader reads the same zone and policy0's clock on a Pi (one read a tick).
  # A zone whose reads keep failing is tried every "capEvery"-th tick (its cap's period), not every
  # tick: an Orin's cv0–cv2 zones fail (EAGAIN) on every read while those engines are off, a Thor's
  # gpu-thermal while its rail is gated (corpus thermal_cpufreq/05 (G)), each read a call into the
  # firmware to learn so. Three failures in a row, then one try a period; a reading, and it is read
  # every tick again. The ticks between say "no reading" (tzN=), as a failed read does.
  for (i = 1; i <= procfs_nz; i++) if (procfs_zp[i] != "") {
    if (procfs_zFails[i] < 3 || procfs_ticks - procfs_zTried[i] >= procfs_capEvery) {
      l = rdTick(procfs_zp[i]); procfs_zTried[i] = procfs_ticks
      procfs_zFails[i] = l == "" ? procfs_zFails[i] + 1 : 0
    } else l = ""
    out = out " tz" (i - 1) "=" l
  }
  for (i = 1; i <= procfs_np; i++) if (procfs_pp[i] != "") {
    l = rdTick(procfs_pp[i]); out = out " cf" (i - 1) "=" l
    procfs_moved[i] = (procfs_ticks == 0 || l != procfs_cfWas[i]); procfs_cfWas[i] = l
  }
  # Each policy's cap (scaling_max_freq): where the thermal framework's cpufreq cooling, or a
  # user, holds the cluster below its hardware maximum, whatever the load (an idle cluster sits
  # at its floor with its cap at the top). Read again when the policy's clock moved since the last
  # tick, else every "capEvery"-th tick, the last reading carried between (rdCap,
  # CAP_RECHECK_PERIOD_MS in shared/collectors/reader-script.ts).
  for (i = 1; i <= procfs_np; i++)
    if (procfs_pc[i] != "") out = out " cm" (i - 1) "=" rdCap(procfs_pc[i], procfs_moved[i], procfs_ticks, procfs_capEvery)
  emit(out); procfs_ticks++
  return 1
}
`;

/**
 * How often smaps_rollup (PSS, exact anonymous pages) is read. It costs milliseconds per read
 * for processes with large address spaces (measured: ~3 ms for a node process with 1.2 GB
 * mapped, on a 2-core x86 VM), while the status counters cost ~0.05 ms: every 5 s keeps it
 * under 0.1 % of a core.
 */
export const SMAPS_ROLLUP_PERIOD_MS = 5000;

export function smapsEveryTicks(intervalMs: number): number {
  return Math.max(1, Math.round(SMAPS_ROLLUP_PERIOD_MS / intervalMs));
}

/**
 * How often a page-table walk (smaps_rollup here, smaps in shared/collectors/pmap-collector.ts)
 * is made again while the process's statm is what it was at the last walk: its size and resident
 * pages unchanged, the walk would read the same. Not never: pages can move between mappings, and
 * PSS changes when another process maps or drops the same file pages. During decode the cache
 * grows, statm changes, and the walks keep their own period.
 */
export const UNCHANGED_WALK_PERIOD_MS = 30_000;

export function unchangedWalkEveryTicks(intervalMs: number): number {
  return Math.max(1, Math.round(UNCHANGED_WALK_PERIOD_MS / intervalMs));
}

/**
 * How often the sampler looks for a larger member of the engine's group (an engine a wrapper
 * starts after its own set-up). A rescan lists /proc (~0.3 ms of CPU with 400 processes) and
 * reads the stat of new processes and members only. Wrappers start their engine within seconds,
 * so the first GROUP_RESCAN_FAST_COUNT rescans come every GROUP_RESCAN_PERIOD_MS, later ones every
 * GROUP_RESCAN_SLOW_PERIOD_MS (at 1 Hz a rescan a second was ~0.03 % of a core, the sampler's
 * largest part after smaps_rollup). A measured process that ends is replaced at once by the
 * largest member of the last list, or, when the group's leader is gone too, of a listing the awk
 * makes at once (a shell it starts, ~2 ms, only at that tick), so the run is "gone" at the next
 * tick, not at the next slow rescan.
 */
export const GROUP_RESCAN_PERIOD_MS = 1000;
export const GROUP_RESCAN_FAST_COUNT = 10;
export const GROUP_RESCAN_SLOW_PERIOD_MS = 10_000;

export function rescanEveryTicks(intervalMs: number, periodMs = GROUP_RESCAN_PERIOD_MS): number {
  return Math.max(1, Math.round(periodMs / intervalMs));
}

/**
 * The sampler's part of a reader script (shared/collectors/reader-script.ts). Its arguments: $1 =
 * read smaps_rollup every N ticks (default 1), $2 = re-choose the measured process every N ticks
 * (default 1) for the first GROUP_RESCAN_FAST_COUNT rescans, $3 = every N ticks after them
 * (default: $2), $4 = while statm is unchanged, read smaps_rollup again only every N ticks
 * (default 0: every $1), $5 = while a policy's clock stays the same, read its cap every N ticks
 * (default 1: every tick; see CAP_RECHECK_PERIOD_MS in reader-script.ts). One line per tick.
 */
export const procfsReader: ReaderPart = {
  setupSh: `E="\${1:-1}"; R="\${2:-1}"; S="\${3:-$R}"; U="\${4:-0}"; C="\${5:-1}"
PS=$(getconf PAGESIZE 2>/dev/null || getconf PAGE_SIZE 2>/dev/null || echo 4096)
CLK=$(getconf CLK_TCK 2>/dev/null || echo 100)
# /sys under KVSCOPE_SYSFS_ROOT where a test sets it (the board collectors' fixtures, docs/DEVELOPING.md).
SR="\${KVSCOPE_SYSFS_ROOT:-}"; SR="\${SR%/}"
zones=""; ztypes=""
for z in "$SR"/sys/class/thermal/thermal_zone*; do
  [ -r "$z/temp" ] || continue
  t=unknown; read -r t < "$z/type" 2>/dev/null
  zones="$zones$z/temp
"; ztypes="$ztypes$t,"
done
pols=""; pcaps=""; pnames=""
for p in "$SR"/sys/devices/system/cpu/cpufreq/policy*; do
  [ -r "$p/scaling_cur_freq" ] || continue
  pols="$pols$p/scaling_cur_freq
"; pnames="$pnames\${p##*/},"
  cap=""; [ -r "$p/scaling_max_freq" ] && cap="$p/scaling_max_freq"
  pcaps="$pcaps$cap
"
done
say "H v=1 pid=$P pagesize=$PS clk=$CLK zones=$ztypes policies=$pnames"
export KV_PROCFS_EVERY="$E" KV_PROCFS_STALE="$U" KV_PROCFS_CAPS_EVERY="$C" KV_PROCFS_ZONES="$zones" KV_PROCFS_POLS="$pols" KV_PROCFS_PCAPS="$pcaps"
# The ticker lists /proc itself (a readdir of every process, no fork) only at a rescan tick: every
# R ticks for the first ${GROUP_RESCAN_FAST_COUNT} rescans, then every S ticks. Nothing else wakes between the ticks
# and the awk (which lists /proc itself once the group's leader is gone).
TICK_ARGS="$R $S ${GROUP_RESCAN_FAST_COUNT}"`,
  awk: awkProgram,
};

/** The sampler as a script of its own: `sh procfs.sh <pid> <interval s> [the reader's arguments]`. */
export function procfsSamplerScript(): string {
  return readerScript([{ id: 'procfs', reader: procfsReader }]);
}
