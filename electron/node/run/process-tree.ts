// The process tree a run started, as Stop and the target's watchdog end it. The launcher starts the
// engine's wrapper in a session of its own (electron/node/run/run-scripts.ts), so every process of
// the run is in that session — the membership the memory sampler measures by
// (shared/collectors/procfs-sampler-script.ts: the pid itself, its group, its session). Signalling
// the engine's process group alone is not enough: GNU timeout calls setpgid(0, 0) to lead a group
// of its own when a wrapper forked it (`sh run.sh` with `timeout 600 llama-cli …` inside), and
// `kill -- -<pid>` then ends the wrapper and leaves timeout and the engine running (and the
// launcher waiting on their output pipes). So: every process whose pid, group or session is the
// run's, plus every descendant of those (a child that called setsid is still a child), signalled
// one by one. POSIX sh and awk only; one read per /proc entry, no fork per process.
import { shellQuote } from '../../../shared/util/shell';
import type { Target } from '../transport/target';

/**
 * STOP: seconds between TERM and KILL when the target's watchdog ends a run (the app is gone, so
 * no one else will send the KILL): an engine that flushes a log on TERM gets the time to.
 */
export const WATCHDOG_KILL_GRACE_S = 2;

// Input: one /proc/<pid>/stat line per process. comm may hold spaces and parentheses, so fields
// are counted from the last ")": a[2] = ppid, a[3] = pgrp, a[4] = session.
const treeAwk = String.raw`{
  i = length($0); while (i > 0 && substr($0, i, 1) != ")") i--
  split(substr($0, i + 2), a, " "); p = $1; n++; ids[n] = p; pp[p] = a[2]
  if (p == root || a[3] == root || a[4] == root) m[p] = 1
}
END {
  do { grew = 0; for (k = 1; k <= n; k++) { p = ids[k]; if (!(p in m) && (pp[p] in m)) { m[p] = 1; grew = 1 } } } while (grew)
  for (p in m) print p
}`;

/**
 * A shell function `kvscope_tree_kill <root pid> <SIGNAL>` (TERM, KILL…) that signals every process
 * of the tree rooted at the run's session leader; the caller's own shell is never a member (it is
 * not in the session, nor a descendant of it).
 */
export const TREE_KILL_FUNCTION_SH = `kvscope_tree_kill() {
  for f in /proc/[0-9]*/stat; do l=""; read -r l < "$f" 2>/dev/null && printf '%s\\n' "$l"; done |
    awk -v root="$1" '${treeAwk.replace(/'/g, "'\\''")}' |
    while read -r p; do kill -"$2" "$p" 2>/dev/null; done
  return 0
}`;

/**
 * STOP: how long one signalling of the tree may take on the target (a shell and one awk over
 * /proc): generous, because a board busy enough to need a Stop can be slow to fork; the engine's
 * group is signalled directly first, and the KILL is repeated, so a slow pass delays nothing.
 */
export const TREE_SIGNAL_TIMEOUT_MS = 30_000;

/** A command line that signals the run's whole process tree (Stop, and its KILL after the grace period). */
export function treeSignalCommand(rootPid: number, signal: 'TERM' | 'KILL'): string {
  if (!Number.isInteger(rootPid) || rootPid <= 1) throw new Error(`not an engine pid: ${rootPid}`);
  return `${TREE_KILL_FUNCTION_SH}\nkvscope_tree_kill ${shellQuote(String(rootPid))} ${signal}`;
}

/**
 * Signals the engine's group at once, then every process of the tree the run started (timeout &
 * co. lead groups of their own). Never rejects: a target that cannot answer is retried by the
 * caller's next pass.
 */
export async function signalProcessTree(target: Target, rootPid: number, signal: 'TERM' | 'KILL'): Promise<void> {
  await target.signal(-rootPid, `SIG${signal}`).catch(() => {});
  await target.exec(treeSignalCommand(rootPid, signal), { timeoutMs: TREE_SIGNAL_TIMEOUT_MS }).catch(() => {});
}
