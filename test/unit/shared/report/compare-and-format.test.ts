// `kvscope compare` model (before/after q8_0) and the number formatting every report uses.
import { describe, expect, it } from 'vitest';
import { buildCompareModel } from '../../../../shared/report/compare-model';
import {
  formatBytes,
  formatBytesExact,
  formatCount,
  formatDeltaPercent,
  formatMs,
  formatRate,
} from '../../../../shared/report/format';
import { niceStep, renderSvgChart } from '../../../../shared/report/svg-chart';
import { finishedRun, session } from '../../../helpers/session-fixtures';

describe('format', () => {
  it('bytes in binary units, three significant digits', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(32768)).toBe('32 KiB');
    expect(formatBytes(17408)).toBe('17 KiB');
    expect(formatBytes(33110)).toBe('32.3 KiB');
    expect(formatBytes(134217728)).toBe('128 MiB');
    expect(formatBytes(2147483648)).toBe('2 GiB');
    expect(formatBytes(1048575)).toBe('1 MiB');
    expect(formatBytes(-4096)).toBe('−4 KiB');
    expect(formatBytes(null)).toBe('–');
    expect(formatBytesExact(33110)).toBe('32.3 KiB (33,110 B)');
  });

  it('counts, rates, durations, deltas', () => {
    expect(formatCount(41000)).toBe('41,000');
    expect(formatCount(1234567.891, 2)).toBe('1,234,567.89');
    expect(formatCount(-5)).toBe('−5');
    expect(formatRate(15.24)).toBe('15.2 tok/s');
    expect(formatRate(1432.25)).toBe('1,432 tok/s');
    expect(formatMs(180)).toBe('180 ms');
    expect(formatMs(3480)).toBe('3.48 s');
    expect(formatMs(125000)).toBe('2 min 5 s');
    expect(formatDeltaPercent(32768, 17408)).toBe('−46.9 %');
    expect(formatDeltaPercent(15.2, 16)).toBe('+5.3 %');
    expect(formatDeltaPercent(0, 5)).toBe('–');
  });
});

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
  const pair = model.pairs[0];
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
      b: '17 KiB',
      delta: '−47.4 %',
      verdict: 'better',
    });
    expect(row('Overhead factor')).toEqual({
      label: 'Overhead factor',
      a: '×1.01',
      b: '×1.00',
      delta: '−1.0 %',
      verdict: 'same',
    });
    expect(row('Peak RSS')).toEqual({
      label: 'Peak RSS',
      a: '870 MiB',
      b: '839 MiB',
      delta: '−3.5 %',
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
      'KV per token: 32.3 KiB → 17 KiB (−47.4 %, better)',
      'Peak RSS: 870 MiB → 839 MiB (−3.5 %, better)',
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

describe('SVG chart', () => {
  it('round tick steps', () => {
    expect(niceStep(10)).toBe(2);
    expect(niceStep(1000)).toBe(200);
    expect(niceStep(41000)).toBe(10000);
    expect(niceStep(0)).toBe(1);
  });

  it('one polyline per series, labels escaped, no script', () => {
    const svg = renderSvgChart({
      title: 'RSS <b>',
      xLabel: 'tokens',
      xUnit: 'tokens',
      series: [
        {
          name: 'RSS',
          role: 'rss',
          points: [
            [0, 0],
            [100, 1048576],
            [200, 2097152],
          ],
        },
        {
          name: 'budget <i>',
          role: 'budget',
          points: [
            [0, 3145728],
            [200, 3145728],
          ],
        },
      ],
      markers: [{ x: 150, kind: 'oom', label: 'oom' }],
      xMax: 200,
      yMax: 3300000,
      notes: [],
    });
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg).toContain('<title>RSS &lt;b&gt;</title>');
    expect(svg).toContain('budget &lt;i&gt;');
    expect(svg).not.toContain('<script');
    // Y ticks in MiB on round values; the 1 MiB point lands a third of the way up from 0 to 3 MiB.
    expect(svg).toContain('>3 MiB</text>');
  });
});
