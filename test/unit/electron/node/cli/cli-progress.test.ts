// The profile progress printer against a scripted run (the callbacks RunController calls) and a
// hand-driven clock: what a pipe and what a terminal receive, and the one-line reason a run's end
// gives. The real run's stderr is read in test/integration/cli/profile-progress.test.ts.
import { describe, expect, it } from 'vitest';
import type { RunAnalysis, RunEvent } from '../../../../../shared/api/schemas';
import type { RunCallbacks } from '../../../../../electron/node/run/run-controller';
import type { CliIo } from '../../../../../electron/node/cli/cli-io';
import { ProfileProgress, runFailure, type RunEnd } from '../../../../../electron/node/cli/cli-progress';

const MIB = 1024 * 1024;

function fakeRun() {
  let listener: Partial<RunCallbacks> = {};
  let subscribed = 0;
  return {
    status: { runId: 'r', state: 'running' as const, label: 'demo' },
    addListener(l: Partial<RunCallbacks>) {
      listener = l;
      subscribed++;
      return () => {
        subscribed--;
        listener = {};
      };
    },
    get l() {
      return listener;
    },
    get subscribed() {
      return subscribed;
    },
  };
}

function capture(tty: boolean) {
  const err: string[] = [];
  const io: CliIo = {
    out: () => {
      throw new Error('progress must not write to stdout');
    },
    err: (t) => void err.push(t),
    stdin: process.stdin,
    signal: new AbortController().signal,
    errIsTty: tty,
  };
  return { io, err };
}

function analysis(over: Partial<RunAnalysis>): RunAnalysis {
  return {
    kv: {
      theoryBytesPerToken: 32768,
      measuredBytesPerToken: 32768,
      overheadFactor: 1,
      mode: 'growth',
      baselineBytes: 50 * MIB,
    },
    budgetBytes: 256 * MIB,
    oomHorizonTokens: 6477,
    maxSafeContextTokens: 6475,
    throughput: { ttftMs: 100, prefillTokensPerSecond: null, decodeTokensPerSecond: 40, tokens: 10 },
    lastRssBytes: null,
    peakRssBytes: 70 * MIB,
    ...over,
  };
}

/** A ProfileProgress on a fake clock (set `clock.nowMs`) writing to `err`, following a fake run. */
function followFakeRun(tty: boolean, startMs = 0) {
  const clock = { nowMs: startMs };
  const { io, err } = capture(tty);
  const p = new ProfileProgress(io, { now: () => clock.nowMs });
  const run = fakeRun();
  p.follow(run);
  return { clock, err, p, run };
}

describe('ProfileProgress in a pipe', () => {
  it('writes a line per tick with elapsed time, tokens, RSS and the OOM horizon', () => {
    const { clock, err, p, run } = followFakeRun(false, 1000);
    run.l.onSamples?.([
      { tMs: 100, source: 'procfs', values: { rssBytes: 60 * MIB, tokens: 0 } },
      { tMs: 150, source: 'engine', values: { tokens: 812 } },
    ]);
    clock.nowMs = 13_400;
    p.tick();
    expect(err).toEqual(['kvscope profile: 12.4 s · 812 tokens · RSS 60.0 MiB · no budget, no OOM horizon\n']);
    run.l.onAnalysis?.(analysis({ oomHorizonTokens: null }));
    p.tick();
    expect(err.at(-1)).toBe(
      'kvscope profile: 12.4 s · 812 tokens · RSS 60.0 MiB · OOM horizon not known yet (budget 256 MiB)\n',
    );
    run.l.onAnalysis?.(analysis({ oomHorizonTokens: 41000, budgetBytes: 2 * 1024 * MIB }));
    run.l.onSamples?.([{ tMs: 200, source: 'procfs', values: { rssBytes: 1.5 * 1024 * MIB, tokens: 40000 } }]);
    clock.nowMs = 126_000;
    p.tick();
    expect(err.at(-1)).toBe(
      'kvscope profile: 2 min 5 s · 40,000 tokens · RSS 1.50 GiB · OOM horizon 41,000 tokens (budget 2.00 GiB)\n',
    );
    // A charge past the budget: the horizon is behind the run, not ahead of it.
    run.l.onAnalysis?.(analysis({ oomHorizonTokens: 0, budgetBytes: 64 * MIB }));
    p.tick();
    expect(err.at(-1)).toBe(
      'kvscope profile: 2 min 5 s · 40,000 tokens · RSS 1.50 GiB · over the budget (64.0 MiB) since 0 tokens\n',
    );
    p.stop();
    expect(run.subscribed).toBe(0);
  });

  it('prints each alert, throttle, link and OOM event when it fires, on one line', () => {
    const { err, p, run } = followFakeRun(false);
    const events: RunEvent[] = [
      { tMs: 1380, kind: 'alert', message: 'RSS reached 90% of the memory budget' },
      { tMs: 2000, kind: 'info', message: 'engine reports a KV cache of 1 bytes' },
      { tMs: 2500, kind: 'throttle', message: 'cpu0 capped at 1.2 GHz' },
      { tMs: 3000, kind: 'disconnect', message: 'link lost\nECONNRESET' },
      { tMs: 9000, kind: 'reconnect', message: 'link back' },
      { tMs: 65000, kind: 'oom', message: 'Memory cgroup out of memory: Killed process 42 (node)' },
      { tMs: 65000, kind: 'error', message: 'said by the exit line instead' },
    ];
    for (const e of events) run.l.onEvent?.(e);
    expect(err).toEqual([
      'kvscope profile: alert at 1.38 s: RSS reached 90% of the memory budget\n',
      'kvscope profile: throttling at 2.50 s: cpu0 capped at 1.2 GHz\n',
      'kvscope profile: link lost at 3.00 s: link lost ECONNRESET\n',
      'kvscope profile: link back at 9.00 s: link back\n',
      'kvscope profile: OOM kill at 1 min 5 s: Memory cgroup out of memory: Killed process 42 (node)\n',
    ]);
    p.stop();
  });

  it('says nothing before the run is running, and follows the next run of a sweep afresh', () => {
    const { io, err } = capture(false);
    const p = new ProfileProgress(io, { now: () => 0 });
    const first = fakeRun();
    p.follow(first);
    first.l.onSamples?.([{ tMs: 1, source: 'procfs', values: { rssBytes: MIB, tokens: 500 } }]);
    const second = { ...fakeRun(), status: { runId: 's', state: 'starting' as const, label: 'x' } };
    const next = fakeRun();
    p.follow({ status: second.status, addListener: (l) => next.addListener(l) });
    expect(first.subscribed).toBe(0);
    p.tick();
    expect(err).toEqual([]);
    next.l.onStatus?.({ runId: 's', state: 'running', label: 'x' });
    p.tick();
    expect(err).toEqual(['kvscope profile: 0 ms · 0 tokens · RSS – · no budget, no OOM horizon\n']);
    p.stop();
  });
});

