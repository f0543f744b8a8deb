// The report model from hand-built sessions: the numbers a customer reads and the advice they get.
import { describe, expect, it } from 'vitest';
import { buildReportModel, type RunReport } from '../../../../shared/report/report-model';
import { defined } from '../../../helpers/defined';
import { crashedRun, finishedRun, GIB, session } from '../../../helpers/session-fixtures';
import { summarizeRun } from '../../../../shared/analysis/run-summary';
import type { TargetFacts } from '../../../../shared/run/target-facts';
import { fixtureLines, nanoSamplerSamples, pmicAlarmMilli, tegrastatsSamples } from '../../../helpers/pmic-fixtures';
import { thermalZone } from '../../../helpers/throttle-fixtures';

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
    // Measured on anon RSS: the engine's file pages stay in the budget, unlike the OOM horizon's.
    expect(row(run, 'Memory budget', 'Max safe context')).toBe('39,000 tokens (file pages kept in memory)');
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

describe("a Jetson's PMIC die zone: an alarm level, never the board's hottest temperature", () => {
  const signals = (run: RunReport) => run.sections.find((s) => s.title === 'Board signals over the run')?.rows ?? [];
  const temperatures = (run: RunReport) =>
    defined(
      run.charts.find((c) => c.title === 'Temperatures over time'),
      'chart',
    );
  // A Jetson Nano as L4T's device tree describes it: the CPU zone's passive trip, the PMIC die zone's
  // `hot-die` trip (active, 120 °C: the driver's alarm 1).
  const nano: TargetFacts = {
    kind: 'ssh',
    label: 'nano',
    thermal: [thermalZone('CPU-therm', [['passive', 97]]), thermalZone('PMIC-Die', [['active', 120]])],
  };

  it('a TX2 (real tegrastats lines, L4T 28) whose only reading above 90 °C is PMIC@100C: the chart reaches 43 °C, not 105', () => {
    const samples = tegrastatsSamples(fixtureLines('tegrastats/tx2-l4t28/tx2_l4t28_gustavz_issue24.txt'));
    expect(samples.map((x) => x.values['tegra.temp.PMIC.C'])).toEqual([100, 100, 100]);
    const run = defined(buildReportModel(session([finishedRun({ samples, events: [] })])).runs[0], 'run');
    // The real sensors peak at 41 °C (BCPU, MCPU, PLL on the first two lines): ×1.05 of headroom.
    const chart = temperatures(run);
    expect(chart.yMax).toBeCloseTo(41 * 1.05, 10);
    expect(chart.series.map((s) => s.name).filter((n) => n.includes('PMIC'))).toEqual([]);
    expect(chart.notes).toContain(
      'temperature (tegrastats): PMIC: the PMIC die-temperature alarm, a level and not a temperature, is not drawn; no alarm in the run.',
    );
    expect(chart.markers).toEqual([]);
    // One row that says what it is, not "low 100 · mean 100 · high 100 °C".
    expect(signals(run).filter((r) => r.label.includes('PMIC'))).toEqual([
      {
        label: 'PMIC die-temperature alarm: PMIC',
        value: "no alarm in 3 readings (read as 100.0 °C while no alarm is set: the driver's value, not a temperature)",
      },
    ]);
    expect(run.events).toEqual([]);
  });

  it("a Nano's sysfs PMIC-Die (procfs sampler, real zones) while a clock drops: not throttled against the 97 °C trip", () => {
    const samples = nanoSamplerSamples([100000, 100000, 100000, 100000], [1_479_000, 921_600]);
    const run = defined(buildReportModel(session([finishedRun({ samples, events: [] })], nano)).runs[0], 'run');
    expect(row(run, 'Throttling', 'Throttled')).toBe(
      'none detected (by the trip point, the clocks against their maxima and the firmware’s bits, as far as the run recorded them)',
    );
    expect(row(run, 'Throttling', 'Trip point used')).toBe('97.0 °C');
    expect(row(run, 'Throttling', 'Hottest while throttled')).toBeUndefined();
    expect(row(run, 'Board signals over the run', 'PMIC die-temperature alarm: PMIC-Die')).toBe(
      "no alarm in 4 readings (read as 100.0 °C while no alarm is set: the driver's value, not a temperature)",
    );
    // The hottest line drawn is a real zone (AO-therm, 31 °C); the trip line sets the reach.
    const chart = temperatures(run);
    expect(chart.series.filter((s) => s.role === 'temperature').map((s) => s.name)[0]).toBe('temperature: AO-therm');
    expect(chart.series.some((s) => s.name.includes('PMIC'))).toBe(false);
  });

  it('an alarm firing (written from the driver: 100, 120, 140, 120, 100 °C): an event, a chart marker, the signals row, the JSON summary', () => {
    const samples = nanoSamplerSamples(pmicAlarmMilli(), [1_479_000]);
    const record = finishedRun({ samples, target: nano });
    const run = defined(buildReportModel(session([record], nano)).runs[0], 'run');
    // Among the run's own events, at the reading where it fires.
    expect(run.events.map((e) => [e.time, e.kind, e.message])).toEqual([
      ['0.0 s', 'start', 'engine: llama-cli …'],
      [
        '1.0 s',
        'alert',
        'PMIC die-temperature alarm 2 (the die passed 140 °C): cleared after 3.0 s, read on temperature: PMIC-Die',
      ],
      ['4.0 s', 'disconnect', 'link lost'],
      ['9.0 s', 'reconnect', 'link back'],
      ['131.0 s', 'oom', 'Out of memory: Killed process 4242 (llama-cli)'],
    ]);
    expect(row(run, 'Board signals over the run', 'PMIC die-temperature alarm: PMIC-Die')).toBe(
      "alarm 2 (the die passed 140 °C) in 1 reading, alarm 1 (the die passed 120 °C) in 2 readings of 5, the first at 1.0 s (read as 100.0 °C while no alarm is set: the driver's value, not a temperature)",
    );
    const chart = temperatures(run);
    expect(chart.markers).toEqual([{ x: 1, kind: 'alert', label: 'PMIC alarm 2' }]);
    expect(chart.notes).toContain(
      'temperature: PMIC-Die: the PMIC die-temperature alarm, a level and not a temperature, is not drawn; its alarms are marked.',
    );
    // The 140 °C is no temperature either: the chart reaches the 97 °C trip, not the alarm.
    expect(chart.yMax).toBeCloseTo(97 * 1.05, 10);
    expect(summarizeRun(record).alarms).toEqual({
      keys: ['temp.PMIC-Die.C'],
      episodes: [{ key: 'temp.PMIC-Die.C', startMs: 1000, endMs: 4000, cleared: true, alarm: 2 }],
    });
    // A run that read no PMIC says nothing of it.
    expect(summarizeRun(finishedRun()).alarms).toBeUndefined();
  });
});
