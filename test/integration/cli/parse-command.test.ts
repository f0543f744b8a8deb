// `kvscope parse`: in process through main() with a capturing CliIo, and once through the real
// binary (bin/kvscope.mjs) with NDJSON read back from its stdout.
import { execFile } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../electron/node/cli/cli-io';
import { main } from '../../../electron/node/cli/main';
import { FIXTURES, MiB } from '../../helpers/parser-test-kit';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function capture(stdin: Iterable<string | Uint8Array> = []) {
  const io = { outText: '', errText: '' };
  const cli: CliIo = {
    out: (t) => void (io.outText += t),
    err: (t) => void (io.errText += t),
    stdin: Readable.from(stdin),
    signal: new AbortController().signal,
  };
  return { io, cli };
}

function ndjson(text: string): Array<Record<string, unknown>> {
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('kvscope parse', () => {
  it('prints one JSON object per record, diagnostics included, exit 0, and counts the diagnostics on stderr', async () => {
    const { io, cli } = capture();
    const code = await main(
      ['parse', 'tegrastats', FIXTURES + 'tegrastats/agx-xavier-jp4.2/agx_xavier_jp4.2_gtop_pr7.txt'],
      cli,
    );
    expect(code).toBe(0);
    const records = ndjson(io.outText);
    expect(records.map((r) => [r.kind, r.line])).toEqual([
      ['diagnostic', 7],
      ['tegrastats', 8],
    ]);
    expect(records[0]?.text).toBe('agruet@gpu02:~$ tegrastats');
    expect(records[1]?.ramUsedBytes).toBe(14700 * MiB);
    expect(io.errText).toBe('kvscope parse: 1 line could not be read (kept in the output as "kind":"diagnostic")\n');
  });

  it('says nothing on stderr when every line was read', async () => {
    const { io, cli } = capture();
    expect(
      await main(
        [
          'parse',
          'perf',
          FIXTURES + 'perf/x86-vm-kernel4.4-not-supported/03_not_supported_all_x86_vm_perftools_issue69.txt',
        ],
        cli,
      ),
    ).toBe(0);
    expect(ndjson(io.outText).map((r) => r.kind)).toEqual([
      'perf-header',
      'perf',
      'perf',
      'perf',
      'perf',
      'perf',
      'perf-elapsed',
    ]);
    expect(io.errText).toBe('');
  });

  it('reads stdin for "-" and for no file, byte chunks split anywhere', async () => {
    const bytes = new TextEncoder().encode(
      'MemTotal:        8038788 kB\nMemFree:         4851052 kB\nMemAvailable:    5642288 kB\n',
    );
    for (const args of [
      ['parse', 'meminfo', '-'],
      ['parse', 'meminfo'],
    ]) {
      const { io, cli } = capture([bytes.subarray(0, 5), bytes.subarray(5, 33), bytes.subarray(33)]);
      expect(await main(args, cli)).toBe(0);
      expect(ndjson(io.outText)).toEqual([
        {
          kind: 'meminfo',
          line: 1,
          kb: { MemTotal: 8038788, MemFree: 4851052, MemAvailable: 5642288 },
          counts: {},
          memTotalKb: 8038788,
          memAvailableKb: 5642288,
          memAvailableEstimated: false,
        },
      ]);
    }
  });

  // QA: a pmap capture given to `parse tegrastats` exited 0 with diagnostics only and no hint.
  it('a file with not one reading of the format says so after the count (exit 0: the diagnostics are the output)', async () => {
    const { io, cli } = capture([
      'Address           Kbytes     RSS   Dirty Mode  Mapping\n',
      '0000aaaa 4 4 0 r-x-- a.out\n',
    ]);
    expect(await main(['parse', 'tegrastats', '-'], cli)).toBe(0);
    expect(io.errText.trimEnd().split('\n').pop()).toBe(
      'kvscope parse: not one tegrastats reading in it: is it tegrastats output?',
    );
    const good = capture(['RAM 1832/3964MB (lfb 2x4MB) CPU [5%@1479,3%@1479,off,off]\n', 'not tegrastats\n']);
    expect(await main(['parse', 'tegrastats', '-'], good.cli)).toBe(0);
    expect(good.io.errText).not.toContain('not one');
  });

  // QA: `kvscope parse meminfo` typed at a prompt waited without a word for the terminal's input.
  it('from a terminal (nothing piped in) says it reads the terminal until Ctrl-D; piped, says nothing', async () => {
    const fromTerminal = capture(['MemTotal: 8038788 kB\n']);
    expect(await main(['parse', 'meminfo'], { ...fromTerminal.cli, stdinIsTty: true })).toBe(0);
    expect(fromTerminal.io.errText.split('\n')[0]).toBe(
      'kvscope parse: reading meminfo lines from the terminal (Ctrl-D ends); give a file, or pipe a log in',
    );
    const piped = capture(['MemTotal: 8038788 kB\n']);
    expect(await main(['parse', 'meminfo', '-'], { ...piped.cli, stdinIsTty: false })).toBe(0);
    expect(piped.io.errText).not.toContain('from the terminal');
  });

  it('statm takes the page size as an option; pmap lists mappings on request', async () => {
    const statm = capture(['100 50 10 5 0 20 0\n']);
    expect(await main(['parse', 'statm', '-', '--page-size', '16384'], statm.cli)).toBe(0);
    expect(ndjson(statm.io.outText)[0]).toMatchObject({
      kind: 'statm',
      pageSizeBytes: 16384,
      residentBytes: 50 * 16384,
    });
    const pmap = capture();
    expect(
      await main(
        ['parse', 'pmap', FIXTURES + 'pmap/busybox-toybox/04_pmap_x_busybox_toybox.txt', '--mappings'],
        pmap.cli,
      ),
    ).toBe(0);
    const first = ndjson(pmap.io.outText).find((r) => r.kind === 'pmap')!;
    expect((first.mappingsList as unknown[]).length).toBe(7);
  });

  it('a 2 MiB line without a newline (stdin in chunks) is one diagnostic with its first 64 KiB; devfreq, rknpu and hwmon are formats', async () => {
    const chunk = new TextEncoder().encode('CPU ['.repeat(13_108));
    const { io, cli } = capture(Array.from({ length: 32 }, () => chunk));
    expect(await main(['parse', 'tegrastats', '-'], cli)).toBe(0);
    const [only, ...rest] = ndjson(io.outText);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({
      kind: 'diagnostic',
      line: 1,
      reason: `line longer than 65536 characters: ${32 * 5 * 13_108 - 65536} characters dropped`,
    });
    expect(String(only?.text)).toHaveLength(65536);
    expect(io.errText).toContain('1 line could not be read');
    for (const format of ['devfreq', 'rknpu', 'hwmon']) {
      const { io: o, cli: c } = capture(['NPU load:  Core0:  7%, Core1:  0%, Core2:  0%,\n']);
      expect(await main(['parse', format, '-'], c)).toBe(0);
      expect(ndjson(o.outText)).toEqual([{ kind: 'npu-load', line: 1, corePct: [7, 0, 0] }]);
    }
  });

  it('an unknown format is a usage error (exit 2) that lists the formats; a missing file exits 1 with one line', async () => {
    const unknown = capture();
    expect(await main(['parse', 'nvidia-smi', 'x.txt'], unknown.cli)).toBe(2);
    expect(unknown.io.outText).toBe('');
    expect(unknown.io.errText).toBe(
      'kvscope parse: unknown format "nvidia-smi" (formats: tegrastats, perf, pmap, smaps, meminfo, llama-log, llama-bench, status, statm, thermal, vcgencmd, devfreq, rknpu, hwmon)\n',
    );
    const none = capture();
    expect(await main(['parse'], none.cli)).toBe(2);
    expect(none.io.errText.split('\n')[0]).toBe(
      'kvscope parse: missing format (one of tegrastats, perf, pmap, smaps, meminfo, llama-log, llama-bench, status, statm, thermal, vcgencmd, devfreq, rknpu, hwmon)',
    );
    const missing = capture();
    expect(await main(['parse', 'perf', FIXTURES + 'perf/no-such-file.txt'], missing.cli)).toBe(1);
    expect(missing.io.errText).toBe(`kvscope parse: cannot read "${FIXTURES}perf/no-such-file.txt": no such file\n`);
    const dir = capture();
    expect(await main(['parse', 'perf', FIXTURES + 'perf'], dir.cli)).toBe(1);
    expect(dir.io.errText).toBe(`kvscope parse: cannot read "${FIXTURES}perf": is a directory\n`);
    const extra = capture();
    expect(await main(['parse', 'perf', 'a', 'b'], extra.cli)).toBe(2);
    const badOption = capture();
    expect(await main(['parse', 'statm', '-', '--page-size', 'big'], badOption.cli)).toBe(2);
  });

  it('runs as the real binary: NDJSON on stdout, the diagnostic count on stderr', async () => {
    const run = promisify(execFile);
    const { stdout, stderr } = await run(
      process.execPath,
      [
        ROOT + 'bin/kvscope.mjs',
        'parse',
        'perf',
        FIXTURES + 'perf/rpi4-and-arm-semicolon-csv/07_rpi4_partial_and_arm_semicolon_csv.txt',
      ],
      { cwd: ROOT },
    );
    expect(ndjson(stdout).map((r) => [r.kind, r.line, r.event ?? r.text, r.value ?? null])).toEqual([
      ['diagnostic', 7, 'root@vudu:~# perf stat /bin/ls', null],
      ['diagnostic', 8, '<...>   ', null],
      ['perf', 9, 'instructions', 3801323],
      ['perf', 10, 'branches', null],
      ['perf', 11, 'branch-misses', 24532],
      ['diagnostic', 12, '<...>', null],
      ['perf', 17, 'ld_spec', 235733],
    ]);
    expect(stderr).toBe('kvscope parse: 3 lines could not be read (kept in the output as "kind":"diagnostic")\n');
  });
});
