// Thermal, clock and power readings of small boards → `thermal-zone`, `cpufreq`, `devfreq`,
// `devfreq-trans`, `devfreq-trans-total`, `sensor`, `vc-temp`, `throttled`, `vc-clock`, `vc-volts`,
// `pmic-adc`, `npu-load`, `cpufreq-time` (time_in_state), `cooling-device` and `gpu-load` (Jetson) records.
//
// What it reads (each by its own small reader below):
// - sysfs as `grep . <files>` prints it (`/sys/…/thermal_zone0/temp:74010`), as a `for` loop prints a
//   zone's type (`/sys/class/thermal/thermal_zone0: AO-therm`), or as a `cat <path>` transcript (the
//   prompt line names the file, the next line is its value or `cat: <path>: <error>`).
//   Thermal zone temperatures are millidegrees; a failed read (EAGAIN on power-gated Jetson zones,
//   EINVAL on the Pi 3 arm64 4.12 kernel, ENOENT) gives `tempC: null` and the errno name, never a
//   crash. Zones are identified by `type` when the capture has it — numbers move between releases.
//   cpufreq attributes are kHz (on a Pi, scaling_cur_freq is the requested clock, not the
//   firmware-throttled one); devfreq attributes are Hz (`load` is `37@800000000Hz`).
//   Also `sudo cat`, `cat <name>` under a prompt whose cwd is the sysfs directory (`user@host:<cwd>#` or bash's
//   bare `<cwd>$`), `grep -r`, busybox's `cat: can't open '<path>': <error>`, and `head`/`tail` over several files
//   (each file's lines under `==> <path> <==`, a failed read as `head: error reading '<path>': <error>`). A failed read of a file that holds a reading (hwmon, rknpu/rkrga
//   load, get_throttled, trip points) is a diagnostic naming the errno, never nothing.
// - devfreq trans_stat and cpufreq time_in_state in every paste form (trans-stat-lines.ts) and sbc-bench's
//   governor summary (`* dmc: dmc_ondemand / 528 MHz (<governors> / <MHz list>)`).
// - lm-sensors `sensors` (°C or `-f` °F), `sensors -u` and `sensors -j` blocks (the feature lines are read in
//   lm-sensors-lines.ts); its `ERROR: Can't get value of subfeature …` inside a block is a diagnostic.
// - single firmware/driver lines — Raspberry Pi `vcgencmd`, Pi 5 PMIC, the kernel's under-voltage
//   line, RK3588 `rknpu/load` — read in firmware-lines.ts.
// Checked against: Orange Pi 5 / 5 Max (RK3588S/RK3588, vendor 5.10 and 6.1, sbc-bench 0.9.44/0.9.67),
// Raspberry Pi 2B/3/3B+/4/5 (2016–2024 firmware), Jetson Nano (L4T 32 and mainline 5.17), Orin Nano
// (L4T 35), AGX Orin (JP5.0 DP), AGX Xavier, AGX Thor (L4T 38.4, EAGAIN on gpu-thermal).
//
// These dumps are mostly prose (sbc-bench reports, shell sessions), so like a log only a line that
// looks like a known reading but cannot be read is a diagnostic; other lines are skipped.

import { capNumberedLines, type LineCapOptions } from './line-cap';
import {
  diagnostic,
  isBlankLine,
  isCommentLine,
  type CpufreqRecord,
  type Diagnostic,
  type DevfreqRecord,
  type LineParser,
  type SensorRecord,
  type ThermalRecordKind,
  type ThermalTrip,
  type ThermalZoneRecord,
} from './records';

import { createCoolingDeviceReader, isCoolingDevicePath } from './cooling-device-lines';
import { readFirmwareLine, readNpuLoad } from './firmware-lines';
import { isGpuLoadPath, readGpuLoad } from './gpu-load-lines';
import {
  applySensorContinuation,
  applySensorsUValue,
  CHIP_RE,
  JSON_ADAPTER_RE,
  JSON_CLOSE_RE,
  JSON_OPEN_RE,
  JSON_SUBFEATURE_RE,
  readSensorLine,
  SENSORS_ERROR_RE,
  sensor,
  sensorsUFeatureLabel,
} from './lm-sensors-lines';
import { createRgaLoadReader } from './rga-load-lines';
import { expandBraces } from './shell-braces';
import { errnoName, parseSysfsTempRead, decodeThrottled } from './sysfs-values';
import { createTransStatReader } from './trans-stat-lines';
import { createZoneListReader } from './thermal-zone-lists';

export type ThermalParseRecord = ThermalRecordKind | Diagnostic;

// ---------------------------------------------------------------------------------------------

