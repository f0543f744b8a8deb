// Hand-built sessions for the report tests. Every number is written literally; where a run has
// no stored outcome (a crash), its samples are exactly linear so the expected analysis is known
// without running the analysis: 100 MiB + 32,768 B per token of anonymous RSS.
import { RunRequestSchema, type RunAnalysis, type RunEvent, type Sample } from '../../shared/api/schemas';
import { recomputeAnalysis } from '../../shared/analysis/run-summary';
import type { KvRecord } from '../../shared/parsers/records';
import type { RunOutcome } from '../../shared/run/run-record';
import type { TargetFacts } from '../../shared/run/target-facts';
import type { SessionData, SessionRun } from '../../shared/report/session-data';

export const GIB = 1024 ** 3;
export const MIB = 1024 ** 2;

export const HOSTILE_COMMAND = `llama-cli -m "/models/m.gguf" -c 4096 -p '<script>alert(1)</script>' --x '"><img src=x onerror=alert(2)>'`;

/** The KV cache llama.cpp logged for a 4096-cell f16 context of a 16-layer model: 128 MiB. */
const LOGGED_KV: KvRecord = {
  kind: 'kv',
  line: 42,
  scope: 'total',
  sizeBytes: 134217728,
  cells: 4096,
  layers: 16,
  seqs: 1,
  streams: 1,
  typeK: 'f16',
  typeV: 'f16',
  kBytes: 67108864,
  vBytes: 67108864,
  device: null,
  swa: null,
  recurrent: false,
  parts: [],
  source: 'llama_kv_cache',
};

/** A finished llama.cpp run with a stored outcome: f16, growth, 2 GiB budget, an OOM and a dropped link. */
export function finishedRun(overrides: Partial<SessionRun> = {}): SessionRun {
  const analysis: RunAnalysis = {
    kv: {
      theoryBytesPerToken: 32768,
      measuredBytesPerToken: 33110,
      overheadFactor: 1.0104,
      mode: 'growth',
      baselineBytes: 734003200,
      reservedJumpBytes: null,
      theoryReservedBytes: 134217728,
      decodeSlopeBytesPerToken: 33110,
      rssMetric: 'rssAnonBytes',
      fitR2: 0.998,
      windowTokens: null,
    },
    budgetBytes: 2147483648,
    oomHorizonTokens: 41000,
    maxSafeContextTokens: 39000,
    throughput: { ttftMs: 180, prefillTokensPerSecond: 250.1, decodeTokensPerSecond: 15.2, tokens: 2000 },
    lastRssBytes: 900000000,
    peakRssBytes: 912261120,
    leak: {
      leaking: false,
      bytesPerToken: 342,
      thresholdBytesPerToken: 4096,
      tokensObserved: 2000,
      confidence: 0.9,
      reason: 'no growth beyond the KV cache',
    },
  };
  const events: RunEvent[] = [
    { tMs: 0, kind: 'start', message: 'engine: llama-cli …' },
    { tMs: 4000, kind: 'disconnect', message: 'link lost' },
    { tMs: 9000, kind: 'reconnect', message: 'link back' },
    { tMs: 131000, kind: 'oom', message: 'Out of memory: Killed process 4242 (llama-cli)', data: { pid: 4242 } },
  ];
  const samples: Sample[] = [
    { tMs: 0, source: 'engine', values: { started: 1, tokens: 0 } },
    { tMs: 100, source: 'procfs', values: { rssBytes: 209715200, rssAnonBytes: 104857600, tokens: 0 } },
    { tMs: 500, source: 'procfs', values: { rssBytes: 838860800, rssAnonBytes: 734003200, tokens: 0 } },
    { tMs: 680, source: 'engine', values: { tokens: 1 } },
    { tMs: 60000, source: 'procfs', values: { rssBytes: 870000000, rssAnonBytes: 765000000, tokens: 1000 } },
    { tMs: 130000, source: 'procfs', values: { rssBytes: 912261120, rssAnonBytes: 800000000, tokens: 2000 } },
    { tMs: 130500, source: 'engine', values: { tokens: 2000 } },
  ];
  const outcome: RunOutcome = {
    exitCode: null,
    signal: 'SIGKILL',
    oomKilled: true,
    lostSamples: 0,
    diagnostics: 0,
    durationMs: 131000,
    stderrTail: [],
    collectors: {},
  };
  return {
    seq: 1,
    id: '20260101120000-aaaaaaaa',
    label: 'llama 1B f16',
    request: RunRequestSchema.parse({
      target: { kind: 'ssh', host: 'orin', user: 'dev' },
      engine: {
        kind: 'command',
        command: 'llama-cli -m /models/llama-3.2-1b-f16.gguf -c 4096 -n 2000',
        kvType: 'f16',
        ctx: 4096,
      },
      budgetBytes: 2147483648,
      intervalMs: 200,
    }),
    target: null,
    engine: {
      command: 'llama-cli -m /models/llama-3.2-1b-f16.gguf -c 4096 -n 2000',
      theoryBytesPerToken: 32768,
      ctx: 4096,
      modeHint: 'reserved',
    },
    analysisInputs: {
      theoryBytesPerToken: 32768,
      theoryMode: 'reserved',
      ctx: 4096,
      theoryReservedBytes: 134217728,
      budgetBytes: 2147483648,
    },
    state: 'failed',
    // The OOM kill speaks for itself (an `oom` event): no error text besides it.
    error: null,
    startedAt: '2026-01-01T12:00:00.000Z',
    endedAt: '2026-01-01T12:02:11.000Z',
    samples,
    events,
    engineLog: { timings: [], kv: [LOGGED_KV], model: [] },
    outcome,
    analysis,
    analysisSource: 'stored',
    ...overrides,
  };
}

