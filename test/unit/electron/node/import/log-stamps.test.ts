import { describe, expect, it } from 'vitest';
import { readStamp, stampClock } from '../../../../../electron/node/import/log-stamps';
import type { Read } from '../../../../../electron/node/import/import-reads';

/** The times stampClock gives lines stamped `texts` (null: no stamp), and its notes. */
function timesOf(texts: Array<string | null>, intervalMs = 1000) {
  const clock = stampClock(intervalMs);
  const notes: Read[] = [];
  let last: number | null = null;
  const times = texts.map((t, i) => {
    last = clock.timeOf(t === null ? null : readStamp(t), last, i + 1, notes);
    return last;
  });
  return { times, notes: notes.map((n) => (n.kind === 'note' ? n.message : n.kind)), start: clock.clockStartMs() };
}

describe('a log’s stamps as its clock', () => {
  it('date(1) lines: the time since the first; the first is the run’s start', () => {
    const { times, notes, start } = timesOf(['Mon Dec  7 19:35:34 UTC 2026', 'Mon Dec  7 19:35:36 UTC 2026', null]);
    expect(times).toEqual([0, 2000, 3000]);
    expect(notes).toEqual([]);
    expect(start).toBe(Date.UTC(2026, 11, 7, 19, 35, 34));
  });

  it('a stamp that comes again, or goes back: one interval after the reading before, said', () => {
    const { times, notes } = timesOf(['1796672032', '1796672032', '1796672030', '1796672040'], 500);
    // …32 at 0; …32 again at 0.5 s; …30 (2 s back) at 1 s; …40, 10 s after …30: 11 s.
    expect(times).toEqual([0, 500, 1000, 11_000]);
    expect(notes).toEqual([
      "the log's stamp 1796672032 came again: read one interval after the reading before",
      "the log's clock went back 2.00 s (1796672030): read one interval after the reading before",
    ]);
  });

  it('times of day across midnight go on; they give no start date', () => {
    const { times, start } = timesOf(['23:59:58', '00:00:01']);
    expect(times).toEqual([0, 3000]);
    expect(start).toBeNull();
  });
});
