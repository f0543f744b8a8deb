// The engine's end from the exit status sh reported: 128 + N for a death by signal N.
import { describe, expect, it } from 'vitest';
import { engineExitOfStatus } from '../../../../shared/run/engine-exit';

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
