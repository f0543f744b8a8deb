// devfreq trans_stat as each kernel's trans_stat_show prints it (drivers/devfreq/devfreq.c: the widths of
// its printf, rows made up), read through the board transcript parser (shared/parsers/thermal-parsers.ts),
// which hands the lines to shared/parsers/trans-stat-lines.ts. Expected values are the rows' numbers.
import { describe, expect, it } from 'vitest';
import { diagnostics, ofKind, parse } from '../../../helpers/parser-test-kit';

/** Lines as pasted, one text. */
const lines = (...pasted: string[]) => pasted.join('\n');
const pasted = (...text: string[]) => parse('thermal', lines(...text));

/** kernel 3.x devfreq (`%8u` columns), exynos4 bus in kHz, as `cat` shows it after a root prompt. */
const EXYNOS_3X = lines(
  'root@odroid:~# cat /sys/class/devfreq/exynos4-busfreq/trans_stat',
  '   From  :   To',
  '         :  160000  267000  400000   time(ms)',
  '*  160000:       0       3       1    812340',
  '   267000:       2       0       2     40120',
  '   400000:       2       1       0     95320',
  'Total transition : 11',
);

const rowsOf = (text: string) =>
  ofKind(parse('thermal', text), 'devfreq-trans').map((r) => [r.device, r.freqHz, r.current, r.transitions, r.timeMs]);

