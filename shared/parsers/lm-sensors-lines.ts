// lm-sensors `sensors` and `sensors -u` lines → `sensor` records: the feature line of `sensors`
// (`temp1:  +26.8 C  (crit = +115.0 C)`, `N/A`, `ALARM`), and the label / `_input`, `_crit`, … lines
// of `sensors -u`. The chip heading and the blank line that ends a block are the caller's
// (shared/parsers/thermal-parsers.ts), which knows where a block starts and ends; the shapes of the chip heading,
// the ERROR line and the `sensors -j` lines it reads them by are here.

import type { SensorRecord } from './records';

/**
 * lm-sensors' complaint about one subfeature inside a chip's block (prog/sensors: `ERROR: Can't get value of subfeature
 * temp1_input: Can't read`, `…: I/O error`), printed on stderr between the chip's lines: the block goes on after it.
 */
export const SENSORS_ERROR_RE = /^ERROR: Can't get value of subfeature (\S+): (\S.*)$/;
/**
 * `sensors -j` (lm-sensors 3.5+): the chips, features and subfeatures of `sensors -u`, one JSON key a line
 * (prog/sensors/chips_json.c prints `"<chip>":{`, `"Adapter": "…",`, `"<feature>":{`, `"<sub>": 26.800,`, `}`).
 */
export const JSON_OPEN_RE = /^"([^"\\]+)":\s*\{$/;
export const JSON_ADAPTER_RE = /^"Adapter":\s*"[^"]*",?$/;
export const JSON_SUBFEATURE_RE = /^"([a-z]+\d*_[a-z_]+)":\s*(-?\d+(?:\.\d+)?),?$/;
export const JSON_CLOSE_RE = /^\},?$/;
/** A chip's heading line (`cpu_thermal-virtual-0`, `ina3221-i2c-1-40`): `<prefix>-<bus type>-<address>`. */
export const CHIP_RE =
  /^[\w.-]+-(?:virtual|isa|i2c|pci|spi|mdio|acpi|platform|hid|scsi|sdio|usb|of|mmc|virtio)-[\w-]+$/;

