// A run's callbacks and tunables (defaults with their reasons), and the small words a run uses
// for itself: its default label and a signal's name. Used by run-controller.ts.
import type { RunAnalysis, RunEvent, RunStatus, Sample } from '../../../shared/api/schemas';

export interface RunCallbacks {
  onSamples(samples: Sample[]): void;
  onEvent(event: RunEvent): void;
  onStatus(status: RunStatus): void;
  onOutput(stream: 'stdout' | 'stderr', text: string): void;
  onAnalysis(analysis: RunAnalysis): void;
}

export interface RunControllerOptions {
  /** Seconds without a heartbeat after which the target ends the run (0 = never). */
  watchdogS: number;
  heartbeatMs: number;
  /** How long a stop waits for the engine to leave after SIGTERM before SIGKILL. */
  stopGraceMs: number;
  analysisEveryMs: number;
  spoolMaxBytes: number;
  /** How long to keep trying to reconnect a dropped link before giving the run up. */
  reconnectGiveUpMs: number;
}

/** Defaults with their reasons. */
export const RUN_DEFAULTS: RunControllerOptions = {
  // Long enough to ride out a dropped link and a reconnect with backoff; short enough that an
  // engine orphaned by a killed app does not run on for hours. KVSCOPE_WATCHDOG_S overrides it.
  watchdogS: Number(process.env.KVSCOPE_WATCHDOG_S) > 0 ? Number(process.env.KVSCOPE_WATCHDOG_S) : 120,
  heartbeatMs: 1000,
  // llama.cpp frees its buffers and prints timings on SIGTERM within a second or two.
  stopGraceMs: 3000,
  // The live readouts change a few times a second; the fit over all samples is cheap but not free.
  analysisEveryMs: 500,
  // ~400 bytes a tick at 10 Hz is 14 MB an hour: 256 MiB holds a long day.
  spoolMaxBytes: 256 * 1024 * 1024,
  // Past the watchdog the target has ended the run anyway.
  reconnectGiveUpMs: (Number(process.env.KVSCOPE_WATCHDOG_S) > 0 ? Number(process.env.KVSCOPE_WATCHDOG_S) : 120) * 1000,
};

/** The constructor's callbacks, then every listener's. */
export function withListeners(primary: RunCallbacks, listeners: ReadonlySet<Partial<RunCallbacks>>): RunCallbacks {
  return {
    onSamples: (samples) => (primary.onSamples(samples), listeners.forEach((l) => l.onSamples?.(samples))),
    onEvent: (event) => (primary.onEvent(event), listeners.forEach((l) => l.onEvent?.(event))),
    onStatus: (status) => (primary.onStatus(status), listeners.forEach((l) => l.onStatus?.(status))),
    onOutput: (stream, text) => (primary.onOutput(stream, text), listeners.forEach((l) => l.onOutput?.(stream, text))),
    onAnalysis: (analysis) => (primary.onAnalysis(analysis), listeners.forEach((l) => l.onAnalysis?.(analysis))),
  };
}
