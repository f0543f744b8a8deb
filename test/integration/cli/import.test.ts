// `kvscope import`: logs captured on a board without a link → sessions that read and report like
// recorded ones. Runs the real binary on real captures (test/fixtures/tegrastats, perf, llama-cpp);
// expected values are read by hand off the captured lines.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSession } from '../../../electron/node/session/session-store';
import { projectRoot, runCli } from '../../helpers/cli';
import { defined } from '../../helpers/defined';
import { EIGHT_HOURS_LINES, ORIN_CAPTURE, orinLogLines, realLines } from '../../helpers/tegrastats-log';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fixture = (...parts: string[]) => join(projectRoot, 'test/fixtures', ...parts);

/** `kvscope import <format> <fixture> --out <dir>/<name>.kvscope [more…]`, which must succeed: the session file and its run. */
async function importFixture(format: string, rel: string, name: string, ...more: string[]) {
  const out = join(dir, `${name}.kvscope`);
  const res = await runCli(['import', format, fixture(rel), '--out', out, ...more]);
  expect(res.code, res.stderr).toBe(0);
  return { out, run: defined(readSession(out).runs[0], 'run'), stderr: res.stderr };
}
const MIB = 1024 ** 2;

/** `kvscope import tegrastats <file> --out <dir>/<name>.kvscope`, which must succeed: its run. */
async function importAt(file: string, name: string) {
  const out = join(dir, `${name}.kvscope`);
  const res = await runCli(['import', 'tegrastats', file, '--out', out]);
  expect(res.code, res.stderr).toBe(0);
  return { out, run: defined(readSession(out).runs[0], 'run') };
}

