// Hardware and software counters of the engine process: `perf stat -I <ms> -x, -e <events> -p
// <pid>`, streamed (one perf for the run's life, no process per tick). Before it starts, one short
// `perf stat … -p <pid> -- sleep 0.2` finds which events this board counts: the ones perf answers
// `<not supported>` for (no PMU in a VM, a core without that cache event) are left out of the run
// and the run says which (its status reason). Where perf is missing the collector is absent;
// where kernel.perf_event_paranoid forbids it (or perf itself says so) it is denied, with how to
// enable it. Lines: shared/collectors/perf-parser.ts; IPC and misses per token:
// shared/analysis/per-token.ts.
import type { CollectorDefinition } from './collector';
import { createPerfParser, perfCounterName, perfKeyParts } from './perf-parser';

/**
 * The default events: cycles and instructions give IPC; cache and LLC/L1 misses show a model
 * streaming its weights through the caches; task-clock, page-faults and context-switches are
 * software events every kernel counts (page faults grow as the KV cache is first touched).
 */
export const PERF_DEFAULT_EVENTS = [
  'cycles',
  'instructions',
  'cache-references',
  'cache-misses',
  'LLC-load-misses',
  'L1-dcache-load-misses',
  'task-clock',
  'page-faults',
  'context-switches',
] as const;

export const PERF_ENABLE_HOW = 'enable it with: sudo sysctl kernel.perf_event_paranoid=1 (or profile as root)';

/** How long the one-off support check counts the engine. */
const CHECK_SECONDS = 0.2;

function perfScript(): string {
  return `#!/bin/sh
# KVScope perf collector. $1 = pid, $2 = interval s, $3 = interval ms, $4 = events (comma list).
P="$1"; MS="$3"; EV="$4"
HOW='${PERF_ENABLE_HOW}'
if ! command -v perf >/dev/null 2>&1; then
  echo "! absent perf is not installed (Debian: linux-perf; Ubuntu: linux-tools-$(uname -r))"; exit 0
fi
[ -d "/proc/$P" ] || exit 0
# perf prints numbers in the user's locale: under de_DE its -x, CSV reads 8013,48,msec,... (the decimal
# comma is also the separator) and strerror() turns "not permitted" into German. C keeps both readable.
export LC_ALL=C
par=""; read -r par < /proc/sys/kernel/perf_event_paranoid 2>/dev/null
if [ "$(id -u)" != 0 ] && [ -n "$par" ]; then
  if [ "$par" -gt 2 ]; then
    echo "! denied kernel.perf_event_paranoid=$par forbids perf to every user but root; $HOW"; exit 0
  fi
  if [ "$par" -gt 1 ] && [ ! -O "/proc/$P" ]; then
    echo "! denied kernel.perf_event_paranoid=$par: perf may not watch another user's process (pid $P); $HOW"; exit 0
  fi
fi
oneline() { printf '%s' "$1" | tr '\\n' ' ' | cut -c1-240; }
out=$(perf stat -x, -e "$EV" -p "$P" -- sleep ${CHECK_SECONDS} 2>&1); rc=$?
if [ $rc -ne 0 ]; then
  case "$out" in
    *paranoid*|*ermission*|*"Access to performance monitoring"*|*"not permitted"*)
      echo "! denied perf stat refused: $(oneline "$out"); $HOW"; exit 0;;
    *"not found for kernel"*|*"perf not found"*)
      echo "! absent perf does not run on this kernel: $(oneline "$out")"; exit 0;;
  esac
  # One event perf does not know fails the whole list: check them one by one.
  out=""
  IFS=,; for e in $EV; do
    one=$(perf stat -x, -e "$e" -p "$P" -- true 2>&1) && out="$out
$one"
  done; unset IFS
fi
good=","; bad=","
while IFS=, read -r v u name rest; do
  # perf before 3.14 prints value,event (no unit field): the event is the second field there.
  [ -n "$name" ] || name=$u
  n=\${name#*/}; n=\${n%/}; n=\${n%%:*}
  case "$v" in "<not supported>") bad="$bad$n,";; [0-9]*|"<not counted>") good="$good$n,";; esac
done <<EOF
$out
EOF
kept=""; dropped=""
IFS=,; for e in $EV; do
  case "$good" in *",$e,"*) kept="$kept$e,";; *) dropped="$dropped$e,";; esac
done; unset IFS
kept=\${kept%,}; dropped=\${dropped%,}
if [ -z "$kept" ]; then echo "! absent perf counts none of $EV here: $(oneline "$out")"; exit 0; fi
[ -d "/proc/$P" ] || exit 0
read -r up _ < /proc/uptime
echo "H v=1 t0=$up events=$kept dropped=$dropped"
# perf writes its counts to stderr, unbuffered: a write(2) per field, ~7 a line, and each one a
# wake of the launcher's tagging awk. --log-fd 1 puts them on a stdio stream of their own, which
# perf flushes once an interval (print_interval has, since -I came in 3.10; --log-fd is from 3.2):
# one write an interval.
exec perf stat -I "$MS" -x, --log-fd 1 -e "$kept" -p "$P" 2>&1
`;
}

/** A counter's part (`cycles`, `cpu_core.cycles`, perfKey) as the per-token rows say it: `cycles (cpu_core)`. */
function counterWords(part: string): string {
  const parts = perfKeyParts(`perf.${part}`);
  return parts ? perfCounterName(parts) : part;
}

export const perfCollector: CollectorDefinition = {
  id: 'perf',
  title: 'CPU counters of the engine (perf stat)',
  script: perfScript(),
  // perf stat -I refuses intervals under 10 ms (100 ms before Linux 4.x); each interval is a few
  // lines of output per event, so 1 s keeps the spool small on an 8-hour run.
  interval: { defaultMs: 1000, minMs: 100, maxMs: 60_000 },
  scriptArgs: (intervalMs) => [String(intervalMs), PERF_DEFAULT_EVENTS.join(',')],
  unavailable: (facts) => {
    const perf = facts?.perf;
    if (!perf) return null;
    if (perf.path === null)
      return { status: 'absent', reason: 'perf is not installed (Debian: linux-perf; Ubuntu: linux-tools-<kernel>)' };
    if (perf.usable === false)
      return { status: 'absent', reason: `perf at ${perf.path} does not run (no perf for this kernel installed)` };
    return null;
  },
  createParser: createPerfParser,
  series: [
    { key: 'perf.*Us', label: 'CPU time per interval (perf)', partWords: counterWords, unit: 'us', kind: 'gauge' },
    { key: 'perf.*', label: 'perf counter per interval', partWords: counterWords, unit: 'count', kind: 'gauge' },
  ],
};
