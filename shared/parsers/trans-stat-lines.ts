// devfreq `trans_stat` tables → `devfreq-trans` rows and a `devfreq-trans-total`, however they are
// pasted: `cat …/trans_stat` (the lines themselves), `grep . …/trans_stat` or `grep -r . /sys/class/devfreq/`
// (each line behind `path:`), or under a `/sys/…/devfreq/<dev>:` heading. The layouts of
// drivers/devfreq/devfreq.c trans_stat_show across kernels:
//   3.2–3.x  `   From  :   To` / `         :` + `%8u` per frequency + `   time(ms)`, rows `*%8u:` + `%8u`… + `%10u`
//   3.x–6.x  `     From  :   To` / `           :` + `%10lu` per frequency + `   time(ms)`, rows `*%10lu:` +
//            `%10u` per target + `%10u` (`%10llu` from 4.x) ms; `*` marks the current frequency. Frequencies of
//            10 digits fill the field and run together in the header (`10560000002112000000`), so the header's
//            numbers are not counted; the rows carry their own frequency.
//   all      `Total transition : N` last; `Not Supported.` when the driver has no frequency table;
//   5.10+    a table larger than a page is cut (no `Total transition`), later kernels fail the read with EFBIG.
//   all      the time's column (`%10u`, `%10llu`) has nothing before it: from 10^9 ms at a frequency (11.6
//            days of uptime spent at it: a gateway's idle clock) its ten digits fill the column and run into
//            the last count's (`         7` + `1234567890` → `71234567890`). Counts stay far below ten
//            digits, so such a row is read by its columns (10 wide, or 8 before 4.x); a paste that lost the
//            spacing cannot be, and says so.
// cpufreq's `stats/trans_table` looks alike (`   From  :    To`) but has no time column and is in kHz: its
// rows are said to be unread rather than misread as devfreq rows. Pure; state only between the lines of one table.
// cpufreq's `stats/time_in_state` (cpufreq_stats.c show_time_in_state: `%u %llu\n` a frequency, kHz and clock_t
// ticks) → `cpufreq-time` rows: after `cat`/`head` of the file, its rows are the lines that follow without a gap;
// behind `grep .`'s path, each line; a failed read of it is a diagnostic with its errno. The other files of
// cpufreq's stats/ behind `grep .`'s path (`grep . …/policy0/stats/*`): total_trans → a `cpufreq` record,
// trans_table's lines as above, any other (reset, write-only) said unread.
import {
  diagnostic,
  type CpufreqRecord,
  type CpufreqTimeRecord,
  type DevfreqTransRecord,
  type Diagnostic,
  type ThermalRecordKind,
} from './records';
import { errnoName } from './sysfs-values';

const TRANS_HEADER_RE = /^From\s*:\s*To$/;
/** The frequency header: a colon, the frequencies (run together or not), `time(ms)` (devfreq) or not (cpufreq). */
const TRANS_FREQS_RE = /^:[\d\s]*(time\(ms\))?$/;
const TRANS_ROW_RE = /^(\*)?\s*(\d+):\s+(\d[\d\s]*)$/;
const TRANS_TOTAL_RE = /^Total transition\s*:\s*(\d+)$/;
/** The width of the time's column, and of the counts' (`%10u` from 4.x, `%8u` before). */
const TRANS_TIME_COLUMN = 10;
const TRANS_COUNT_COLUMNS = [10, 8];
/** A column as the kernel pads it: spaces, then digits. */
const TRANS_CELL_RE = /^ *\d+$/;

/**
 * A row's counts and time read by their columns (after the row's `:`), for a row whose time filled
 * its column; null when the spacing fits no layout's columns (a paste lost it).
 */
function transColumns(rest: string): number[] | null {
  for (const width of TRANS_COUNT_COLUMNS) {
    const n = Math.floor((rest.length - TRANS_TIME_COLUMN) / width);
    if (n < 1) continue;
    const cells = Array.from({ length: n }, (_, i) => rest.slice(i * width, (i + 1) * width));
    const time = rest.slice(n * width);
    if (cells.every((c) => TRANS_CELL_RE.test(c)) && /^\d+$/.test(time)) return [...cells, time].map(Number);
  }
  return null;
}
const NOT_SUPPORTED_RE = /^Not Supported\.?$/i;
/** Whose time_in_state a path is (cpu or policy; a glob leaves both unknown). */
const TIME_IN_STATE_RE =
  /^\/sys\/devices\/system\/cpu\/(?:cpu(\d+|\*)\/cpufreq|cpufreq\/policy(\d+|\*))\/stats\/time_in_state$/;
const TIME_IN_STATE_ROW_RE = /^(\d+)\s+(\d+)$/;
/** A file of cpufreq's stats/ (cpufreq_stats.c): whose (cpu or policy) and which. */
const CPUFREQ_STATS_RE = /^\/sys\/devices\/system\/cpu\/(?:cpu(\d+)\/cpufreq|cpufreq\/policy(\d+))\/stats\/(\w+)$/;
/** USER_HZ: clock_t ticks a second (100 on every architecture an edge board runs). */
const MS_PER_CLOCK_TICK = 10;

type TimeInStateOwner = Pick<CpufreqTimeRecord, 'cpu' | 'policy'>;
const timeInStateOwner = (path: string): TimeInStateOwner | null => {
  const m = TIME_IN_STATE_RE.exec(path);
  const id = (s: string | undefined) => (s === undefined || s === '*' ? null : Number(s));
  return m ? { cpu: id(m[1]), policy: id(m[2]) } : null;
};
const timeInStateRow = (owner: TimeInStateOwner, t: string, lineNo: number): CpufreqTimeRecord | null => {
  const m = TIME_IN_STATE_ROW_RE.exec(t);
  if (!m) return null;
  return {
    kind: 'cpufreq-time',
    line: lineNo,
    ...owner,
    freqKHz: Number(m[1]),
    timeMs: Number(m[2]) * MS_PER_CLOCK_TICK,
  };
};

