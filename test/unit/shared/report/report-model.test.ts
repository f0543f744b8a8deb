// The report model from hand-built sessions: the numbers a customer reads and the advice they get.
import { describe, expect, it } from 'vitest';
import { buildReportModel, type RunReport } from '../../../../shared/report/report-model';
import { defined } from '../../../helpers/defined';
import { crashedRun, finishedRun, GIB, session } from '../../../helpers/session-fixtures';

const row = (run: RunReport, section: string, label: string) =>
  run.sections.find((s) => s.title === section)?.rows.find((r) => r.label === label)?.value;

describe('report model of a finished llama.cpp run (stored summary)', () => {
  const model = buildReportModel(session([finishedRun()]));
  const run = defined(model.runs[0], 'run 1');

  it('target facts, formatted', () => {
    expect(model.title).toBe('KVScope report — orin');
    expect(model.target).toEqual([
      { label: 'Target', value: 'orin' },
      { label: 'Connection', value: 'ssh' },
      { label: 'Host name', value: 'orin-nano' },
      { label: 'Architecture', value: 'aarch64' },
      { label: 'Memory', value: '8.00 GiB' },
    ]);
    // Not a full probe: no board check.
    expect(model.board).toEqual([]);
  });

  it('KV theory against measurement, budget, throughput, peak RSS', () => {
    expect(run.engineCommand).toBe('llama-cli -m /models/llama-3.2-1b-f16.gguf -c 4096 -n 2000');
    expect(row(run, 'KV cache: theory against measurement', 'Bytes per token, theory')).toBe('32.0 KiB (32,768 B)');
    expect(row(run, 'KV cache: theory against measurement', 'Bytes per token, measured')).toBe('32.3 KiB (33,110 B)');
    expect(row(run, 'KV cache: theory against measurement', 'Overhead factor (measured ÷ theory)')).toBe('1.01×');
    expect(row(run, 'KV cache: theory against measurement', 'Residency mode')).toBe(
      'growth — the cache grows as tokens arrive',
    );
    expect(row(run, 'KV cache: theory against measurement', 'Baseline (weights, runtime, buffers)')).toBe('700 MiB');
    expect(row(run, 'KV cache: theory against measurement', 'KV size the engine logged')).toBe('128 MiB');
    expect(row(run, 'Memory budget', 'Budget')).toBe('2.00 GiB');
    expect(row(run, 'Memory budget', 'Peak RSS')).toBe('870 MiB');
    expect(row(run, 'Memory budget', 'OOM horizon')).toBe('41,000 tokens');
    expect(row(run, 'Memory budget', 'Max safe context')).toBe('39,000 tokens');
    expect(row(run, 'Throughput', 'Time to first token')).toBe('180 ms');
    expect(row(run, 'Throughput', 'Prefill')).toBe('250 tok/s');
    expect(row(run, 'Throughput', 'Decode')).toBe('15.2 tok/s');
    expect(row(run, 'Throughput', 'Tokens generated')).toBe('2,000');
    expect(row(run, 'Run', 'Engine exit')).toBe('killed by the OOM killer');
    expect(row(run, 'Run', 'KV cache type')).toBe('f16');
    expect(run.numbers).toMatchObject({
      measuredBytesPerToken: 33110,
      oomHorizonTokens: 41000,
      maxSafeContextTokens: 39000,
      peakRssBytes: 912261120,
      kvType: 'f16',
      ctx: 4096,
    });
    expect(run.recovered).toBe(false);
    expect(run.analysisSource).toBe('stored');
  });

  it('findings a field engineer can hand over, worst first', () => {
    expect(run.findings.map((f) => [f.severity, f.title])).toEqual([
      ['critical', 'The kernel OOM killer ended the engine at 131.0 s'],
      ['warning', 'The link to the board dropped 1 time (1 reconnect)'],
      [
        'info',
        'At the measured slope (32.3 KiB/token) the 2.00 GiB budget is reached at 41,000 tokens: cap the context at 38,912',
      ],
      ['info', 'KV at f16 costs 32.0 KiB/token: q8_0 cuts it to 17.0 KiB (-47 %)'],
      ['ok', 'Measured KV 32.3 KiB/token matches the theory (32.0 KiB/token, 1.01×)'],
    ]);
    const budget = run.findings.find((f) => f.id === 'budget');
    expect(budget?.detail).toBe('38,912 is a multiple of 256: llama.cpp rounds -c up to one.');
    const kv = run.findings.find((f) => f.id === 'kv-type');
    expect(kv?.detail).toContain('-ctk q8_0 -ctv q8_0');
    expect(kv?.detail).toContain('q4_0 (9.00 KiB/token)');
    const oom = run.findings.find((f) => f.severity === 'critical');
    expect(oom?.detail).toContain('Out of memory: Killed process 4242 (llama-cli) Peak RSS 870 MiB.');
  });

  it('events and charts come from the stored samples', () => {
    expect(run.events.map((e) => [e.time, e.kind])).toEqual([
      ['0.0 s', 'start'],
      ['4.0 s', 'disconnect'],
      ['9.0 s', 'reconnect'],
      ['131.0 s', 'oom'],
    ]);
    const tokensChart = defined(run.charts[0], 'the tokens chart');
    const timeChart = defined(run.charts[1], 'the time chart');
    expect(tokensChart.title).toBe('RSS against generated tokens');
    // The four procfs samples, at their token counts.
    expect(tokensChart.series.find((s) => s.role === 'rss')?.points).toEqual([
      [0, 209715200],
      [0, 838860800],
      [1000, 870000000],
      [2000, 912261120],
    ]);
    // Theory: baseline 700 MiB + 32,768 B/token on anonymous RSS, to the end of the x range.
    expect(tokensChart.series.find((s) => s.role === 'theory')?.points).toEqual([
      [0, 734003200],
      [2000, 734003200 + 32768 * 2000],
    ]);
    // The horizon (41,000 tokens) is more than 8× the 2,000 observed: no projection; the budget
    // (2 GiB, under 3× the 870 MiB peak) is drawn across.
    expect(tokensChart.series.some((s) => s.role === 'projection')).toBe(false);
    expect(tokensChart.series.find((s) => s.role === 'budget')?.points).toEqual([
      [0, 2147483648],
      [2000, 2147483648],
    ]);
    expect(tokensChart.notes).toEqual([]);
    expect(timeChart.title).toBe('RSS over time');
    expect(timeChart.markers.map((m) => [m.x, m.kind])).toEqual([
      [0.68, 'token'],
      [4, 'disconnect'],
      [9, 'reconnect'],
      [131, 'oom'],
    ]);
  });
});

