// The engine's memory cgroup: what the kernel charges the engine and where it kills it. A process
// in a memory cgroup is OOM-killed when the group's charge cannot stay under its limit after
// reclaim — and the charge is not RSS: it is anonymous memory plus kernel memory (page tables,
// slab) plus page cache the group read first, of which only the part that cannot be dropped
// (shmem, dirty, writeback) stands in the way. The analysis (shared/analysis/run-analysis.ts)
// projects that charge; this collector reads it.
//
// cgroup v1 (the memory controller's own hierarchy) and v2 (the unified one) alike: its awk
// finds the engine's group in /proc/<pid>/cgroup once, then reads the group's files with getline
// per tick (no fork; a reader, shared/collectors/reader-script.ts), one line a tick, parsed by shared/collectors/cgroup-parser.ts:
//
//   H v=1 cg=1 path=/kvscope-abc
//   t=<uptime s>|use <usage>|fail <failcnt>|oomctl oom_kill_disable 0 under_oom 0 oom_kill 0|kmem <bytes>|st total_rss …
//   t=<uptime s>|use <memory.current>|lim <memory.max of the group and of each ancestor, up to the root>|ev max 0 oom 0 oom_kill 0|st anon …
//
// Arguments after `<pid> <interval>`: the cgroup root (default /sys/fs/cgroup) and the proc root
// (default /proc), so tests point the script at a fixture tree laid out like the kernel's.
import type { CollectorDefinition, ReaderPart } from './collector';
import { readerScript } from './reader-script';
import { createCgroupParser } from './cgroup-parser';

/** Where the kernel mounts the cgroup hierarchies (v2 unified root, or v1 `<root>/memory`). */
export const CGROUP_ROOT = '/sys/fs/cgroup';

// The memory.stat keys the parser reads (shared/collectors/cgroup-parser.ts): only these leave the
// target, so a tick stays ~300 bytes instead of ~1.5 KiB.
const V2_STAT_KEYS =
  'anon|file|kernel|kernel_stack|pagetables|sec_pagetables|percpu|slab|sock|shmem|file_dirty|file_writeback';
const V1_STAT_KEYS = 'total_rss|total_cache|total_shmem|total_dirty|total_writeback|hierarchical_memory_limit';

