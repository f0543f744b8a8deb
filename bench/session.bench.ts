// Session files: how fast samples are appended (batched as during a run), how large the file is,
// how long a 100k-sample session takes to read and to render as an HTML report, and what ending
// the run costs (its packed snapshot written).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunRequestSchema, type RunAnalysis, type Sample } from '../shared/api/schemas';
import { buildReportModel } from '../shared/report/report-model';
import { renderReportHtml } from '../shared/report/render-html';
import { createSession, openSession, readSession } from '../electron/node/session/session-store';
import { TAMPERINGS, tamper, writeSmallSession } from '../test/helpers/hostile-session';
import { cleanRunEnd, type BenchRow } from './bench-util';

const SAMPLES = 100_000;
/** One procfs sample per four engine (token) samples, as a demo run at 40 tok/s sampled at 10 Hz gives. */
const ENGINE_PER_PROCFS = 4;

/** Sample i of a growth-mode run: 32 KiB per token on top of 700 MiB, procfs values as the sampler sends them. */
function sample(i: number): Sample {
  const tokens = Math.floor(i / 2);
  const tMs = i * 25;
  if (i % (ENGINE_PER_PROCFS + 1) !== 0) return { tMs, source: 'engine', values: { tokens } };
  const anon = 734003200 + 32768 * tokens + (i % 7) * 4096;
  return {
    tMs,
    source: 'procfs',
    values: {
      rssBytes: anon + 104857600,
      rssAnonBytes: anon,
      rssFileBytes: 104857600,
      rssShmemBytes: 0,
      swapBytes: 0,
      rssPeakBytes: anon + 104857600,
      memTotalBytes: 8264765440,
      memAvailableBytes: 6000000000 - 32768 * tokens,
      memFreeBytes: 5000000000 - 32768 * tokens,
      memCachedBytes: 977666048,
      swapTotalBytes: 0,
      swapFreeBytes: 0,
      nvmapBytes: null,
      threads: 7,
      vmSizeBytes: 1093066752,
      statmResidentBytes: anon + 104857600,
      cpuBusyPct: 50 + (i % 50),
      engineCpuPct: 98.5,
      'temp.cpu-thermal.C': 45 + (i % 10) / 10,
      'cpufreq.policy0.KHz': 1510400,
      tokens,
    },
  };
}

export function benchSession(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-bench-session-'));
  const rows: BenchRow[] = [];
  try {
    const path = join(dir, 'bench.kvscope');
    const all = Array.from({ length: SAMPLES }, (_, i) => sample(i));
    const store = createSession(path, { appVersion: 'bench', target: { kind: 'local', label: 'bench' } });
    const run = store.addRun({
      id: 'bench',
      label: 'bench run',
      request: RunRequestSchema.parse({
        target: { kind: 'local' },
        engine: { kind: 'demo', demo: { kvType: 'f16', mode: 'growth', ctx: 4096 } },
      }),
      state: 'running',
    });
    store.updateRun(run, {
      engine: { command: 'bench', theoryBytesPerToken: 32768, ctx: 4096, modeHint: 'growth' },
      analysisInputs: { theoryBytesPerToken: 32768, theoryMode: 'growth', ctx: 4096, budgetBytes: 4 * 1024 ** 3 },
    });
    // Appended in the controller's own chunks (its 100 ms flush holds a handful of samples).
    const t0 = performance.now();
    for (let i = 0; i < SAMPLES; i += 5) store.appendSamples(run, all.slice(i, i + 5));
    store.close();
    const appendMs = performance.now() - t0;
    rows.push({
      name: 'append (batched, incl. commit + close)',
      value: `${Math.round((SAMPLES / appendMs) * 1000).toLocaleString('en-US')} samples/s`,
      note: `${SAMPLES.toLocaleString('en-US')} samples, 1 procfs (21 keys) : ${ENGINE_PER_PROCFS} engine`,
    });
    const size = statSync(path).size;
    rows.push({
      name: 'file size per 10k samples',
      value: `${(((size / SAMPLES) * 10_000) / 1024 ** 2).toFixed(2)} MiB`,
      note: `${(size / 1024 ** 2).toFixed(1)} MiB for ${SAMPLES.toLocaleString('en-US')}`,
    });

    const t1 = performance.now();
    const session = readSession(path);
    const readMs = performance.now() - t1;
    rows.push({
      name: 'read 100k-sample session',
      value: `${Math.round(readMs)} ms`,
      note: 'no stored summary: includes recomputing the analysis from the samples',
    });
    const t2 = performance.now();
    const html = renderReportHtml(buildReportModel(session));
    const renderMs = performance.now() - t2;
    rows.push({
      name: 'render HTML report (100k samples)',
      value: `${Math.round(renderMs)} ms`,
      note: `${(html.length / 1024).toFixed(0)} KiB of HTML (charts downsampled with LTTB)`,
    });
    rows.push(finishRow(path, run, session.runs[0]?.analysis ?? null, size));
    rows.push(craftedSessionRow(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return Promise.resolve(rows);
}

/**
 * Ending the run as the app's recorder does: outcome and analysis stored, then the run's samples
 * packed once more into its snapshot (electron/node/session/run-snapshot.ts), which openSession
 * sends as it is. What that costs at the end of the run, and on disk.
 */
function finishRow(path: string, run: number, analysis: RunAnalysis | null, sizeBefore: number): BenchRow {
  if (!analysis) throw new Error('the bench session read back without an analysis');
  const store = openSession(path);
  const t = performance.now();
  store.finishRun(run, cleanRunEnd('bench run', SAMPLES * 25, analysis));
  const ms = performance.now() - t;
  store.close();
  const added = statSync(path).size - sizeBefore;
  return {
    name: 'finish a 100k-sample run (its packed snapshot stored)',
    value: `${Math.round(ms)} ms`,
    note: `the snapshot adds ${(((added / SAMPLES) * 10_000) / 1024 ** 2).toFixed(2)} MiB per 10k samples (${((added / sizeBefore) * 100).toFixed(0)} % of the rows)`,
  };
}

/**
 * The crafted session files of test/helpers/hostile-session.ts (a recursive view standing in for
 * a table, a trigger, …): the slowest refusal, as `kvscope report` meets it (target: under 1 s;
 * before session-file-guard.ts a recursive `runs` view ran for minutes, growing to gigabytes).
 */
function craftedSessionRow(dir: string): BenchRow {
  let worstMs = 0;
  let worst = '';
  for (const [name, sql] of Object.entries(TAMPERINGS)) {
    const path = join(dir, `${name.replace(/\W+/g, '-')}.kvscope`);
    writeSmallSession(path, 10_000);
    tamper(path, sql);
    const t = performance.now();
    try {
      readSession(path);
    } catch {
      // refused, as it must be
    }
    const ms = performance.now() - t;
    if (ms > worstMs) [worstMs, worst] = [ms, name];
  }
  return {
    name: 'crafted session refused (worst case)',
    value: `${worstMs.toFixed(1)} ms`,
    note: `${Object.keys(TAMPERINGS).length} kinds, 10k samples each; slowest: ${worst}`,
  };
}
