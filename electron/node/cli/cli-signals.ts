// SIGINT/SIGTERM while a command drives a run: the first signal stops the run cleanly (the
// engine's process group is signalled, the session is finalised, the run directory removed on
// the target); a second signal, or a clean stop that has not finished after CLI_STOP_DEADLINE_MS,
// exits at once. An engine left behind by an immediate exit is ended by the target's own
// watchdog (electron/node/run/run-controller.ts RUN_DEFAULTS.watchdogS), as after a crash.
//
// cli-io.ts defaultIo aborts `io.signal` on the first signal (with `process.once`); the handlers
// here see every signal while a run is stopping, so the second one no longer falls to Node's
// default (death by signal, no message).
import type { CliIo } from './cli-io';

/** A clean stop takes the engine's grace period (3 s) plus a removal over SSH: past this, it is stuck. */
export const CLI_STOP_DEADLINE_MS = 10_000;

const SIGNAL_NUMBER = { SIGINT: 2, SIGTERM: 15 } as const;
type StopSignal = keyof typeof SIGNAL_NUMBER;

export interface CliSignalOptions {
  /** How the process ends when it must end at once (tests replace it). */
  exit?: (code: number) => void;
  deadlineMs?: number;
}

/**
 * Calls `stop` on the first SIGINT/SIGTERM (at once if one already came, e.g. while the run was
 * being set up); a second signal or the deadline exits with 128 + the signal's number. Returns
 * the function that removes the handlers once the run is over.
 */
export function stopOnSignals(
  io: Pick<CliIo, 'signal' | 'err'>,
  command: string,
  stop: () => Promise<void>,
  options: CliSignalOptions = {},
): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const deadlineMs = options.deadlineMs ?? CLI_STOP_DEADLINE_MS;
  // A signal that came while the run was being set up has already aborted io.signal: it counts.
  let signals = io.signal.aborted ? 1 : 0;
  let deadline: NodeJS.Timeout | undefined;

  const exitNow = (why: string, signal: StopSignal) => {
    io.err(`kvscope ${command}: ${why}: exiting now; the target's watchdog ends what is left\n`);
    exit(128 + SIGNAL_NUMBER[signal]);
  };
  // The first signal is cli-io's (it aborts io.signal, and onAbort below starts the stop).
  const onSignal = (signal: StopSignal) => {
    signals += 1;
    if (signals >= 2) exitNow(`second ${signal}`, signal);
  };
  const onInt = () => onSignal('SIGINT');
  const onTerm = () => onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);

  const onAbort = () => {
    io.err(`kvscope ${command}: interrupted: stopping the run (send the signal again to exit at once)\n`);
    deadline = setTimeout(() => exitNow(`the run did not stop within ${deadlineMs / 1000} s`, 'SIGTERM'), deadlineMs);
    deadline.unref();
    void stop();
  };
  if (io.signal.aborted) onAbort();
  else io.signal.addEventListener('abort', onAbort, { once: true });

  return () => {
    clearTimeout(deadline);
    io.signal.removeEventListener('abort', onAbort);
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  };
}