// Its part of a reader script (shared/collectors/reader-script.ts). Arguments: the cgroup root and
// the proc root.
const reader: ReaderPart = {
  setupSh: `export KV_CGROUP_ROOT="\${1:-${CGROUP_ROOT}}" KV_CGROUP_PROC="\${2:-/proc}"`,
  awk: String.raw`
# The kept keys of a memory.stat, in the file's order. (getline into $0 splits in C, and a key is
# one lookup: a third of the CPU of split() and a regular expression on each of its ~40 lines.)
function cgroup_stat(f, keys,   r) {
  r = ""
  while ((getline < f) > 0) if ($1 in keys) r = r " " $1 " " $2
  close(f); return r
}
function cgroup_begin(   root, proc, v1, v2, f, l, i, rest, j, ctl, p, m, a) {
  root = ENVIRON["KV_CGROUP_ROOT"]; proc = ENVIRON["KV_CGROUP_PROC"]; cgroup_proc = proc
  split("${V1_STAT_KEYS}", a, "|"); for (i in a) cgroup_v1keys[a[i]] = 1
  split("${V2_STAT_KEYS}", a, "|"); for (i in a) cgroup_v2keys[a[i]] = 1
  v1 = ""; v2 = ""; f = proc "/" pid "/cgroup"
  while ((getline l < f) > 0) {
    i = index(l, ":"); rest = substr(l, i + 1); j = index(rest, ":")
    ctl = "," substr(rest, 1, j - 1) ","; p = substr(rest, j + 1)
    if (index(ctl, ",memory,") > 0) v1 = p; else if (substr(l, 1, 3) == "0::") v2 = p
  }
  close(f)
  if (v1 == "" && v2 == "") { emit("! absent the engine is in no memory cgroup (" f ")"); return 0 }
  if (v1 != "") {
    m = root "/memory"
    if (rd(m "/memory.usage_in_bytes") == "") {
      m = ""
      while ((getline l < (proc "/mounts")) > 0) {
        split(l, a, " ")
        if (a[3] == "cgroup" && index("," a[4] ",", ",memory,") > 0) m = a[2]
      }
      close(proc "/mounts")
    }
    if (m == "") { emit("! absent the memory controller (cgroup v1) is not mounted"); return 0 }
    cgroup_ver = 1; cgroup_dir = m (v1 == "/" ? "" : v1)
  } else {
    if (index(" " rd(root "/cgroup.controllers") " ", " memory ") == 0) {
      emit("! absent the memory controller is not enabled in " root " (cgroup v2)"); return 0
    }
    cgroup_ver = 2; cgroup_dir = root (v2 == "/" ? "" : v2)
    # memory.max of the group and of every ancestor below the root: the smallest one is the limit.
    cgroup_n = 0; p = v2
    while (p != "/" && p != "") { cgroup_lims[++cgroup_n] = root p "/memory.max"; sub(/\/[^\/]*$/, "", p) }
  }
  if (rd(cgroup_dir (cgroup_ver == 1 ? "/memory.usage_in_bytes" : "/memory.current")) == "") {
    emit("! denied cannot read " cgroup_dir); return 0
  }
  emit("H v=1 cg=" cgroup_ver " path=" (cgroup_ver == 1 ? v1 : v2))
  return 1
}
function cgroup_tick(   dir, ua, oc, f, l, out, lim, ev, i) {
  if (rdTick(cgroup_proc "/" pid "/stat") == "") return 0
  split(rdTick(cgroup_proc "/uptime"), ua, " "); dir = cgroup_dir
  if (cgroup_ver == 1) {
    oc = ""; f = dir "/memory.oom_control"
    while ((getline l < f) > 0) oc = oc " " l
    close(f)
    out = "t=" ua[1] "|use " rd(dir "/memory.usage_in_bytes") "|fail " rd(dir "/memory.failcnt") "|oomctl" oc
    out = out "|kmem " rd(dir "/memory.kmem.usage_in_bytes") "|st" cgroup_stat(dir "/memory.stat", cgroup_v1keys)
  } else {
    lim = ""; for (i = 1; i <= cgroup_n; i++) lim = lim " " rd(cgroup_lims[i])
    ev = ""; f = dir "/memory.events"
    while ((getline l < f) > 0) ev = ev " " l
    close(f)
    out = "t=" ua[1] "|use " rd(dir "/memory.current") "|lim" lim "|ev" ev "|st" cgroup_stat(dir "/memory.stat", cgroup_v2keys)
  }
  emit(out)
  return 1
}
`,
};

export const cgroupCollector: CollectorDefinition = {
  id: 'cgroup',
  title: "The engine's memory cgroup: limit, charge, failures, OOM kills",
  script: readerScript([{ id: 'cgroup', reader }]),
  reader,
  tagsOwnLines: true,
  // Its ticks are the charge curve the OOM horizon is projected from: the same ticks as the
  // memory curve of the procfs sampler.
  interval: 'run',
  createParser: createCgroupParser,
  series: [
    { key: 'cgroupLimitBytes', label: 'cgroup memory limit', unit: 'bytes', kind: 'gauge' },
    { key: 'cgroupUsageBytes', label: 'cgroup charge (usage)', unit: 'bytes', kind: 'gauge' },
    { key: 'cgroupAnonBytes', label: 'cgroup anonymous memory', unit: 'bytes', kind: 'gauge' },
    { key: 'cgroupFileBytes', label: 'cgroup page cache', unit: 'bytes', kind: 'gauge' },
    { key: 'cgroupKernelBytes', label: 'cgroup kernel memory', unit: 'bytes', kind: 'gauge' },
    { key: 'cgroupUnreclaimableFileBytes', label: 'cgroup page cache it cannot drop', unit: 'bytes', kind: 'gauge' },
    { key: 'cgroupLimitHits', label: 'cgroup limit hits (failcnt / max events)', unit: 'count', kind: 'counter' },
    { key: 'cgroupOomKills', label: 'cgroup OOM kills', unit: 'count', kind: 'counter' },
  ],
};
