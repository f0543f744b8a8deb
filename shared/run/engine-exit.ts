// How the engine ended, from the exit status its launcher recorded (the spool's `exit code=`,
// electron/node/run/run-scripts.ts): sh reports a death by signal N as status 128 + N. The one
// place for that rule: the run controller, the run summary and the dashboard's engine-exit alert
// read it here.

/** sh reports a death by signal N as exit status 128 + N: above this is not an exit code. */
export const SIGNAL_EXIT_BASE = 128;

/** The signals an engine's end names (others read `signal N`). */
const SIGNAL_NAMES: Readonly<Record<number, string>> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  6: 'SIGABRT',
  9: 'SIGKILL',
  11: 'SIGSEGV',
  13: 'SIGPIPE',
  15: 'SIGTERM',
};

export function signalName(n: number): string {
  return Object.hasOwn(SIGNAL_NAMES, n) ? (SIGNAL_NAMES[n] as string) : `signal ${n}`;
}

export interface EngineExit {
  /** The engine's own exit status; null when a signal ended it or the status is unknown. */
  code: number | null;
  /** The signal that ended it (`SIGKILL`, `signal 31`), or null. */
  signal: string | null;
}

/** The engine's end from the exit status sh reported (null or not a number: unknown). */
export function engineExitOfStatus(status: number | null): EngineExit {
  if (status === null || !Number.isFinite(status)) return { code: null, signal: null };
  return status > SIGNAL_EXIT_BASE
    ? { code: null, signal: signalName(status - SIGNAL_EXIT_BASE) }
    : { code: status, signal: null };
}

/** What a run knows when it ends, for runEndState. */
export interface RunEndFacts {
  /** Why the launcher gave up before the engine ran, or null. */
  launchError: string | null;
  /** Why a stop ended the run as failed (server mode's conversation failed), or null. */
  stopFailure: string | null;
  /** Whether the profiler stopped the engine (the user's Stop, a limit, the end of a conversation). */
  stopping: boolean;
  exitCode: number | null;
  exitSignal: string | null;
  oomKilled: boolean;
  /** Whether the target's watchdog ended the engine (the app was gone). */
  watchdogEnded: boolean;
  stderrTail: readonly string[];
}

/**
 * How a run ended: `failed` with the reason, or `done`. A status other than 0, a signal KVScope
 * did not send (no Stop, no limit: another process's kill, a board's OOM daemon, a crash; the CLI
 * says the same, cli-progress.ts runFailure) and an OOM kill fail a run; so do a launch that gave
 * up and a stop that says what failed.
 */
export function runEndState(f: RunEndFacts): { state: 'done' | 'failed'; error?: string } {
  const given = f.launchError ?? f.stopFailure;
  if (given !== null) return { state: 'failed', error: given };
  const said = f.stderrTail.length ? `: ${f.stderrTail.slice(-3).join(' | ').slice(0, 500)}` : '';
  if (!f.stopping && f.exitCode !== 0 && f.exitCode !== null)
    return { state: 'failed', error: `engine exited with status ${f.exitCode}${said}` };
  if (!f.stopping && !f.oomKilled && !f.watchdogEnded && f.exitSignal !== null)
    return {
      state: 'failed',
      error: `engine ended by ${f.exitSignal}, a signal KVScope did not send (the kernel log names no OOM kill)${said}`,
    };
  if (f.oomKilled) return { state: 'failed', error: 'engine killed by the OOM killer' };
  return { state: 'done' };
}
