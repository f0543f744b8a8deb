import { describe, expect, it } from 'vitest';
import { parseSpoolLine } from '../../../../shared/collectors/run-spool';

describe('run spool lines', () => {
  it('reads launcher events with fields, the kernel line kept whole', () => {
    expect(parseSpoolLine('X 1234.56 exit code=137 pid=99')).toEqual({
      tag: 'X',
      uptimeMs: 1234560,
      event: 'exit',
      fields: { code: '137', pid: '99' },
    });
    // The kernel's own OOM line (format from docs/DEVELOPING.md "The test machine").
    const oom =
      'X 88.10 oom pid=27695 kernel=[ 8123.456] Memory cgroup out of memory: Killed process 27695 (node) total-vm:1139772kB, anon-rss:152568kB';
    expect(parseSpoolLine(oom)).toEqual({
      tag: 'X',
      uptimeMs: 88100,
      event: 'oom',
      fields: {
        pid: '27695',
        kernel:
          '[ 8123.456] Memory cgroup out of memory: Killed process 27695 (node) total-vm:1139772kB, anon-rss:152568kB',
      },
    });
  });

  it('keeps engine text byte-for-byte after the time, spaces included', () => {
    expect(parseSpoolLine('O 10.01  two  spaces ')).toEqual({ tag: 'O', uptimeMs: 10010, text: ' two  spaces ' });
    expect(parseSpoolLine('E 10.02 llama_kv_cache: size =    1.25 MiB')).toEqual({
      tag: 'E',
      uptimeMs: 10020,
      text: 'llama_kv_cache: size =    1.25 MiB',
    });
    expect(parseSpoolLine('O 10.03')).toEqual({ tag: 'O', uptimeMs: 10030, text: '' });
    // Stdout that arrived without its newline (a token written and flushed): P.
    expect(parseSpoolLine('P 10.04  upon a')).toEqual({ tag: 'P', uptimeMs: 10040, text: ' upon a' });
  });

  it('passes sampler lines through and turns anything else into a diagnostic', () => {
    expect(parseSpoolLine('S t=1.00 st=1,1,1')).toEqual({ tag: 'S', text: 'S t=1.00 st=1,1,1' });
    expect(parseSpoolLine('O x hello')).toMatchObject({ tag: 'diagnostic', reason: 'engine line without a time' });
    expect(parseSpoolLine('X nope')).toMatchObject({ tag: 'diagnostic' });
    expect(parseSpoolLine('Q 1 2')).toMatchObject({ tag: 'diagnostic', text: 'Q 1 2' });
  });

  it('reads collector lines: the collector id, then its own text untouched', () => {
    expect(parseSpoolLine('C procfs S t=12.34 st=1,2,3')).toEqual({
      tag: 'C',
      collector: 'procfs',
      text: 'S t=12.34 st=1,2,3',
    });
    expect(parseSpoolLine('C pressure t=1.00|loadavg 0.00 0.01 0.05 1/97 812')).toEqual({
      tag: 'C',
      collector: 'pressure',
      text: 't=1.00|loadavg 0.00 0.01 0.05 1/97 812',
    });
    expect(parseSpoolLine('C pressure')).toEqual({ tag: 'C', collector: 'pressure', text: '' });
    expect(parseSpoolLine('C Bad-Id x')).toMatchObject({
      tag: 'diagnostic',
      reason: 'collector line without a collector id',
    });
    expect(parseSpoolLine('C  x')).toMatchObject({ tag: 'diagnostic' });
  });
});
