// What runs ON the target for one run. Everything lives in one run directory:
//
//   run.conf     settings, each value shell-quoted by the client
//   launcher.sh  starts the engine in its own session (process group), the collectors and the
//                timestamping filters; records exit status and OOM kills; watchdog
//   <id>.sh      one script per collector of the run (shared/collectors/registry.ts), e.g.
//                procfs.sh, the procfs sampler (one awk)
//   spool        every line of the run, tagged and timestamped on the target's clock:
//                  X <uptime> <event> [k=v…]   launcher events (start, engine, exit, oom, end…)
//                  O <uptime> <text>           engine stdout line
//                  E <uptime> <text>           engine stderr line
//                  C <id> <text>               a line of collector <id> (its own time inside)
//   hb           heartbeat counter the client rewrites every second
//
// The client follows the spool with `tail -c +<offset> -f` and remembers its byte offset, so
// a dropped link loses nothing: on reconnect it resumes at the offset. When the client stops
// beating for WATCHDOG_S seconds (app killed, link gone for good), the watchdog ends the engine
// group, unless the user asked to keep the engine running, and removes the directory except its
// spool and run.json (electron/node/run/run-manifest.ts): `kvscope recover` imports such runs into
// sessions and only then removes them (electron/node/run/run-recovery.ts). A run left behind longer
// than LEFTOVER_RUN_DAYS is removed by the next launcher started on the target.
// Only POSIX sh, awk and coreutils/busybox are assumed on the target.
import { CGROUP_ROOT } from '../../../shared/collectors/cgroup-collector';
import { awkWord, TAG_LINES_AWK } from '../../../shared/collectors/collector-script';
import { shellJoin, shellQuote } from '../../../shared/util/shell';
import { TREE_KILL_FUNCTION_SH, WATCHDOG_KILL_GRACE_S } from './process-tree';

/**
 * RECOVERY: a run directory whose spool was last written this many days ago is removed by the
 * next launcher (recover lists it with its age until then). Two weeks: long enough to cover a
 * holiday between a crash and the next connection, short enough that a board's /tmp does not fill
 * with spools (up to SPOOL_MAX each) nobody will ever import.
 */
export const LEFTOVER_RUN_DAYS = 14;

/**
 * One collector pipeline as the launcher starts it: `sh <id>.sh <pid> <intervalS> <args…>`: a
 * collector, or readers sharing one script (shared/collectors/reader-script.ts, collectorPipelines).
 */
export interface LaunchedCollector {
  id: string;
  intervalS: number;
  args: readonly string[];
  /** Its script tags its own lines (CollectorDefinition.tagsOwnLines): no tagging awk for it. */
  tagsOwnLines?: boolean;
  /** The collectors whose lines it writes, when not just `id` (a shared reader script): each told when it stops. */
  members?: readonly string[];
}

export interface RunConf {
  engineCommand: string;
  collectors: readonly LaunchedCollector[];
  /** 0 = keep running without a client. */
  watchdogS: number;
  /** Stop writing sampler/engine lines past this size (the spool is bounded). */
  spoolMaxBytes: number;
  /** Run the engine in a memory cgroup of this size (RunRequest.memoryLimitBytes), or null. */
  memoryLimitBytes?: number | null;
  /** Where the cgroup hierarchies are mounted (tests: a fixture tree laid out like it). */
  cgroupRoot?: string;
}

/** Collector ids become shell variable names and file names: nothing else may pass. */
const COLLECTOR_ID = /^[a-z][a-z0-9]*$/;