const ZONE_PATH_RE = /^\/sys\/(?:class|devices\/virtual)\/thermal\/(thermal_zone\d+)(?:\/(\w+))?\/?$/;
const TRIP_ATTR_RE = /^trip_point_(\d+)_(temp|type|hyst)$/;
const CPUFREQ_PATH_RE = /^\/sys\/devices\/system\/cpu\/(?:cpu(\d+)\/cpufreq|cpufreq\/policy(\d+))\/(\w+)$/;
// A devfreq device's directory wherever sysfs links it: /sys/class/devfreq/<dev>, the device's own
// /sys/devices/…/devfreq/<dev>, and the driver's links (Mali kbase: /sys/class/misc/mali0/device/devfreq/<dev>).
const DEVFREQ_PATH_RE = /^\/sys\/(?:\S*\/)?devfreq\/([^/\s]+)\/(\w+)$/;
const DEVFREQ_DIR_RE = /^\/sys\/(?:\S*\/)?devfreq\/([^/\s]+)\/?$/;
/**
 * Any hwmon attribute (`/sys/class/hwmon/hwmon3/…`, `/sys/bus/i2c/drivers/ina3221/1-0040/hwmon/hwmon3/…`), and the
 * pre-4.x layout where the chip's attributes sit one level down (`/sys/class/hwmon/hwmon0/device/in1_input`).
 */
const HWMON_PATH_RE = /\/(hwmon\d+)\/(?:device\/)?((temp|in|curr|power|fan|humidity)\d+)_(input|label)$/;
/**
 * Any attribute of a sensor chip's directory (limits, alarms, `in1_enable`, `shunt1_resistor`, `name`…): grep
 * lists them between the readings and their labels, so they must not end the chip's readings.
 */