export interface TransStatReader {
  /** A table heading names the device the next table belongs to (`/sys/…/devfreq/dmc:`, `cat …/dmc/trans_stat`). */
  expect(device: string | null): void;
  /**
   * One line of a table, trimmed (`device` when the line itself says whose it is, as grep's `path:` does).
   * Null when the line is no part of a trans_stat table.
   */
  line(t: string, lineNo: number, raw: string, device?: string | null): Array<ThermalRecordKind | Diagnostic> | null;
  /** `cat`/`head` names a file on line `lineNo`: when it is a time_in_state, its rows follow (line() reads them). */
  file(path: string, lineNo: number): void;
  /** `grep .`'s `<path>:<row>` or a failed read of the path: null when the path is no time_in_state. */
  timeInState(
    path: string,
    value: string,
    error: string | null,
    lineNo: number,
    raw: string,
  ): Array<CpufreqTimeRecord | Diagnostic> | null;
  /** `grep .`'s `<path>:<line>` of cpufreq's stats/ other than time_in_state: null when the path is none of them. */
  cpufreqStats(
    path: string,
    value: string,
    error: string | null,
    lineNo: number,
    raw: string,
  ): Array<ThermalRecordKind | Diagnostic> | null;
}

export function createTransStatReader(): TransStatReader {
  /** The table being read: whose, and whether its header has the time column (null: header not seen yet). */
  let table: { device: string | null; timeColumn: boolean | null } | null = null;
  let next: string | null = null;
  /** The time_in_state being printed by a `cat`, and the line its next row must be on (a gap ends it). */
  let times: { owner: TimeInStateOwner; nextLine: number } | null = null;

  return {
    expect(device) {
      next = device;
    },
    file(path, lineNo) {
      const owner = timeInStateOwner(path);
      times = owner ? { owner, nextLine: lineNo + 1 } : null;
    },
    timeInState(path, value, error, lineNo, raw) {
      const owner = timeInStateOwner(path);
      if (!owner) return null;
      if (error !== null) return [diagnostic(lineNo, `cpufreq time_in_state read failed: ${errnoName(error)}`, raw)];
      return [timeInStateRow(owner, value.trim(), lineNo) ?? diagnostic(lineNo, 'unreadable time_in_state row', raw)];
    },
    cpufreqStats(path, value, error, lineNo, raw) {
      const m = CPUFREQ_STATS_RE.exec(path);
      const name = m?.[3];
      if (!m || name === undefined || name === 'time_in_state') return null;
      if (error !== null) return [diagnostic(lineNo, `cpufreq stats/${name} read failed: ${errnoName(error)}`, raw)];
      const v = value.trim();
      if (name === 'trans_table')
        return this.line(v, lineNo, raw, null) ?? [diagnostic(lineNo, 'unreadable cpufreq trans_table line', raw)];
      if (name !== 'total_trans' || !/^\d+$/.test(v))
        return [diagnostic(lineNo, `cpufreq stats/${name} (not read)`, raw)];
      const total: CpufreqRecord = {
        kind: 'cpufreq',
        line: lineNo,
        cpu: m[1] !== undefined ? Number(m[1]) : null,
        policy: m[2] !== undefined ? Number(m[2]) : null,
        attr: 'stats/total_trans',
        freqKHz: null,
        value: v,
        error: null,
      };
      return [total];
    },
    line(t, lineNo, raw, device) {
      if (times) {
        const row = times.nextLine === lineNo ? timeInStateRow(times.owner, t, lineNo) : null;
        times = row ? { owner: times.owner, nextLine: lineNo + 1 } : null;
        if (row) return [row];
      }
      if (TRANS_HEADER_RE.test(t)) {
        table = { device: device ?? next, timeColumn: null };
        return [];
      }
      if (NOT_SUPPORTED_RE.test(t) && (device !== undefined || next !== null)) {
        next = null;
        return [diagnostic(lineNo, 'devfreq trans_stat not supported by the driver', raw)];
      }
      const total = TRANS_TOTAL_RE.exec(t);
      if (total) {
        const owner = device ?? table?.device ?? next;
        table = null;
        next = null;
        return [{ kind: 'devfreq-trans-total', line: lineNo, device: owner, total: Number(total[1]) }];
      }
      if (!table) return null;
      const freqs = TRANS_FREQS_RE.exec(t);
      if (freqs) {
        table.timeColumn = freqs[1] !== undefined;
        return [];
      }
      const m = TRANS_ROW_RE.exec(t);
      if (!m) return null;
      if (table.timeColumn === false) return [diagnostic(lineNo, 'cpufreq trans_table row (not read)', raw)];
      const words = (m[3] ?? '').trim().split(/\s+/);
      let nums = words.map(Number);
      if ((words.at(-1) ?? '').length > TRANS_TIME_COLUMN) {
        const columns = transColumns(t.slice(t.indexOf(':') + 1));
        if (!columns)
          return [
            diagnostic(
              lineNo,
              'trans_stat row whose time (10^9 ms and more) ran into its last count, its spacing lost',
              raw,
            ),
          ];
        nums = columns;
      }
      if (nums.length < 2) return [diagnostic(lineNo, 'unreadable trans_stat row', raw)];
      const row: DevfreqTransRecord = {
        kind: 'devfreq-trans',
        line: lineNo,
        device: device ?? table.device,
        freqHz: Number(m[2]),
        current: m[1] === '*',
        transitions: nums.slice(0, -1),
        timeMs: nums[nums.length - 1] ?? 0,
      };
      return [row];
    },
  };
}
