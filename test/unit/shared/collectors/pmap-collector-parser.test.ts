// The pmap collector's parser on a real procps-ng 3.3 `pmap -x` (test/fixtures/pmap/procps-ng-3.3-ubuntu20.04):
// the collector's fallback prints it after a `t=` line each tick.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CollectorRecord } from '../../../../shared/collectors/collector';
import { createPmapCollectorParser } from '../../../../shared/collectors/pmap-collector-parser';
import { projectRoot } from '../../../helpers/cli';

const capture = readFileSync(
  join(projectRoot, 'test/fixtures/pmap/procps-ng-3.3-ubuntu20.04/01_pmap_x_procps3.3_ubuntu20.04_wsl.txt'),
  'utf8',
).split('\n');
/** pmap's own output: from its `PID:   command` line on (the lines before are the shell's). */
const table = capture.slice(capture.findIndex((l) => l.startsWith('4299:')));

const pushAll = (lines: readonly string[]) => {
  const p = createPmapCollectorParser();
  return lines.map((l) => p.push(l)).filter((r): r is CollectorRecord => r !== null);
};

describe('pmap collector parser', () => {
  it('one sample per table, at the time before it, in bytes', () => {
    const records = pushAll(['H v=1 source=pmap', 't=12.5', ...table, 't=17.5', ...table]);
    const sample = {
      kind: 'sample',
      values: {
        // The 4 GB `[ anon ]` mapping of memory-user, 1,006,616 kB resident.
        'pmap.largestAnonBytes': 1006616 * 1024,
        // Resident kB of the seven anonymous rows ([ anon ] and [ stack ]): 4+1006616+20+4+16+0+4.
        'pmap.anonBytes': 1006664 * 1024,
        'pmap.mappings': 22,
      },
    };
    expect(records).toEqual([{ kind: 'header' }, { ...sample, uptimeMs: 12500 }, { ...sample, uptimeMs: 17500 }]);
  });

  it('a table cut short, a table before any time and a status line', () => {
    const cut = table.slice(0, 6);
    expect(pushAll(['t=1', ...cut, 't=2'])).toEqual([
      { kind: 'diagnostic', reason: 'pmap table cut short', text: 't=2' },
    ]);
    expect(pushAll(table)).toEqual([
      { kind: 'diagnostic', reason: 'pmap table without a time', text: table.find((l) => l.startsWith('total kB')) },
    ]);
    expect(pushAll(['! absent no pmap'])).toEqual([{ kind: 'status', status: 'absent', reason: 'no pmap' }]);
  });

  it('a "same" line is the last table\'s reading again, at its own time: as if the table were printed again', () => {
    const said = pushAll(['H v=1 source=smaps', 't=12.5', ...table, 't=17.5 same', 't=22.5 same', 't=27.5', ...table]);
    const printed = pushAll(['H v=1 source=smaps', 't=12.5', ...table, 't=17.5', ...table, 't=22.5', ...table]);
    expect(said.slice(0, 4)).toEqual(printed);
    expect(said.map((r) => r.kind === 'sample' && r.uptimeMs)).toEqual([false, 12500, 17500, 22500, 27500]);
    expect(said[4]).toEqual({ ...printed[1], uptimeMs: 27500 });
  });

  it('a "same" line with no table read before it is a diagnostic: none yet, one cut short, a new tick without one', () => {
    const reason = 'pmap "same" line without a table read before it';
    expect(pushAll(['H v=1 source=smaps', 't=5 same'])).toEqual([
      { kind: 'header' },
      { kind: 'diagnostic', reason, text: 't=5 same' },
    ]);
    // The table it would repeat was cut: that is what is said (once), and the next "same" has nothing to repeat.
    expect(pushAll(['t=1', ...table.slice(0, 6), 't=2 same', 't=3 same'])).toEqual([
      { kind: 'diagnostic', reason: 'pmap table cut short', text: 't=2 same' },
      { kind: 'diagnostic', reason, text: 't=3 same' },
    ]);
    // A table, then a tick whose table never came: "same" does not reach back past that tick.
    expect(pushAll(['t=1', ...table, 't=2', 't=3 same']).map((r) => r.kind)).toEqual(['sample', 'diagnostic']);
  });

  it('a table the stream ends in the middle of is a diagnostic at end(), not nothing', () => {
    const p = createPmapCollectorParser();
    const cut = table.slice(0, 6);
    expect(['t=1', ...cut].map((l) => p.push(l)).filter((r) => r !== null)).toEqual([]);
    expect(p.end()).toEqual([{ kind: 'diagnostic', reason: 'pmap table cut short', text: cut[5] }]);
    expect(p.end()).toEqual([]);
  });
});
