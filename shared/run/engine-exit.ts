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