describe('devfreq trans_stat, every layout and every way it is pasted', () => {
  it('kernel 3.x `show_trans_table` (`%8u` columns, kHz table of exynos busfreq) after `cat`', () => {
    const text = EXYNOS_3X;
    expect(rowsOf(text)).toEqual([
      ['exynos4-busfreq', 160000, true, [0, 3, 1], 812340],
      ['exynos4-busfreq', 267000, false, [2, 0, 2], 40120],
      ['exynos4-busfreq', 400000, false, [2, 1, 0], 95320],
    ]);
    expect(ofKind(parse('thermal', text), 'devfreq-trans-total').map((r) => [r.device, r.total])).toEqual([
      ['exynos4-busfreq', 11],
    ]);
  });

  it('kernel 4.x–6.x layout behind `grep .`: every line carries the path, the rows are read, not dropped', () => {
    // `%10lu` frequencies of 9 digits keep a space between them; `*` on the current one (800 MHz).
    const text = lines(
      '/sys/class/devfreq/fde60000.gpu/trans_stat:     From  :   To',
      '/sys/class/devfreq/fde60000.gpu/trans_stat:           : 200000000 300000000 400000000 600000000 800000000   time(ms)',
      '/sys/class/devfreq/fde60000.gpu/trans_stat:  200000000:         0         4         0         0         1   1203340',
      '/sys/class/devfreq/fde60000.gpu/trans_stat:  300000000:         3         0         2         0         0     88120',
      '/sys/class/devfreq/fde60000.gpu/trans_stat:  400000000:         0         1         0         3         0     40210',
      '/sys/class/devfreq/fde60000.gpu/trans_stat:  600000000:         1         0         2         0         4      9650',
      '/sys/class/devfreq/fde60000.gpu/trans_stat:* 800000000:         1         0         0         4         0     15775',
      '/sys/class/devfreq/fde60000.gpu/trans_stat:Total transition : 26',
      '/sys/class/devfreq/fde60000.gpu/cur_freq:800000000',
    );
    const all = parse('thermal', text);
    expect(diagnostics(all)).toEqual([]);
    expect(rowsOf(text)).toEqual([
      ['fde60000.gpu', 200_000_000, false, [0, 4, 0, 0, 1], 1203340],
      ['fde60000.gpu', 300_000_000, false, [3, 0, 2, 0, 0], 88120],
      ['fde60000.gpu', 400_000_000, false, [0, 1, 0, 3, 0], 40210],
      ['fde60000.gpu', 600_000_000, false, [1, 0, 2, 0, 4], 9650],
      ['fde60000.gpu', 800_000_000, true, [1, 0, 0, 4, 0], 15775],
    ]);
    expect(ofKind(all, 'devfreq-trans-total').map((r) => [r.line, r.device, r.total])).toEqual([
      [8, 'fde60000.gpu', 26],
    ]);
    expect(ofKind(all, 'devfreq').map((r) => [r.device, r.curFreqHz])).toEqual([['fde60000.gpu', 800_000_000]]);
  });

  it('`grep . *` in the device directory, and `Not Supported.` from a driver without a table, and EFBIG', () => {
    const all = pasted(
      'root@radxa:/sys/class/devfreq/dmc# grep . trans_stat',
      'trans_stat:     From  :   To',
      'trans_stat:           : 528000000106800000015600000002112000000   time(ms)',
      'trans_stat:* 528000000:         0         1         0         0     21940',
      'trans_stat: 1068000000:         1         0         0         0       300',
      'trans_stat: 1560000000:         0         0         0         0         0',
      'trans_stat: 2112000000:         0         0         0         0         0',
      'trans_stat:Total transition : 2',
      '/sys/class/devfreq/ff9a0000.gpu/trans_stat:Not Supported.',
      'cat: /sys/class/devfreq/dmc/trans_stat: File too large',
    );
    expect(ofKind(all, 'devfreq-trans').map((r) => [r.device, r.freqHz, r.current, r.timeMs])).toEqual([
      ['dmc', 528_000_000, true, 21940],
      ['dmc', 1_068_000_000, false, 300],
      ['dmc', 1_560_000_000, false, 0],
      ['dmc', 2_112_000_000, false, 0],
    ]);
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [9, 'devfreq trans_stat not supported by the driver'],
    ]);
    expect(ofKind(all, 'devfreq').map((r) => [r.line, r.device, r.attr, r.error])).toEqual([
      [10, 'dmc', 'trans_stat', 'EFBIG'],
    ]);
  });

  it("cpufreq's stats/trans_table (no time column, kHz) is said to be unread, never read as devfreq rows", () => {
    // drivers/cpufreq/cpufreq_stats.c: `   From  :    To`, `         : ` + `%9u ` per frequency, rows `%9u: ` + `%9u `.
    const all = pasted(
      '$ cat /sys/devices/system/cpu/cpu0/cpufreq/stats/trans_table',
      '   From  :    To',
      '         :    408000    600000    816000 ',
      '   408000:         0        12         3 ',
      '   600000:        10         0         5 ',
      '   816000:         5         3         0 ',
    );
    expect(ofKind(all, 'devfreq-trans')).toEqual([]);
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [4, 'cpufreq trans_table row (not read)'],
      [5, 'cpufreq trans_table row (not read)'],
      [6, 'cpufreq trans_table row (not read)'],
    ]);
  });

  it("`grep . …/cpufreq/policy0/stats/*`: total_trans read, trans_table's rows said unread, a failed read said, nothing dropped", () => {
    // cpufreq_stats.c's files behind grep's `path:` (reset is write-only: grep says so); rows as above.
    const at = (file: string, text: string) => `/sys/devices/system/cpu/cpufreq/policy0/stats/${file}:${text}`;
    const all = pasted(
      'grep: /sys/devices/system/cpu/cpufreq/policy0/stats/reset: Permission denied',
      at('time_in_state', '408000 1234'),
      at('total_trans', '27'),
      at('trans_table', '   From  :    To'),
      at('trans_table', '         :    408000    600000 '),
      at('trans_table', '   408000:         0        12 '),
      at('trans_table', '*  600000:        15         0 '),
    );
    expect(ofKind(all, 'cpufreq-time').map((r) => [r.policy, r.freqKHz, r.timeMs])).toEqual([[0, 408000, 12340]]);
    expect(ofKind(all, 'cpufreq').map((r) => [r.policy, r.attr, r.value])).toEqual([[0, 'stats/total_trans', '27']]);
    expect(ofKind(all, 'devfreq-trans')).toEqual([]);
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [1, 'cpufreq stats/reset read failed: EACCES'],
      [6, 'cpufreq trans_table row (not read)'],
      [7, 'cpufreq trans_table row (not read)'],
    ]);
  });

  it('a time of 10^9 ms and more (11.6 days at one clock) that ran into its last count is read by its columns', () => {
    // trans_stat_show's printf: `*`/` `, `%10lu:`, `%10u` per count, `%10llu` ms, nothing between them.
    const row = (current: boolean, hz: number, counts: number[], ms: number, width = 10) =>
      `${current ? '*' : ' '}${String(hz).padStart(width, ' ')}:${counts.map((c) => String(c).padStart(width, ' ')).join('')}${String(ms).padStart(10, ' ')}`;
    const freqs = [528_000_000, 1_068_000_000, 1_560_000_000];
    const table = [
      row(true, freqs[0]!, [0, 3, 7], 1_728_640_000), // 20 days at the idle clock: ten digits
      row(false, freqs[1]!, [2, 0, 12], 12_345_678_901), // 143 days: eleven
      row(false, freqs[2]!, [0, 1, 0], 512_340),
    ];
    // The kernel's rows as printed: the counts and the time of the first two run together.
    expect(table[0]).toBe('* 528000000:         0         3         71728640000');
    expect(table[1]?.endsWith('        1212345678901')).toBe(true);
    const text = lines('     From  :   To', '           : 528000000 10680000001560000000   time(ms)', ...table);
    expect(diagnostics(parse('thermal', text))).toEqual([]);
    expect(rowsOf(text).map((r) => [r[1], r[3], r[4]])).toEqual([
      [528_000_000, [0, 3, 7], 1_728_640_000],
      [1_068_000_000, [2, 0, 12], 12_345_678_901],
      [1_560_000_000, [0, 1, 0], 512_340],
    ]);
    // kernel 3.x (`%8u` counts, `%10u` ms) behind `grep .`: the same.
    const old = row(true, 160_000, [0, 3, 1], 1_234_567_890, 8);
    expect(old).toBe('*  160000:       0       3       11234567890');
    const grep = `/sys/class/devfreq/exynos4-busfreq/trans_stat:${old}`;
    expect(rowsOf(lines('/sys/class/devfreq/exynos4-busfreq/trans_stat:   From  :   To', grep))).toEqual([
      ['exynos4-busfreq', 160_000, true, [0, 3, 1], 1_234_567_890],
    ]);
    // Pasted with its spacing lost, such a row cannot be split: said, not misread.
    const lost = lines('     From  :   To', '* 528000000: 0 3 71728640000', '  1560000000: 0 1 0 512340');
    expect(diagnostics(parse('thermal', lost)).map((d) => d.reason)).toEqual([
      'trans_stat row whose time (10^9 ms and more) ran into its last count, its spacing lost',
    ]);
    expect(rowsOf(lost).map((r) => r[1])).toEqual([1_560_000_000]);
  });
});

