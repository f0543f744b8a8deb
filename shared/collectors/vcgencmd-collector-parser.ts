// Parser of the vcgencmd collector's lines (shared/collectors/vcgencmd-collector.ts): a tick line of
// parts (shared/collectors/board-sysfs-tick.ts) holding the firmware's get_throttled bits (the sysfs
// mirror or `throttled=0x…`), the SoC temperature (a thermal zone or `temp=48.3'C`) and the ARM clock:
// the firmware's measurement (`frequency(48)=1500345728`), or cpufreq's scaling_cur_freq (kHz) while
// the firmware limits nothing. Pure; never throws.
import { collectorLineParser, type CollectorParser } from './collector';
import { readBoardTick } from './board-sysfs-tick';
import type { ThrottledRecord } from '../parsers/records';

/** The series of the firmware's whole get_throttled word (a bit mask: its values are read in hex). */
export const THROTTLED_BITS_KEY = 'rpi.throttledBits';

/** get_throttled bits as series: `now` is bits 0–3, `sticky` (has occurred since boot) bits 16–19. */
export const THROTTLE_SERIES: ReadonlyArray<{ key: string; label: string; of: (t: ThrottledRecord) => boolean }> = [
  { key: 'rpi.underVoltageNow', label: 'under-voltage now', of: (t) => t.underVoltageNow },
  { key: 'rpi.underVoltageSticky', label: 'under-voltage since boot', of: (t) => t.underVoltageOccurred },
  { key: 'rpi.armFreqCappedNow', label: 'ARM clock capped now', of: (t) => t.armFreqCappedNow },
  { key: 'rpi.armFreqCappedSticky', label: 'ARM clock capped since boot', of: (t) => t.armFreqCappedOccurred },
  { key: 'rpi.throttledNow', label: 'throttled now', of: (t) => t.throttledNow },
  { key: 'rpi.throttledSticky', label: 'throttled since boot', of: (t) => t.throttledOccurred },
  { key: 'rpi.softTempLimitNow', label: 'soft temperature limit now', of: (t) => t.softTempLimitNow },
  { key: 'rpi.softTempLimitSticky', label: 'soft temperature limit since boot', of: (t) => t.softTempLimitOccurred },
];

const HZ_PER_MHZ = 1e6;
const KHZ_PER_MHZ = 1e3;

export function createVcgencmdCollectorParser(): CollectorParser {
  return collectorLineParser((line) => {
    const tick = readBoardTick(line);
    if (tick.kind === 'diagnostic') return tick;
    const values: Record<string, number | null> = {};
    let unread: { reason: string; text: string } | undefined;
    for (const r of tick.records) {
      if (r.kind === 'diagnostic') return { kind: 'diagnostic', reason: r.reason, text: line };
      if (r.kind === 'throttled') {
        values[THROTTLED_BITS_KEY] = r.bits;
        for (const s of THROTTLE_SERIES) values[s.key] = s.of(r) ? 1 : 0;
      } else if (r.kind === 'vc-temp') values['rpi.soc.C'] = r.tempC;
      else if (r.kind === 'thermal-zone' && r.tempC !== null) values['rpi.soc.C'] = r.tempC;
      // The ARM runs while it answers: 0 Hz is no measurement of it (a stopped block reads 0).
      else if (r.kind === 'vc-clock' && r.freqHz === 0)
        unread = {
          reason: 'the firmware measured the ARM clock as 0 Hz: not a reading',
          text: `frequency(${r.clockId})=0`,
        };
      else if (r.kind === 'vc-clock') values['rpi.armFreqMHz'] = r.freqHz / HZ_PER_MHZ;
      // cpufreq's clock, where the firmware limits nothing (the collector sends it only then).
      else if (r.kind === 'cpufreq' && r.attr === 'scaling_cur_freq' && r.freqKHz !== null)
        values['rpi.armFreqMHz'] = r.freqKHz / KHZ_PER_MHZ;
    }
    if (Object.keys(values).length === 0)
      return { kind: 'diagnostic', reason: unread?.reason ?? 'vcgencmd line without a reading', text: line };
    return { kind: 'sample', uptimeMs: tick.uptimeMs, values, ...(unread ? { unread } : {}) };
  });
}
