// Rockchip RGA debugfs `/sys/kernel/debug/rkrga/load` → `rga-load` records (read inside
// shared/parsers/thermal-parsers.ts, which hands it each line of the dump, or the value of a
// `grep .`-prefixed line). rga_debugger.c rga_load_show() prints `num of scheduler = N`, a
// `==== load ====` rule, then per scheduler `scheduler[i]: <name>` and `\t load = N%` (the older
// driver: `load = N`, no unit), `-----` rules and per-process lines. State: the dump being read.
import { diagnostic, type Diagnostic, type RgaLoadRecord } from './records';

const RGA_SCHEDULER_RE = /^scheduler\[(\d+)\]:\s*(\S+)$/;
const RGA_LOAD_RE = /^load\s*=\s*(\S+)$/;

export interface RgaLoadReader {
  /** One trimmed line: its records ([] for a line of the dump that holds none), or null when it is no part of a dump. */
  line(t: string, lineNo: number, raw: string): Array<RgaLoadRecord | Diagnostic> | null;
}

export function createRgaLoadReader(): RgaLoadReader {
  /** Inside a dump, and the scheduler whose `load =` comes next. */
  let rga: { scheduler: { index: number; name: string } | null } | null = null;
  return {
    line(t, lineNo, raw) {
      if (/^num of scheduler\s*=/.test(t)) {
        rga = { scheduler: null };
        return [];
      }
      if (!rga) return null;
      const sch = RGA_SCHEDULER_RE.exec(t);
      if (sch) {
        rga.scheduler = { index: Number(sch[1]), name: sch[2] ?? '' };
        return [];
      }
      const load = RGA_LOAD_RE.exec(t);
      if (load && rga.scheduler) {
        const v = load[1] ?? '';
        const pct = v.endsWith('%');
        const n = pct ? v.slice(0, -1) : v;
        if (!/^\d+$/.test(n)) return [diagnostic(lineNo, 'unreadable RGA load', raw)];
        const { index, name } = rga.scheduler;
        return [
          {
            kind: 'rga-load',
            line: lineNo,
            scheduler: index,
            name,
            loadPct: pct ? Number(n) : null,
            loadRaw: pct ? null : Number(n),
          },
        ];
      }
      // The separators of the dump (`==== load ====`, `-----`) and the per-process lines that follow.
      if (/^[=-]/.test(t) || /^process\b|^\[pid/i.test(t)) return [];
      rga = null;
      return null;
    },
  };
}