describe("cpufreq's stats/time_in_state (drivers/cpufreq/cpufreq_stats.c: `%u %llu` a line, kHz and clock_t ticks)", () => {
  const timeRows = (text: string) =>
    ofKind(parse('thermal', text), 'cpufreq-time').map((r) => [r.line, r.cpu, r.policy, r.freqKHz, r.timeMs]);

  it('a real `cat` under a root prompt (Raspberry Pi 4B, 6.6.47): a row per frequency, ticks of 10 ms', () => {
    // Pasted in https://github.com/raspberrypi/linux/issues/7192 (comment of 2026-01-14), as it is there.
    const text = lines(
      '# cat /sys/devices/system/cpu/cpufreq/policy0/stats/time_in_state',
      '600000 1508188',
      '700000 20771',
      '800000 23064',
      '900000 15850',
      '1000000 18392',
      '1100000 16418',
      '1200000 14580',
      '1300000 10752',
      '1400000 10855',
      '1500000 228039',
    );
    expect(timeRows(text)).toEqual([
      [2, null, 0, 600000, 15081880],
      [3, null, 0, 700000, 207710],
      [4, null, 0, 800000, 230640],
      [5, null, 0, 900000, 158500],
      [6, null, 0, 1000000, 183920],
      [7, null, 0, 1100000, 164180],
      [8, null, 0, 1200000, 145800],
      [9, null, 0, 1300000, 107520],
      [10, null, 0, 1400000, 108550],
      [11, null, 0, 1500000, 2280390],
    ]);
    expect(diagnostics(parse('thermal', text))).toEqual([]);
  });

  it('as `grep .` prints it (the file, rows made up), after `head`, and where its rows end', () => {
    const text = lines(
      '/sys/devices/system/cpu/cpu4/cpufreq/stats/time_in_state:408000 1200',
      '/sys/devices/system/cpu/cpu4/cpufreq/stats/time_in_state:2400000 35',
      '==> /sys/devices/system/cpu/cpufreq/policy6/stats/time_in_state <==',
      '408000 77',
      '',
      '600000 5',
      'cat: /sys/devices/system/cpu/cpu0/cpufreq/stats/time_in_state: No such file or directory',
    );
    expect(timeRows(text)).toEqual([
      [1, 4, null, 408000, 12000],
      [2, 4, null, 2400000, 350],
      [4, null, 6, 408000, 770],
    ]);
    expect(diagnostics(parse('thermal', text)).map((d) => [d.line, d.reason])).toEqual([
      [7, 'cpufreq time_in_state read failed: ENOENT'],
    ]);
  });
});