export function runConf(conf: RunConf): string {
  for (const c of conf.collectors)
    for (const id of [c.id, ...(c.members ?? [])])
      if (!COLLECTOR_ID.test(id)) throw new Error(`bad collector id "${id}"`);
  return [
    `ENGINE=${shellQuote(conf.engineCommand)}`,
    `COLLECTORS=${shellQuote(conf.collectors.map((c) => c.id).join(' '))}`,
    `TAGGED=${shellQuote(
      conf.collectors
        .filter((c) => c.tagsOwnLines)
        .map((c) => c.id)
        .join(' '),
    )}`,
    // Each collector's arguments as one shell-quoted word list, split again by `eval set --`.
    ...conf.collectors.map((c) => `C_${c.id}_ARGS=${shellQuote(shellJoin([c.intervalS.toFixed(3), ...c.args]))}`),
    ...conf.collectors.map((c) => `C_${c.id}_MEMBERS=${shellQuote((c.members ?? [c.id]).join(' '))}`),
    `WATCHDOG_S=${shellQuote(String(Math.max(0, Math.round(conf.watchdogS))))}`,
    `SPOOL_MAX=${shellQuote(String(Math.round(conf.spoolMaxBytes)))}`,
    `MEMLIMIT=${shellQuote(conf.memoryLimitBytes ? String(Math.round(conf.memoryLimitBytes)) : '')}`,
    `CGROOT=${shellQuote(conf.cgroupRoot ?? CGROUP_ROOT)}`,
    `LEFTOVER_DAYS=${shellQuote(String(LEFTOVER_RUN_DAYS))}`,
    '',
  ].join('\n');
}

// The timestamping filter: one awk for the life of the engine, /proc/uptime read per line
// (getline, no fork). Past SPOOL_MAX bytes it counts dropped lines instead of writing them.
// Several writers append to the spool at once, so every line must leave in ONE write(2):
// `printf "%s", line "\n"` does; mawk's unbuffered (-W interactive) `print` and even
// `printf "%s\n", line` write the text and the newline apart (strace), and lines of two
// writers interleave (seen: a token glued to a sampler line).
const tsAwk = String.raw`{
  if ((getline u < "/proc/uptime") > 0) { split(u, a, " "); t = a[1] } close("/proc/uptime")
  n += length($0) + 16
  if (max > 0 && n > max) { dropped++; next }
  printf "%s", tag " " t " " $0 "\n"; fflush()
}
END { if (dropped > 0) { printf "%s", "X " t " dropped stream=" tag " lines=" dropped "\n"; fflush() } }`;

// The engine's stdout as it arrives, not by line: llama.cpp's CLI writes each token and flushes,
// with no newline, so a line reader (the awk above) would sit on a whole paragraph. This bash
// loop blocks for the first byte of a write, stamps the time it came, then takes the bytes
// already waiting in the pipe (`read -t 0` polls without reading) and emits them: one record per
// write while it keeps up, several writes merged when they come faster. Complete lines leave as
// `O <uptime> <text>`, the unfinished rest as `P <uptime> <text>`: a partial line whose
// continuation comes in later P/O records (electron/node/run/run-controller.ts counts them).
// Cost: bash reads a pipe one byte per read(2) plus a poll per byte; measured 16 µs of CPU a
// byte on this 2-core x86 VM under load (5,000 writes of 5 bytes: 0.42 s), ~2 % of a core at
// 500 tokens/s of 4-byte tokens. Not `read -N 4095 -t 0.01`: on a timeout mid-data bash 5.2
// garbled the bytes it had buffered (seen: "ends\nand\n" came out as "e", "ds nand").
// Why bash: it is on every Debian/Ubuntu/L4T/Raspberry Pi OS board; dd/od/cat keep no write
// boundaries in their output, a POSIX sh loop costs a fork per chunk, and neither perl nor
// python can be assumed. Without bash, stdout is timed by line (the `engine` event says
// stdout=lines).
const chunkBash = String.raw`n=$'\n'
while :; do
  c=""; IFS= read -r -N 1 c || [ -n "$c" ] || break
  read -r u _ < /proc/uptime
  s=$c
  while [ ${'${#s}'} -lt 4096 ] && read -t 0; do c=""; IFS= read -r -N 1 c || break; s+=$c; done
  out=""
  while [[ $s == *$n* ]]; do out+="O $u ${'${s%%$n*}'}$n"; s=${'${s#*$n}'}; done
  [ -n "$s" ] && out+="P $u $s$n"
  printf "%s" "$out"
done`;