describe('report model of a run whose recording was cut short', () => {
  const model = buildReportModel(session([crashedRun()]));
  const run = defined(model.runs[0], 'run 1');

  it('recomputes the analysis from the stored samples and says so', () => {
    expect(run.recovered).toBe(true);
    expect(run.analysisSource).toBe('recomputed');
    // Samples are exactly 100 MiB + 32,768 B/token (anonymous): the fit is exact.
    expect(run.numbers.measuredBytesPerToken).toBe(32768);
    expect(run.numbers.overheadFactor).toBe(1);
    expect(run.numbers.baselineBytes).toBe(104857600);
    expect(run.numbers.mode).toBe('growth');
    expect(run.numbers.tokens).toBe(1000);
    expect(run.numbers.peakRssBytes).toBe(157286400 + 32768 * 1000);
    expect(run.numbers.decodeTokensPerSecond).toBe(50);
    expect(run.numbers.ttftMs).toBe(1090);
    expect(row(run, 'Run', 'Engine exit')).toBe('unknown (recording stopped)');
    expect(run.findings[0]).toEqual({
      id: 'recovered',
      severity: 'warning',
      title: 'This run was not finished cleanly: KVScope stopped while recording it',
      detail:
        "The numbers are recomputed from the 21 memory samples stored before it stopped; the engine's exit status is unknown.",
    });
    expect(run.findings.map((f) => f.title)).toContain('No memory budget was given');
  });
});