describe('kvscope import tegrastats', () => {
  // AGX Orin 64 GB, L4T 36.4.4: three real lines with tegrastats' `MM-DD-YYYY HH:MM:SS`, repeated
  // (test/helpers/tegrastats-log.ts).
  it('an 8-hour 1 Hz log → one run of 28,800 samples on the log’s own clock, that reports', async () => {
    expect(realLines(ORIN_CAPTURE)).toHaveLength(3);
    const log = join(dir, 'orin-8h.log');
    const lines = orinLogLines(EIGHT_HOURS_LINES);
    lines.splice(1000, 0, 'tegrastats: cannot open /sys/kernel/debug/bpmp'); // one line that is not a reading
    writeFileSync(log, lines.join('\n') + '\n');
    const out = join(dir, 'orin-8h.kvscope');

    const res = await runCli(['import', 'tegrastats', log, '--out', out, '--json']);
    expect(res.stderr).toMatch(/^kvscope import: 28800 sample\(s\), 1 unreadable line\(s\)/);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ kind: 'tegrastats', samples: 28_800, diagnostics: 1 });

    const session = readSession(out);
    expect(session.runs).toHaveLength(1);
    const run = defined(session.runs[0], 'run');
    expect(run.state).toBe('done');
    expect(run.samples).toHaveLength(EIGHT_HOURS_LINES);
    expect(new Set(run.samples.map((s) => s.source))).toEqual(new Set(['tegrastats']));
    expect(run.outcome?.collectors.tegrastats).toEqual({ status: 'ok', samples: 28_800, diagnostics: 1 });
    expect(run.outcome?.durationMs).toBe((EIGHT_HOURS_LINES - 1) * 1000);
    // The capture's first time, `05-09-2026 18:42:06` (board-local, no zone), dates the run.
    expect(run.startedAt).toBe('2026-05-09T18:42:06.000Z');
    expect(run.endedAt).toBe('2026-05-10T02:42:05.000Z');
    // Kept at the time of the reading before it (line 1000, stamped 999 s after the first), where
    // the dashboard's Events panel places it: it was at 0 s, the start of the 8 hours.
    expect(run.events.filter((e) => e.message === 'line 1001: not a tegrastats line').map((e) => e.tMs)).toEqual([
      999_000,
    ]);

    // Read by hand off the capture: line 0 `RAM 18207/62841MB … GR3D_FREQ 0%@[0,0] NVENC 79%@166 …
    // VIN_SYS_5V0 4707mW/4707mW`; line 1 `RAM 18202/… NVENC 78%@166 … VIN_SYS_5V0 4607mW/4657mW`;
    // line 2 `RAM 18203/… CPU [14%@729,… VIN_SYS_5V0 4707mW/4674mW`.
    const at = (i: number) => defined(run.samples[i], `sample ${i}`);
    expect(at(0)).toMatchObject({ tMs: 0 });
    expect(at(0).values).toMatchObject({
      'tegra.ramUsedBytes': 18207 * MIB,
      'tegra.ramTotalBytes': 62841 * MIB,
      'tegra.gpu.loadPct': 0,
      'tegra.engine.NVENC.loadPct': 79,
      'tegra.rail.VIN_SYS_5V0.curmW': 4707,
    });
    expect(at(28_000).tMs).toBe(28_000_000); // 28000 % 3 = 1
    expect(at(28_000).values).toMatchObject({
      'tegra.ramUsedBytes': 18202 * MIB,
      'tegra.engine.NVENC.loadPct': 78,
      'tegra.rail.VIN_SYS_5V0.curmW': 4607,
      'tegra.rail.VIN_SYS_5V0.avgmW': 4657,
    });
    expect(at(EIGHT_HOURS_LINES - 1).tMs).toBe(28_799_000); // 28799 % 3 = 2
    expect(at(EIGHT_HOURS_LINES - 1).values).toMatchObject({
      'tegra.ramUsedBytes': 18203 * MIB,
      'tegra.cpu.0.freqMHz': 729,
      'tegra.rail.VIN_SYS_5V0.avgmW': 4674,
    });

    const report = join(dir, 'orin-8h.json');
    const rep = await runCli(['report', out, '--format', 'json', '-o', report]);
    expect(rep.code).toBe(0);
    expect(readFileSync(report, 'utf8').length).toBeGreaterThan(0);
  }, 120_000);

  it('a log without times is timed by --interval', async () => {
    // Xavier NX, JetPack 4.6 (tegrastats without a timestamp): the first two lines of the capture.
    const nx = realLines(fixture('tegrastats/xavier-nx-and-nano-jp4.6/nano_tx2nx_xaviernx_aiblox_stresstest.txt'));
    const log = join(dir, 'nx.log');
    writeFileSync(log, nx.slice(0, 2).join('\n') + '\n');
    const out = join(dir, 'nx.kvscope');
    const res = await runCli(['import', 'tegrastats', log, '--out', out, '--interval', '500ms']);
    expect(res.code).toBe(0);
    const samples = defined(readSession(out).runs[0], 'run').samples;
    expect(samples.map((s) => s.tMs)).toEqual([0, 500]);
    // `RAM 1802/7772MB … GR3D_FREQ 99% … VDD_IN 14703/14683`, then `… VDD_IN 14703/14690`.
    expect(defined(samples[0], 'sample 0').values).toMatchObject({
      'tegra.ramUsedBytes': 1802 * MIB,
      'tegra.gpu.loadPct': 99,
      'tegra.rail.VDD_IN.avgmW': 14683,
    });
    expect(defined(samples[1], 'sample 1').values['tegra.rail.VDD_IN.avgmW']).toBe(14690);
  }, 60_000);

  it('readings that share a stamp (tegrastats --interval 333) are spread over their second, not stacked', async () => {
    // The Orin capture's three lines under each of 18:42:06 and :07, then one under :08.
    const stamps = ['06', '06', '06', '07', '07', '07', '08'].map((s) => `05-09-2026 18:42:${s}`);
    const log = join(dir, 'sub-second.log');
    const lines = orinLogLines(stamps.length).map((l, i) => `${stamps[i] ?? ''}${l.slice(stamps[0]?.length)}`);
    writeFileSync(log, lines.join('\n') + '\n');
    const { run } = await importAt(log, 'sub-second');
    expect(run.samples.map((s) => s.tMs)).toEqual([0, 333, 667, 1000, 1333, 1667, 2000]);
    // In the log's order: lines 1-3 of the capture, again, then line 1 (`RAM 18207/…`).
    expect(run.samples.map((s) => (s.values['tegra.ramUsedBytes'] ?? 0) / MIB)).toEqual([
      18207, 18202, 18203, 18207, 18202, 18203, 18207,
    ]);
    expect(run.outcome?.durationMs).toBe(2000);
  }, 60_000);

  it('a clock set back mid-log keeps the log’s order; a jump forward stays a gap; both are noted', async () => {
    // The Orin capture's lines at 18:42:06 and :07, then the board's clock set back to 18:00:00
    // (two readings), then to the next day's 18:00:02 (two readings).
    const stamps = [
      '05-09-2026 18:42:06',
      '05-09-2026 18:42:07',
      '05-09-2026 18:00:00',
      '05-09-2026 18:00:01',
      '05-10-2026 18:00:02',
      '05-10-2026 18:00:03',
    ];
    const log = join(dir, 'clock-set.log');
    const lines = orinLogLines(stamps.length).map((l, i) => `${stamps[i] ?? ''}${l.slice(stamps[0]?.length)}`);
    writeFileSync(log, lines.join('\n') + '\n');
    const out = join(dir, 'clock-set.kvscope');
    const res = await runCli(['import', 'tegrastats', log, '--out', out]);
    expect(res.code, res.stderr).toBe(0);
    const run = defined(readSession(out).runs[0], 'run');
    // 18:00:00 reads one second after 18:42:07, 18:00:01 one after it; the next day's 18:00:02 is
    // 24 h 00 min 01 s after 18:00:01: 3 s + 86,401 s.
    expect(run.samples.map((s) => s.tMs)).toEqual([0, 1000, 2000, 3000, 86_404_000, 86_405_000]);
    // The third line is the capture's third: `RAM 18203/62841MB`.
    expect(run.samples[2]?.values['tegra.ramUsedBytes']).toBe(18203 * MIB);
    expect(run.startedAt).toBe('2026-05-09T18:42:06.000Z');
    expect(run.outcome?.durationMs).toBe(86_405_000);
    expect(run.events.filter((e) => e.message?.startsWith('line ')).map((e) => [e.tMs, e.message])).toEqual([
      [
        2000,
        "line 3: the log's clock went back 42 min 7 s (2026-05-09T18:00:00): read one interval after the line before",
      ],
      [
        86_404_000,
        "line 5: the log's clock jumped 1 d 0 h forward (2026-05-10T18:00:02): no reading in between, or the clock was set",
      ],
    ]);
  }, 60_000);
});