// The chunk reader's records, already tagged and timed, into the spool: one write(2) per line,
// capped like the timestamping filter.
const passAwk = String.raw`{
  t = $2; n += length($0) + 1
  if (max > 0 && n > max) { dropped++; next }
  printf "%s", $0 "\n"; fflush()
}
END { if (dropped > 0) { printf "%s", "X " t " dropped stream=O lines=" dropped "\n"; fflush() } }`;

/**
 * How often the watchdog looks at the heartbeat (seconds; at most WATCHDOG_S). The client beats
 * every second, so any beat since the last look shows; a look every 5 s costs a fifth of one a
 * second and ends an orphaned engine at most 5 s later than WATCHDOG_S (120 s by default).
 */
export const WATCHDOG_POLL_S = 5;

/** At most this long after the client's last beat, the watchdog has ended the engine (its grace period aside). */
export function watchdogEndsWithinS(watchdogS: number): number {
  return watchdogS + Math.min(WATCHDOG_POLL_S, watchdogS);
}

/**
 * The watchdog (run in the background by the launcher while the engine runs): ends the engine's
 * tree when the client's heartbeat (the file hb) has not changed for WATCHDOG_S seconds. Needs
 * EP, WATCHDOG_S, and the launcher's ev and kvscope_tree_kill.
 */
export const watchdogSh = String.raw`# Looks every WD_POLL_S seconds, not every second: each look forks a sleep (~1.5 ms of CPU on
# the 2-core x86 VM, 0.15 % of a core at one a second, more than the whole collector set).
# The engine then ends between WATCHDOG_S and WATCHDOG_S + WD_POLL_S after the last beat.
WD_POLL_S=${WATCHDOG_POLL_S}; [ "$WATCHDOG_S" -lt "$WD_POLL_S" ] && WD_POLL_S=$WATCHDOG_S
(
  # Ended by the launcher (kill "$WD") while sleeping: the sleep goes with it, not seconds later.
  s=""; trap '[ -n "$s" ] && kill "$s" 2>/dev/null; exit 0' TERM
  last=-1; stale=0
  while kill -0 "$EP" 2>/dev/null; do
    sleep "$WD_POLL_S" & s=$!; wait "$s"; s=""
    hb=""; read -r hb < hb 2>/dev/null
    if [ "$hb" = "$last" ]; then stale=$((stale+WD_POLL_S)); else stale=0; last=$hb; fi
    if [ "$stale" -ge "$WATCHDOG_S" ]; then
      ev watchdog seconds=$WATCHDOG_S
      : > watchdog.fired
      kvscope_tree_kill "$EP" TERM; sleep ${WATCHDOG_KILL_GRACE_S}; kvscope_tree_kill "$EP" KILL
      break
    fi
  done
) &
`;