/** `temp1:  +26.8 C  (crit = …)`: label, value, and the rest (unit and limits, read apart). */
const SENSOR_RE = /^([^:(]+):\s*(\S.*)$/;
/**
 * The unit after a value. Temperatures: `°C`, or `°F` under `sensors -f`; the degree sign only in a UTF-8 locale
 * (`+45.0 C` otherwise), and `Â°C` / `Â°F` in a UTF-8 paste shown as Latin-1. Power and energy carry an SI
 * prefix picked for the value's size (scale_value in prog/sensors/chips.c: n, u, m, none, k, M, G before `W` or
 * `J`), so one chip prints `594.13 kJ` and `3.51 MJ` side by side (amd_energy).
 */
const SENSOR_UNIT_RE = /^(?:Â?°[CF]|mV|mA|[numkMG]?[WJ]|%RH|RPM|[%CFVA])/;
const SENSOR_U_LABEL_RE = /^([^:\s][^:]*):\s*$/;
/**
 * `sensors -u`: a subfeature line, `  <type><n>_<attribute>: <value>` (lib/sysfs.c names them so: `temp1_input`,
 * `in0_min`, `temp1_max_hyst`, `fan1_div`, `temp3_offset`, `cpu0_vid`). The type names the unit even where the
 * feature has a label of its own (`Core 0:` / `temp2_input`, `Vcore:` / `in0_input`).
 */
const SENSOR_U_VALUE_RE = /^\s+([a-z]+)\d*_([a-z_]+)\s*:\s*([+-]?\d+(?:\.\d+)?)\s*$/;
const SENSOR_LIMIT_RE =
  /(crit max|crit low|crit|max|min|high|low)\s*=\s*([+-]?\d+(?:\.\d+)?)\s*(Â?°[CF]|mV|mA|[numkMG]?[WJ]|[CFVA])?/g;

/** `W` / `J` under each prefix lm-sensors' scale_value prints (`nW` … `GW`), to the unit without one. */
function prefixed(unit: string): Record<string, [string, number]> {
  const factors: [string, number][] = [
    ['n', 1e-9],
    ['u', 1e-6],
    ['m', 1e-3],
    ['', 1],
    ['k', 1e3],
    ['M', 1e6],
    ['G', 1e9],
  ];
  return Object.fromEntries(factors.map(([p, f]) => [`${p}${unit}`, [unit, f]]));
}

const UNIT_SCALE: Record<string, [string, number]> = {
  '°C': ['C', 1],
  C: ['C', 1],
  V: ['V', 1],
  mV: ['V', 1e-3],
  A: ['A', 1],
  mA: ['A', 1e-3],
  ...prefixed('W'),
  ...prefixed('J'),
  '%RH': ['%RH', 1],
  RPM: ['RPM', 1],
  // A fan's PWM duty cycle (`pwm1: 100%  (freq = 7826 Hz)`).
  '%': ['%', 1],
};

/** Unit of an lm-sensors subfeature type (`sensors -u` and `N/A` values print none). */
const TYPE_UNITS: Record<string, string> = {
  temp: 'C',
  in: 'V',
  curr: 'A',
  power: 'W',
  energy: 'J',
  fan: 'RPM',
  humidity: '%RH',
};

/** Unit of an lm-sensors feature by its name prefix (`sensors -u` and `N/A` values print none). */
function unitOfFeature(label: string): string | null {
  const m = /^(temp|in|curr|power|energy|fan|humidity)\d*$/.exec(label);
  if (!m) return null;
  return Object.hasOwn(TYPE_UNITS, m[1] ?? '') ? (TYPE_UNITS[m[1] ?? ''] ?? null) : null;
}

/**
 * `sensors -f` prints every temperature in °F (limits too): read as °C like the rest, to 0.01 °C (it printed 0.1 °F,
 * which is ±0.03 °C).
 */
const FAHRENHEIT_RE = /^(?:Â?°)?F$/;
const CENTI = 100;

function scaled(value: string, unit: string | undefined): { value: number; unit: string | null } {
  if (unit !== undefined && FAHRENHEIT_RE.test(unit))
    return { value: Math.round((((Number(value) - 32) * 5) / 9) * CENTI) / CENTI, unit: 'C' };
  const key = unit?.replace(/^Â/, '');
  const u = key !== undefined && Object.hasOwn(UNIT_SCALE, key) ? UNIT_SCALE[key] : undefined;
  // Round away binary noise of the mV/mA → V/A scaling (920.00 mV must read 0.92, not 0.9200000000000002).
  return u
    ? { value: Number((Number(value) * u[1]).toPrecision(12)), unit: u[0] }
    : { value: Number(value), unit: null };
}

/** `+26.8°C  (crit = …)` → the value (`+26.8` or `N/A`) and the rest; null when it starts with neither. */
function sensorReading(text: string): { value: string; rest: string } | null {
  if (text.startsWith('N/A')) return { value: 'N/A', rest: text.slice(3) };
  let k = text[0] === '+' || text[0] === '-' ? 1 : 0;
  const digitsFrom = k;
  while (k < text.length && (text[k] ?? '') >= '0' && (text[k] ?? '') <= '9') k++;
  if (k === digitsFrom) return null;
  if (text[k] === '.' && (text[k + 1] ?? '') >= '0' && (text[k + 1] ?? '') <= '9') {
    k++;
    while (k < text.length && (text[k] ?? '') >= '0' && (text[k] ?? '') <= '9') k++;
  }
  return { value: text.slice(0, k), rest: text.slice(k) };
}

export function sensor(line: number, chip: string, label: string): SensorRecord {
  return { kind: 'sensor', line, chip, label, value: null, unit: null, crit: null, max: null, min: null, alarm: false };
}

/** `sensors -u`: the `temp1:` line that opens a feature (its values follow), or null. */
export function sensorsUFeatureLabel(text: string): string | null {
  const label = SENSOR_U_LABEL_RE.exec(text);
  return label ? (label[1] ?? '').trim() : null;
}

/**
 * `sensors -u`: an `  temp1_input: 26.800` line into the feature it belongs to; false when it is not one.
 * Attributes that are no reading nor limit (`_max_hyst`, `_crit_hyst`, `_type`, `_offset`, `_div`, `_beep`,
 * `_average`…) belong to the feature all the same: taken, not read.
 */
export function applySensorsUValue(entry: SensorRecord, text: string): boolean {
  const u = SENSOR_U_VALUE_RE.exec(text);
  if (!u) return false;
  const type = u[1] ?? '';
  const what = u[2] ?? '';
  const v = Number(u[3]);
  // A feature whose input did not read (`ERROR: Can't get value of subfeature temp1_input`) still has its unit.
  if (entry.unit === null && Object.hasOwn(TYPE_UNITS, type)) entry.unit = TYPE_UNITS[type] ?? null;
  if (what === 'input' || (type === 'cpu' && what === 'vid')) {
    entry.value = v;
    entry.unit = type === 'cpu' ? 'V' : Object.hasOwn(TYPE_UNITS, type) ? (TYPE_UNITS[type] ?? null) : null;
  } else if (what === 'crit') entry.crit = v;
  else if (what === 'max') entry.max = v;
  else if (what === 'min') entry.min = v;
  else if (what.endsWith('alarm')) entry.alarm ||= v !== 0;
  return true;
}

/**
 * A chassis intrusion feature (print_chip_intrusion in prog/sensors/chips.c): no figure, its alarm alone, `ALARM`
 * or `OK` (nothing at all when it does not read).
 */
const SENSOR_INTRUSION_RE = /^(intrusion\d+):\s*(ALARM|OK)$/;

/** `sensors`: a feature line of `chip` (value, unit, limits, ALARM), or null when the line is not one. */
export function readSensorLine(line: number, chip: string, t: string): SensorRecord | null {
  const intrusion = SENSOR_INTRUSION_RE.exec(t);
  if (intrusion) {
    const r = sensor(line, chip, intrusion[1] ?? '');
    r.alarm = intrusion[2] === 'ALARM';
    return r;
  }
  const s = SENSOR_RE.exec(t);
  const reading = s ? sensorReading(s[2] ?? '') : null;
  if (!s || !reading) return null;
  const r = sensor(line, chip, (s[1] ?? '').trim());
  const after = reading.rest.trimStart();
  const unitText = SENSOR_UNIT_RE.exec(after)?.[0];
  const rest = unitText === undefined ? after : after.slice(unitText.length);
  if (reading.value !== 'N/A') {
    const v = scaled(reading.value, unitText);
    r.value = v.value;
    r.unit = v.unit ?? unitOfFeature(r.label);
  } else r.unit = unitOfFeature(r.label);
  applySensorLimits(r, rest);
  return r;
}

/** The limits (`crit = +89.8°C`, `high = …`) and the `ALARM` flag of a feature's text, into its record. */
function applySensorLimits(r: SensorRecord, rest: string): void {
  for (const lim of rest.matchAll(SENSOR_LIMIT_RE)) {
    const v = scaled(lim[2] ?? '', lim[3]).value;
    if (lim[1] === 'crit' || lim[1] === 'crit max') r.crit = v;
    else if (lim[1] === 'max' || lim[1] === 'high') r.max = v;
    else if (lim[1] === 'min' || lim[1] === 'low') r.min = v;
  }
  r.alarm ||= /\bALARM\b/.test(rest);
}

/**
 * lm-sensors prints a feature's limits two to a line (print_limits in prog/sensors/chips.c): the third and later go
 * on the next line, indented under the first (`Composite:  +40.9°C  (low  =  -0.1°C, high = +71.8°C)`, then
 * `                       (crit = +89.8°C)`); a temperature's `sensor = …` follows the last of them.
 */
const SENSOR_LIMITS_CONTINUATION_RE = /^\s+\([^()]*\)(?:\s+\S.*)?$/;

/** Such a continuation line into the feature read just before it (if any); false when `text` is not one. */
export function applySensorContinuation(entry: SensorRecord | null, text: string): boolean {
  if (!SENSOR_LIMITS_CONTINUATION_RE.test(text)) return false;
  if (entry) applySensorLimits(entry, text);
  return true;
}
