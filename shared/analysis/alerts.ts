// Alert rules: when a live run deserves the user's attention. ONE pure module used by the run
// (electron/node/run/run-controller.ts turns new alerts into `alert` run events, so they reach
// `kvscope profile --json` and sessions) and by the dashboard (renderer/src/ui/dashboard/, with
// the thresholds the user set). Each call looks at one observation and the previous state and
// returns the alerts that are new; a rule fires once when its condition starts and re-arms only
// after it has cleared (by a margin where a value could hover on the line).
import type { RunEvent } from '../api/schemas';
import { seriesOf } from '../collectors/registry';
import { seriesName } from '../collectors/series-names';
import { DEFAULT_ALERT_THRESHOLDS, type AlertRule, type AlertThresholds } from './alert-thresholds';

// The rules' names and thresholds, and their schema, are alert-thresholds.ts' (re-exported here:
// the rules and their settings are used together).
export {
  ALERT_RULES,
  AlertThresholdsSchema,
  DEFAULT_ALERT_THRESHOLDS,
  sanitizeThresholds,
  type AlertRule,
  type AlertThresholds,
} from './alert-thresholds';

export const ALERT_REASONS: Record<AlertRule, { label: string; reason: string }> = {
  'rss-budget': {
    label: 'RSS near the budget',
    reason:
      '80 % is the habit of the field’s RSS monitors: late enough not to nag, early enough to stop a run before the OOM killer does.',
  },
  'oom-horizon': {
    label: 'OOM horizon close',
    reason:
      'At the measured bytes per token the budget is crossed within this many tokens; 1024 is about one long answer of a chat model.',
  },
  'near-trip': {
    label: 'Temperature near a trip point',
    reason:
      'Kernel passive trip points cap clocks a few degrees before the trip; a clock held low within the same 5 °C of the trip is counted as throttling.',
  },
  throttling: {
    label: 'Throttling started',
    reason: 'Tokens/s measured while throttled are not the board’s speed: the interval is shaded on every panel.',
  },
  'swap-in': {
    label: 'Swap-in activity',
    reason: 'Pages coming back from swap or zram stall decoding; 1 MiB/s is well above background noise.',
  },
  'engine-exited': {
    label: 'Engine failed',
    reason:
      'An engine that leaves without being stopped, with a non-zero status or a signal, crashed, hit a limit or was killed (status 0 is a normal end).',
  },
};

/** What one moment of a run looks like to the rules; absent fields mean "not collected". */
export interface AlertObservation {
  tMs: number;
  rssBytes?: number | null;
  budgetBytes?: number | null;
  /** Generated tokens so far. */
  tokens?: number | null;
  /** The analysis' OOM horizon: the generated-token count at which the charge the kernel acts on reaches the budget (run-analysis.ts). */
  oomHorizonTokens?: number | null;
  /** Temperature per zone (sample key or zone name), °C. */
  tempsC?: Readonly<Record<string, number | null>>;
  /** Trip point per zone (same keys as tempsC), °C. */
  tripsC?: Readonly<Record<string, number | null>>;
  /** Whether the run is inside a throttle interval now (shared/analysis/throttle.ts). */
  throttling?: boolean | null;
  /** Why (throttle.ts' reasons: 'thermal', the Raspberry Pi firmware's bits), for the message. */
  throttleReasons?: readonly string[];
  /** Swap-in rate where collected (/proc/vmstat pswpin), bytes per second. */
  swapInBytesPerSecond?: number | null;
  /** The engine's swapped-out memory (VmSwap), bytes: a rise means its pages are being pushed to swap. */
  engineSwapBytes?: number | null;
  /** Set once the engine has exited: its status code or the signal that ended it. */
  engineExit?: { code: number | null; signal?: string | null; stoppedByUser?: boolean } | null;
}

export interface AlertState {
  /** Rule (or rule:zone) keys currently raised; they re-arm when their condition clears. */
  readonly raised: ReadonlySet<string>;
  /** Last engine VmSwap seen, with its time (for the swap rate where vmstat is not collected). */
  readonly lastEngineSwap: { tMs: number; bytes: number } | null;
}

export const INITIAL_ALERT_STATE: AlertState = { raised: new Set(), lastEngineSwap: null };

export interface Alert {
  tMs: number;
  rule: AlertRule;
  severity: 'warning' | 'critical';
  message: string;
  data: Record<string, number | string | null>;
}

/** A trip point is re-armed once the zone has cooled this far below "near": no flapping on the line. */
const NEAR_TRIP_HYSTERESIS_C = 2;

const finite = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** A zone of tempsC for people: a sample key as the reports name its series, a zone name as it is. */
function sensorName(zone: string): string {
  const series = seriesOf(zone);
  return series ? seriesName(series) : zone;
}

