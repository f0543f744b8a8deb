// CSV (RFC 4180), the JSON summary and the Perfetto/Chrome trace of a hand-built session.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionData } from '../../../../shared/report/session-data';
import { csvField, renderSamplesCsv } from '../../../../shared/report/render-csv';
import { buildPerfettoTrace, renderPerfettoJson, type ChromeTrace } from '../../../../shared/report/render-perfetto';
import { renderSummaryJson, sessionSummaryJson, type SessionSummaryJson } from '../../../../shared/report/render-json';
import { crashedRun, finishedRun, session } from '../../../helpers/session-fixtures';
import { defined } from '../../../helpers/defined';

function tiny(): SessionData {
  const run = crashedRun({
    seq: 1,
    label: 'ctx 4096, "big"\nsecond line',
    samples: [
      { tMs: 0, source: 'engine', values: { started: 1, tokens: 0 } },
      { tMs: 250, source: 'procfs', values: { rssBytes: 1048576, rssAnonBytes: null, tokens: 0 } },
      { tMs: 500.5, source: 'proc,fs', values: { rssBytes: 2097152, 'temp.cpu,0.C': 41.5 } },
    ],
    events: [
      { tMs: 0, kind: 'start', message: 'engine: x' },
      { tMs: 400, kind: 'alert', message: 'RSS reached 90% of the memory budget', data: { rssBytes: 2097152 } },
    ],
  });
  return {
    meta: {
      format: 'kvscope-session',
      schemaVersion: 1,
      appVersion: '0.1.0',
      createdAt: '2026-01-01T00:00:00.000Z',
      target: { kind: 'local', label: 'This computer' },
    },
    runs: [run],
  };
}

describe('CSV', () => {
  it('fields: RFC 4180 quoting, numbers as numbers, formulas defused', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rlf')).toBe('"cr\rlf"');
    expect(csvField(12.5)).toBe('12.5');
    expect(csvField(-3)).toBe('-3');
    expect(csvField(null)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-cmd')).toBe("'-cmd");
  });

  it('a field with a semicolon or a tab is quoted: Excel in a semicolon locale splits there, and a formula would start the next cell', () => {
    expect(csvField('x;=1+1')).toBe('"x;=1+1"');
    expect(csvField('a\t=cmd')).toBe('"a\t=cmd"');
    // The defused formula keeps its apostrophe inside the quotes.
    expect(csvField('=a;b')).toBe(`"'=a;b"`);
  });

  it('property: any text is one field that reads back as the text (apostrophe-prefixed when a formula could start it) and never starts a formula', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const field = csvField(text);
        const quoted = field.startsWith('"');
        const inner = quoted ? field.slice(1, -1) : field;
        // Unquoted: nothing a CSV reader in any locale splits on; quoted: every quote doubled.
        if (quoted) expect(inner.replace(/""/g, '')).not.toContain('"');
        else expect(field).not.toMatch(/[",;\t\r\n]/);
        const value = quoted ? inner.replace(/""/g, '"') : inner;
        expect(value).toBe(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
        expect(value).not.toMatch(/^[=+\-@\t\r]/);
      }),
    );
  });

  it('wide layout: one row per sample, the union of keys as columns, CRLF line ends', () => {
    expect(renderSamplesCsv(tiny())).toBe(
      [
        'run,run_label,t_ms,source,rssAnonBytes,rssBytes,started,temp.cpu,0.C,tokens'.replace(
          'temp.cpu,0.C',
          '"temp.cpu,0.C"',
        ),
        '1,"ctx 4096, ""big""\nsecond line",0,engine,,,1,,0',
        '1,"ctx 4096, ""big""\nsecond line",250,procfs,,1048576,,,0',
        '1,"ctx 4096, ""big""\nsecond line",500.5,"proc,fs",,2097152,,41.5,',
        '',
      ].join('\r\n'),
    );
  });

  it('long layout: one row per sample and key', () => {
    expect(renderSamplesCsv(tiny(), 'long')).toBe(
      [
        'run,run_label,t_ms,source,key,value',
        '1,"ctx 4096, ""big""\nsecond line",0,engine,started,1',
        '1,"ctx 4096, ""big""\nsecond line",0,engine,tokens,0',
        '1,"ctx 4096, ""big""\nsecond line",250,procfs,rssBytes,1048576',
        '1,"ctx 4096, ""big""\nsecond line",250,procfs,rssAnonBytes,',
        '1,"ctx 4096, ""big""\nsecond line",250,procfs,tokens,0',
        '1,"ctx 4096, ""big""\nsecond line",500.5,"proc,fs",rssBytes,2097152',
        '1,"ctx 4096, ""big""\nsecond line",500.5,"proc,fs",temp.cpu,0.C,41.5'.replace(
          'temp.cpu,0.C',
          '"temp.cpu,0.C"',
        ),
        '',
      ].join('\r\n'),
    );
  });
});