/** Exactly linear growth: anon = 100 MiB + 32,768 × tokens, total = anon + 50 MiB; tokens 0..1000 in steps of 50. */
export function linearSamples(): Sample[] {
  const samples: Sample[] = [{ tMs: 0, source: 'engine', values: { started: 1, tokens: 0 } }];
  samples.push({ tMs: 50, source: 'procfs', values: { rssBytes: 157286400, rssAnonBytes: 104857600, tokens: 0 } });
  for (let i = 1; i <= 20; i++) {
    const tokens = i * 50;
    const tMs = 100 + i * 1000;
    samples.push({ tMs: tMs - 10, source: 'engine', values: { tokens } });
    samples.push({
      tMs,
      source: 'procfs',
      values: { rssBytes: 157286400 + 32768 * tokens, rssAnonBytes: 104857600 + 32768 * tokens, tokens },
    });
  }
  return samples;
}

/** A demo run whose recording was cut short: no outcome, analysis recomputed as readSession does. */
export function crashedRun(overrides: Partial<SessionRun> = {}): SessionRun {
  const base: Omit<SessionRun, 'analysis' | 'analysisSource'> = {
    seq: 2,
    id: '20260101121000-bbbbbbbb',
    label: 'demo growth (interrupted)',
    request: RunRequestSchema.parse({
      target: { kind: 'local' },
      engine: { kind: 'demo', demo: { kvType: 'f16', ctx: 4096, mode: 'growth' } },
      intervalMs: 200,
    }),
    target: null,
    engine: { command: 'kvscope demo-engine --kv-type f16', theoryBytesPerToken: 32768, ctx: 4096, modeHint: 'growth' },
    analysisInputs: {
      theoryBytesPerToken: 32768,
      theoryMode: 'growth',
      ctx: 4096,
      theoryReservedBytes: null,
      budgetBytes: null,
    },
    state: 'running',
    error: null,
    startedAt: '2026-01-01T12:10:00.000Z',
    endedAt: null,
    samples: linearSamples(),
    events: [{ tMs: 0, kind: 'start', message: 'engine: kvscope demo-engine' }],
    engineLog: { timings: [], kv: [], model: [] },
    outcome: null,
    ...overrides,
  };
  return { ...base, analysis: recomputeAnalysis(base), analysisSource: 'recomputed' };
}

/** A session of these runs; every run shows the session's target facts (as readSession gives them). */
export function session(
  runs: SessionRun[],
  target: TargetFacts | null = {
    kind: 'ssh',
    label: 'orin',
    hostname: 'orin-nano',
    arch: 'aarch64',
    memTotalBytes: 8 * GIB,
  },
): SessionData {
  return {
    meta: {
      format: 'kvscope-session',
      schemaVersion: 1,
      appVersion: '0.1.0',
      createdAt: '2026-01-01T11:59:00.000Z',
      target,
    },
    runs: runs.map((r) => ({ ...r, target })),
  };
}