describe('ProfileProgress on a terminal', () => {
  it('redraws one live line in place, puts alerts above it and leaves the line empty at the end', () => {
    const { clock, err, p, run } = followFakeRun(true);
    clock.nowMs = 2000;
    p.tick();
    p.tick(); // nothing changed: nothing written
    expect(err).toEqual(['\r\x1b[Kkvscope profile: 2.00 s · 0 tokens · RSS – · no budget, no OOM horizon']);
    run.l.onEvent?.({ tMs: 2100, kind: 'alert', message: 'RSS reached 100% of the memory budget' });
    expect(err.slice(1)).toEqual([
      '\r\x1b[K',
      'kvscope profile: alert at 2.10 s: RSS reached 100% of the memory budget\n',
      'kvscope profile: 2.00 s · 0 tokens · RSS – · no budget, no OOM horizon',
    ]);
    p.stop();
    expect(err.at(-1)).toBe('\r\x1b[K');
    expect(err.join('')).not.toContain('\n\n');
  });
});

function end(over: Partial<RunEnd>): RunEnd {
  return {
    status: { runId: 'r', state: 'done', label: 'x' },
    oomKilled: false,
    exitSignal: null,
    tokens: 1234,
    analysis: analysis({}),
    ...over,
  };
}

describe('runFailure: the exit line of a run', () => {
  it('is null for a run that ended as asked (also when kvscope stopped it)', () => {
    expect(runFailure(end({}))).toBeNull();
    // Stopped by the user or a limit: the controller's run is done, whatever signal ended the engine.
    expect(runFailure(end({ exitSignal: 'SIGTERM' }))).toBeNull();
    // The target's watchdog ended the engine (the link was down too long): also a done run.
    expect(runFailure(end({ exitSignal: 'SIGKILL' }))).toBeNull();
  });

  it('names an OOM kill with the tokens reached and the memory', () => {
    const e = runFailure(
      end({
        oomKilled: true,
        exitSignal: 'SIGKILL',
        status: { runId: 'r', state: 'failed', label: 'x', error: 'engine killed by the OOM killer' },
      }),
    );
    expect(e?.message).toBe(
      "the engine was killed by the kernel's OOM killer after 1,234 tokens (peak RSS 70.0 MiB of a 256 MiB budget)",
    );
    expect(e?.exitCode).toBe(1);
  });

  it('names a kill kvscope did not send, and a failed engine by its own words, on one line', () => {
    const killed = { runId: 'r', state: 'failed', label: 'x', error: 'engine ended by SIGKILL' } as const;
    expect(runFailure(end({ exitSignal: 'SIGKILL', tokens: 1, analysis: null, status: killed }))?.message).toBe(
      'the engine was killed by SIGKILL after 1 token, not by kvscope (the kernel log names no OOM kill)',
    );
    const failed = runFailure(
      end({
        status: { runId: 'r', state: 'failed', label: 'x', error: 'engine exited with status 3: model\nnot found' },
      }),
    );
    expect(failed?.message).toBe('engine exited with status 3: model not found');
  });
});