describe('report model of several runs', () => {
  it('an overview row per run and highlights shared by runs listed once', () => {
    const model = buildReportModel(session([finishedRun(), crashedRun()]));
    expect(model.overview?.rows).toEqual([
      ['llama 1B f16', 'growth', '32.3 KiB', '1.01×', '870 MiB', '39,000 tokens', '15.2 tok/s'],
      ['demo growth (interrupted)', 'growth', '32.0 KiB', '1.00×', '181 MiB', '–', '50.0 tok/s'],
    ]);
    const kv = model.highlights.filter((h) => h.id === 'kv-type');
    expect(kv).toHaveLength(2); // different advice wording (llama flags vs demo flag)
    expect(kv.map((h) => h.runs)).toEqual([['llama 1B f16'], ['demo growth (interrupted)']]);
    expect(model.highlights[0]?.severity).toBe('critical');
    expect(model.highlights.every((h) => h.severity !== 'ok')).toBe(true);
  });

  it('a reserved run that uses a fraction of its context is told to lower -c', () => {
    const reserved = finishedRun({
      analysis: {
        ...finishedRun().analysis,
        kv: {
          ...finishedRun().analysis.kv,
          mode: 'reserved',
          reservedJumpBytes: 134217728,
          measuredBytesPerToken: 32768,
          overheadFactor: 1,
        },
        oomHorizonTokens: null,
        maxSafeContextTokens: 40000,
        throughput: { ttftMs: 180, prefillTokensPerSecond: 250.1, decodeTokensPerSecond: 15.2, tokens: 200 },
      },
      events: [],
      engineLog: {
        timings: [
          {
            kind: 'timings',
            line: 1,
            phase: 'prompt',
            ms: 100,
            tokens: 56,
            tokensPerSecond: 560,
            msPerToken: 1.8,
            label: 'prompt eval',
            source: 'llama_perf_context_print',
            slotId: null,
            taskId: null,
          },
        ],
        kv: [],
        model: [],
      },
    });
    const run = defined(buildReportModel(session([reserved])).runs[0]);
    const f = run.findings.find((x) => x.id === 'reserved');
    expect(f?.severity).toBe('warning');
    expect(f?.title).toBe('Reserved mode: llama.cpp reserves n_ctx up front — lower -c to what you need');
    // 200 generated + 56 prompt = 256 of 4,096; 256 × 1.25 = 320 → 512 (a multiple of 256); frees (4,096 − 512) × 32 KiB = 112 MiB.
    expect(f?.detail).toBe(
      'It reserved 128 MiB when the context was created (4,096 tokens), before the first token, and RSS stayed flat while decoding. Each 1,024 tokens of context cost 32.0 MiB whether used or not. This run used 256 of 4,096 cells (prompt + generated): a context of 512 would hold it with 25 % to spare and free 112 MiB.',
    );
    expect(run.findings.find((x) => x.id === 'budget')?.title).toBe(
      'The reserved context (4,096 tokens) fits the 2.00 GiB budget; up to 40,000 tokens would',
    );
  });

  it('a budget smaller than the reservation is critical', () => {
    const tight = finishedRun({
      analysis: {
        ...finishedRun().analysis,
        kv: { ...finishedRun().analysis.kv, mode: 'reserved' },
        budgetBytes: 1 * GIB,
        oomHorizonTokens: null,
        maxSafeContextTokens: 3000,
        peakRssBytes: 900000000,
      },
    });
    const f = defined(buildReportModel(session([tight])).runs[0]).findings.find((x) => x.id === 'budget');
    expect(f).toMatchObject({
      severity: 'critical',
      title: 'The reserved context (4,096 tokens) does not fit the 1.00 GiB budget: at most 3,000 tokens does',
      detail: 'Lower the context to 2,816 or less.',
    });
  });
});