/** The alerts that start at this observation, and the state for the next call. Pure. */
export function evaluateAlerts(
  state: AlertState,
  o: AlertObservation,
  thresholds: AlertThresholds = DEFAULT_ALERT_THRESHOLDS,
): { alerts: Alert[]; state: AlertState } {
  // The state's set is shared until a key is raised or cleared: a session's 28,800 observations
  // replayed at open copy it only where something changes.
  let raised = state.raised;
  const changed = (): Set<string> => (raised === state.raised ? (raised = new Set(raised)) : raised) as Set<string>;
  const alerts: Alert[] = [];
  // on: the condition holds now; off: it has cleared (may differ from !on by a hysteresis margin).
  const judge = (key: string, rule: AlertRule, on: boolean, off: boolean, make: () => Omit<Alert, 'tMs' | 'rule'>) => {
    if (!thresholds.enabled[rule]) return;
    if (on && !raised.has(key)) {
      changed().add(key);
      alerts.push({ tMs: o.tMs, rule, ...make() });
    } else if (off && raised.has(key)) changed().delete(key);
  };

  const budget = o.budgetBytes;
  if (finite(budget) && budget > 0 && finite(o.rssBytes)) {
    const rss = o.rssBytes;
    const fraction = rss / budget;
    judge(
      'rss-budget',
      'rss-budget',
      fraction >= thresholds.rssBudgetFraction,
      fraction < thresholds.rssBudgetFraction,
      () => ({
        severity: fraction >= 1 ? 'critical' : 'warning',
        message: `RSS ${mib(rss)} is ${Math.round(fraction * 100)} % of the ${mib(budget)} memory budget (alert at ${Math.round(thresholds.rssBudgetFraction * 100)} %)`,
        data: { rssBytes: rss, budgetBytes: budget, fraction, thresholdFraction: thresholds.rssBudgetFraction },
      }),
    );
  }

  const horizon = o.oomHorizonTokens;
  const tokens = o.tokens;
  if (finite(horizon) && finite(tokens)) {
    const left = Math.max(0, horizon - tokens);
    judge(
      'oom-horizon',
      'oom-horizon',
      left <= thresholds.oomHorizonTokens,
      left > thresholds.oomHorizonTokens,
      () => ({
        severity: left === 0 ? 'critical' : 'warning',
        message:
          left === 0
            ? 'RSS has reached the memory budget'
            : `the memory budget is ${left} tokens away at the measured bytes per token`,
        data: { tokensLeft: left, oomHorizonTokens: horizon, tokens },
      }),
    );
  }

  for (const [zone, tempC] of Object.entries(o.tempsC ?? {})) {
    const tripC = o.tripsC?.[zone];
    if (!finite(tempC) || !finite(tripC)) continue;
    const near = tripC - thresholds.nearTripC;
    judge(`near-trip:${zone}`, 'near-trip', tempC >= near, tempC < near - NEAR_TRIP_HYSTERESIS_C, () => ({
      severity: tempC >= tripC ? 'critical' : 'warning',
      message: `${sensorName(zone)} at ${tempC.toFixed(1)} °C, ${(tripC - tempC).toFixed(1)} °C below its ${tripC} °C trip point`,
      data: { zone, tempC, tripC },
    }));
  }

  if (typeof o.throttling === 'boolean') {
    const throttling = o.throttling;
    const reasons = o.throttleReasons ?? [];
    // A Pi's firmware caps clocks for under-voltage too, at any temperature: the message says which.
    const why =
      reasons.length === 0 || (reasons.length === 1 && reasons[0] === 'thermal')
        ? 'clocks are capped while the board is hot'
        : `clocks are capped (${reasons.join(', ')})`;
    const data: Record<string, string> = reasons.length > 0 ? { reasons: reasons.join(',') } : {};
    judge('throttling', 'throttling', throttling, !throttling, () => ({
      severity: 'warning',
      message: `throttling started: ${why}`,
      data,
    }));
  }

  let lastEngineSwap = state.lastEngineSwap;
  let swapRate: number | null = finite(o.swapInBytesPerSecond) ? o.swapInBytesPerSecond : null;
  let swapSource = 'swap-in';
  if (finite(o.engineSwapBytes)) {
    if (swapRate === null && lastEngineSwap && o.tMs > lastEngineSwap.tMs) {
      swapRate = ((o.engineSwapBytes - lastEngineSwap.bytes) * 1000) / (o.tMs - lastEngineSwap.tMs);
      swapSource = 'engine swap-out';
    }
    lastEngineSwap = { tMs: o.tMs, bytes: o.engineSwapBytes };
  }
  if (swapRate !== null) {
    const rate = swapRate;
    judge(
      'swap-in',
      'swap-in',
      rate >= thresholds.swapInBytesPerSecond,
      rate < thresholds.swapInBytesPerSecond,
      () => ({
        severity: 'warning',
        message: `${swapSource} activity at ${mib(rate)}/s: the board is short of memory`,
        data: { bytesPerSecond: rate, source: swapSource },
      }),
    );
  }

  const exit = o.engineExit;
  // Status 0 is an engine that did what it was asked (its tokens, its prompts) and left: not an
  // alert, or every finished run and sweep point would raise one (the rule's reason above).
  if (exit && !exit.stoppedByUser && (exit.code !== 0 || exit.signal)) {
    judge('engine-exited', 'engine-exited', true, false, () => ({
      severity: 'critical',
      message: exit.signal
        ? `the engine was ended by ${exit.signal}`
        : `the engine exited with status ${exit.code ?? 'unknown'}`,
      data: { code: exit.code, signal: exit.signal ?? null },
    }));
  }

  return { alerts, state: { raised, lastEngineSwap } };
}

/** An alert as a run event (the run's events, `profile --json`, sessions): data.rule names the rule. */
export function alertToRunEvent(alert: Alert): RunEvent {
  return {
    tMs: alert.tMs,
    kind: 'alert',
    message: alert.message,
    data: { rule: alert.rule, severity: alert.severity, ...alert.data },
  };
}
