// Which findings a run gets, how severe, and the numbers behind them (shared/analysis/findings.ts).
// Every expected number is worked out by hand in the comment beside it from the thresholds in
// shared/analysis/thresholds.ts; none is computed by the code under test.
import { describe, expect, it } from 'vitest';
import {
  budgetFindings,
  compareSeverity,
  eventFindings,
  kvTypeFinding,
  overheadFindings,
  reservedFinding,
  runFindings,
  type FindingInput,
} from '../../../../shared/analysis/findings';
import type { KvSummary, RunAnalysis } from '../../../../shared/api/schemas';
import type { GgufModelSummary } from '../../../../shared/kv/model-config';
import { wordFinding } from '../../../../shared/report/finding-text';

const GiB = 1024 ** 3;

/** A clean f16 growth run: 32,768 B/token measured and in theory, 2 GiB budget, horizon 41,000. */
function input(
  over: Partial<Omit<FindingInput, 'analysis'>> = {},
  analysis: Partial<Omit<RunAnalysis, 'kv'>> = {},
  kv: Partial<KvSummary> = {},
): FindingInput {
  return {
    analysis: {
      kv: {
        theoryBytesPerToken: 32768,
        measuredBytesPerToken: 32768,
        overheadFactor: 1,
        mode: 'growth',
        baselineBytes: 700 * 1024 ** 2,
        decodeSlopeBytesPerToken: 32768,
        fitR2: 0.999,
        ...kv,
      },
      budgetBytes: 2 * GiB,
      oomHorizonTokens: 41000,
      maxSafeContextTokens: 39000,
      throughput: { ttftMs: 180, prefillTokensPerSecond: 250, decodeTokensPerSecond: 15, tokens: 2000 },
      lastRssBytes: 900e6,
      peakRssBytes: 900e6,
      ...analysis,
    },
    events: [],
    samples: 100,
    lostSamples: 0,
    ctx: 4096,
    kvType: 'f16',
    engine: 'llama',
    promptTokens: null,
    recovered: false,
    failure: null,
    ...over,
  };
}

const kinds = (list: Array<{ kind: string; severity: string }>) => list.map((f) => [f.kind, f.severity]);

describe('overhead: measured KV against the theory', () => {
  it('within ±5 % matches; from ×1.2 is high; up to ×0.8 is low in growth mode only', () => {
    expect(kinds(overheadFindings(input({}, {}, { overheadFactor: 1.03 })))).toEqual([['overhead-match', 'ok']]);
    expect(kinds(overheadFindings(input({}, {}, { overheadFactor: 0.96 })))).toEqual([['overhead-match', 'ok']]);
    // Between the match band and the high mark: nothing to say.
    expect(overheadFindings(input({}, {}, { overheadFactor: 1.1 }))).toEqual([]);
    expect(kinds(overheadFindings(input({}, {}, { overheadFactor: 1.2 })))).toEqual([['overhead-high', 'warning']]);
    expect(kinds(overheadFindings(input({}, {}, { overheadFactor: 0.8 })))).toEqual([['overhead-low', 'info']]);
    expect(overheadFindings(input({}, {}, { overheadFactor: 0.8, mode: 'reserved' }))).toEqual([]);
    // No theory: no comparison.
    expect(overheadFindings(input({}, {}, { overheadFactor: null, theoryBytesPerToken: null }))).toEqual([]);
  });

  it('carries the numbers it was judged on', () => {
    expect(overheadFindings(input({}, {}, { overheadFactor: 1.25, measuredBytesPerToken: 40960 }))).toEqual([
      {
        id: 'overhead',
        kind: 'overhead-high',
        severity: 'warning',
        factor: 1.25,
        measuredBytesPerToken: 40960,
        theoryBytesPerToken: 32768,
      },
    ]);
  });

  it('a fit with r² under 0.9 is noisy; a leak is a warning', () => {
    expect(overheadFindings(input({}, {}, { fitR2: 0.85 }))).toEqual([
      {
        id: 'overhead',
        kind: 'overhead-match',
        severity: 'ok',
        factor: 1,
        measuredBytesPerToken: 32768,
        theoryBytesPerToken: 32768,
      },
      { id: 'overhead', kind: 'fit-noisy', severity: 'info', r2: 0.85 },
    ]);
    const leak = {
      leaking: true,
      bytesPerToken: 8192,
      thresholdBytesPerToken: 1638,
      tokensObserved: 2000,
      confidence: 0.9,
      reason: 'grows',
    };
    expect(overheadFindings(input({}, { leak }, { overheadFactor: null }))).toEqual([
      { id: 'overhead', kind: 'leak', severity: 'warning', bytesPerToken: 8192, confidence: 0.9, reason: 'grows' },
    ]);
    expect(overheadFindings(input({}, { leak: { ...leak, leaking: false } }, { overheadFactor: null }))).toEqual([]);
  });
});

