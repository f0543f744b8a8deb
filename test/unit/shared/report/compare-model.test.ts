// `kvscope compare` model: two sessions (before/after q8_0) side by side.
import { describe, expect, it } from 'vitest';
import { buildCompareModel } from '../../../../shared/report/compare-model';
import { defined } from '../../../helpers/defined';
import { finishedRun, session } from '../../../helpers/session-fixtures';
import type { Sample } from '../../../../shared/api/schemas';
import type { TargetFacts } from '../../../../shared/run/target-facts';
import { renderCompareHtml } from '../../../../shared/report/render-html';
import { renderCompareMarkdown } from '../../../../shared/report/render-markdown';

describe('compare: before/after q8_0', () => {
  const before = session([finishedRun()]);
  const afterRun = finishedRun({ label: 'llama 1B q8_0' });
  afterRun.analysis = {
    ...afterRun.analysis,
    kv: {
      ...afterRun.analysis.kv,
      theoryBytesPerToken: 17408,
      measuredBytesPerToken: 17408,
      overheadFactor: 1,
      decodeSlopeBytesPerToken: 17408,
    },
    oomHorizonTokens: 80000,
    maxSafeContextTokens: 76000,
    peakRssBytes: 880000000,
    throughput: { ttftMs: 180, prefillTokensPerSecond: 250.1, decodeTokensPerSecond: 16, tokens: 2000 },
  };
  afterRun.request = {
    ...afterRun.request,
    engine: { kind: 'command', command: 'llama-cli -ctk q8_0 -ctv q8_0 -fa on', kvType: 'q8_0', ctx: 4096 },
  };
  afterRun.engine = {
    ...afterRun.engine!,
    command: 'llama-cli -ctk q8_0 -ctv q8_0 -fa on',
    theoryBytesPerToken: 17408,
  };
  const model = buildCompareModel(before, session([afterRun]), { a: 'before.kvscope', b: 'after.kvscope' });
  const pair = defined(model.pairs[0], 'a pair');
  const row = (label: string) => pair.rows.find((r) => r.label === label);

  it('side by side with the change in percent and its direction', () => {
    expect(model.pairs).toHaveLength(1);
    expect(row('KV cache type')).toEqual({
      label: 'KV cache type',
      a: 'f16',
      b: 'q8_0',
      delta: 'differs',
      verdict: null,
    });
    expect(row('KV bytes/token, measured')).toEqual({
      label: 'KV bytes/token, measured',
      a: '32.3 KiB',
      b: '17.0 KiB',
      delta: '-47.4 %',
      verdict: 'better',
    });
    expect(row('Overhead factor')).toEqual({
      label: 'Overhead factor',
      a: '1.01×',
      b: '1.00×',
      delta: '-1.0 %',
      verdict: 'same',
    });
    expect(row('Peak RSS')).toEqual({
      label: 'Peak RSS',
      a: '870 MiB',
      b: '839 MiB',
      delta: '-3.5 %',
      verdict: 'better',
    });
    expect(row('Max safe context')).toEqual({
      label: 'Max safe context',
      a: '39,000 tokens',
      b: '76,000 tokens',
      delta: '+94.9 %',
      verdict: 'better',
    });
    expect(row('Decode')).toEqual({
      label: 'Decode',
      a: '15.2 tok/s',
      b: '16.0 tok/s',
      delta: '+5.3 %',
      verdict: 'better',
    });
    expect(row('Time to first token')).toEqual({
      label: 'Time to first token',
      a: '180 ms',
      b: '180 ms',
      delta: '0.0 %',
      verdict: 'same',
    });
    expect(pair.headline).toEqual([
      'KV per token: 32.3 KiB → 17.0 KiB (-47.4 %, better)',
      'Peak RSS: 870 MiB → 839 MiB (-3.5 %, better)',
      'Max safe context: 39,000 tokens → 76,000 tokens (+94.9 %, better)',
      'Decode: 15.2 tok/s → 16.0 tok/s (+5.3 %, better)',
    ]);
  });

  it('sessions with different run counts are paired by position, with a note', () => {
    const m = buildCompareModel(session([finishedRun(), finishedRun({ seq: 2 })]), before, { a: 'a', b: 'b' });
    expect(m.pairs).toHaveLength(1);
    expect(m.notes).toEqual([
      'A holds 2 run(s), B 1: runs are paired by position; the 1 extra run(s) are not compared.',
    ]);
  });
});

