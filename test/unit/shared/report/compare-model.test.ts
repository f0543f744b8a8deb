// `kvscope compare` model: two sessions (before/after q8_0) side by side.
import { describe, expect, it } from 'vitest';
import { buildCompareModel } from '../../../../shared/report/compare-model';
import { defined } from '../../../helpers/defined';
import { finishedRun, session } from '../../../helpers/session-fixtures';

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