const SENSOR_DIR_ATTR_RE = /\/(hwmon\d+|iio:device\d+)\/(?:device\/)?(\w+)$/;
/** The INA3221's shunt-voltage channels in4–in7 are µV (Documentation/hwmon/ina3221.rst), not the mV of in*. */
const INA3221_SHUNT_RE = /^in[4-7]$/;
const UV_PER_MV = 1000;
/** Jetson L4T ≤ 32 INA3221 through iio: `…/iio:device0/in_power0_input` (mW), `in_current0_input` (mA), `in_voltage0_input` (mV), `rail_name_0`. */
const IIO_INA_PATH_RE = /\/(iio:device\d+)\/in_(power|current|voltage)(\d+)_input$/;
const IIO_RAIL_NAME_RE = /\/(iio:device\d+)\/rail_name_(\d+)$/;
/** A shell prompt `user@host:cwd# command` (the cwd names the directory of a `grep . *` dump). */
const SHELL_PROMPT_RE = /^[\w.-]+@[\w.-]+:([^\s#$]*)[#$]\s?(.*)$/;
// Android's shell (mksh, toybox): `<device>:<cwd> # ` or `… $ `, without a user
// (`msm8953_64:/sys/class/thermal # cat */temp`).
const ANDROID_PROMPT_RE = /^[\w.-]+:(\/[^\s#$]*|~) [#$] ?(.*)$/;
/** A prompt that is only the working directory (bash's `\w\$ `): `/sys/class/devfreq/10c20000.memory-controller$ cat trans_stat`. */
const PATH_PROMPT_RE = /^(\/sys(?:\/[^\s#$:]*)?)[#$]\s+(\S.*)$/;
/** `grep . *` inside a sysfs directory: `cur_freq:800000000`. */
const RELATIVE_VALUE_RE = /^([\w.-]+):(.*)$/;
// The line patterns below are matched against the line trimmed at both ends (`t` in push), so none
// needs a trailing `\s*` next to a `.*` (the pair that backtracks quadratically on a run of spaces).
/** `… $ cat /sys/…`, also through `sudo` (its options included). */
const CAT_PROMPT_RE =
  /^(?:.*?[$#%]\s+)?(adb\s+(?:-s\s+\S+\s+)?shell\s+)?(?:sudo\s+(?:-\S+\s+)*)?cat\s+(["']?)([^"'\s]+)\2$/;

/**
 * The file a `cat` on a prompt line names: an absolute path, or through `adb shell` (whose directory is `/`) a
 * relative one (`adb shell cat sys/class/thermal/thermal_zone0/type`). Null for any other line.
 */
function catPromptPath(t: string): string | null {
  const m = CAT_PROMPT_RE.exec(t);
  const path = m?.[3] ?? '';
  if (!m || path === '') return null;
  return path.startsWith('/') ? path : m[1] !== undefined ? `/${path}` : null;
}

/** A name relative to the prompt's directory, when it lands in sysfs (`<dev>:/ # cat sys/class/…` too). */
/** The directory and the command of a prompt line in any of the three forms above, or null. */
function shellCommand(t: string): { dir: string; command: string } | null {
  const shell = SHELL_PROMPT_RE.exec(t) ?? ANDROID_PROMPT_RE.exec(t) ?? PATH_PROMPT_RE.exec(t);
  return shell ? { dir: shell[1] ?? '', command: (shell[2] ?? '').trim() } : null;
}
/** The one name a prompt's `cat` (through sudo) reads, as typed (`cur_freq`, `*\/temp`, `{a,b}`), or ''. */
const catName = (command: string): string => /^(?:sudo\s+)?cat\s+(\S+)$/.exec(command)?.[1] ?? '';
const GLOB_RE = /[*?[]/;
/** Mail-quoted pastes (`> /sys/…`): the line without its quote marks. */
const unquoted = (raw: string) => raw.replace(/^(?:>\s?)+/, '');
function sysPath(cwd: string | null, name: string): string | null {
  const path = cwd === '/' ? `/${name}` : `${cwd ?? ''}/${name}`;
  return name !== '' && cwd?.startsWith('/') && path.startsWith('/sys/') ? path : null;
}
/** `cat`'s (or grep's, head's) error for a file: coreutils/toybox `cat: <path>: <error>`. */
const CAT_ERROR_RE = /^(?:cat|grep|head|tail):\s+(\S+?):\s+(\S.*)$/;
/** busybox: `cat: can't open '<path>': <error>`. */
const BUSYBOX_CAT_ERROR_RE = /^cat: can't open '([^']+)': (\S.*)$/;
/**
 * `head`/`tail` over several files (`head /sys/…/policy*\/scaling_cur_freq`, `tail -n +1 …`): each file's
 * lines follow a `==> <path> <==` header (coreutils, busybox and toybox print the same header).
 */
const HEAD_HEADER_RE = /^==> (\S(?:.*\S)?) <==$/;
/** coreutils head/tail: `head: error reading '<path>': <error>`, `tail: cannot open '<path>' for reading: <error>`. */
const HEAD_ERROR_RE = /^(?:head|tail): (?:error reading|cannot open) '([^']+)'(?: for reading)?: (\S.*)$/;
/** Files of several lines: a value a line cannot be given to them by order. */
const MULTI_LINE_FILE_RE = /\/(?:trans_stat|trans_table|time_in_state|uevent|rkrga\/load)$/;
const GREP_ERROR_RE = /^grep:\s+\S+:\s+Is a directory$/;
const SBC_DEVFREQ_RE = /^\*\s+([\w.-]+):\s+(\S+)\s+\/\s+(\d+)\s+MHz\s+\(([^/]*)\/([\d\s]*)\)$/;
/** A kernel console message (`[   16.413590] hwmon hwmon0: …`) printed into a terminal between a chip's lines. */
const KERNEL_CONSOLE_RE = /^\[\s*\d+\.\d+\]\s/;
/** A path one of the readers below knows (the rest of a sysfs dump is skipped). */
function isKnownPath(path: string): boolean {
  return (
    ZONE_PATH_RE.test(path) ||
    isCoolingDevicePath(path) ||
    isGpuLoadPath(path) ||
    CPUFREQ_PATH_RE.test(path) ||
    DEVFREQ_PATH_RE.test(path) ||
    DEVFREQ_DIR_RE.test(path) ||
    HWMON_PATH_RE.test(path) ||
    IIO_INA_PATH_RE.test(path) ||
    IIO_RAIL_NAME_RE.test(path) ||
    /\/hwmon\d+\/(?:device\/)?name$/.test(path) ||
    path.endsWith('/get_throttled') ||
    path.endsWith('/rknpu/load') ||
    path.endsWith('/rkrga/load')
  );
}

/** Colons tried when splitting `path:value` (sysfs paths hold a few: `soc:firmware`, `iio:device0`). */
const MAX_PATH_COLONS = 8;

/**
 * `grep . <files>` prints `path:value`, and sysfs paths may hold colons themselves
 * (`/sys/devices/platform/soc/soc:firmware/get_throttled:0x0`, `…/iio:device0/in_power0_input:2914`):
 * the split is the first colon whose left side is a path a reader knows, else the first colon.
 */
function splitSysfs(t: string): { path: string; value: string; known: boolean } | null {
  // rknpu's files are under /proc/rknpu/ when the kernel is built with its procfs option.
  if (!t.startsWith('/sys/') && !t.startsWith('/proc/rknpu/')) return null;
  let first: { path: string; value: string; known: boolean } | null = null;
  let at = t.indexOf(':');
  for (let k = 0; at >= 0 && k < MAX_PATH_COLONS; k++, at = t.indexOf(':', at + 1)) {
    const path = t.slice(0, at);
    if (/\s/.test(path)) break;
    const split = { path, value: t.slice(at + 1).replace(/^\s/, ''), known: isKnownPath(path) };
    if (split.known) return split;
    first ??= split;
  }
  return first;
}

/** hwmon sysfs units: millidegree, millivolt, milliamp, microwatt, RPM, milli-percent. */
const HWMON_SCALE: Record<string, [string, number]> = {
  temp: ['C', 1e-3],
  in: ['V', 1e-3],
  curr: ['A', 1e-3],
  power: ['W', 1e-6],
  fan: ['RPM', 1],
  humidity: ['%RH', 1e-3],
};

interface ZoneState {
  zone: string;
  line: number;
  type: string | null;
  tempC: number | null;
  error: string | null;
  trips: Map<number, ThermalTrip>;
}

export function createThermalParser(options: LineCapOptions = {}): LineParser<ThermalParseRecord> {
  /** The number of the line being read (push sets it; the readers in this closure report it). */
  let lineNo = 0;
  let zone: ZoneState | null = null;
  let pendingCat: string | null = null;
  /** `cat /sys/…/{a,b,c}`: the files after the pending one, whose values follow in this order. */
  let catQueue: string[] = [];
  /** `cat /sys/class/thermal/thermal_zone?/temp` (a glob): the numbers that follow belong to files no line names. */
  let globCat = false;
  let chip: string | null = null;
  /** `sensors -u`: the feature being collected (its lines follow the label). */
  let uEntry: SensorRecord | null = null;
  /** `sensors`: the feature line just read, held for the line of limits lm-sensors may wrap onto the next line. */
  let heldSensor: SensorRecord | null = null;
  const trans = createTransStatReader();
  const cooling = createCoolingDeviceReader();
  /** hwmon readings not yet emitted, and the `_label` names seen (chip/feature → name). */
  let hwmon: SensorRecord[] = [];
  const labels = new Map<string, string>();
  /** hwmon chip directory → its `name` (`ina3221`), for units that depend on the chip. */
  const chipNames = new Map<string, string>();
  /** The chip being read came from `sensors -j` (its features close with `}`, not a blank line). */
  let jsonChip = false;
  const rgaReader = createRgaLoadReader();
  /** The working directory a shell prompt or `cd` named (resolves `grep . *` dumps). */
  let cwd: string | null = null;
  /**
   * Inside a `head`/`tail` dump of several files: the blank line head prints between files does not end the
   * readings waiting for their labels (`curr1_input`'s block comes before `in1_label`'s).
   */
  let headDump = false;

  const flushZone = (): ThermalZoneRecord[] => {
    const z = zone;
    zone = null;
    if (!z || (z.type === null && z.tempC === null && z.error === null && z.trips.size === 0)) return [];
    return [
      {
        kind: 'thermal-zone',
        line: z.line,
        zone: z.zone,
        type: z.type,
        tempC: z.tempC,
        error: z.error,
        trips: [...z.trips.values()].sort((a, b) => a.index - b.index),
      },
    ];
  };
  const flushU = (): SensorRecord[] => {
    const held = [uEntry, heldSensor].filter((e): e is SensorRecord => e !== null);
    [uEntry, heldSensor] = [null, null];
    return held;
  };

  /** A read that failed where a reading was (`cat: …/in1_input: Remote I/O error`): said, with its errno name. */
  const readFailed = (what: string, error: string, raw: string): Diagnostic =>
    diagnostic(lineNo, `${what} read failed: ${errnoName(error)}`, raw);

  /** A sysfs attribute's value (or read error) by path. */
  const attr = (path: string, value: string, error: string | null, raw: string): ThermalParseRecord[] => {
    const out: ThermalParseRecord[] = [];
    const z = ZONE_PATH_RE.exec(path);
    if (z) {
      if (zone && zone.zone !== z[1]) out.push(...flushZone());
      const zs = (zone ??= {
        zone: z[1] ?? '',
        line: lineNo,
        type: null,
        tempC: null,
        error: null,
        trips: new Map<number, ThermalTrip>(),
      });
      const a = z[2] ?? 'type';
      if (a === 'temp') {
        if (error !== null) {
          zs.error = errnoName(error);
          zs.tempC = null;
        } else {
          const t = parseSysfsTempRead(value);
          if (t.error !== null && !/^-?\d+$/.test(value.trim()))
            return [...out, diagnostic(lineNo, 'unreadable thermal zone temperature', raw)];
          zs.tempC = t.tempC;
        }
      } else if (a === 'type' && error === null) zs.type = value.trim();
      else {
        const trip = TRIP_ATTR_RE.exec(a);
        if ((a === 'type' || trip) && error !== null) return [...out, readFailed('thermal zone', error, raw)];
        if (trip) {
          const index = Number(trip[1]);
          const entry = zs.trips.get(index) ?? { index, tempC: null, type: null, hystC: null };
          if (trip[2] === 'type') entry.type = value.trim();
          else {
            if (!/^-?\d+$/.test(value.trim())) return [...out, diagnostic(lineNo, 'unreadable trip point', raw)];
            if (trip[2] === 'temp') entry.tempC = Number(value) / 1000;
            else entry.hystC = Number(value) / 1000;
          }
          zs.trips.set(index, entry);
        }
      }
      return out;
    }
    out.push(...flushZone());
    const sensorDir = SENSOR_DIR_ATTR_RE.exec(path);
    if (!sensorDir) out.push(...flushHwmon());
    else if (!HWMON_PATH_RE.test(path) && !IIO_INA_PATH_RE.test(path) && !IIO_RAIL_NAME_RE.test(path)) {
      if (sensorDir[2] === 'name' && error === null) chipNames.set(sensorDir[1] ?? '', value.trim());
      return out;
    }

    const read =
      trans.timeInState(path, value, error, lineNo, raw) ??
      trans.cpufreqStats(path, value, error, lineNo, raw) ??
      cooling.attr(path, value, error, lineNo, raw) ??
      readGpuLoad(path, value, error, lineNo, raw);
    if (read) return [...out, ...read];
    const c = CPUFREQ_PATH_RE.exec(path);
    if (c) {
      const isFreq = /_freq$/.test(c[3] ?? '');
      const v = value.trim();
      if (error === null && isFreq && !/^\d+$/.test(v))
        return [...out, diagnostic(lineNo, 'unreadable cpufreq value', raw)];
      const r: CpufreqRecord = {
        kind: 'cpufreq',
        line: lineNo,
        cpu: c[1] !== undefined ? Number(c[1]) : null,
        policy: c[2] !== undefined ? Number(c[2]) : null,
        attr: c[3] ?? '',
        freqKHz: error === null && isFreq ? Number(v) : null,
        value: error === null ? v : null,
        error: error === null ? null : errnoName(error),
      };
      return [...out, r];
    }

    const d = DEVFREQ_PATH_RE.exec(path);
    if (d?.[2] === 'trans_stat' && error === null) {
      // `grep . …/trans_stat`: each line of the table behind the path.
      const rows = trans.line(value.trim(), lineNo, raw, d[1] ?? null);
      return [...out, ...(rows ?? [diagnostic(lineNo, 'unreadable trans_stat line', raw)])];
    }
    if (d) {
      const v = value.trim();
      const r: DevfreqRecord = {
        kind: 'devfreq',
        line: lineNo,
        device: d[1] ?? '',
        attr: d[2] ?? '',
        curFreqHz: null,
        governor: null,
        availableGovernors: null,
        availableFreqsHz: null,
        loadPct: null,
        error: error === null ? null : errnoName(error),
      };
      if (error === null) {
        if (d[2] === 'cur_freq' || d[2] === 'target_freq') {
          if (!/^\d+$/.test(v)) return [...out, diagnostic(lineNo, 'unreadable devfreq frequency', raw)];
          r.curFreqHz = Number(v);
        } else if (d[2] === 'min_freq' || d[2] === 'max_freq') {
          if (!/^\d+$/.test(v)) return [...out, diagnostic(lineNo, 'unreadable devfreq frequency', raw)];
          if (d[2] === 'min_freq') r.minFreqHz = Number(v);
          else r.maxFreqHz = Number(v);
        } else if (d[2] === 'governor') r.governor = v;
        else if (d[2] === 'available_governors') r.availableGovernors = v.split(/\s+/).filter(Boolean);
        else if (d[2] === 'available_frequencies') {
          const freqs = v.split(/\s+/).filter(Boolean);
          if (!freqs.every((f) => /^\d+$/.test(f)))
            return [...out, diagnostic(lineNo, 'unreadable devfreq frequency list', raw)];
          r.availableFreqsHz = freqs.map(Number);
        } else if (d[2] === 'load') {
          const m = /^(\d+(?:\.\d+)?)%?(?:@(\d+)Hz)?$/.exec(v);
          if (!m) return [...out, diagnostic(lineNo, 'unreadable devfreq load', raw)];
          r.loadPct = Number(m[1]);
          if (m[2] !== undefined) r.curFreqHz = Number(m[2]);
        } else return out;
      }
      return [...out, r];
    }
    if (DEVFREQ_DIR_RE.test(path) && value.trim() === '' && error === null) {
      // `/sys/devices/platform/dmc/devfreq/dmc:` heads a trans_stat dump.
      trans.expect(DEVFREQ_DIR_RE.exec(path)?.[1] ?? null);
      return out;
    }

    if (/\/get_throttled$/.test(path)) {
      if (error !== null) return [...out, readFailed('get_throttled', error, raw)];
      const v = value.trim();
      // The firmware's sysfs mirror prints the bits in hex without 0x.
      if (!/^(?:0x)?[0-9a-fA-F]+$/.test(v)) return [...out, diagnostic(lineNo, 'unreadable get_throttled value', raw)];
      return [...out, decodeThrottled(parseInt(v.replace(/^0x/, ''), 16), v, 'sysfs', lineNo)];
    }
    if (/\/rknpu\/load$/.test(path))
      // debugfs is root's: `Permission denied` is the usual answer to a user.
      return [...out, ...(error === null ? readNpuLoad(value, lineNo, raw) : [readFailed('NPU load', error, raw)])];
    if (/\/rkrga\/load$/.test(path)) {
      if (error !== null) return [...out, readFailed('RGA load', error, raw)];
      return [...out, ...(rgaLine(value.trim(), raw) ?? [diagnostic(lineNo, 'unreadable RGA load line', raw)])];
    }

    const h = HWMON_PATH_RE.exec(path);
    const iio = h ? null : IIO_INA_PATH_RE.exec(path);
    const railName = IIO_RAIL_NAME_RE.exec(path);
    if ((railName || h || iio) && error !== null) return [...out, ...flushHwmon(), readFailed('hwmon', error, raw)];
    if (railName) {
      // `rail_name_0` names in_power0/in_current0/in_voltage0.
      labels.set(`${railName[1] ?? ''}/in${railName[2] ?? ''}`, value.trim());
      return out;
    }
    const chipName = h?.[1] ?? iio?.[1] ?? null;
    if (chipName !== null) {
      const v = value.trim();
      if (h?.[4] === 'label') {
        // `in1_label` names in1/curr1/power1 (INA3221).
        labels.set(`${chipName}/${h[2] ?? ''}`, v);
        return out;
      }
      if (!/^-?\d+$/.test(v)) return [...out, ...flushHwmon(), diagnostic(lineNo, 'unreadable hwmon value', raw)];
      let feature: string;
      let unit: string;
      let k: number;
      if (h) {
        feature = h[2] ?? '';
        [unit, k] = HWMON_SCALE[h[3] ?? ''] ?? ['', NaN];
      } else {
        // iio ina3221x prints mW, mA, mV.
        const kind = iio?.[2] ?? '';
        feature = `${kind === 'voltage' ? 'in' : kind === 'current' ? 'curr' : 'power'}${iio?.[3] ?? ''}`;
        [unit, k] = kind === 'power' ? ['W', 1e-3] : kind === 'current' ? ['A', 1e-3] : ['V', 1e-3];
      }
      const r = sensor(lineNo, chipName, feature);
      r.value = Number((Number(v) * k).toPrecision(12));
      r.unit = unit;
      r.name = null;
      hwmon.push(r);
      return out;
    }
    return out;
  };

  /** hwmon readings wait for their `_label` (grep lists `curr1_input` before `in1_label`). */
  const flushHwmon = (): SensorRecord[] => {
    const rs = hwmon;
    hwmon = [];
    for (const r of rs) {
      const index = /^[a-z]+(\d+)$/.exec(r.label)?.[1] ?? '';
      r.name = labels.get(`${r.chip}/${r.label}`) ?? labels.get(`${r.chip}/in${index}`) ?? null;
      if (chipNames.get(r.chip) === 'ina3221' && INA3221_SHUNT_RE.test(r.label) && r.value !== null)
        r.value = Number((r.value / UV_PER_MV).toPrecision(12));
    }
    return rs;
  };

  /** `/sys/kernel/debug/rkrga/load` (rga-load-lines.ts). */
  const rgaLine = (t: string, raw: string): ThermalParseRecord[] | null => rgaReader.line(t, lineNo, raw);

  const flushPending = (): ThermalParseRecord[] => [...flushZone(), ...flushHwmon(), ...cooling.flush()];

  /**
   * `cat <path>`: the next line is the file's content. `{a,b}` in the path lists files whose values follow one a
   * line, in that order; a glob's, or a list with a file of several lines (trans_stat), belong to files unknown.
   */
  const catFiles = (path: string): void => {
    trans.file(path, lineNo);
    const listed = expandBraces(path);
    globCat = /[*?[]/.test(path) || (listed?.some((p) => MULTI_LINE_FILE_RE.test(p)) ?? false);
    catQueue = globCat ? [] : (listed ?? [path]);
    pendingCat = catQueue.shift() ?? null;
  };

  /** `text` is `raw` unquoted (pushWithZoneLists). */
  const push = (raw: string, text: string, line: number): ThermalParseRecord[] => {
    lineNo = line;
    const t = text.trim();
    const pending = pendingCat;
    pendingCat = null;
    // A line after a listed file is that file's value (or its error), the next file's comes next; a prompt ends the list.
    if (pending !== null) pendingCat = /^\S*[$#%]\s/.test(t) ? null : (catQueue.shift() ?? null);

    if (isBlankLine(text)) {
      catQueue = [];
      chip = null;
      jsonChip = false;
      globCat = false;
      if (headDump) return flushU();
      return [...flushU(), ...flushPending()];
    }

    // `==> <path> <==` (head/tail of several files): the lines after it are that file's, as after `cat <path>`.
    const header = HEAD_HEADER_RE.exec(t);
    if (header) {
      const named = header[1] ?? '';
      headDump = true;
      pendingCat = named.startsWith('/')
        ? named
        : cwd?.startsWith('/sys') && /^[\w./-]+$/.test(named)
          ? `${cwd}/${named}`
          : null;
      trans.file(pendingCat ?? '', lineNo);
      return flushU();
    }
    const headError = HEAD_ERROR_RE.exec(t);
    if (headError) {
      const named = headError[1] ?? '';
      const path = named.startsWith('/') ? named : cwd?.startsWith('/sys') ? `${cwd}/${named}` : pending;
      return path ? attr(path, '', headError[2] ?? '', raw) : [];
    }

    // `cat <path>` on a prompt line: the next line is that file's content.
    const prompt = catPromptPath(t);
    if (prompt !== null) {
      headDump = false;
      catFiles(prompt);
      return [...flushU(), ...flushPending()];
    }
    if (globCat && /^-?\d+$/.test(t))
      return [diagnostic(lineNo, 'value of a cat over several files (whose is unknown)', raw)];
    globCat = false;
    // `root@board:/sys/class/devfreq/fb000000.gpu# grep . *`, `… # cd /sys/…`: where relative names live.
    const shell = shellCommand(t);
    if (shell) {
      headDump = false;
      const { dir, command } = shell;
      const cd = /^cd\s+(\/\S*)$/.exec(command);
      cwd = cd ? (cd[1] ?? null) : dir.startsWith('/') ? dir : null;
      const name = catName(command);
      const glob = GLOB_RE.test(name);
      // `root@board:/sys/class/devfreq/fb000000.gpu# cat cur_freq`: the next line is that file's value.
      const relative = !glob && /^[\w.,{}-]+(?:\/[\w.,{}-]+)*$/.test(name) ? sysPath(cwd, name) : null;
      catQueue = [];
      if (relative) catFiles(relative);
      // `cat */temp` there: the numbers that follow belong to files no line names.
      else globCat = glob && sysPath(cwd, name) !== null;
      return [...flushU(), ...flushPending()];
    }
    if (isCommentLine(text)) return [];
    // A path-prefixed line (`grep .` of the file) is the path's: attr() hands its value to rgaLine.
    const rgaOut = t.startsWith('/') ? null : rgaLine(t, raw);
    if (rgaOut) return rgaOut;

    if (GREP_ERROR_RE.test(t)) return [];
    const catError = CAT_ERROR_RE.exec(t) ?? BUSYBOX_CAT_ERROR_RE.exec(t);
    if (catError) {
      // A relative name is the prompt's directory's; paths elided as `.../temp` take the file named on the prompt line.
      const named = catError[1] ?? '';
      const path = named.startsWith('/')
        ? named
        : cwd?.startsWith('/sys') && /^[\w.-]+$/.test(named)
          ? `${cwd}/${named}`
          : pending;
      return path ? attr(path, '', catError[2] ?? '', raw) : [];
    }

    const sysfs = splitSysfs(t);
    if (sysfs?.known) return [...flushU(), ...attr(sysfs.path, sysfs.value, null, raw)];
    // `for f in …; do echo $f; cat $f; done`: a path alone, its value on the next line.
    if (/^\/sys\/\S+$/.test(t) && isKnownPath(t)) {
      pendingCat = t;
      return [];
    }
    if (sysfs) return [...flushU(), ...attr(sysfs.path, sysfs.value, null, raw)];
    if (pending) {
      // A trans_stat table printed by `cat`: its rows follow (read below) under that device.
      if (pending.endsWith('/trans_stat')) trans.expect(/\/devfreq\/([^/]+)\/trans_stat$/.exec(pending)?.[1] ?? null);
      // Any other file a reader knows: this line is its value, multi-value attributes (available_frequencies)
      // included. The output of a file none knows (cpufreq's stats/trans_table) is read line by line below.
      // A sensor chip's other files (`in1_max`, `name`) too: they must not end the readings waiting for their labels.
      else if (isKnownPath(pending) || SENSOR_DIR_ATTR_RE.test(pending)) return attr(pending, t, null, raw);
    }
    const rel = cwd !== null && cwd.startsWith('/sys') && !chip ? RELATIVE_VALUE_RE.exec(t) : null;
    // No sysfs attribute is named by digits alone: `206000000:  1  0 …` is a trans_stat row printed under the prompt.
    if (rel && !/^\d+$/.test(rel[1] ?? '')) return attr(`${cwd}/${rel[1] ?? ''}`, rel[2] ?? '', null, raw);

    const out: ThermalParseRecord[] = [];

    // `sensors -j`: read as the `sensors -u` lines each JSON line stands for.
    const jsonOpen = JSON_OPEN_RE.exec(t);
    if (jsonOpen && CHIP_RE.test(jsonOpen[1] ?? '')) {
      out.push(...flushU(), ...flushPending());
      chip = jsonOpen[1] ?? '';
      jsonChip = true;
      return out;
    }
    if (chip && jsonChip) {
      if (jsonOpen) {
        out.push(...flushU());
        uEntry = sensor(lineNo, chip, jsonOpen[1] ?? '');
        return out;
      }
      if (JSON_ADAPTER_RE.test(t)) return out;
      const sub = JSON_SUBFEATURE_RE.exec(t);
      if (sub && uEntry && applySensorsUValue(uEntry, `  ${sub[1] ?? ''}: ${sub[2] ?? ''}`)) return out;
      if (JSON_CLOSE_RE.test(t)) {
        if (uEntry) return [...out, ...flushU()];
        chip = null;
        jsonChip = false;
        return out;
      }
    }

    // lm-sensors blocks: a chip line, then its features until a blank line.
    const chipLine = CHIP_RE.exec(t);
    if (chipLine) {
      out.push(...flushU(), ...flushPending());
      chip = chipLine[0].trim();
      jsonChip = false;
      return out;
    }
    if (chip) {
      if (applySensorContinuation(heldSensor, text)) return out;
      if (/^Adapter:/.test(text) || KERNEL_CONSOLE_RE.test(t)) return out;
      const failed = SENSORS_ERROR_RE.exec(t);
      if (failed) return [...out, readFailed(`sensor ${chip} ${failed[1] ?? ''}`, failed[2] ?? '', raw)];
      if (uEntry && applySensorsUValue(uEntry, text)) return out;
      const label = sensorsUFeatureLabel(text);
      if (label !== null) {
        out.push(...flushU());
        uEntry = sensor(lineNo, chip, label);
        return out;
      }
      const r = readSensorLine(lineNo, chip, t);
      if (r) {
        out.push(...flushU());
        heldSensor = r;
        return out;
      }
      out.push(...flushU());
      chip = null;
    }

    const firmware = readFirmwareLine(t, text, lineNo, raw);
    if (firmware && 'unreadable' in firmware) return [...out, firmware.unreadable];
    if (firmware) return [...out, ...flushPending(), ...firmware.readings];

    // devfreq trans_stat table (trans-stat-lines.ts).
    const transRows = trans.line(t, lineNo, raw);
    if (transRows) return [...out, ...transRows];

    const m = SBC_DEVFREQ_RE.exec(t);
    if (m) {
      return [
        ...out,
        ...flushPending(),
        {
          kind: 'devfreq',
          line: lineNo,
          device: m[1] ?? '',
          attr: null,
          curFreqHz: Number(m[3]) * 1e6,
          governor: m[2] ?? null,
          availableGovernors: (m[4] ?? '').split(/\s+/).filter(Boolean),
          availableFreqsHz: (m[5] ?? '')
            .trim()
            .split(/\s+/)
            .map((x) => Number(x) * 1e6),
          loadPct: null,
          error: null,
        },
      ];
    }
    return [...out, ...flushPending()];
  };

  const zoneLists = createZoneListReader();
  /** The absolute path a `cat` on this line names (relative ones under the prompt's sysfs directory), or null. */
  const catPath = (t: string): string | null => {
    const absolute = catPromptPath(t);
    if (absolute !== null) return absolute;
    const relative = catName(shellCommand(t)?.command ?? '');
    return /^[\w.*?[\]/-]+$/.test(relative) ? sysPath(cwd, relative) : null;
  };
  const pushWithZoneLists = (raw: string, line: number): ThermalParseRecord[] => {
    const text = unquoted(raw);
    const { records, listStarted } = zoneLists.line(text.trim(), line, raw, () => push(raw, text, line), catPath);
    // A list of zones started: its numbers are the reader's, not files of an unknown cat.
    if (listStarted) globCat = false;
    return records;
  };

  return capNumberedLines(
    pushWithZoneLists,
    () => [...zoneLists.end(), ...flushU(), ...flushPending()],
    options.maxLineChars,
  );
}
