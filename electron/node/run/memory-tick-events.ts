// The events a memory sampler tick gives rise to, besides its sample: which process of the
// engine's group is measured (when that changes), and the alerts of shared/analysis/alerts.ts
// (the same rules the dashboard applies) — with the near-trip and throttling alerts of every
// collector's temperatures, clocks and get_throttled bits. Part of a RunController (run-controller.ts).
import type { RunEvent } from '../../../shared/api/schemas';
import {
  alertToRunEvent,
  DEFAULT_ALERT_THRESHOLDS,
  evaluateAlerts,
  INITIAL_ALERT_STATE,
  type AlertObservation,
  type AlertThresholds,
} from '../../../shared/analysis/alerts';
import { clockCeilingsOf, passiveTripsByKey, ThrottleWatch } from '../../../shared/analysis/throttle';
import { tempKey } from '../../../shared/collectors/procfs-sampler-parser';
import type { MeasuredProcess } from '../../../shared/run/run-record';
import type { TargetFacts } from '../../../shared/run/target-facts';

export class MemoryTickEvents {
  /** The processes whose memory the sampler measured, each from when it was chosen. */
  readonly measuredProcesses: MeasuredProcess[] = [];
  private alertState = INITIAL_ALERT_STATE;
  /** The board's passive trip per temperature series (its probe facts); the lowest is the throttle rule's. */
  private readonly tripsC: Record<string, number>;
  private readonly throttle: ThrottleWatch;

  constructor(
    targetFacts: TargetFacts | null = null,
    /** The run request's (the user's settings in the app); every alert of the run is judged with them. */
    private readonly thresholds: AlertThresholds = DEFAULT_ALERT_THRESHOLDS,
  ) {
    this.tripsC = passiveTripsByKey(targetFacts?.thermal ?? [], tempKey);
    const trips = Object.values(this.tripsC);
    this.throttle = new ThrottleWatch(trips.length > 0 ? Math.min(...trips) : null, clockCeilingsOf(targetFacts));
  }

  /**
   * The memory sampler measures the largest process of the engine's group and names it in each
   * tick (taken out of the sample's values here: they are series). A change, or a first choice
   * other than the process the launcher started (a wrapper's child), becomes an event.
   */
  noteMeasured(tMs: number, values: Record<string, number | null>, enginePid: number | null): RunEvent | null {
    const pid = values.measuredPid;
    const groupProcesses = values.groupProcesses ?? null;
    delete values.measuredPid;
    delete values.groupProcesses;
    if (typeof pid !== 'number') return null;
    const last = this.measuredProcesses.at(-1);
    if (last?.pid === pid) return null;
    this.measuredProcesses.push({ pid, tMs, groupProcesses });
    if (!last && pid === enginePid) return null;
    return {
      tMs,
      kind: 'info',
      message: `measuring process ${pid}, the largest of ${groupProcesses ?? '?'} in the engine's process group${last ? ` (was ${last.pid})` : ` (the command started ${enginePid ?? '?'})`}`,
      data: { pid, groupProcesses },
    };
  }

  /**
   * The near-trip and throttling alerts a collector's sample raises (any collector: the procfs
   * sampler's zones and cpufreq, tegrastats, vcgencmd), as run events; none from a sample
   * without a temperature, clock or get_throttled reading.
   */
  thermalAlerts(tMs: number, values: Readonly<Record<string, number | null>>): RunEvent[] {
    const now = this.throttle.observe(values);
    if (now.throttling === null) return [];
    return this.alerts({
      tMs,
      tempsC: now.tempsC,
      tripsC: this.tripsC,
      throttling: now.throttling,
      throttleReasons: now.reasons,
    });
  }

  /** The alerts this tick raises (each once, as shared/analysis/alerts.ts decides), as run events. */
  alerts(observation: AlertObservation): RunEvent[] {
    const { alerts, state } = evaluateAlerts(this.alertState, observation, this.thresholds);
    this.alertState = state;
    return alerts.map(alertToRunEvent);
  }
}
