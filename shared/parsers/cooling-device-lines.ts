// Thermal cooling devices → `cooling-device` records (read inside shared/parsers/thermal-parsers.ts, which hands
// it each sysfs path and value, from `grep .`, `cat` or `head`). drivers/thermal/thermal_sysfs.c prints `type`
// as `%s`, `max_state` and `cur_state` as `%ld` (intel_powerclamp's cur_state is -1 while it is idle). A
// device's files come together in a listing: a record is emitted when another device's file comes, or at a
// flush (a blank line, a prompt: each `cat` of a file is a record, as a thermal zone's is). Its other files (`power/…`, `stats/…`) are no reading and are passed over.
import { diagnostic, type CoolingDeviceRecord, type Diagnostic } from './records';
import { errnoName } from './sysfs-values';

const COOLING_PATH_RE = /^\/sys\/(?:class|devices\/virtual)\/thermal\/(cooling_device\d+)\/(type|cur_state|max_state)$/;

/** A cooling device's type, cur_state or max_state. */
export const isCoolingDevicePath = (path: string): boolean => COOLING_PATH_RE.test(path);

export interface CoolingDeviceReader {
  /** A sysfs file's value or read error: null when the path is none of a cooling device's readings. */
  attr(
    path: string,
    value: string,
    error: string | null,
    lineNo: number,
    raw: string,
  ): Array<CoolingDeviceRecord | Diagnostic> | null;
  /** The device being read, as a record. */
  flush(): CoolingDeviceRecord[];
}

export function createCoolingDeviceReader(): CoolingDeviceReader {
  let open: CoolingDeviceRecord | null = null;
  const flush = (): CoolingDeviceRecord[] => {
    const r = open;
    open = null;
    // A device none of whose files read (`cur_state:on`, said as a diagnostic) is no record.
    return r && (r.type !== null || r.curState !== null || r.maxState !== null || r.error !== null) ? [r] : [];
  };
  return {
    flush,
    attr(path, value, error, lineNo, raw) {
      const m = COOLING_PATH_RE.exec(path);
      if (!m) return null;
      const device = m[1] ?? '';
      const out = open && open.device !== device ? flush() : [];
      const r = (open ??= {
        kind: 'cooling-device',
        line: lineNo,
        device,
        type: null,
        curState: null,
        maxState: null,
        error: null,
      });
      const v = value.trim();
      if (error !== null) r.error = errnoName(error);
      else if (m[2] === 'type') r.type = v;
      else if (!/^-?\d+$/.test(v)) return [...out, diagnostic(lineNo, 'unreadable cooling device state', raw)];
      else if (m[2] === 'cur_state') r.curState = Number(v);
      else r.maxState = Number(v);
      return out;
    },
  };
}