describe('kvscope import of a compressed or UTF-16 log', () => {
  // logrotate gzips a rotated log (`tegrastats.log.1.gz`); the real gzip and xz write these files.
  const compressed = (tool: string, name: string, lines: readonly string[]) => {
    const plain = join(dir, name);
    writeFileSync(plain, lines.join('\n') + '\n');
    execFileSync(tool, ['-k', '-f', plain]);
    return readFileSync(`${plain}.${tool === 'gzip' ? 'gz' : tool}`);
  };

  it('gzip: read through gunzip, the same readings as the plain log', async () => {
    compressed('gzip', 'rotated.log', orinLogLines(3));
    const { run } = await importAt(join(dir, 'rotated.log.gz'), 'rotated');
    expect(run.samples.map((s) => [s.tMs, s.values['tegra.ramUsedBytes']])).toEqual([
      [0, 18207 * MIB],
      [1000, 18202 * MIB],
      [2000, 18203 * MIB],
    ]);
    expect(run.outcome?.collectors.tegrastats).toEqual({ status: 'ok', samples: 3, diagnostics: 0 });
  }, 60_000);

  it('gzip cut short (copied while it was written): the lines before the cut are kept, the cut is a diagnostic', async () => {
    const gz = compressed('gzip', 'cut.log', orinLogLines(200));
    const cutGz = join(dir, 'cut.log.gz');
    writeFileSync(cutGz, gz.subarray(0, gz.length - 40));
    const { run } = await importAt(cutGz, 'cut');
    expect(run.samples.length).toBeGreaterThan(150);
    expect(run.samples.length).toBeLessThan(200);
    expect(run.outcome?.collectors.tegrastats?.diagnostics).toBeGreaterThanOrEqual(1);
    expect(run.events.some((e) => /the gzip data ends here \(unexpected end of file\)/.test(e.message ?? ''))).toBe(
      true,
    );
  }, 60_000);

  // Windows PowerShell 5's `ssh board tegrastats > board.log` writes UTF-16LE with a byte order
  // mark and CRLF line ends; it was "nothing to import (none of its 7 lines is a tegrastats reading)".
  it.each([
    ['UTF-16LE, as Windows PowerShell writes it', 'utf16le'],
    ['UTF-16BE', 'utf16be'],
  ] as const)(
    '%s: the same readings as the UTF-8 log',
    async (_what, encoding) => {
      const text = '\ufeff' + orinLogLines(3).join('\r\n') + '\r\n';
      const le = Buffer.from(text, 'utf16le');
      const file = join(dir, `windows-${encoding}.log`);
      writeFileSync(file, encoding === 'utf16le' ? le : le.swap16());
      const { run } = await importAt(file, `windows-${encoding}`);
      expect(run.samples.map((s) => [s.tMs, s.values['tegra.ramUsedBytes']])).toEqual([
        [0, 18207 * MIB],
        [1000, 18202 * MIB],
        [2000, 18203 * MIB],
      ]);
      expect(run.outcome?.collectors.tegrastats?.diagnostics).toBe(0);
    },
    60_000,
  );

  it('xz: refused in one line naming the command that unpacks it', async () => {
    compressed('xz', 'rotated-xz.log', orinLogLines(3));
    const res = await runCli([
      'import',
      'tegrastats',
      join(dir, 'rotated-xz.log.xz'),
      '--out',
      join(dir, 'xz.kvscope'),
    ]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /^kvscope import: cannot read .*rotated-xz\.log\.xz: xz-compressed: unpack it first \(xz -d\)\n$/,
    );
  }, 60_000);
});

