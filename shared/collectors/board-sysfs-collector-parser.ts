// Parser of the board sysfs collector's lines (shared/collectors/board-sysfs-collector.ts): a tick
// line of `path:value` parts read by shared/parsers/thermal-parsers.ts (through
// shared/collectors/board-sysfs-tick.ts), turned into sample values:
//   devfreq.<device>.{cur,min,max}FreqMHz   from cur_freq/min_freq/max_freq (Hz)
//   npu.core<N>.loadPct                      from rknpu's `NPU load:  Core0:  4%, …`
//   power.<rail>.mW                          power*_input (µW), or an INA3221 channel's bus voltage
//                                            times its current (the chip has no power attribute)
//   trip.<zone type>.<index>.C               thermal trip points (first tick)
// Pure; never throws: a part the thermal parser cannot read is a diagnostic, and so is the line
// when nothing else in it reads; otherwise the other parts are still the tick's sample (a devfreq
// node unplugged mid-run, a debugfs read that fails with EBUSY must not blank every other reading).
import { collectorLineParser, type CollectorParser, type CollectorRecord } from './collector';
import { readBoardTick } from './board-sysfs-tick';
import type { SensorRecord } from '../parsers/records';

const HZ_PER_MHZ = 1e6;

export const boardKey = {
  devfreq: (device: string, which: 'cur' | 'min' | 'max') => `devfreq.${device}.${which}FreqMHz`,
  npu: (core: number) => `npu.core${core}.loadPct`,
  power: (rail: string) => `power.${rail}.mW`,
  trip: (zone: string, index: number) => `trip.${zone}.${index}.C`,
};

/**
 * Channels whose in<N> × curr<N> is a rail's power: the INA3221's three (in1–in3 bus voltage in mV, curr1–curr3
 * in mA). Its in4–in6 are shunt voltages in µV and curr4 the sum of the currents (in7 the sum of the shunt
 * voltages), so in4 × curr4 would be a made-up rail; INA2xx chips print power1 themselves.
 */
const INA3221_CHANNELS = new Set(['1', '2', '3']);

/** hwmon power readings: power<N> directly, else in<N> (V) × curr<N> (A) of the same chip. */
function powerValues(sensors: SensorRecord[], values: Record<string, number | null>): void {
  const byChip = new Map<string, Map<string, SensorRecord>>();
  for (const s of sensors) {
    const chip = byChip.get(s.chip) ?? new Map<string, SensorRecord>();
    chip.set(s.label, s);
    byChip.set(s.chip, chip);
  }
  for (const [chip, features] of byChip) {
    for (const [label, s] of features) {
      const m = /^(in|power)(\d+)$/.exec(label);
      if (!m || s.value === null) continue;
      const rail = s.name ?? `${chip}.${label}`;
      if (m[1] === 'power') {
        values[boardKey.power(rail)] = Math.round(s.value * 1e6) / 1e3;
        continue;
      }
      if (features.has(`power${m[2]}`) || !INA3221_CHANNELS.has(m[2] ?? '')) continue;
      const curr = features.get(`curr${m[2]}`);
      if (curr?.value == null) continue;
      // mV × mA / 1000 in integers: the files hold whole mV and mA.
      values[boardKey.power(rail)] = (Math.round(s.value * 1e3) * Math.round(curr.value * 1e3)) / 1e3;
    }
  }
}

/** What a run says when board files are there but do not read (the script's header and its `! denied`). */
export const BOARD_UNREADABLE_HOW =
  'debugfs (the NPU load) and some sysfs files are readable by root only: profile as root to read them';

/** The header's count of files that are there but do not read, and the first of them: a note next to `ok`. */
function readHeader(line: string): CollectorRecord {
  const m = / unreadable=(\d+) first=(\S+)$/.exec(line);
  const count = Number(m?.[1] ?? 0);
  if (!m || count === 0) return { kind: 'header' };
  const more = count > 1 ? ` and ${count - 1} more` : '';
  return { kind: 'header', note: `left out, not readable: ${m[2]}${more}; ${BOARD_UNREADABLE_HOW}` };
}

export function createBoardSysfsCollectorParser(): CollectorParser {
  return collectorLineParser((line) => {
    const tick = readBoardTick(line);
    if (tick.kind === 'diagnostic') return tick;
    const values: Record<string, number | null> = {};
    const sensors: SensorRecord[] = [];
    let unread: { reason: string; text: string } | null = null;
    for (const r of tick.records) {
      if (r.kind === 'diagnostic') {
        // The part itself (`/sys/…/cur_freq:`), not the tick: a long tick cut for keeping would hide it.
        unread ??= { reason: r.reason, text: r.text };
        continue;
      }
      if (r.kind === 'devfreq' && r.error === null) {
        if (r.attr === 'cur_freq' && r.curFreqHz !== null)
          values[boardKey.devfreq(r.device, 'cur')] = r.curFreqHz / HZ_PER_MHZ;
        if (r.minFreqHz != null) values[boardKey.devfreq(r.device, 'min')] = r.minFreqHz / HZ_PER_MHZ;
        if (r.maxFreqHz != null) values[boardKey.devfreq(r.device, 'max')] = r.maxFreqHz / HZ_PER_MHZ;
      } else if (r.kind === 'npu-load') r.corePct.forEach((pct, core) => (values[boardKey.npu(core)] = pct));
      else if (r.kind === 'sensor') sensors.push(r);
      else if (r.kind === 'thermal-zone')
        for (const trip of r.trips)
          if (trip.tempC !== null) values[boardKey.trip(r.type ?? r.zone ?? 'zone', trip.index)] = trip.tempC;
    }
    powerValues(sensors, values);
    if (Object.keys(values).length === 0)
      return unread
        ? { kind: 'diagnostic', reason: unread.reason, text: line }
        : { kind: 'diagnostic', reason: 'board line without a reading', text: line };
    return { kind: 'sample', uptimeMs: tick.uptimeMs, values, ...(unread ? { unread } : {}) };
  }, readHeader);
}
