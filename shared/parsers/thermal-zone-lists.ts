// Thermal zones listed by a glob rather than read one file at a time, as people paste them (read
// inside shared/parsers/thermal-parsers.ts, which hands each line here first):
// - `cat /sys/class/thermal/thermal_zone*/type` and `cat …/thermal_zone*/temp`, in either order:
//   the shell expands both globs to the same zones in the same order, so the n-th temperature is
//   the zone of the n-th type (its number is printed nowhere: zone null). Paired when the two lists
//   are as long; else each temperature is said as a value whose file is unknown (a zone came or went
//   between the two, `*/type` also listed the cooling devices, or no type list came at all). A
//   temperature list waits for its type list until the next one or the end.
// - `paste <(cat …/thermal_zone*/type) <(cat …/thermal_zone*/temp)`, often through `column -t` and
//   `sed 's/\(.\)..$/.\1°C/'` (a common one-liner): a zone's type and temperature on one row, the
//   temperature in m°C as sysfs has it, or in °C once sed has put the point in. Rows follow the
//   prompt line until one that is not such a row.
import { diagnostic, type ThermalZoneRecord, type Diagnostic } from './records';
import { parseSysfsTempRead } from './sysfs-values';

// `/sys/class/thermal/thermal_zone*/type` (or `/temp`): the zones' glob and the attribute.
const ZONE_GLOB_CAT_RE = /^(\/sys\/(?:class|devices\/virtual)\/thermal\/thermal_zone[^/*?[]*[*?[][^/]*)\/(type|temp)$/;
/** A zone type as the kernel names it (`soc-thermal`, `CPU-therm`, `x86_pkg_temp`, `iwlwifi_1`). */
const ZONE_TYPE_VALUE_RE = /^[\w.+-]+$/;
const UNKNOWN_FILE = 'value of a cat over several files (whose is unknown)';

type ZoneListRecord = ThermalZoneRecord | Diagnostic;
interface ListedValue {
  value: string;
  line: number;
  raw: string;
}

export interface ZoneListReader {
  /**
   * One line (`t`: trimmed, quote marks of a mail paste removed): what the lists make of it, and
   * `other` (the parser's own reading) where the line is none of theirs. `catPath` names the path a
   * `cat` on the line reads, once `other` has read it (a prompt may change the directory);
   * `listStarted` says the line began a list of zones, whose numbers are then this reader's.
   */
  line<R>(
    t: string,
    line: number,
    raw: string,
    other: () => R[],
    catPath: (t: string) => string | null,
  ): { records: Array<R | ZoneListRecord>; listStarted: boolean };
  /** The input ended: the list being read, and a temperature list still waiting for its types. */
  end(): ZoneListRecord[];
}

function zoneRecord(line: number, type: string | null, tempC: number | null): ThermalZoneRecord {
  return { kind: 'thermal-zone', line, zone: null, type, tempC, error: null, trips: [] };
}

export function createZoneListReader(): ZoneListReader {
  let block: { glob: string; attr: 'type' | 'temp'; values: ListedValue[] } | null = null;
  let zoneTypes: { glob: string; types: string[] } | null = null;
  let heldTemps: { glob: string; values: ListedValue[] } | null = null;
  let pasteRows: { typeFirst: boolean } | null = null;

  const unknownFile = (values: ListedValue[]): ZoneListRecord[] =>
    values.map((v) => diagnostic(v.line, UNKNOWN_FILE, v.raw));
  const paired = (values: ListedValue[], types: string[]): ZoneListRecord[] =>
    values.length !== types.length
      ? unknownFile(values)
      : values.map((v, i) => zoneRecord(v.line, types[i] ?? null, parseSysfsTempRead(v.value).tempC));
  const releaseHeld = (): ZoneListRecord[] => {
    const held = heldTemps;
    heldTemps = null;
    return held ? unknownFile(held.values) : [];
  };

  const endBlock = (): ZoneListRecord[] => {
    const ended = block;
    block = null;
    if (!ended) return [];
    if (ended.attr === 'type') {
      const types = ended.values.map((v) => v.value);
      zoneTypes = { glob: ended.glob, types };
      const held = heldTemps?.glob === ended.glob ? heldTemps.values : null;
      if (!held) return [];
      heldTemps = null;
      return paired(held, types);
    }
    if (zoneTypes?.glob === ended.glob) return [...releaseHeld(), ...paired(ended.values, zoneTypes.types)];
    const out = releaseHeld();
    heldTemps = { glob: ended.glob, values: ended.values };
    return out;
  };

  const pasteRow = (t: string, line: number, raw: string): ZoneListRecord | null => {
    const fields = t.split(/\s+/);
    if (fields.length !== 2 || !pasteRows) return null;
    const [type, temp] = (pasteRows.typeFirst ? fields : [...fields].reverse()) as [string, string];
    if (!ZONE_TYPE_VALUE_RE.test(type) || !/^-?\d/.test(temp)) return null;
    const m = /^(-?\d+(\.\d+)?)(Â?°C|C)?$/.exec(temp);
    if (!m) return diagnostic(line, 'unreadable thermal zone temperature', raw);
    const tempC = m[2] !== undefined || m[3] !== undefined ? Number(m[1]) : parseSysfsTempRead(m[1] ?? '').tempC;
    return zoneRecord(line, type, tempC);
  };
  /** The order of the columns a `paste` of the zones' types and temperatures prints, or null for another command. */
  const pasteOf = (t: string): { typeFirst: boolean } | null => {
    if (!/(?:^|[$#%>]\s*)paste\s/.test(t) || !t.includes('thermal_zone')) return null;
    const type = t.indexOf('/type');
    const temp = t.indexOf('/temp');
    return type < 0 || temp < 0 ? null : { typeFirst: type < temp };
  };

  return {
    line<R>(t: string, line: number, raw: string, other: () => R[], catPath: (t: string) => string | null) {
      const row = pasteRow(t, line, raw);
      if (row) return { records: [row], listStarted: false };
      pasteRows = pasteOf(t);
      if (block && (block.attr === 'temp' ? /^-?\d+$/ : ZONE_TYPE_VALUE_RE).test(t)) {
        block.values.push({ value: t, line, raw });
        return { records: [], listStarted: false };
      }
      const records: Array<R | ZoneListRecord> = [...endBlock(), ...other()];
      const zoneGlob = ZONE_GLOB_CAT_RE.exec(catPath(t) ?? '');
      if (zoneGlob) block = { glob: zoneGlob[1] ?? '', attr: zoneGlob[2] === 'type' ? 'type' : 'temp', values: [] };
      return { records, listStarted: zoneGlob !== null };
    },
    end: () => [...endBlock(), ...releaseHeld()],
  };
}