describe('KV type: what a smaller type would cost', () => {
  it('f16 → q8_0 (34 B per 32 values) and q4_0 (18 B per 32 values)', () => {
    // 32,768 B/token at 2 B/value = 16,384 values/token; × 34/32 = 17,408; × 18/32 = 9,216.
    expect(kvTypeFinding(input())).toEqual({
      id: 'kv-type',
      kind: 'kv-type',
      severity: 'info',
      kvType: 'f16',
      perTokenBytes: 32768,
      options: [
        { kvType: 'q8_0', bytesPerToken: 17408 },
        { kvType: 'q4_0', bytesPerToken: 9216 },
      ],
    });
    // f32: 4 B/value → 8,192 values/token → q8_0 8,704 B.
    expect(kvTypeFinding(input({ kvType: 'f32' }))).toMatchObject({
      kvType: 'f32',
      options: [
        { kvType: 'q8_0', bytesPerToken: 8704 },
        { kvType: 'q4_0', bytesPerToken: 4608 },
      ],
    });
  });

  it('q8_0 → q4_0 only; nothing below q4_0, for unknown types or without a per-token cost', () => {
    // 17,408 B/token at 34/32 B/value = 16,384 values → × 18/32 = 9,216.
    expect(kvTypeFinding(input({ kvType: 'q8_0' }, {}, { theoryBytesPerToken: 17408 }))).toMatchObject({
      options: [{ kvType: 'q4_0', bytesPerToken: 9216 }],
    });
    expect(kvTypeFinding(input({ kvType: 'q4_0' }))).toBeNull();
    expect(kvTypeFinding(input({ kvType: 'iq4_nl' }))).toBeNull();
    expect(kvTypeFinding(input({ kvType: null }))).toBeNull();
    expect(kvTypeFinding(input({}, {}, { theoryBytesPerToken: null, measuredBytesPerToken: null }))).toBeNull();
  });

  // stories260K (../shared/models/README.md): head_dim 8, which no 32-value block divides, so
  // llama.cpp refuses q8_0 and q4_0 for it; the report advised "q8_0 cuts it to 340 B" anyway.
  it('never a type the model cannot take: its head dimension must be a whole number of blocks', () => {
    const model = (headDimK: number, headDimV: number) => ({ headDimK, headDimV, mla: false }) as GgufModelSummary;
    expect(kvTypeFinding(input({ model: model(8, 8) }, {}, { theoryBytesPerToken: 640 }))).toBeNull();
    expect(kvTypeFinding(input({ model: model(128, 8) }))).toBeNull();
    expect(kvTypeFinding(input({ model: model(64, 64) }))).toMatchObject({
      options: [{ kvType: 'q8_0' }, { kvType: 'q4_0' }],
    });
    // Facts that are not numbers (a session file from elsewhere) take nothing away.
    expect(kvTypeFinding(input({ model: { headDimK: 'x' } as unknown as GgufModelSummary }))).toMatchObject({
      options: [{ kvType: 'q8_0' }, { kvType: 'q4_0' }],
    });
  });
});