// --- memory limit: the engine's own memory cgroup (RunRequest.memoryLimitBytes) ---------------
// Made before the engine starts; the engine's wrapper joins it before it execs the engine, so
// every byte the engine allocates is charged there. cgroup v2: a child of the root group (root)
// or of the parent of the launcher's own group (a delegated subtree), with `memory` enabled in
// the parent's subtree_control; swap off for the group (memory.swap.max / memsw), so the kernel
// kills at the limit as a board without swap would. v1: a child of the launcher's own memory
// group (its limits still apply above it), else of the controller's root. Removed at the end
// (cgroupCleanupSh), also after the watchdog ended the engine: the launcher outlives the app.
const cgroupSetupSh = String.raw`CG=""; CGV=""; CGPROCS=""
cg_fail() { ev error reason="memory limit: $*"; ev end; exit 1; }
cg_try2() {
  p="$1"; c="$p/$CGN"
  case " $(cat "$p/cgroup.subtree_control" 2>/dev/null) " in *" memory "*) ;; *) echo +memory > "$p/cgroup.subtree_control" 2>/dev/null ;; esac
  mkdir "$c" 2>/dev/null || return 1
  if echo "$MEMLIMIT" > "$c/memory.max" 2>/dev/null; then
    [ -e "$c/memory.swap.max" ] && echo 0 > "$c/memory.swap.max" 2>/dev/null
    CG="$c"; CGV=2; return 0
  fi
  rmdir "$c" 2>/dev/null; return 1
}
if [ -n "$MEMLIMIT" ]; then
  CGN="$(basename "$D")"; case "$CGN" in kvscope-*) ;; *) CGN="kvscope-$CGN";; esac
  own1=""; own2=""
  while IFS=: read -r _ ctl p; do
    case ",$ctl," in *,memory,*) own1="$p";; ,,) own2="$p";; esac
  done < /proc/$$/cgroup
  if [ -e "$CGROOT/cgroup.controllers" ]; then
    case " $(cat "$CGROOT/cgroup.controllers") " in
      *" memory "*) ;;
      *) cg_fail "the memory controller is not enabled in $CGROOT (cgroup v2)";;
    esac
    cg_try2 "$CGROOT" || { [ -n "$own2" ] && [ "$own2" != / ] && cg_try2 "$CGROOT$(dirname "$own2")"; } ||
      cg_fail "cannot make a memory cgroup in $CGROOT: run as root or in a delegated cgroup (e.g. under systemd-run --user --scope -p Delegate=yes)"
  elif [ -e "$CGROOT/memory/memory.limit_in_bytes" ]; then
    p="$CGROOT/memory$own1"; [ -n "$own1" ] && [ -w "$p" ] || p="$CGROOT/memory"
    mkdir "$p/$CGN" 2>/dev/null || cg_fail "cannot make a memory cgroup in $p: run as root (cgroup v1)"
    if ! echo "$MEMLIMIT" > "$p/$CGN/memory.limit_in_bytes" 2>/dev/null; then
      rmdir "$p/$CGN"; cg_fail "cannot set memory.limit_in_bytes in $p/$CGN"
    fi
    [ -e "$p/$CGN/memory.memsw.limit_in_bytes" ] && echo "$MEMLIMIT" > "$p/$CGN/memory.memsw.limit_in_bytes" 2>/dev/null
    CG="$p/$CGN"; CGV=1
  else
    cg_fail "this target has no memory cgroup controller (neither $CGROOT/cgroup.controllers nor $CGROOT/memory)"
  fi
  CGPROCS="$CG/cgroup.procs"
  ev cgroup version=$CGV limit=$MEMLIMIT path=$CG
fi`;

// The group's OOM kills (v1 memory.oom_control, v2 memory.events): an OOM event even where the
// kernel log cannot be read. Then whatever is left in the group ends, and the group goes.
const cgroupCleanupSh = String.raw`if [ -n "$CG" ]; then
  if [ "$code" -eq 137 ] && [ -z "$line" ]; then
    n=0
    while read -r k v; do [ "$k" = oom_kill ] && n=$v; done < "$CG/memory.$([ "$CGV" = 1 ] && echo oom_control || echo events)"
    [ "$n" -gt 0 ] 2>/dev/null && ev oom pid=$EP kernel="memory cgroup $CG: oom_kill $n"
  fi
  i=0
  while ! rmdir "$CG" 2>/dev/null && [ $i -lt 20 ]; do
    while read -r p; do kill -KILL "$p" 2>/dev/null; done < "$CG/cgroup.procs"
    sleep 0.1 2>/dev/null || sleep 1
    i=$((i+1))
  done
  [ -d "$CG" ] && ev cgroup-left path=$CG
fi`;

