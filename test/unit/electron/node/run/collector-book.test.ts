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
});
