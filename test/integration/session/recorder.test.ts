// SessionRecorder on a real run (local target, demo engine): what the controller saw is what the
// file holds, and the analysis recomputed from the stored samples equals the one stored at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { RunRequestSchema, type Sample } from '../../../shared/api/schemas';
import { recomputeAnalysis, summarizeRun } from '../../../shared/analysis/run-summary';
import { RunController } from '../../../electron/node/run/run-controller';
import { RunService } from '../../../electron/node/run/run-service';
import { LocalTarget } from '../../../electron/node/transport/local-target';
import { SessionRecorder } from '../../../electron/node/session/session-recorder';
import { readSession } from '../../../electron/node/session/session-store';
import { defined } from '../../helpers/defined';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-recorder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const demo = (mode: 'growth' | 'reserved', ctx: number) =>
  RunRequestSchema.parse({
    target: { kind: 'local' },
    engine: { kind: 'demo', demo: { tokens: 400, tps: 800, weightsMb: 8, mode, ctx, loadGapMs: 200 } },
    intervalMs: 50,
    budgetBytes: 512 * 1024 * 1024,
  });

describe('SessionRecorder', () => {
  it('records two runs of one service into one session, exactly as the controllers saw them', async () => {
    const path = join(dir, 'two-runs.kvscope');
    const recorder = SessionRecorder.create(path, { appVersion: 'test' });
    const service = new RunService(() => {});
    const runs = [];
    try {
      for (const [mode, ctx] of [
        ['growth', 4096],
        ['reserved', 2048],
      ] as const) {
        const run = await service.start(demo(mode, ctx));
        recorder.recordRun(run);
        await run.done;
        runs.push(run);
      }
    } finally {
      await service.dispose();
    }
    recorder.setTarget({ kind: 'local', label: 'This computer' });
    await recorder.close();

    const data = readSession(path);
    expect(data.meta.target).toEqual({ kind: 'local', label: 'This computer' });
    expect(data.runs.map((r) => r.id)).toEqual(runs.map((r) => r.runId));
    for (const [i, run] of runs.entries()) {
      const stored = defined(data.runs[i], `run ${i}`);
      expect(stored.state).toBe('done');
      expect(stored.analysisSource).toBe('stored');
      expect(stored.samples).toEqual(run.samples);
      expect(stored.events).toEqual(run.events);
      expect(stored.engineLog).toEqual(JSON.parse(JSON.stringify(run.engineLog)));
      expect(stored.analysis).toEqual(JSON.parse(JSON.stringify(run.analysis)));
      // The summary as profile --json prints it, target facts filled in when they came.
      expect(summarizeRun(stored)).toEqual(
        JSON.parse(
          JSON.stringify(summarizeRun({ ...run.record(), target: { kind: 'local', label: 'This computer' } })),
        ),
      );
      expect(stored.engine?.command).toBe(run.engine?.displayCommand);
      // The shell line with temporary paths is not kept.
      expect(JSON.stringify(stored.engine)).not.toContain('kvscope-');
      // Every number can be recomputed from the stored samples alone.
      expect(recomputeAnalysis(stored)).toEqual(stored.analysis);
    }
    // (The residency mode of runs this short is the analysis' business, tested in test/integration/run.)
    expect(data.runs.map((r) => r.analysis.kv.theoryBytesPerToken)).toEqual([32768, 32768]);
    expect(data.runs.map((r) => r.engine?.ctx)).toEqual([4096, 2048]);
  });

  it('recording that starts after samples arrived still stores every one of them, once', async () => {
    const path = join(dir, 'late.kvscope');
    const recorder = SessionRecorder.create(path, { appVersion: 'test' });
    const service = new RunService(() => {});
    let run;
    try {
      run = await service.start(demo('growth', 4096));
      // Attach only once the run has produced samples and events.
      while (run.samples.filter((s) => s.source === 'procfs').length < 3 && run.status.state === 'running')
        await new Promise((r) => setTimeout(r, 20));
      recorder.recordRun(run);
      await run.done;
    } finally {
      await service.dispose();
    }
    await recorder.close();
    const stored = defined(readSession(path).runs[0], 'run 0');
    expect(stored.samples).toEqual(run.samples);
    expect(stored.events).toEqual(run.events);
  });

  // The follow stream hands lines over in whatever reads the network gave: two tokens of one 10 ms
  // tick in two reads, the live samples flushed between them. The tick's engine sample is still
  // open then (the controller merges the second read into it); a copy taken at that flush stored
  // 1 token at 200 ms where the run has 2 (CI once stored 45 of 47).
  it('stores an engine sample only once its tick can take no more tokens', async () => {
    const path = join(dir, 'split-tick.kvscope');
    const recorder = SessionRecorder.create(path, { appVersion: 'test' });
    const request = RunRequestSchema.parse({
      target: { kind: 'local' },
      engine: { kind: 'command', command: 'sleep 1' },
    });
    const noop = () => {};
    const callbacks = { onSamples: noop, onEvent: noop, onStatus: noop, onOutput: noop, onAnalysis: noop };
    vi.useFakeTimers();
    let run: RunController;
    try {
      run = new RunController(new LocalTarget(), request, '20261206060000-0a1b2c3d', callbacks);
      recorder.recordRun(run);
      for (const read of [
        ['X 100.00 start launcher=4242', 'X 100.01 engine pid=4243', 'O 100.20 a'],
        ['O 100.20 b', 'O 100.30 c'],
        ['X 100.40 exit code=0 pid=4243', 'X 100.50 end'],
      ]) {
        // The controller's line handler, as the follower calls it (private: no seam of its own).
        for (const line of read) run['onLine'](line);
        vi.advanceTimersByTime(1000);
      }
      await run.done;
    } finally {
      vi.useRealTimers();
    }
    await recorder.close();
    const engine = (samples: readonly Sample[]) =>
      samples.filter((s) => s.source === 'engine').map((s) => [s.tMs, s.values.tokens]);
    const stored = defined(readSession(path).runs[0], 'run 0');
    expect(engine(stored.samples)).toEqual([
      [10, 0],
      [200, 2],
      [300, 3],
    ]);
    expect(stored.samples).toEqual(run.samples);
  });
});