describe('compare: the before/after table', () => {
  // Board with a passive trip at 85 °C (the throttle detection's trip point).
  const board = (label: string): TargetFacts => ({
    kind: 'ssh',
    label,
    hostname: label,
    thermal: [
      {
        zone: 'thermal_zone0',
        type: 'cpu-thermal',
        tempC: 50,
        unreadable: false,
        trips: [{ name: 'trip_point_0', type: 'passive', tempC: 85 }],
      },
    ],
  });
  /** Thermal samples every second for 10 s: 86 °C at half clock from 3 s to 7 s when `hot`, else 60 °C at full clock. */
  const thermal = (hot: boolean): Sample[] =>
    Array.from({ length: 11 }, (_, i) => {
      const throttled = hot && i >= 3 && i < 7;
      return {
        tMs: 1000 + i * 1000,
        source: 'procfs',
        values: {
          'temp.cpu-thermal.C': throttled ? 86 : 60,
          'cpufreq.policy0.KHz': throttled ? 900_000 : 1_800_000,
        },
      };
    });
  const a = finishedRun();
  a.samples = [...a.samples, ...thermal(false)].sort((x, y) => x.tMs - y.tMs);
  const b = finishedRun({ label: 'llama 1B q8_0 8k' });
  b.samples = [...b.samples, ...thermal(true)].sort((x, y) => x.tMs - y.tMs);
  b.request = {
    ...b.request,
    engine: {
      kind: 'command',
      command: 'llama-cli -m /models/llama-3.2-1b-f16.gguf -c 8192 -n 2000',
      kvType: 'q8_0',
      ctx: 8192,
    },
    memoryLimitBytes: 4 * 1024 ** 3,
  };
  b.engine = { ...b.engine!, command: 'llama-cli -m /models/llama-3.2-1b-f16.gguf -c 8192 -n 2000', ctx: 8192 };
  b.outcome = { ...b.outcome!, collectors: { procfs: 'ok', pmap: 'ok' } as never };
  b.analysis = {
    ...b.analysis,
    oomHorizonTokens: 82000,
    maxSafeContextTokens: 78000,
    peakRssBytes: 880000000,
    throughput: { ...b.analysis.throughput, decodeTokensPerSecond: 19 },
  };
  const model = buildCompareModel(session([a], board('orin')), session([b], board('orin-2')), { a: 'A', b: 'B' });
  const ba = defined(model.pairs[0], 'a pair').beforeAfter;

  it('lists only what changed: board, command, KV type, context, limit, collectors', () => {
    expect(ba.changed.map((r) => [r.label, r.a, r.b])).toEqual([
      ['Board', 'orin', 'orin-2'],
      [
        'Engine command',
        'llama-cli -m /models/llama-3.2-1b-f16.gguf -c 4096 -n 2000',
        'llama-cli -m /models/llama-3.2-1b-f16.gguf -c 8192 -n 2000',
      ],
      ['KV cache type', 'f16', 'q8_0'],
      ['Context (cells)', '4,096', '8,192'],
      ['Memory limit (cgroup)', '–', '4.00 GiB'],
      // A's outcome names no collectors (a run recorded before they were kept).
      ['Collectors', '–', 'pmap, procfs'],
    ]);
  });

  it('and what it bought, A → B, with the direction of each change', () => {
    expect(ba.bought).toEqual([
      // 39,000 → 78,000: +100 %.
      { label: 'Max safe context', a: '39,000 tokens', b: '78,000 tokens', delta: '+100.0 %', verdict: 'better' },
      // 15.2 → 19 tok/s: +25 %.
      { label: 'Decode', a: '15.2 tok/s', b: '19.0 tok/s', delta: '+25.0 %', verdict: 'better' },
      // 912,261,120 B (870 MiB) → 880,000,000 B (839 MiB): −3.5 %.
      { label: 'Peak RSS', a: '870 MiB', b: '839 MiB', delta: '-3.5 %', verdict: 'better' },
      // 41,000 → 82,000: +100 %.
      { label: 'OOM horizon', a: '41,000 tokens', b: '82,000 tokens', delta: '+100.0 %', verdict: 'better' },
      // A never throttled; B from the 4 s sample to the 8 s one (the first cool sample ends it): 4 s.
      { label: 'Time throttled', a: '0 ms', b: '4.00 s', delta: '–', verdict: 'worse' },
    ]);
  });

  it('both reports carry the table', () => {
    const md = renderCompareMarkdown(model);
    expect(md).toContain('### Before → after');
    expect(md).toContain('| Memory limit (cgroup) | – | 4.00 GiB |');
    expect(md).toContain('| Time throttled | 0 ms | 4.00 s | – (worse) |');
    const html = renderCompareHtml(model);
    expect(html).toContain('<h3>Before → after</h3>');
    expect(html).toContain('<tr><td>Max safe context</td><td>39,000 tokens</td><td>78,000 tokens</td>');
  });

  it('a setting outside the engine: the stop and the sample interval', () => {
    const later = finishedRun();
    later.request = { ...later.request, tokens: 500, intervalMs: 1000 };
    const pair = buildCompareModel(session([finishedRun()]), session([later]), { a: 'A', b: 'B' });
    expect(defined(pair.pairs[0]).beforeAfter.changed.map((r) => [r.label, r.a, r.b])).toEqual([
      ['Stop after', '–', '500 tokens'],
      ['Sample interval', '200 ms', '1.00 s'],
    ]);
  });

  it('the same setup twice: nothing changed, and says so', () => {
    const same = buildCompareModel(session([finishedRun()]), session([finishedRun()]), { a: 'A', b: 'B' });
    expect(defined(same.pairs[0]).beforeAfter.changed).toEqual([]);
    expect(renderCompareMarkdown(same)).toContain('_Nothing changed in the setup: the same run, twice._');
  });
});
