// test/fixtures/invalid: damaged inputs. Each damaged line must come out as a diagnostic that keeps
// its text; the good lines around it must still parse; nothing throws.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createParser, formatNames, parserFormats } from '../../../../shared/parsers/index';
import { diagnostics, MiB, ofKind, parseFixture } from '../../../helpers/parser-test-kit';

const inv = (format: string, name: string) => parseFixture(format, `invalid/${name}`);

describe('invalid inputs', () => {
  it('tegrastats: garbage and binary noise are diagnostics, a bad CPU entry is kept as unknown, CRLF is fine', () => {
    const all = inv('tegrastats', 'tegrastats-damaged.txt');
    expect(diagnostics(all).map((d) => [d.line, d.text])).toEqual([
      [2, 'GARBAGE ~~~ !!! 12345'],
      [5, '\u0000\u0001\u0002\ufffd\ufffd binary noise'],
    ]);
    const rs = ofKind(all, 'tegrastats');
    expect(rs.map((r) => r.line)).toEqual([1, 4, 6]);
    expect(rs[2]?.cpus).toEqual([
      { loadPct: null, freqMHz: null },
      { loadPct: 100, freqMHz: 1420 },
    ]);
    expect(rs[2]?.unknown).toEqual(['CPU[0]=bogus']);
    expect(rs[2]?.railsMw.VDD_IN).toEqual({ cur: 14703, avg: 14683 });
  });

  it('perf: a misspelt status, trailing words, mixed separators, a record without an event', () => {
    const all = inv('perf', 'perf-damaged.txt');
    expect(diagnostics(all).map((d) => d.line)).toEqual([4, 5, 6, 7]);
    expect(ofKind(all, 'perf').map((r) => [r.line, r.event, r.value])).toEqual([[3, 'task-clock', 12345.67]]);
    expect(ofKind(all, 'perf-elapsed').map((r) => r.seconds)).toEqual([5.000123456]);
  });

  it('pmap: a non-numeric size, a stray line, a footer that lost a column (the map is still reported, incomplete)', () => {
    const all = inv('pmap', 'pmap-damaged.txt');
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [4, 'unreadable pmap row'],
      [6, 'not a pmap line'],
      [8, 'pmap footer does not match the header'],
    ]);
    expect(ofKind(all, 'pmap')).toEqual([
      {
        kind: 'pmap',
        line: 1,
        pid: 4299,
        command: './llama-server -m model.gguf',
        totalKb: 4096008,
        rssKb: 1006620,
        pssKb: null,
        dirtyKb: 1006616,
        swapKb: null,
        anonKb: 1006616,
        anonFrom: 'mappings',
        largestAnonKb: 1006616,
        mappings: 2,
        complete: false,
      },
    ]);
  });

  it('llama-bench: unreadable t/s, short rows, short CSV rows, a trailing comma in JSON, JSON never closed', () => {
    const all = inv('llama-bench', 'llama-bench-damaged.txt');
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [3, 'unreadable t/s "fast ± slow"'],
      [4, 'table row has 5 cells, header has 7'],
      [8, 'CSV row has 4 fields, header has 7'],
      [9, 'unreadable llama-bench JSON object'],
      [11, 'llama-bench JSON object never closed'],
    ]);
    expect(ofKind(all, 'bench').map((r) => [r.line, r.test, r.tokensPerSecond])).toEqual([
      [5, 'tg128', 5.93],
      [7, 'pp512', 7285.676949],
    ]);
  });

  it('llama-log: broken timing, KV and JSON lines among good ones; an unclosed timings object is reported at the end', () => {
    const all = inv('llama-log', 'llama-log-damaged.txt');
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [2, 'unreadable timing line'],
      [3, 'unreadable KV cache line'],
      [4, 'unreadable KV cache line'],
      [5, 'unreadable server timings object'],
      [6, 'server timings object never closed'],
    ]);
    expect(ofKind(all, 'timings').map((r) => [r.line, r.phase, r.ms])).toEqual([[1, 'load', 618.92]]);
  });

  it('llama-log: a damaged prefix does not hide the llama.cpp line after it; damaged ids and keys are diagnostics', () => {
    const all = inv('llama-log', 'llama-log-damaged-prefixes.txt');
    // Lines 1–3: the timestamp or colour code is damaged, the llama.cpp line after it is whole.
    expect(ofKind(all, 'kv').map((k) => `${k.line} ${k.device} ${k.sizeBytes}`)).toEqual([`1 CPU ${9 * MiB}`]);
    expect(ofKind(all, 'timings').map((r) => `${r.line} ${r.phase} ${r.ms}`)).toEqual(['2 load 845.12']);
    expect(ofKind(all, 'model').map((m) => `${m.line} ${m.source} ${m.nCtxPerSeq}`)).toEqual(['3 slot 8192']);
    expect(diagnostics(all).map((d) => `${d.line} ${d.reason}`)).toEqual([
      '4 unreadable timing line',
      '5 unreadable model line',
      '6 unreadable model line',
    ]);
  });

  it('status: values that are not "N kB" / whole numbers', () => {
    const all = inv('status', 'proc-damaged.txt');
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [3, 'VmRSS: expected "N kB"'],
      [5, 'Threads: expected a whole number'],
    ]);
    expect(ofKind(all, 'status')[0]).toMatchObject({
      line: 1,
      name: 'llama-server',
      pid: 4321,
      vmRssKb: null,
      rssAnonKb: 123456,
      threads: null,
    });
  });

  it('thermal: words where numbers belong', () => {
    const all = inv('thermal', 'thermal-damaged.txt');
    expect(diagnostics(all).map((d) => d.line)).toEqual([2, 3, 4, 5, 6]);
    expect(ofKind(all, 'thermal-zone')).toEqual([
      {
        kind: 'thermal-zone',
        line: 1,
        zone: 'thermal_zone0',
        type: 'cpu-thermal',
        tempC: null,
        error: null,
        trips: [],
      },
    ]);
  });

  it('no format throws, on anything: every record has a kind and a line within the input', () => {
    expect(formatNames()).toEqual([
      'tegrastats',
      'perf',
      'pmap',
      'smaps',
      'meminfo',
      'llama-log',
      'llama-bench',
      'status',
      'statm',
      'thermal',
      'vcgencmd',
      'devfreq',
      'rknpu',
      'hwmon',
    ]);
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(parserFormats)),
        fc.array(fc.string({ unit: 'binary', maxLength: 300 }), { maxLength: 30 }),
        (format, lines) => {
          // The raw factory, without the registry's safety net, so a throw would fail here.
          const entry = parserFormats[format];
          if (!entry) throw new Error(`no parser ${format}`);
          const p = entry.create({ pageSizeBytes: 4096 });
          const out = [...lines.flatMap((l) => p.push(l)), ...p.end()];
          for (const r of out) {
            expect(typeof r.kind).toBe('string');
            expect(Number.isInteger(r.line) && r.line >= 1 && r.line <= lines.length).toBe(true);
            expect(() => JSON.stringify(r)).not.toThrow();
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("the registry's guard turns a parser exception into a diagnostic", () => {
    const original = parserFormats.meminfo;
    parserFormats.meminfo = {
      description: 'throws',
      create: () => ({
        push: () => {
          throw new Error('boom');
        },
        end: () => [],
      }),
    };
    try {
      const p = createParser('meminfo')!;
      expect(p.push('MemTotal: 1 kB')).toEqual([
        { kind: 'diagnostic', line: 1, reason: 'parser error: boom', text: 'MemTotal: 1 kB' },
      ]);
    } finally {
      if (original) parserFormats.meminfo = original;
    }
    expect(createParser('nope')).toBeNull();
    expect(createParser('toString')).toBeNull();
  });
});
