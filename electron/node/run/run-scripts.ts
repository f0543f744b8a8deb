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
import { shellJoin, shellQuote } from '../../../shared/util/shell';

/**
 * RECOVERY: a run directory whose spool was last written this many days ago is removed by the
 * next launcher (recover lists it with its age until then). Two weeks: long enough to cover a
 * holiday between a crash and the next connection, short enough that a board's /tmp does not fill
 * with spools (up to SPOOL_MAX each) nobody will ever import.
 */
export const LEFTOVER_RUN_DAYS = 14;

/** One collector as the launcher starts it: `sh <id>.sh <pid> <intervalS> <args…>`. */
export interface LaunchedCollector {
  id: string;
  intervalS: number;
  args: readonly string[];
}

export interface RunConf {
  engineCommand: string;
  collectors: readonly LaunchedCollector[];
  /** 0 = keep running without a client. */
  watchdogS: number;
  /** Stop writing sampler/engine lines past this size (the spool is bounded). */
  spoolMaxBytes: number;
}

/** Collector ids become shell variable names and file names: nothing else may pass. */
const COLLECTOR_ID = /^[a-z][a-z0-9]*$/;

export function runConf(conf: RunConf): string {
  for (const c of conf.collectors) if (!COLLECTOR_ID.test(c.id)) throw new Error(`bad collector id "${c.id}"`);
  return [
    `ENGINE=${shellQuote(conf.engineCommand)}`,
    `COLLECTORS=${shellQuote(conf.collectors.map((c) => c.id).join(' '))}`,
    // Each collector's arguments as one shell-quoted word list, split again by `eval set --`.
    ...conf.collectors.map((c) => `C_${c.id}_ARGS=${shellQuote(shellJoin([c.intervalS.toFixed(3), ...c.args]))}`),
    `WATCHDOG_S=${shellQuote(String(Math.max(0, Math.round(conf.watchdogS))))}`,
    `SPOOL_MAX=${shellQuote(String(Math.round(conf.spoolMaxBytes)))}`,
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

// A collector's lines go to the spool tagged `C <id> `, one write(2) each (see above); past
// SPOOL_MAX they are counted instead, except the procfs sampler's "gone" line that ends the run's
// memory curve.
const collectorFilterAwk = String.raw`{
  n += length($0) + length(tag) + 4
  if (max > 0 && n > max && $0 !~ /gone=1/) { d++; next }
  printf "%s", "C " tag " " $0 "\n"; fflush()
}
END { if (d > 0) { printf "%s", "X 0 dropped stream=" tag " lines=" d "\n"; fflush() } }`;

export function launcherScript(): string {
  return `#!/bin/sh
# KVScope run launcher (see electron/node/run/run-scripts.ts).
D="$1"
W="\${2:-$D}"
cd "$D" || exit 1
. ./run.conf
AWKI=""; case "$(awk -W version 2>&1 </dev/null | head -n 1)" in *mawk*) AWKI="-W interactive";; esac
ev() { read -r u _ < /proc/uptime; echo "X $u $*" >> spool; }
ts() { awk $AWKI -v tag="$1" -v max="$SPOOL_MAX" '${tsAwk.replace(/'/g, "'\\''")}' >> spool; }
: > spool
echo 0 > hb
ev start launcher=$$
# RECOVERY: run directories left by dead apps, their spool untouched for LEFTOVER_DAYS, go now.
find "\${D%/*}" -maxdepth 2 -path "\${D%/*}/kvscope-*/spool" -mtime +"$LEFTOVER_DAYS" 2>/dev/null | while read -r f; do rm -rf "\${f%/spool}"; done
rm -f out.fifo err.fifo engine.pid
mkfifo out.fifo err.fifo || { ev error reason=mkfifo; ev end; exit 1; }
ts O < out.fifo &
ts E < err.fifo &
# The engine gets its own session, so its whole process group can be signalled and nothing of
# it outlives the run. It runs in the directory the run was started from (the login directory
# over SSH), so relative paths in the command mean what the user meant. bash -c execs a simple
# command line (dash's sh -c forks), so the engine's pid is usually the wrapper's own.
ESH=sh; command -v bash >/dev/null 2>&1 && ESH=bash
WRAP='echo $$ > "$3/engine.pid"; cd "$4" 2>/dev/null || cd "$3"; exec "$1" -c "$2"'
if command -v setsid >/dev/null 2>&1; then
  setsid sh -c "$WRAP" kvscope-engine "$ESH" "$ENGINE" "$D" "$W" > out.fifo 2> err.fifo < /dev/null &
else
  set -m
  sh -c "$WRAP" kvscope-engine "$ESH" "$ENGINE" "$D" "$W" > out.fifo 2> err.fifo < /dev/null &
  set +m
fi
BG=$!
EP=""
i=0
while [ -z "$EP" ] && [ $i -lt 200 ]; do read -r EP < engine.pid 2>/dev/null; [ -n "$EP" ] || sleep 0.05 2>/dev/null || sleep 1; i=$((i+1)); done
[ -n "$EP" ] || EP=$BG
# When the command line was not a simple command, the wrapper shell forks instead of exec'ing:
# then the engine is its only child, and that is the process to measure. A wrapper that execs
# stops being a shell within milliseconds; only one still a shell after a second has forked
# (looking earlier would catch whatever a shell's startup files or the engine spawn briefly).
MP=$EP
i=0
while [ $i -lt 20 ]; do
  comm=""; read -r comm < /proc/$EP/comm 2>/dev/null
  case "$comm" in sh|dash|bash|ash|busybox|zsh|kvscope-engine) ;; *) break;; esac
  sleep 0.05 2>/dev/null || sleep 1
  i=$((i+1))
done
if [ $i -ge 20 ]; then
  kids=""
  if [ -r /proc/$EP/task/$EP/children ]; then
    read -r kids < /proc/$EP/task/$EP/children
  else
    for s in /proc/[0-9]*/stat; do
      line=""; read -r line < "$s" 2>/dev/null || continue
      set -- \${line##*) }
      [ "$2" = "$EP" ] && kids="$kids \${s#/proc/}" && kids=\${kids%/stat}
    done
  fi
  set -- $kids
  [ $# -eq 1 ] && MP=$1
fi
ev engine pid=$EP measured=$MP
# One pipeline per collector: its script, then one awk that tags its lines and caps them.
CP=""
for c in $COLLECTORS; do
  eval "ca=\\$C_\${c}_ARGS"; eval "set -- $ca"
  sh "$c.sh" "$MP" "$@" 2>/dev/null | awk $AWKI -v tag="$c" -v max="$SPOOL_MAX" '${collectorFilterAwk.replace(/'/g, "'\\''")}' >> spool &
  CP="$CP $!"
done
WD=""
if [ "$WATCHDOG_S" -gt 0 ]; then
  (
    last=-1; stale=0
    while kill -0 "$EP" 2>/dev/null; do
      sleep 1
      hb=""; read -r hb < hb 2>/dev/null
      if [ "$hb" = "$last" ]; then stale=$((stale+1)); else stale=0; last=$hb; fi
      if [ "$stale" -ge "$WATCHDOG_S" ]; then
        ev watchdog seconds=$WATCHDOG_S
        : > watchdog.fired
        kill -TERM -"$EP" 2>/dev/null; sleep 2; kill -KILL -"$EP" 2>/dev/null
        break
      fi
    done
  ) &
  WD=$!
fi
wait "$BG"
code=$?
ev exit code=$code pid=$EP
if [ "$code" -eq 137 ]; then
  # An OOM kill is SIGKILL plus the kernel's own line naming the pid.
  line=$(dmesg 2>/dev/null | grep -E "Killed process $EP[^0-9]" | tail -n 1)
  [ -n "$line" ] && ev oom pid=$EP kernel="$line"
fi
# Children the engine left behind in its group end with it.
kill -TERM -"$EP" 2>/dev/null
for p in $CP; do wait "$p" 2>/dev/null; done
[ -n "$WD" ] && kill "$WD" 2>/dev/null
wait 2>/dev/null
ev end
# RECOVERY: the app is gone; keep what \`kvscope recover\` needs (spool, run.json), remove the rest.
if [ -f watchdog.fired ]; then for f in * .[!.]*; do case "$f" in spool|run.json|'.[!.]*') ;; *) rm -rf "$f";; esac; done; fi
`;
}