describe('budget', () => {
  it('no budget: say how to give one', () => {
    expect(budgetFindings(input({}, { budgetBytes: null }))).toEqual([
      { id: 'budget', kind: 'no-budget', severity: 'info' },
    ]);
  });

  it('no budget and no memory sample (an imported board log): nothing to say, a budget would not help', () => {
    expect(budgetFindings(input({ samples: 0 }, { budgetBytes: null }))).toEqual([]);
  });

  it('growth: the cap is the max safe context, rounded down to 256 cells for llama.cpp', () => {
    // 39,000 / 256 = 152.3 → 152 × 256 = 38,912.
    expect(budgetFindings(input())).toEqual([
      {
        id: 'budget',
        kind: 'horizon',
        severity: 'info',
        slopeBytesPerToken: 32768,
        budgetBytes: 2 * GiB,
        horizonTokens: 41000,
        capTokens: 38912,
        ctxStep: 256,
        ctxTooLarge: false,
        ctx: 4096,
      },
    ]);
    // The demo takes any context: 39,000 as it is.
    expect(budgetFindings(input({ engine: 'demo' }))[0]).toMatchObject({ capTokens: 39000, ctxStep: 1 });
  });

  it('growth without a safe maximum: 95 % of the horizon; a larger context is a warning', () => {
    // 41,000 × 0.95 = 38,950 → 152 × 256 = 38,912.
    expect(budgetFindings(input({ ctx: 65536 }, { maxSafeContextTokens: null }))[0]).toMatchObject({
      kind: 'horizon',
      severity: 'warning',
      capTokens: 38912,
      ctxTooLarge: true,
    });
    expect(budgetFindings(input({ engine: 'other' }, { maxSafeContextTokens: null }))[0]).toMatchObject({
      capTokens: 38950,
    });
  });

  it('over the budget is critical, and then no horizon', () => {
    expect(kinds(budgetFindings(input({}, { peakRssBytes: 2 * GiB })))).toEqual([['over-budget', 'critical']]);
  });

  it('reserved: the context fits the budget, or it does not and a smaller one is named', () => {
    const reserved = { oomHorizonTokens: null };
    expect(budgetFindings(input({}, { ...reserved, maxSafeContextTokens: 40000 }, { mode: 'reserved' }))).toEqual([
      {
        id: 'budget',
        kind: 'reserved-fits',
        severity: 'ok',
        ctx: 4096,
        budgetBytes: 2 * GiB,
        maxSafeContextTokens: 40000,
      },
    ]);
    // 3,000 / 256 = 11.7 → 11 × 256 = 2,816.
    expect(budgetFindings(input({}, { ...reserved, maxSafeContextTokens: 3000 }, { mode: 'reserved' }))).toEqual([
      {
        id: 'budget',
        kind: 'reserved-too-large',
        severity: 'critical',
        ctx: 4096,
        budgetBytes: 2 * GiB,
        maxSafeContextTokens: 3000,
        suggestedCtx: 2816,
      },
    ]);
    // Under two steps (300 < 512), the plain number.
    expect(
      budgetFindings(input({}, { ...reserved, maxSafeContextTokens: 300 }, { mode: 'reserved' }))[0],
    ).toMatchObject({ suggestedCtx: 300 });
  });

  it('a sliding window caps the cache; otherwise the budget holds about the max safe context', () => {
    expect(budgetFindings(input({}, { oomHorizonTokens: null }, { mode: 'window', windowTokens: 4096 }))).toEqual([
      { id: 'budget', kind: 'window-caps', severity: 'ok', windowTokens: 4096, budgetBytes: 2 * GiB },
    ]);
    expect(kinds(budgetFindings(input({}, { oomHorizonTokens: null, maxSafeContextTokens: 50000 })))).toEqual([
      ['budget-holds', 'info'],
    ]);
  });
});

describe('reserved mode', () => {
  const reserved = (used: number) =>
    reservedFinding(
      input(
        { promptTokens: 56 },
        { throughput: { ttftMs: 1, prefillTokensPerSecond: 1, decodeTokensPerSecond: 1, tokens: used - 56 } },
        { mode: 'reserved', reservedJumpBytes: 134217728 },
      ),
    );

  it('a run that used under half of its context is told the context that holds it with 25 % to spare', () => {
    // 256 used of 4,096 (< 2,048): 256 × 1.25 = 320 → up to 512; frees (4,096 − 512) × 32,768 = 117,440,512 B.
    expect(reserved(256)).toEqual({
      id: 'reserved',
      kind: 'reserved',
      severity: 'warning',
      reservedJumpBytes: 134217728,
      ctx: 4096,
      perTokenBytes: 32768,
      underused: { usedTokens: 256, suggestedCtx: 512, freedBytes: 117440512 },
    });
  });

  it('no suggestion when the context that holds the run with its spare is the context itself', () => {
    // 200 used of 512 (< 256): 200 × 1.25 = 250 → up to 256 frees half; 220 × 1.25 = 275 → up to 512 frees nothing.
    const of512 = (used: number) =>
      reservedFinding(
        input(
          { promptTokens: 0, ctx: 512 },
          { throughput: { ttftMs: 1, prefillTokensPerSecond: 1, decodeTokensPerSecond: 1, tokens: used } },
          { mode: 'reserved', reservedJumpBytes: 16777216 },
        ),
      );
    expect(of512(200)).toMatchObject({ severity: 'warning', underused: { suggestedCtx: 256 } });
    expect(of512(220)).toMatchObject({ severity: 'info', underused: null, ctx: 512 });
  });

  it('half or more used: information only; not reserved: nothing', () => {
    expect(reserved(2048)).toMatchObject({ severity: 'info', underused: null });
    expect(reservedFinding(input())).toBeNull();
  });
});