export function launcherScript(): string {
  return `#!/bin/sh
# KVScope run launcher (see electron/node/run/run-scripts.ts).
D="$1"
W="\${2:-$D}"
cd "$D" || exit 1
. ./run.conf
AWKI=""; case "$(awk -W version 2>&1 </dev/null | head -n 1)" in *mawk*) AWKI="-W interactive";; esac
ev() { read -r u _ < /proc/uptime; echo "X $u $*" >> spool; }
pass() { awk $AWKI -v max="$SPOOL_MAX" '${passAwk.replace(/'/g, "'\\''")}' >> spool; }
ts() { awk $AWKI -v tag="$1" -v max="$SPOOL_MAX" '${tsAwk.replace(/'/g, "'\\''")}' >> spool; }
${TREE_KILL_FUNCTION_SH}
: > spool
echo 0 > hb
ev start launcher=$$
# RECOVERY: run directories left by dead apps, their spool untouched for LEFTOVER_DAYS, go now.
find "\${D%/*}" -maxdepth 2 -path "\${D%/*}/kvscope-*/spool" -mtime +"$LEFTOVER_DAYS" 2>/dev/null | while read -r f; do rm -rf "\${f%/spool}"; done
${cgroupSetupSh}
rm -f out.fifo err.fifo engine.pid
mkfifo out.fifo err.fifo || { ev error reason=mkfifo; ev end; exit 1; }
OUTMODE=lines
if command -v bash >/dev/null 2>&1; then
  OUTMODE=chunks
  LC_ALL=C bash -c '${chunkBash.replace(/'/g, "'\\''")}' kvscope-chunks < out.fifo | pass &
  TP="$!"
else
  ts O < out.fifo &
  TP="$!"
fi
ts E < err.fifo &
TP="$TP $!"
# The engine gets its own session, so its whole process group can be signalled and nothing of
# it outlives the run. It runs in the directory the run was started from (the login directory
# over SSH), so relative paths in the command mean what the user meant. bash -c execs a simple
# command line (dash's sh -c forks), so the engine's pid is usually the wrapper's own.
ESH=sh; command -v bash >/dev/null 2>&1 && ESH=bash
# With a memory limit the wrapper joins the run's cgroup ($5) before it becomes the engine.
WRAP='if [ -n "$5" ] && ! echo $$ > "$5"; then echo "kvscope: cannot join the memory cgroup $5" >&2; exit 125; fi
echo $$ > "$3/engine.pid"; cd "$4" 2>/dev/null || cd "$3"; exec "$1" -c "$2"'
if command -v setsid >/dev/null 2>&1; then
  setsid sh -c "$WRAP" kvscope-engine "$ESH" "$ENGINE" "$D" "$W" "$CGPROCS" > out.fifo 2> err.fifo < /dev/null &
else
  set -m
  sh -c "$WRAP" kvscope-engine "$ESH" "$ENGINE" "$D" "$W" "$CGPROCS" > out.fifo 2> err.fifo < /dev/null &
  set +m
fi
BG=$!
EP=""
i=0
while [ -z "$EP" ] && [ $i -lt 200 ]; do read -r EP < engine.pid 2>/dev/null; [ -n "$EP" ] || sleep 0.05 2>/dev/null || sleep 1; i=$((i+1)); done
[ -n "$EP" ] || EP=$BG
# The engine is the process group (and session) EP leads: wrappers (sh -c, env, nohup, timeout,
# taskset, bash run.sh) fork or exec inside it. The collectors get EP and follow the group
# themselves (shared/collectors/procfs-sampler-script.ts measures its largest member).
ev engine pid=$EP group=$EP stdout=$OUTMODE
# One pipeline per collector: its script, whose lines go to the spool tagged \`C <id> \`, one write(2)
# each, and past SPOOL_MAX counted (shared/collectors/collector-script.ts, emit()): written so by
# the script itself (those in TAGGED) or, for the others (perf's own output), by one awk after it
# with the same emit() (TAG_LINES_AWK); either way told the tag and the cap in KVSCOPE_TAG and
# KVSCOPE_SPOOL_MAX. A script ends by itself once the engine is gone; one that ends while the engine still
# runs (its tool crashed, was killed, or exited) is said by a "! stopped" line after its own lines
# (so after an "! absent" it said, which makes ending right): its samples so far are kept, and the
# run's status for it says it stopped (electron/node/run/collector-book.ts).
# Alive: /proc/<pid>/stat readable and not a zombie (Z) or dead (X) waiting to be reaped.
kvscope_alive() { s=""; read -r s 2>/dev/null < "/proc/$1/stat" || return 1; case "\${s##*) }" in Z*|X*) return 1;; esac; }
CP=""
for c in $COLLECTORS; do
  eval "ca=\\$C_\${c}_ARGS"; eval "set -- $ca"; eval "cm=\\$C_\${c}_MEMBERS"
  case " $TAGGED " in
    *" $c "*)
      { KVSCOPE_TAG="$c" KVSCOPE_SPOOL_MAX="$SPOOL_MAX" sh "$c.sh" "$EP" "$@" 2>/dev/null; rc=$?; kvscope_alive "$EP" && read -r u _ < /proc/uptime && for m in $cm; do echo "C $m ! stopped code=$rc t=$u"; done; } >> spool &
      ;;
    *)
      { sh "$c.sh" "$EP" "$@" 2>/dev/null; rc=$?; kvscope_alive "$EP" && read -r u _ < /proc/uptime && echo "! stopped code=$rc t=$u"; } | KVSCOPE_TAG="$c" KVSCOPE_SPOOL_MAX="$SPOOL_MAX" awk $AWKI ${awkWord(TAG_LINES_AWK)} >> spool &
      ;;
  esac
  CP="$CP $!"
done
WD=""
if [ "$WATCHDOG_S" -gt 0 ]; then
${watchdogSh}  WD=$!
fi
wait "$BG"
code=$?
ev exit code=$code pid=$EP
if [ "$code" -eq 137 ]; then
  # An OOM kill is SIGKILL plus the kernel's own line naming the pid.
  line=$(dmesg 2>/dev/null | grep -E "Killed process $EP[^0-9]" | tail -n 1)
  [ -n "$line" ] && ev oom pid=$EP kernel="$line"
fi
# Children the engine left behind in its tree end with it (electron/node/run/process-tree.ts).
kvscope_tree_kill "$EP" TERM
${cgroupCleanupSh}
# The engine's output filters end with its pipes: wait for them (its last lines, timings included).
for p in $TP; do wait "$p" 2>/dev/null; done
# Collectors end by themselves at their next tick once the engine's group is gone; a slow one
# (pmap every 5 s) is not waited for more than 2 s: a stop must not take a collector's interval.
i=0
while [ $i -lt 20 ]; do
  alive=""; for p in $CP; do kill -0 "$p" 2>/dev/null && alive=1; done
  [ -z "$alive" ] && break
  sleep 0.1 2>/dev/null || sleep 1
  i=$((i+1))
done
[ -n "$WD" ] && kill "$WD" 2>/dev/null
# Those still waiting for their next tick (tegrastats at 60 s would linger a minute) end now. The
# launcher leads its own process group when setsid started it (the engine has a session of its
# own), so the group is the collectors and their filters; without setsid it is not ours to signal.
read -r st 2>/dev/null < /proc/$$/stat
set -- \${st##*) }
if [ "$3" = "$$" ]; then trap '' TERM; kill -TERM 0 2>/dev/null; trap - TERM; fi
ev end
# RECOVERY: the app is gone; keep what \`kvscope recover\` needs (spool, run.json), remove the rest.
if [ -f watchdog.fired ]; then for f in * .[!.]*; do case "$f" in spool|run.json|'.[!.]*') ;; *) rm -rf "$f";; esac; done; fi
`;
}
