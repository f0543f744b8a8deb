// What a dashboard panel without a track says instead: why it is empty and what would fill it.
import type { PanelId } from './series-catalog';

export const EMPTY_TEXT: Record<Exclude<PanelId, 'memory'>, string> = {
  throughput: 'No tokens yet. Tokens/s appears with the first generated token.',
  thermal:
    'No temperature or clock readings from this target: it exposes no /sys/class/thermal zones or cpufreq policies (common in VMs). Run on a board to see them.',
  power:
    'No power rails or performance counters collected. They appear when the target has them (tegrastats rails on Jetson, perf counters with perf_event_paranoid ≤ 1).',
  events: 'No events yet. Start a run; press M (or Marker) to mark a moment.',
};

/**
 * The Power and counters panel draws rails, energy and the hardware counters' per-token figures;
 * perf's software events (task-clock, page faults, context switches) are listed in All series. A
 * target where perf counted only those must not read "no performance counters collected".
 */
export function powerEmptyText(keys: Iterable<string>): string {
  for (const key of keys)
    if (key.startsWith('perf.'))
      return 'No power rails or hardware counters from this target: perf counted only its software events here (task-clock, page faults, context switches: see All series), as on a VM without a PMU or with perf_event_paranoid above 1. Rails come from tegrastats on a Jetson or from hwmon power sensors.';
  return EMPTY_TEXT.power;
}
