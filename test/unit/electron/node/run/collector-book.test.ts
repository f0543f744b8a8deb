// The run's collector book at run end: what a collector's parser still holds (perf's last interval)
// is counted and handed to the run, not dropped. Lines: a real perf 6.1 capture of this VM
// (test/fixtures/perf/x86-vm-perf6.1-json-interval/SOURCE) after the collector's header.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CollectorBook } from '../../../../../electron/node/run/collector-book';
import { projectRoot } from '../../../../helpers/cli';

const capture = readFileSync(
  join(projectRoot, 'test/fixtures/perf/x86-vm-perf6.1-json-interval/perf-stat-x-I200-one-event.txt'),
  'utf8',
)
  .split('\n')
  .filter((l) => l !== '');

describe('collector book', () => {
  it("end() hands over perf's last interval and counts it as a sample", () => {
    const book = new CollectorBook();
    book.start('perf');
    const lines = ['H v=1 t0=50 events=task-clock dropped=', ...capture];
    const results = lines.map((l) => book.line('perf', l));
    expect(results.filter((r) => r.kind === 'sample')).toEqual([
      { kind: 'sample', uptimeMs: 50_200, values: { 'perf.task-clockUs': 97_500 } },
    ]);
    // `0.345183280,107.67,msec,task-clock,…`: the last line of the capture.
    expect(book.end()).toEqual([
      { id: 'perf', result: { kind: 'sample', uptimeMs: 50_345, values: { 'perf.task-clockUs': 107_670 } } },
    ]);
    expect(book.statuses(true).perf).toEqual({ status: 'ok', samples: 2, diagnostics: 0 });
  });

  it('a board tick with one unreadable file is a sample and a counted diagnostic', () => {
    const book = new CollectorBook();
    book.start('boardsysfs');
    book.line('boardsysfs', 'H v=1 devfreq=2 npu=0 power=0 tripzones=0');
    const r = book.line('boardsysfs', 't=5|/sys/class/devfreq/dmc/cur_freq:528000000|/sys/class/devfreq/gpu/cur_freq:');
    expect(r).toEqual({
      kind: 'sample',
      uptimeMs: 5000,
      values: { 'devfreq.dmc.curFreqMHz': 528 },
      unread: { reason: 'unreadable devfreq frequency', text: '/sys/class/devfreq/gpu/cur_freq:', keep: true },
    });
    expect(book.statuses(true).boardsysfs).toEqual({ status: 'ok', samples: 1, diagnostics: 1 });
  });

  describe('a collector without a sample once the engine has ended', () => {
    const TEGRA_HEADER = 'H v=1 tegrastats=/usr/bin/tegrastats ms=1000 uid=0 sudo=';
    const cases: Array<[what: string, lines: string[], ranMs: number | null, want: Record<string, unknown>]> = [
      [
        'a tool that printed an error and exited: failed, quoting it',
        [TEGRA_HEADER, 't=5.25 Error: tegrastats must be run as root'],
        9000,
        {
          status: 'failed',
          samples: 0,
          diagnostics: 1,
          reason:
            'no reading: its only line was "t=5.25 Error: tegrastats must be run as root" (not a tegrastats line)',
        },
      ],
      [
        'an engine that ended before the first interval: ok, saying why there is none',
        [TEGRA_HEADER],
        50,
        {
          status: 'ok',
          samples: 0,
          diagnostics: 0,
          reason: 'no sample: the engine ended 50 ms after it started, before the first 1000 ms interval',
        },
      ],
      [
        // What it printed is no fault of its own then (perf attaching to an engine already gone
        // prints "Problems finding threads of monitor"): quoted, not blamed.
        'an engine gone before the first interval, the tool complaining: ok, quoting it',
        [TEGRA_HEADER, 't=5.25 Error: tegrastats must be run as root'],
        50,
        {
          status: 'ok',
          samples: 0,
          diagnostics: 1,
          reason:
            'no sample: the engine ended 50 ms after it started, before the first 1000 ms interval; no reading: its only line was "t=5.25 Error: tegrastats must be run as root" (not a tegrastats line)',
        },
      ],
      [
        'a header and then silence over many intervals: failed',
        [TEGRA_HEADER],
        9000,
        { status: 'failed', samples: 0, diagnostics: 0, reason: 'it printed its header and no reading' },
      ],
      ['the engine still running: ok so far', [TEGRA_HEADER], null, { status: 'ok', samples: 0, diagnostics: 0 }],
    ];
    it.each(cases)('%s', (_what, lines, ranMs, want) => {
      const book = new CollectorBook();
      book.start('tegrastats', 1000);
      for (const l of lines) book.line('tegrastats', l);
      expect(book.statuses(true, { ranMs }).tegrastats).toEqual(want);
    });
  });

  it('a script that ends while the engine runs: failed, its samples kept, an alert at its time; not after absent', () => {
    const book = new CollectorBook();
    book.start('perf', 1000);
    book.start('tegrastats', 1000);
    const perf = ['H v=1 t0=50 events=task-clock dropped=', ...capture];
    for (const l of perf) book.line('perf', l);
    // The launcher's line after perf was killed by SIGKILL (sh: 128 + 9).
    expect(book.line('perf', '! stopped code=137 t=51.5')).toEqual({
      kind: 'stopped',
      uptimeMs: 51_500,
      reason:
        'it stopped while the engine still ran (killed by signal 9); the sample before is kept; run its tool by hand on the target to see why (and dmesg for a crash)',
    });
    book.line('tegrastats', '! absent no tegrastats on PATH');
    expect(book.line('tegrastats', '! stopped code=0 t=51.5')).toEqual({ kind: 'none' });
    const statuses = book.statuses(true, { ranMs: 9000 });
    expect(statuses.perf).toMatchObject({ status: 'failed', samples: 1 });
    expect(statuses.perf?.reason).toMatch(/^it stopped while the engine still ran \(killed by signal 9\)/);
    expect(statuses.tegrastats).toEqual({
      status: 'absent',
      samples: 0,
      diagnostics: 0,
      reason: 'no tegrastats on PATH',
    });
  });

  it('samples that come far slower than asked: ok, and the reason says so (twice the interval or more)', () => {
    const line = readFileSync(
      join(projectRoot, 'test/fixtures/shims/captures/tegrastats-xavier-nx-jp4.6.txt'),
      'utf8',
    ).split('\n')[0];
    const paced = (uptimes: number[]) => {
      const book = new CollectorBook();
      book.start('tegrastats', 1000);
      for (const t of uptimes) book.line('tegrastats', `t=${t} ${line}`);
      return book.statuses(true, { ranMs: 11_000 }).tegrastats;
    };
    // A line every 5 s at 1 s asked.
    expect(paced([100, 105, 110])).toEqual({
      status: 'ok',
      samples: 3,
      diagnostics: 0,
      reason:
        'samples came every 5.00 s on average, not every 1.00 s as asked: the tool keeps its own pace or the target is too busy; the chart has fewer points than asked for',
    });
    // 1.9 s apart on average: a loaded board's late ticks, under twice the interval, say nothing.
    expect(paced([100, 101.8, 103.8])).toEqual({ status: 'ok', samples: 3, diagnostics: 0 });
  });
});
