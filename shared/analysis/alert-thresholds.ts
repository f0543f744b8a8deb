// The alert rules' names, thresholds and switches: ONE schema for what the dashboard's Alerts…
// popover keeps (renderer/src/ui/dashboard/AlertSettings.tsx, localStorage) and what a run request
// carries (RunRequest.alertThresholds, shared/api/schemas.ts), so the alerts the run raises itself
// (electron/node/run/memory-tick-events.ts) follow the user's settings too. The rules themselves
// are in alerts.ts. Pure.
import { z } from 'zod';

export const ALERT_RULES = [
  'rss-budget',
  'oom-horizon',
  'near-trip',
  'throttling',
  'swap-in',
  'engine-exited',
] as const;

export type AlertRule = (typeof ALERT_RULES)[number];

/** Each threshold's range: a request outside it is refused, a stored value outside it takes the default. */
export const AlertThresholdsSchema = z
  .object({
    /** Each rule on or off. */
    enabled: z.record(z.enum(ALERT_RULES), z.boolean()),
    /** rss-budget: fire when RSS ≥ this fraction of the memory budget (0..1]. */
    rssBudgetFraction: z.number().min(0.05).max(1),
    /** oom-horizon: fire when the budget is this many generated tokens away or fewer (whole tokens). */
    oomHorizonTokens: z.number().int().min(0).max(100_000_000),
    /** near-trip: fire when a zone is within this many °C of its trip point. */
    nearTripC: z.number().min(0).max(100),
    /** swap-in: fire when swap-in activity reaches this many bytes per second (at most 1 TiB/s: whole in MiB/s, the popover's unit). */
    swapInBytesPerSecond: z
      .number()
      .min(0)
      .max(1024 ** 4),
  })
  .strict();

export type AlertThresholds = z.infer<typeof AlertThresholdsSchema>;

/**
 * How near a trip point counts as near, °C: kernel passive trips cap clocks a few degrees before
 * the trip, and 5 °C catches the approach without flagging normal warm running. The throttle rule
 * (throttle.ts) and the near-trip alert's default both use it.
 */
export const DEFAULT_NEAR_TRIP_C = 5;

/** The defaults; the reason for each is in alerts.ts' ALERT_REASONS (shown in the settings popover). */
export const DEFAULT_ALERT_THRESHOLDS: AlertThresholds = {
  enabled: {
    'rss-budget': true,
    'oom-horizon': true,
    'near-trip': true,
    throttling: true,
    'swap-in': true,
    'engine-exited': true,
  },
  rssBudgetFraction: 0.8,
  oomHorizonTokens: 1024,
  nearTripC: DEFAULT_NEAR_TRIP_C,
  swapInBytesPerSecond: 1024 * 1024,
};

type NumericField = Exclude<keyof AlertThresholds, 'enabled'>;
const NUMERIC_FIELDS: readonly NumericField[] = [
  'rssBudgetFraction',
  'oomHorizonTokens',
  'nearTripC',
  'swapInBytesPerSecond',
];

/** Thresholds read back from storage or a form: unknown or out-of-range fields take the default. */
export function sanitizeThresholds(input: unknown): AlertThresholds {
  const d = DEFAULT_ALERT_THRESHOLDS;
  const o = (typeof input === 'object' && input !== null ? input : {}) as Partial<
    Record<keyof AlertThresholds, unknown>
  >;
  const enabledIn = (typeof o.enabled === 'object' && o.enabled !== null ? o.enabled : {}) as Record<string, unknown>;
  const enabled = Object.fromEntries(
    ALERT_RULES.map((rule) => [rule, typeof enabledIn[rule] === 'boolean' ? enabledIn[rule] : d.enabled[rule]]),
  ) as Record<AlertRule, boolean>;
  const out: AlertThresholds = { ...d, enabled };
  for (const field of NUMERIC_FIELDS) {
    const parsed = AlertThresholdsSchema.shape[field].safeParse(o[field]);
    if (parsed.success && Number.isFinite(parsed.data)) out[field] = parsed.data;
  }
  return out;
}
