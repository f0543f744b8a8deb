// Whether the run's launcher still lives on the target (spool-watch.ts checkLauncher). A
// launcher can die without writing its `end` line: killed (kill -9 by a user, a board's OOM
// daemon), or unable to write to a full disk. The follow stream cannot tell: GNU tail --pid and
// kill -0 both take a zombie (a killed launcher its parent has not reaped yet; some init
// processes never reap) for alive, and busybox tail has no --pid at all. So the spool watch reads
// the launcher's /proc/<pid>/stat every LAUNCHER_CHECK_MS, over SFTP on an SSH target: no process
// is spawned on the board for it.
import type { Target } from '../transport/target';

/** How often the launcher is looked at: a dead one ends the run within this long. */
export const LAUNCHER_CHECK_MS = 5000;

export type LauncherState =
  /** startTicks: the process's start time (stat field 22), which tells a reused pid from it. */
  | { state: 'alive'; startTicks: string }
  | { state: 'gone' }
  /** The target did not answer, or has no procfs: no judgement. */
  | { state: 'unknown' };

/**
 * The state and start time in a /proc/<pid>/stat line, or null when it is not one. The command
 * name (field 2) may hold spaces and parentheses: fields are counted from the last ")".
 */
export function procStatOf(line: string): { state: string; startTicks: string } | null {
  const close = line.lastIndexOf(')');
  if (close === -1) return null;
  // After ") ": field 3 (state) is the first, field 22 (starttime) the 20th.
  const fields = line.slice(close + 2).split(' ');
  const state = fields[0];
  const startTicks = fields[19];
  if (!state || !startTicks || !/^\d+$/.test(startTicks)) return null;
  return { state, startTicks };
}

/**
 * The launcher's state. `knownStartTicks` is its start time from an earlier look: a live process
 * started at another time is another process that got the pid. A zombie (Z) or a dead task (X) is
 * gone; a missing /proc/<pid> is gone only when /proc itself answers (else the link is down).
 */
export async function launcherState(
  target: Target,
  pid: number,
  knownStartTicks: string | null,
): Promise<LauncherState> {
  let text: string;
  try {
    text = (await target.readFile(`/proc/${pid}/stat`)).toString('utf8');
  } catch {
    try {
      await target.readFile('/proc/self/stat');
    } catch {
      return { state: 'unknown' };
    }
    return { state: 'gone' };
  }
  const stat = procStatOf(text.trim());
  if (!stat) return { state: 'unknown' };
  if (stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return { state: 'gone' };
  if (knownStartTicks !== null && stat.startTicks !== knownStartTicks) return { state: 'gone' };
  return { state: 'alive', startTicks: stat.startTicks };
}