describe('Perfetto / Chrome trace JSON', () => {
  it('a counter per series and sample, an instant event per run event, a named process per run', () => {
    const trace = buildPerfettoTrace(tiny());
    expect(trace.displayTimeUnit).toBe('ms');
    expect(trace.traceEvents).toEqual([
      { name: 'process_name', ph: 'M', pid: 1, tid: 0, args: { name: 'run 1: ctx 4096, "big"\nsecond line' } },
      { name: 'process_sort_index', ph: 'M', pid: 1, tid: 0, args: { sort_index: 1 } },
      { name: 'engine.started', ph: 'C', ts: 0, pid: 1, tid: 0, cat: 'engine', args: { 'engine.started': 1 } },
      { name: 'engine.tokens', ph: 'C', ts: 0, pid: 1, tid: 0, cat: 'engine', args: { 'engine.tokens': 0 } },
      { name: 'rssBytes', ph: 'C', ts: 250000, pid: 1, tid: 0, cat: 'procfs', args: { rssBytes: 1048576 } },
      { name: 'tokens', ph: 'C', ts: 250000, pid: 1, tid: 0, cat: 'procfs', args: { tokens: 0 } },
      {
        name: 'proc,fs.rssBytes',
        ph: 'C',
        ts: 500500,
        pid: 1,
        tid: 0,
        cat: 'proc,fs',
        args: { 'proc,fs.rssBytes': 2097152 },
      },
      {
        name: 'proc,fs.temp.cpu,0.C',
        ph: 'C',
        ts: 500500,
        pid: 1,
        tid: 0,
        cat: 'proc,fs',
        args: { 'proc,fs.temp.cpu,0.C': 41.5 },
      },
      { name: 'start', ph: 'i', s: 'p', ts: 0, pid: 1, tid: 0, cat: 'event', args: { message: 'engine: x' } },
      {
        name: 'alert',
        ph: 'i',
        s: 'p',
        ts: 400000,
        pid: 1,
        tid: 0,
        cat: 'event',
        args: { message: 'RSS reached 90% of the memory budget', data: { rssBytes: 2097152 } },
      },
    ]);
    // Valid JSON, one document.
    expect((JSON.parse(renderPerfettoJson(tiny())) as { traceEvents: unknown[] }).traceEvents).toHaveLength(10);
  });

  it('runs of one session follow each other on the time line', () => {
    const two = session([
      finishedRun({ seq: 1, startedAt: '2026-01-01T12:00:00.000Z' }),
      crashedRun({ seq: 2, startedAt: '2026-01-01T12:10:00.000Z' }),
    ]);
    const starts = buildPerfettoTrace(two).traceEvents.filter((e) => e.ph === 'i' && e.name === 'start');
    expect(starts.map((e) => [e.pid, e.ts])).toEqual([
      [1, 0],
      [2, 600_000_000],
    ]);
  });
});

describe('JSON exports of any text', () => {
  it('property: the trace and the summary are valid JSON in their UTF-8 bytes and give back every string, lone surrogates included', () => {
    const text = fc
      .array(fc.oneof(fc.constantFrom('\ud800', '\udfff', '</script>', '\u2028'), fc.string({ unit: 'binary' })), {
        maxLength: 4,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, text, (label, key, message) => {
        const data = tiny();
        const run = defined(data.runs[0]);
        const hostile: SessionData = {
          ...data,
          runs: [
            {
              ...run,
              label,
              samples: [{ tMs: 1, source: 'procfs', values: { [key]: 5 } }],
              events: [{ tMs: 1, kind: 'alert', message }],
            },
          ],
        };
        const bytes = (out: string) => Buffer.from(out, 'utf8').toString('utf8');
        const trace = JSON.parse(bytes(renderPerfettoJson(hostile))) as ChromeTrace;
        expect(trace.traceEvents[0]?.args).toEqual({ name: `run 1: ${label}` });
        expect(trace.traceEvents.find((e) => e.ph === 'C')?.args).toEqual({ [key]: 5 });
        expect(trace.traceEvents.find((e) => e.ph === 'i')?.args).toEqual({ message });
        const summary = JSON.parse(bytes(renderSummaryJson(hostile))) as SessionSummaryJson;
        expect(summary.runs[0]?.label).toBe(label);
      }),
    );
  });
});

describe('JSON summary per run', () => {
  it('the stored summary as profile --json printed it; a rebuilt one for an interrupted run', () => {
    const json = sessionSummaryJson(session([finishedRun(), crashedRun()]));
    expect(json.runs.map((r) => [r.seq, r.analysisSource, r.state])).toEqual([
      [1, 'stored', 'failed'],
      [2, 'recomputed', 'running'],
    ]);
    expect(json.runs[0]?.summary.oomHorizonTokens).toBe(41000);
    expect(json.runs[0]?.summary.engine.oomKilled).toBe(true);
    const rebuilt = defined(json.runs[1]).summary;
    expect(rebuilt.engine).toEqual({
      command: 'kvscope demo-engine --kv-type f16',
      exitCode: null,
      oomKilled: false,
      signal: null,
    });
    expect(rebuilt.kv.measuredBytesPerToken).toBe(32768);
    expect(rebuilt.samples).toBe(21);
    expect(rebuilt.durationMs).toBe(20100);
    expect(rebuilt.target).toEqual({
      kind: 'ssh',
      label: 'orin',
      hostname: 'orin-nano',
      arch: 'aarch64',
      memTotalBytes: 8 * 1024 ** 3,
    });
  });
});
