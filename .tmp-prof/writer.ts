import { statSync } from 'node:fs';
import { join } from 'node:path';
import { recomputeAnalysis } from '../shared/analysis/run-summary';
import { RunRequestSchema, type Sample } from '../shared/api/schemas';
import { createSession } from '../electron/node/session/session-store';
const SESSION_SECONDS = 8*3600;
function samplesAt(i: number): Sample[] {
  const tMs = i * 1000;
  const tokens = i * 12;
  const hot = i % 3600 > 2400; // 20 min of every hour hot
  return [
    { tMs, source: 'engine', values: { tokens } },
    {
      tMs,
      source: 'procfs',
      values: {
        rssBytes: 900e6 + (tokens % 50_000) * 32768,
        rssAnonBytes: 800e6 + (tokens % 50_000) * 32768,
        rssFileBytes: 100e6,
        swapBytes: (i % 600) * 1000,
        memAvailableBytes: 5e9 - (tokens % 50_000) * 32768,
        memCachedBytes: 9e8 + (i % 97) * 1e5,
        'temp.cpu.C': (hot ? 92 : 60) + (i % 11) / 3,
        'temp.gpu.C': (hot ? 90 : 58) + (i % 13) / 4,
        'cpufreq.policy0.KHz': hot ? 1_200_000 : 1_984_000,
        'rail.VDD_IN.mW': 9000 + (i % 17) * 120,
        cpuBusyPct: 70 + (i % 23),
      },
    },
  ];
}
import { mkdirSync } from 'node:fs';
function writeSession(dir: string): { path: string; bytes: number } {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'eight-hours.kvscope');
  const store = createSession(path, { appVersion: 'bench' });
  const request = RunRequestSchema.parse({ target: { kind: 'local' }, engine: { kind: 'demo', demo: {} } });
  const run = store.addRun({ id: 'bench-8h', label: '8 h at 1 Hz', request, state: 'running' });
  store.appendEvents(run, [{ tMs: 0, kind: 'start', message: 'bench session' }]);
  const samples: Sample[] = [];
  for (let i = 0; i < SESSION_SECONDS; i += 600) {
    const batch: Sample[] = [];
    for (let k = i; k < Math.min(SESSION_SECONDS, i + 600); k++) batch.push(...samplesAt(k));
    store.appendSamples(run, batch);
    samples.push(...batch);
  }
  // As the app's recording ends a run: outcome and analysis stored, so opening does not recompute them.
  store.finishRun(run, {
    label: '8 h at 1 Hz',
    state: 'done',
    error: null,
    endedAt: new Date().toISOString(),
    outcome: {
      exitCode: 0,
      signal: null,
      oomKilled: false,
      lostSamples: 0,
      diagnostics: 0,
      durationMs: SESSION_SECONDS * 1000,
      stderrTail: [],
      collectors: {},
    },
    analysis: recomputeAnalysis({
      samples,
      engineLog: { timings: [], kv: [], model: [] },
      analysisInputs: null,
      engine: null,
      request,
    }),
  });
  store.close();
  return { path, bytes: statSync(path).size };
}
export const writeSessionForProfile = writeSession;