describe('the report of an imported log', () => {
  // The AGX Xavier paste: its prompt line `agruet@gpu02:~$ tegrastats`, then one reading
  // (`RAM 14700/15692MB …`). The report's process memory samples are none: its Collectors rows
  // must say what the log gave, or a colleague reads "0 samples".
  it.each([
    ['md', '| tegrastats | 1 sample, 1 unreadable line |'],
    ['html', '<tr><td>tegrastats</td><td>1 sample, 1 unreadable line</td></tr>'],
  ])(
    '%s: the readings and the unreadable lines the log gave',
    async (format, row) => {
      const { out } = await importFixture(
        'tegrastats',
        'tegrastats/agx-xavier-jp4.2/agx_xavier_jp4.2_gtop_pr7.txt',
        'xavier',
      );
      const report = join(dir, `xavier.${format}`);
      const res = await runCli(['report', out, '--format', format, '-o', report]);
      expect(res.code, res.stderr).toBe(0);
      const text = readFileSync(report, 'utf8');
      expect(text).toContain(row);
      // Nor the advice to profile again with --budget: without memory samples a budget gives nothing.
      expect(text).not.toContain('No memory budget was given');
    },
    60_000,
  );
});

describe('kvscope import of a line 10 MB long', () => {
  it('the line is one diagnostic whose kept text is cut, the readings around it are read', async () => {
    // The capture's third line runs into 10 MiB of junk without a line end (a serial console's
    // noise, a binary appended): the line is cut at the reader's cap and kept as 240 characters.
    const [one, two, three, four] = orinLogLines(4);
    const file = join(dir, 'long-line.log');
    writeFileSync(file, `${one}\n${two}\n${three}${'x'.repeat(10 * MIB)}\n${four}\n`);
    const { run } = await importAt(file, 'long-line');
    expect(run.samples.map((s) => s.tMs)).toEqual([0, 1000, 3000]);
    const cut = run.events.filter((e) => e.message?.startsWith('line 3:'));
    expect(cut.map((e) => e.message)).toEqual([
      `line 3: line longer than 65536 characters: ${(three ?? '').length + 10 * MIB - 65536} characters dropped`,
    ]);
    expect(cut[0]?.data).toEqual({
      reason: `line longer than 65536 characters: ${(three ?? '').length + 10 * MIB - 65536} characters dropped`,
      text: (three ?? '').slice(0, 240),
    });
  }, 60_000);
});

describe('kvscope import keeps no secret', () => {
  // Pastes of a terminal hold its prompt and what was typed there (the AGX Xavier capture in
  // test/fixtures/tegrastats/agx-xavier-jp4.2 starts at `agruet@gpu02:~$ tegrastats`): such a line
  // is an unreadable one, kept as it was, so the secrets on it must be masked in the session.
  it('a pasted command line among the readings: its token and password are masked in the session file', async () => {
    const file = join(dir, 'pasted-prompt.log');
    const typed = 'agruet@gpu02:~$ HF_TOKEN=hf_pAsTeDtOkEn42 sudo -S tegrastats --interval 1000 --password s3cr3tPw';
    writeFileSync(file, [typed, ...orinLogLines(3)].join('\n') + '\n');
    const out = join(dir, 'pasted-prompt.kvscope');
    const res = await runCli(['import', 'tegrastats', file, '--out', out, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ samples: 3, diagnostics: 1 });
    const run = defined(readSession(out).runs[0], 'run');
    expect(run.events.find((e) => e.message?.startsWith('line 1:'))?.data).toEqual({
      reason: 'not a tegrastats line',
      text: 'agruet@gpu02:~$ HF_TOKEN=*** sudo -S tegrastats --interval 1000 --password ***',
    });
    const bytes = readFileSync(out).toString('latin1');
    for (const secret of ['hf_pAsTeDtOkEn42', 's3cr3tPw']) expect(bytes).not.toContain(secret);
  }, 60_000);
});