describe('events', () => {
  it('OOM kills, dropped links, lost samples, throttling and the watchdog', () => {
    const found = eventFindings(
      input(
        {
          lostSamples: 12,
          events: [
            { tMs: 4000, kind: 'disconnect' },
            { tMs: 9000, kind: 'reconnect' },
            { tMs: 20000, kind: 'disconnect' },
            { tMs: 30000, kind: 'throttle', message: 'cpu0 at 1.2 GHz' },
            { tMs: 31000, kind: 'throttle' },
            { tMs: 60000, kind: 'alert', message: 'board-side watchdog: engine killed' },
            { tMs: 131000, kind: 'oom', message: 'Killed process 4242' },
          ],
        },
        { peakRssBytes: 870e6 },
      ),
    );
    expect(found).toEqual([
      {
        id: 'events',
        kind: 'oom',
        severity: 'critical',
        tMs: 131000,
        message: 'Killed process 4242',
        peakRssBytes: 870e6,
      },
      { id: 'events', kind: 'disconnects', severity: 'warning', disconnects: 2, reconnects: 1 },
      { id: 'events', kind: 'lost-samples', severity: 'warning', lostSamples: 12 },
      { id: 'events', kind: 'throttles', severity: 'warning', throttles: 2, messages: ['cpu0 at 1.2 GHz'] },
      { id: 'events', kind: 'watchdog', severity: 'warning', message: 'board-side watchdog: engine killed' },
    ]);
    expect(eventFindings(input({ events: [{ tMs: 1, kind: 'alert', message: 'hot' }] }))).toEqual([]);
  });

  it("the engine's log saying its KV cache had no room for a batch: how many times, 'at least' past the kept lines", () => {
    const line = (tMs: number, reason: string) => ({
      tMs,
      kind: 'info' as const,
      message: `engine log: ${reason}`,
      data: { reason, text: 'srv  update_slots: failed to find free space in the KV cache, retrying…' },
    });
    const three = [line(1000, 'KV cache full'), line(1200, 'unreadable timing line'), line(1500, 'KV cache full')];
    three.push(line(1900, 'KV cache full'));
    expect(eventFindings(input({ events: three }))).toEqual([
      { id: 'events', kind: 'kv-full', severity: 'warning', times: 3, atLeast: false },
    ]);
    // 50 kept (MAX_KEPT_DIAGNOSTICS): the engine may have said it more often.
    const fifty = Array.from({ length: 50 }, (_, i) => line(1000 + i, 'KV cache full'));
    expect(eventFindings(input({ events: fifty }))).toEqual([
      { id: 'events', kind: 'kv-full', severity: 'warning', times: 50, atLeast: true },
    ]);
    // Said as llama.cpp's flags for a llama.cpp run.
    const worded = wordFinding(
      { id: 'events', kind: 'kv-full', severity: 'warning', times: 50, atLeast: true },
      'llama',
    );
    expect(worded.title).toBe('The engine found no free KV cache cells for a batch at least 50 times');
    expect(worded.detail).toMatch(/-np\b.*-c\b/);
  });
});

describe('all findings of a run', () => {
  it('worst first; recovered and failed runs say so', () => {
    const all = runFindings(
      input({ recovered: true, failure: 'engine exited with 1', events: [{ tMs: 5, kind: 'oom' }] }),
    );
    expect(kinds(all)).toEqual([
      ['failed', 'critical'],
      ['oom', 'critical'],
      ['recovered', 'warning'],
      ['horizon', 'info'],
      ['kv-type', 'info'],
      ['overhead-match', 'ok'],
    ]);
    expect(all[2]).toEqual({ id: 'recovered', kind: 'recovered', severity: 'warning', samples: 100 });
  });

  it('severity order', () => {
    const order = (['ok', 'critical', 'info', 'warning'] as const).map((severity) => ({ severity }));
    expect(order.sort(compareSeverity).map((f) => f.severity)).toEqual(['critical', 'warning', 'info', 'ok']);
  });
});
