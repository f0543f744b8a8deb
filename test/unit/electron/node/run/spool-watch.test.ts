// SpoolWatch's end of a follow: a follow stream that ends because the run ended is no lost link.
// A context sweep over SSH printed "link lost at 4.88 s: link to the target lost: the run goes on
// there, spooled; reconnecting" after every step: the step's follow stream ended with its engine,
// the watch asked the target whether it still answered, and while it asked the run ended and its
// target was closed, so the answer was "no" and a disconnect event went to the run's listeners.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../../../shared/api/schemas';
import { SpoolWatch } from '../../../../../electron/node/run/spool-watch';
import type { RemoteProcess, Target } from '../../../../../electron/node/transport/target';

/** A target whose `tail` ends at once (the engine is done) and whose `true` fails when told to (closed). */
function fakeTarget(answer: () => Promise<void>): Target {
  const ended = (): RemoteProcess => {
    const stdout = new PassThrough();
    stdout.end('4242\n'); // the follower's pid, then no spool line: the stream ends
    return {
      stdout,
      stderr: new PassThrough(),
      stdin: new PassThrough(),
      exit: Promise.resolve({ code: 0, signal: null }),
      kill: () => {},
    };
  };
  return {
    kind: 'ssh',
    id: 'fake',
    label: 'fake',
    exec: async () => {
      await answer();
      return { stdout: '', stderr: '', code: 0 } as never;
    },
    stream: ended,
    readFile: () => Promise.resolve(Buffer.alloc(0)),
    writeFile: async () => {},
    signal: async () => {},
    reconnect: async () => {},
    close: async () => {},
  };
}

function watch(target: Target, state: { ended: boolean }, events: RunEvent[]): SpoolWatch {
  return new SpoolWatch({
    target,
    spoolPath: '/tmp/run/spool',
    launcherPid: () => 1234,
    reconnectGiveUpMs: 1000,
    keepRunning: false,
    watchdogS: 120,
    ended: () => state.ended,
    nowTMs: () => 4880,
    onLine: () => {},
    onEvent: (event) => events.push(event),
    onLinkLost: () => {},
    onLauncherGone: async () => {},
  });
}

const settle = () => new Promise((r) => setTimeout(r, 100));

describe('SpoolWatch: the follow stream ends with the run', () => {
  it('the run ends (and its target closes) while the target is asked: no disconnect event', async () => {
    const state = { ended: false };
    const events: RunEvent[] = [];
    const w = watch(
      fakeTarget(() => {
        state.ended = true; // the run read its end meanwhile, and closed its target
        return Promise.reject(new Error('not connected'));
      }),
      state,
      events,
    );
    w.start();
    await settle();
    w.stopChecking();
    expect(events).toEqual([]);
  });

  it("after the spool's end line: the stream's end is the run's, not the link's", async () => {
    const state = { ended: false };
    const events: RunEvent[] = [];
    const w = watch(
      fakeTarget(() => Promise.reject(new Error('not connected'))),
      state,
      events,
    );
    w.endLineRead();
    w.start();
    await settle();
    w.stopChecking();
    expect(events).toEqual([]);
  });

  it('a link that drops while the run goes on: the disconnect event, as before', async () => {
    const state = { ended: false };
    const events: RunEvent[] = [];
    const w = watch(
      fakeTarget(() => Promise.reject(new Error('not connected'))),
      state,
      events,
    );
    w.start();
    await settle();
    state.ended = true; // ends the reconnect loop
    w.stopChecking();
    expect(events[0]).toMatchObject({ kind: 'disconnect', tMs: 4880 });
  });
});