describe('kvscope import perf and llama-log', () => {
  it('a perf -I capture → perf samples on perf’s own interval clock', async () => {
    const { out, run } = await importFixture(
      'perf',
      'perf/x86-vm-perf6.1-collector-interval/perf-collector-stdout.txt',
      'perf',
    );
    // The capture's header says t0=5825.15, and its intervals end at 0.502505182 s and 1.006518373 s.
    expect(run.samples.slice(0, 2).map((s) => s.tMs)).toEqual([503, 1007]);
    expect(run.samples[0]).toMatchObject({
      source: 'perf',
      values: { 'perf.task-clockUs': 366_630, 'perf.page-faults': 0, 'perf.context-switches': 196 },
    });
    expect(run.outcome?.collectors.perf?.samples).toBe(run.samples.length);
    const html = join(dir, 'perf.html');
    const rep = await runCli(['report', out, '--format', 'html', '-o', html]);
    expect(rep.code, rep.stderr).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('perf: perf-collector-stdout.txt');
  }, 60_000);

  // Real perf 6.1 captures of this VM (test/fixtures/perf/x86-vm-perf6.1-json-interval/SOURCE); the
  // expected values are read off their lines.
  it.each([
    {
      what: 'perf -x, -I with one event (one line an interval): the last interval is imported',
      file: 'perf-stat-x-I200-one-event.txt',
      // `0.200325579,97.50,msec,task-clock,…` and the last, `0.345183280,107.67,msec,task-clock,…`.
      samples: [
        [200, { 'perf.task-clockUs': 97_500 }],
        [345, { 'perf.task-clockUs': 107_670 }],
      ],
    },
    {
      what: 'perf stat -j -I (JSON, perf 6.0+): read, its last interval included',
      file: 'perf-stat-j-I200-busy-loop.txt',
      // Interval 1 (0.200471436 s): "159.194209" msec, "61.000000" page-faults, "100.000000"
      // context-switches; interval 2, the last (0.301418750 s): "50.065554", "0.000000", "24.000000".
      samples: [
        [200, { 'perf.task-clockUs': 159_194, 'perf.page-faults': 61, 'perf.context-switches': 100 }],
        [301, { 'perf.task-clockUs': 50_066, 'perf.page-faults': 0, 'perf.context-switches': 24 }],
      ],
    },
  ])(
    '$what',
    async ({ file, samples }) => {
      const out = join(dir, `${file}.kvscope`);
      const res = await runCli(['import', 'perf', fixture('perf/x86-vm-perf6.1-json-interval', file), '--out', out]);
      expect(res.code, res.stderr).toBe(0);
      const run = defined(readSession(out).runs[0], 'run');
      expect(run.samples.map((x) => [x.tMs, x.values])).toEqual(samples);
      expect(run.outcome?.collectors.perf).toEqual({ status: 'ok', samples: samples.length, diagnostics: 0 });
    },
    60_000,
  );

  it('a raw perf stat -x, -I capture (no collector header) imports, its summary lines counted as diagnostics', async () => {
    const { run } = await importFixture(
      'perf',
      'perf/x86-perf5.12-csv-interval-summary/01_csv_interval_summary_lkml_jinyao_2021.txt',
      'perf-raw',
      '--json',
    );
    expect(run.samples.length).toBeGreaterThan(0);
    // `1.001323097,8013.48,msec,cpu-clock,…`: the first interval of variant (A).
    expect(run.samples[0]).toMatchObject({
      tMs: 1001,
      values: { 'perf.cpu-clockUs': 8_013_480, 'perf.cycles': 20_574_191 },
    });
    expect(run.outcome?.collectors.perf?.diagnostics).toBeGreaterThan(0);
  }, 60_000);

  it('perf captures appended to one file: each one after the last, not stacked on its first seconds', async () => {
    // Three `perf stat -x, -I1000 --interval-count 1` runs in one file, each one interval from its
    // own start: `1.001323097,8013.48,msec,cpu-clock,…` (line 14), `1.001196053,8012.72,…` (32),
    // `1.001213261,8012.67,…` (50). All three were at 1001 ms.
    const { run } = await importFixture(
      'perf',
      'perf/x86-perf5.12-csv-interval-summary/01_csv_interval_summary_lkml_jinyao_2021.txt',
      'perf-appended',
    );
    expect(run.samples.map((s) => [s.tMs, s.values['perf.cpu-clockUs']])).toEqual([
      [1001, 8_013_480],
      [2001, 8_012_720],
      [3001, 8_012_670],
    ]);
    const again =
      "the log's clock starts again at 1.00 s (a capture appended to another): read one interval after the reading before";
    expect(run.events.filter((e) => e.message?.includes('starts again')).map((e) => [e.tMs, e.message])).toEqual([
      [2001, again],
      [3001, again],
    ]);
    expect(run.outcome?.durationMs).toBe(2000);
  }, 60_000);

  it('perf stat without -I (one summary per run) is one reading at its elapsed time, not "nothing to import"', async () => {
    // This VM's perf 6.1 (test/fixtures/perf/x86-vm-perf6.1-output-modes/SOURCE), `perf stat -r 3 …
    // -- sleep 0.05`: `1.22 msec task-clock`, `76 page-faults`, `1 context-switches`, `<not
    // supported> cycles`, `0.05430 +- 0.00149 seconds time elapsed`.
    const { run } = await importFixture('perf', 'perf/x86-vm-perf6.1-output-modes/human-r3.txt', 'perf-summary');
    expect(run.samples).toEqual([
      {
        tMs: 54,
        source: 'perf',
        values: { 'perf.task-clockUs': 1220, 'perf.page-faults': 76, 'perf.context-switches': 1 },
      },
    ]);
    expect(run.outcome?.collectors.perf).toEqual({ status: 'ok', samples: 1, diagnostics: 0 });
    expect(run.events.map((e) => e.message)).toContain(
      'line 4: perf stat without -I: its counters over the whole run (54 ms) are one reading',
    );
    // The same capture with its page-faults line damaged (a quote in the event's name): that line
    // stays a diagnostic, the rest is read.
    const damaged = join(dir, 'human-r3-damaged.txt');
    writeFileSync(
      damaged,
      readFileSync(fixture('perf/x86-vm-perf6.1-output-modes/human-r3.txt'), 'utf8').replace(
        'page-faults',
        'page"faults',
      ),
    );
    const res = await runCli(['import', 'perf', damaged, '--out', join(dir, 'perf-summary-damaged.kvscope'), '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ samples: 1, diagnostics: 1 });
    // --per-core: `S0-D0-C0 1 102.75 msec task-clock`, `S0-D0-C1 1 102.76 msec task-clock`: the cores summed.
    const cores = await importFixture('perf', 'perf/x86-vm-perf6.1-output-modes/human-per-core.txt', 'perf-cores');
    expect(cores.run.samples.map((x) => [x.tMs, x.values])).toEqual([[103, { 'perf.task-clockUs': 205_510 }]]);
  }, 60_000);

  it('tracepoint and parameterised PMU events are counters like any other (they were refused: "nothing to import")', async () => {
    // Two runs of `perf stat -I 1000 -a -e skb:kfree_skb` pasted one after the other: 10 readings
    // each, the second run's clock starting again at 1 s (`1.000767744 52,240`, its line 16).
    const { run } = await importFixture(
      'perf',
      'perf/x86-tracepoint-interval-two-runs/netdev-babrou-2023-07-13-kfree_skb-I1000.txt',
      'perf-tracepoint',
    );
    expect(run.samples).toHaveLength(20);
    expect(run.samples[0]).toEqual({ tMs: 1001, source: 'perf', values: { 'perf.skb:kfree_skb': 10_108 } });
    expect(run.samples[9]).toEqual({ tMs: 10002, source: 'perf', values: { 'perf.skb:kfree_skb': 313_105 } });
    // One interval after the first run's last reading.
    expect(run.samples[10]).toEqual({ tMs: 11002, source: 'perf', values: { 'perf.skb:kfree_skb': 52_240 } });
    expect(run.outcome?.collectors.perf).toMatchObject({ status: 'ok', samples: 20 });
    // POWER9 hv_24x7 nest events with a term (`hv_24x7/pm_pb_cyc,chip=0/`), one per chip: two
    // full intervals and the last, cut by Ctrl-C (`^C     2.745238246  5,816,562 …`).
    const power = await importFixture(
      'perf',
      'perf/power9-perf5.8-metric-only/lkml-kjain-2020-07-20-M-I1000.txt',
      'perf-hv24x7',
    );
    expect(power.run.samples.map((x) => [x.tMs, x.values])).toEqual([
      [1000, { 'perf.hv_24x7.pm_pb_cyc_chip_0': 7_807_494, 'perf.hv_24x7.pm_pb_cyc_chip_1': 7_807_456 }],
      [2000, { 'perf.hv_24x7.pm_pb_cyc_chip_0': 7_807_490, 'perf.hv_24x7.pm_pb_cyc_chip_1': 7_799_691 }],
      [2745, { 'perf.hv_24x7.pm_pb_cyc_chip_0': 5_816_562, 'perf.hv_24x7.pm_pb_cyc_chip_1': 5_816_580 }],
    ]);
  }, 60_000);

  it('pmap tables → one pmap sample per table, timed by --interval', async () => {
    const { run } = await importFixture('pmap', 'pmap/procps-ng-X-and-d/pmap_X_and_d.txt', 'pmap');
    // Table 1 (`pmap -X`): the anonymous 1048576 KiB mapping, Anonymous total 1048588 KiB, 3 mappings;
    // table 2 (`pmap -d`): the same mapping, no Anonymous column, 2 mappings.
    expect(run.samples).toEqual([
      {
        tMs: 0,
        source: 'pmap',
        values: { 'pmap.largestAnonBytes': 1048576 * 1024, 'pmap.anonBytes': 1048588 * 1024, 'pmap.mappings': 3 },
      },
      {
        tMs: 1000,
        source: 'pmap',
        values: { 'pmap.largestAnonBytes': 1048576 * 1024, 'pmap.anonBytes': null, 'pmap.mappings': 2 },
      },
    ]);
  }, 60_000);

  it('a pmap loop with date(1) before each table → the tables on the stamps’ clock, the stamp lines read', async () => {
    // test/fixtures/pmap/procps-ng-4.0.2-date-loop/SOURCE: `date; pmap -x` every 2 s (19:35:34 … :40 UTC), the
    // largest anonymous mapping 16392, 32784, 49176, 65568 kB.
    const { run, stderr } = await importFixture(
      'pmap',
      'pmap/procps-ng-4.0.2-date-loop/pmap_x_date_loop.txt',
      'pmap-date-loop',
      '--interval',
      '5s',
    );
    expect(run.samples.map((x) => [x.tMs, x.values['pmap.largestAnonBytes']])).toEqual([
      [0, 16392 * 1024],
      [2000, 32784 * 1024],
      [4000, 49176 * 1024],
      [6000, 65568 * 1024],
    ]);
    expect(run.startedAt).toBe('2026-12-07T19:35:34.000Z');
    expect(stderr).toMatch(/^kvscope import: 4 sample\(s\), 0 unreadable line\(s\)/);
  }, 60_000);

  it('a llama.cpp log → the run’s engine log (timings), reported like a recorded run', async () => {
    const { out, run, stderr } = await importFixture(
      'llama-log',
      'llama-cpp/llama-print-timings-2023-2024/04_llama_print_timings_variants_2023_2024.txt',
      'llama',
    );
    expect(run.samples).toHaveLength(0);
    expect(run.engineLog.timings.length).toBeGreaterThan(0);
    // The line says what was kept ("0 sample(s)" alone read as nothing imported).
    expect(stderr).toMatch(
      new RegExp(`^kvscope import: 0 sample\\(s\\), ${run.engineLog.timings.length} timing record\\(s\\)`),
    );
    const rep = await runCli(['report', out, '--format', 'csv', '-o', join(dir, 'llama.csv')]);
    expect(rep.code).toBe(0);
  }, 60_000);
});

describe('the report of an imported llama.cpp log', () => {
  it('says the tokens the engine counted, beside its prefill and decode rates', async () => {
    // Orange Pi 3B, `llama-cli … -n 128`: `prompt eval time = 4245.68 ms / 8 tokens (… 1.88 tokens
    // per second)`, `eval time = 124973.60 ms / 127 runs (… 1.02 tokens per second)`: 127 eval runs
    // after the token sampled from the prompt make 128 generated. The report said 0.
    const { out } = await importFixture(
      'llama-log',
      'llama-cpp/orangepi-3b-rk3566-2024-12/llama-cli-perf-2024-12.txt',
      'orangepi',
    );
    const md = join(dir, 'orangepi.md');
    const res = await runCli(['report', out, '--format', 'md', '-o', md]);
    expect(res.code, res.stderr).toBe(0);
    const text = readFileSync(md, 'utf8');
    for (const row of ['| Prefill | 1.9 tok/s |', '| Decode | 1.0 tok/s |', '| Tokens generated | 128 |'])
      expect(text).toContain(row);
  }, 60_000);
});

describe("the report of a llama.cpp server's log whose KV cache was full", () => {
  it('says how many times a batch found no free KV cells, and what to change', async () => {
    // test/fixtures/llama-cpp/server-kv-full-2023-2025/SOURCE: 26 lines of three servers (2023–2025) saying so, and
    // 2 requests failing for it; each used to count as an engine error, and the report said nothing of the cache.
    // After a server log with readings (its timings, server-timings-2024-2026): a log of diagnostics alone has
    // nothing to import.
    const log = join(dir, 'server-kv-full.log');
    writeFileSync(
      log,
      [
        'llama-cpp/server-timings-2024-2026/09_server_timings_json_and_log_lines.txt',
        'llama-cpp/server-kv-full-2023-2025/server-kv-full.txt',
      ]
        .map((rel) => readFileSync(fixture(rel), 'utf8'))
        .join(''),
    );
    const out = join(dir, 'kv-full.kvscope');
    const res = await runCli(['import', 'llama-log', log, '--out', out]);
    expect(res.code, res.stderr).toBe(0);
    const run = defined(readSession(out).runs[0], 'run');
    expect(run.events.filter((e) => e.data?.reason === 'KV cache full')).toHaveLength(26);
    const md = join(dir, 'kv-full.md');
    const rep = await runCli(['report', out, '--format', 'md', '-o', md]);
    expect(rep.code, rep.stderr).toBe(0);
    expect(readFileSync(md, 'utf8')).toContain('The engine found no free KV cache cells for a batch 26 times');
  }, 60_000);
});

describe('kvscope import of a llama.cpp log several programs appended to', () => {
  it('one run per program (each starts at its build line): their KV caches and rates are not mixed', async () => {
    // llama.cpp's 2023 CI on a V100: `./bin/main` (lines 1–52: `kv self size = 256.00 MB`, `eval
    // time = 4925.16 ms / 255 runs (… 51.77 tokens per second)`, 256 generated), then
    // `./bin/perplexity` (from its `+ ./bin/perplexity` line's next, `main: build = 916` at line 54:
    // `kv self size = 1024.00 MB`, `prompt eval time = 13872.08 ms / 8192 tokens (… 590.54 tokens
    // per second)`). One run summed them: "KV size the engine logged 1.25 GiB", main's decode beside
    // perplexity's prefill, "Tokens generated 2".
    const rel = 'llama-cpp/ggml-ci-2023-main-then-perplexity/ci-b5472ea-open-llama-7b-v2-f16.txt';
    const out = join(dir, 'ci-two-programs.kvscope');
    const res = await runCli(['import', 'llama-log', fixture(rel), '--out', out, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ runs: 2, samples: 0, engineLog: { kv: 2 } });
    expect(res.stderr).toContain('in 2 runs (one per program run in the log)');
    const runs = readSession(out).runs;
    expect(runs.map((r) => r.label)).toEqual([
      'llama-log: ci-b5472ea-open-llama-7b-v2-f16.txt, run 1 of 2 (lines 1–53)',
      'llama-log: ci-b5472ea-open-llama-7b-v2-f16.txt, run 2 of 2 (lines 54–100)',
    ]);
    expect(runs.map((r) => r.analysisInputs?.engineKvBytes)).toEqual([256 * MIB, 1024 * MIB]);
    const md = join(dir, 'ci-two-programs.md');
    expect((await runCli(['report', out, '--format', 'md', '-o', md])).code).toBe(0);
    const [, main, perplexity] = readFileSync(md, 'utf8').split(/^## Run \d+: /m);
    for (const row of [
      '| KV size the engine logged | 256 MiB |',
      '| Decode | 51.8 tok/s |',
      '| Tokens generated | 256 |',
    ])
      expect(main).toContain(row);
    for (const row of ['| KV size the engine logged | 1.00 GiB |', '| Prefill | 591 tok/s |'])
      expect(perplexity).toContain(row);
  }, 60_000);
});

describe('kvscope import refuses, with one line and a non-zero exit', () => {
  const failsWith = async (args: string[], reason: RegExp, code: number) => {
    const res = await runCli(['import', ...args]);
    expect(res.code).toBe(code);
    expect(res.stderr).toMatch(reason);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  };

  it('a missing file', () =>
    failsWith(
      ['tegrastats', join(dir, 'nope.log'), '--out', join(dir, 'x.kvscope')],
      /^kvscope import: cannot read .*nope\.log: no such file\n$/,
      1,
    ));

  it('a directory', () =>
    failsWith(
      ['pmap', dir, '--out', join(dir, 'x.kvscope')],
      /^kvscope import: cannot read .*: not a regular file\n$/,
      1,
    ));

  it('an unknown kind', () =>
    failsWith(
      ['iostat', join(dir, 'x.log'), '--out', join(dir, 'x.kvscope')],
      /^kvscope import: unknown kind "iostat"/,
      2,
    ));

  // A JetPack 4 log at tegrastats --interval 120000, or a typo: the run request's schema would
  // throw its ZodError, whose first line is "[" (the line the user saw before).
  it.each(['61s', '10ms', '99999999999999999999999'])(
    'an --interval of %s, outside what a session stores',
    (interval) =>
      failsWith(
        ['tegrastats', ORIN_CAPTURE, '--out', join(dir, 'interval.kvscope'), '--interval', interval],
        new RegExp(`^kvscope import: --interval: "${interval}" is outside 20 ms\\.\\.1 min 0 s`),
        2,
      ),
  );

  it('--out in a folder that does not exist', () =>
    failsWith(
      ['tegrastats', ORIN_CAPTURE, '--out', join(dir, 'no-such-folder', 'x.kvscope')],
      /^kvscope import: cannot create \S*no-such-folder\/x\.kvscope: its folder does not exist\n$/,
      1,
    ));

  // SQLite says only "unable to open database file" where procfs refuses the create.
  it('--out in /proc', () =>
    failsWith(
      ['tegrastats', ORIN_CAPTURE, '--out', '/proc/kvscope-import.kvscope'],
      /^kvscope import: cannot create \/proc\/kvscope-import\.kvscope: its folder takes no new file \(a file system such as \/proc or \/sys\)\n$/,
      1,
    ));

  it('--out naming a file that is not a session: refused, the file left as it was', async () => {
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'field notes\n');
    await failsWith(
      ['tegrastats', ORIN_CAPTURE, '--out', notes],
      /^kvscope import: .*notes\.txt exists and is not a KVScope session: not overwriting it\n$/,
      1,
    );
    expect(readFileSync(notes, 'utf8')).toBe('field notes\n');
  });

  it('a session given as the log (its SQLite bytes were read as text and "imported"), nothing written', async () => {
    const { out } = await importFixture(
      'tegrastats',
      'tegrastats/agx-orin-64gb-jp5/agx_orin_64gb_jp5_gdwr_issue14.txt',
      'given',
    );
    await failsWith(
      ['tegrastats', out, '--out', join(dir, 'from-session.kvscope')],
      /^kvscope import: cannot read .*given\.kvscope: an SQLite database \(a KVScope session\?\), not a log: kvscope report or kvscope web --open reads a session\n$/,
      1,
    );
    expect(existsSync(join(dir, 'from-session.kvscope'))).toBe(false);
  });

  it('an empty file', async () => {
    const empty = join(dir, 'empty.log');
    writeFileSync(empty, '');
    await failsWith(
      ['tegrastats', empty, '--out', join(dir, 'empty.kvscope')],
      /^kvscope import: .*nothing to import \(the file is empty\)/,
      1,
    );
  });

  it('a file of lines that are not readings (a bracketed list of noise is none either)', async () => {
    const junk = join(dir, 'junk.log');
    writeFileSync(junk, 'hello\n[\u0019\u00fe,z]\n');
    await failsWith(
      ['tegrastats', junk, '--out', join(dir, 'junk.kvscope')],
      /none of its 2 lines is a tegrastats reading/,
      1,
    );
  });
});
