// The engine's end from the exit status sh reported: 128 + N for a death by signal N.
import { describe, expect, it } from 'vitest';
import { engineExitOfStatus, runEndState } from '../../../../shared/run/engine-exit';

describe('engineExitOfStatus', () => {
  it.each([
    [0, { code: 0, signal: null }],
    [1, { code: 1, signal: null }],
    [127, { code: 127, signal: null }],
    // `exit 128` is a status, not a signal (there is no signal 0).
    [128, { code: 128, signal: null }],
    [130, { code: null, signal: 'SIGINT' }],
    [137, { code: null, signal: 'SIGKILL' }],
    [139, { code: null, signal: 'SIGSEGV' }],
    [143, { code: null, signal: 'SIGTERM' }],
    [159, { code: null, signal: 'signal 31' }],
  ])('reads status %i', (status, end) => {
    expect(engineExitOfStatus(status)).toEqual(end);
  });

  it('knows nothing from a missing or unreadable status', () => {
    expect(engineExitOfStatus(null)).toEqual({ code: null, signal: null });
    expect(engineExitOfStatus(Number('x'))).toEqual({ code: null, signal: null });
    expect(engineExitOfStatus(Number.POSITIVE_INFINITY)).toEqual({ code: null, signal: null });
  });
});

describe('runEndState', () => {
  const ended = {
    launchError: null,
    stopFailure: null,
    stopping: false,
    exitCode: 0,
    exitSignal: null,
    oomKilled: false,
    watchdogEnded: false,
    stderrTail: [],
  };
  it('a run ends done, or failed with why', () => {
    expect(runEndState(ended)).toEqual({ state: 'done' });
    expect(runEndState({ ...ended, stopping: true, exitCode: null, exitSignal: 'SIGTERM' })).toEqual({ state: 'done' });
    expect(runEndState({ ...ended, exitCode: 1, stderrTail: ['a', 'b', 'c', 'd'] })).toEqual({
      state: 'failed',
      error: 'engine exited with status 1: b | c | d',
    });
    expect(runEndState({ ...ended, exitCode: null, exitSignal: 'SIGKILL' }).error).toMatch(
      /^engine ended by SIGKILL, a signal KVScope did not send/,
    );
    expect(runEndState({ ...ended, exitCode: null, exitSignal: 'SIGKILL', oomKilled: true })).toEqual({
      state: 'failed',
      error: 'engine killed by the OOM killer',
    });
    expect(runEndState({ ...ended, exitCode: null, exitSignal: 'SIGTERM', watchdogEnded: true })).toEqual({
      state: 'done',
    });
    expect(runEndState({ ...ended, launchError: 'no such file' })).toEqual({ state: 'failed', error: 'no such file' });
    // Server mode's conversation failed: the engine the profiler stopped did nothing wrong.
    expect(runEndState({ ...ended, stopping: true, stopFailure: 'server mode: no port' })).toEqual({
      state: 'failed',
      error: 'server mode: no port',
    });
  });
});
