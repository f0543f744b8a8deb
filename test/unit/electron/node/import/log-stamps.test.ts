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

  it('date(1) in another language (glibc 2.36 LC_TIME, `LC_ALL=<locale> date`): its time of day', () => {
    const lines = [
      'Mo 7. Dez 09:05:03 UTC 2026', // de_DE
      'lun. 07 déc. 2026 09:05:03 UTC', // fr_FR
      'pon, 7 gru 2026, 09:05:03 UTC', // pl_PL
      'luni 7 decembrie 2026, 09:05:03 +0000', // ro_RO
      'mån  7 dec 2026 09:05:03 UTC', // sv_SE
      'понеділок, 7 грудня 2026 09:05:03 +0000', // uk_UA
      'Пн 07 дек 2026 09:05:03 UTC', // ru_RU
      '2026. 12. 07. (월) 09:05:03 UTC', // ko_KR
      '2026年 12月 07日 星期一 09:05:03 UTC', // zh_CN
      'Thứ hai, 07 Tháng 12 năm 2026 09:05:03 UTC', // vi_VN
      '2026 წლის 07 დეკემბერი, 09:05:03 UTC', // ka_GE
    ];
    for (const line of lines)
      expect(readStamp(line), line).toEqual({ ms: (9 * 3600 + 5 * 60 + 3) * 1000, dated: false, rest: '', text: line });
    // C and en_US stay dated.
    expect(readStamp('Mon Dec  7 09:05:03 AM UTC 2026')?.ms).toBe(Date.UTC(2026, 11, 7, 9, 5, 3));
  });

  it('what is not a date line stays none: a reading, two times, no year', () => {
    for (const line of ["temp=48.3'C 2026 09:05:03", 'from 09:05:03 to 09:06:03 in 2026', 'Mo 7. Dez 09:05:03 UTC'])
      expect(readStamp(line), line).toBeNull();
  });
});
