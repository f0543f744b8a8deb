// Throttle intervals and what they cost in tokens/s (docs/DESIGN.md: "CPU/GPU/EMC clock below its
// maximum while temperature is near a trip point (or Raspberry Pi get_throttled bits)").
//
// A sample counts as throttled when
//   - its temperature is within `nearTripC` of the trip point AND a clock is below
//     `clockBelowFraction` of its maximum (a low clock alone is usually just the governor idling,
//     a high temperature alone is not yet a loss), or
//   - a Raspberry Pi get_throttled word has bit 1 (ARM frequency capped), 2 (throttled) or
//     3 (soft temperature limit) set — the "now" bits; 16–19 only say it happened since boot.
// An interval runs from the first throttled sample to the first sample after it that is not
// throttled (or the last sample), so the time between ticks is attributed to the state seen.
import type { Sample } from '../api/schemas';
import { tokensAt, type TokenEvent } from './throughput';

// Defaults, each with its reason.
/** Kernel passive trip points act a few degrees before the trip; 5 °C catches the approach without flagging normal warm running. */
export const DEFAULT_NEAR_TRIP_C = 5;
/** Governors and DVFS jitter keep busy clocks within ~10% of max; below 90% while hot is a cap. */
export const DEFAULT_CLOCK_BELOW_FRACTION = 0.9;

export const RPI_UNDER_VOLTAGE_NOW = 1 << 0;
export const RPI_FREQ_CAPPED_NOW = 1 << 1;
export const RPI_THROTTLED_NOW = 1 << 2;
export const RPI_SOFT_TEMP_LIMIT_NOW = 1 << 3;

export type ThrottleReason =
  'thermal' | 'rpi-freq-capped' | 'rpi-throttled' | 'rpi-soft-temp-limit' | 'rpi-under-voltage';

export interface ThrottlePoint {
  tMs: number;
  /** Hottest relevant sensor, °C. */
  tempC: number | null;
  /** Lowest clock as a fraction of its maximum (0..1). */
  clockFraction: number | null;
  /** Raspberry Pi get_throttled word. */
  rpiThrottled?: number | null;
}

export interface ThrottleOptions {
  /** Trip point, °C (from the board's thermal zones, else a device preset). */
  tripC?: number | null;
  nearTripC?: number;
  clockBelowFraction?: number;
  /** Merge intervals separated by at most this gap. */
  mergeGapMs?: number;
}

export interface ThrottleInterval {
  startMs: number;
  endMs: number;
  reasons: ThrottleReason[];
  maxTempC: number | null;
  minClockFraction: number | null;
}

/** Reasons a get_throttled word gives for throttling now ([] when it does not throttle). */
export function rpiThrottleReasons(word: number): ThrottleReason[] {
  const reasons: ThrottleReason[] = [];
  if (word & RPI_FREQ_CAPPED_NOW) reasons.push('rpi-freq-capped');
  if (word & RPI_THROTTLED_NOW) reasons.push('rpi-throttled');
  if (word & RPI_SOFT_TEMP_LIMIT_NOW) reasons.push('rpi-soft-temp-limit');
  if (reasons.length && word & RPI_UNDER_VOLTAGE_NOW) reasons.push('rpi-under-voltage');
  return reasons;
}

function pointReasons(
  p: ThrottlePoint,
  o: Required<Pick<ThrottleOptions, 'nearTripC' | 'clockBelowFraction'>> & { tripC: number | null },
): ThrottleReason[] {
  const reasons: ThrottleReason[] = [];
  if (
    o.tripC !== null &&
    p.tempC !== null &&
    p.clockFraction !== null &&
    p.tempC >= o.tripC - o.nearTripC &&
    p.clockFraction < o.clockBelowFraction
  ) {
    reasons.push('thermal');
  }
  if (typeof p.rpiThrottled === 'number') reasons.push(...rpiThrottleReasons(p.rpiThrottled));
  return reasons;
}

export function detectThrottleIntervals(
  points: readonly ThrottlePoint[],
  options: ThrottleOptions = {},
): ThrottleInterval[] {
  const o = {
    tripC: options.tripC ?? null,
    nearTripC: options.nearTripC ?? DEFAULT_NEAR_TRIP_C,
    clockBelowFraction: options.clockBelowFraction ?? DEFAULT_CLOCK_BELOW_FRACTION,
  };
  const sorted = [...points].filter((p) => Number.isFinite(p.tMs)).sort((a, b) => a.tMs - b.tMs);
  const out: ThrottleInterval[] = [];
  let open: ThrottleInterval | null = null;
  for (const p of sorted) {
    const reasons = pointReasons(p, o);
    if (reasons.length) {
      if (!open) open = { startMs: p.tMs, endMs: p.tMs, reasons: [], maxTempC: null, minClockFraction: null };
      open.endMs = p.tMs;
      for (const r of reasons) if (!open.reasons.includes(r)) open.reasons.push(r);
      if (p.tempC !== null) open.maxTempC = open.maxTempC === null ? p.tempC : Math.max(open.maxTempC, p.tempC);
      if (p.clockFraction !== null)
        open.minClockFraction =
          open.minClockFraction === null ? p.clockFraction : Math.min(open.minClockFraction, p.clockFraction);
    } else if (open) {
      open.endMs = p.tMs;
      out.push(open);
      open = null;
    }
  }
  if (open) out.push(open);
  const gap = options.mergeGapMs ?? 0;
  const merged: ThrottleInterval[] = [];
  for (const i of out) {
    const prev = merged[merged.length - 1];
    if (prev && i.startMs - prev.endMs <= gap) {
      prev.endMs = Math.max(prev.endMs, i.endMs);
      for (const r of i.reasons) if (!prev.reasons.includes(r)) prev.reasons.push(r);
      prev.maxTempC =
        prev.maxTempC === null ? i.maxTempC : i.maxTempC === null ? prev.maxTempC : Math.max(prev.maxTempC, i.maxTempC);
      prev.minClockFraction =
        prev.minClockFraction === null
          ? i.minClockFraction
          : i.minClockFraction === null
            ? prev.minClockFraction
            : Math.min(prev.minClockFraction, i.minClockFraction);
    } else merged.push({ ...i, reasons: [...i.reasons] });
  }
  return merged;
}

export interface ThrottleCost {
  insideMs: number;
  outsideMs: number;
  insideTokensPerSecond: number | null;
  outsideTokensPerSecond: number | null;
  /** 1 − inside/outside: the share of decode speed lost while throttled; null without both. */
  costFraction: number | null;
}

/** Decode tokens/s inside throttle intervals vs outside, over the span from the first token to the last. */
export function throughputInsideOutside(
  intervals: readonly ThrottleInterval[],
  events: readonly TokenEvent[],
): ThrottleCost {
  const decode = events.filter((e) => e.tokens >= 1);
  const first = decode[0];
  const last = decode[decode.length - 1];
  if (decode.length < 2 || !first || !last)
    return { insideMs: 0, outsideMs: 0, insideTokensPerSecond: null, outsideTokensPerSecond: null, costFraction: null };
  const t0 = first.tMs;
  const t1 = last.tMs;
  const total = tokensAt(events, t1) - tokensAt(events, t0);
  let insideMs = 0;
  let insideTokens = 0;
  for (const i of intervals) {
    const a = Math.max(i.startMs, t0);
    const b = Math.min(i.endMs, t1);
    if (b <= a) continue;
    insideMs += b - a;
    insideTokens += tokensAt(events, b) - tokensAt(events, a);
  }
  const outsideMs = t1 - t0 - insideMs;
  const rate = (tokens: number, ms: number) => (ms > 0 ? (tokens * 1000) / ms : null);
  const inside = rate(insideTokens, insideMs);
  const outside = rate(total - insideTokens, outsideMs);
  return {
    insideMs,
    outsideMs,
    insideTokensPerSecond: inside,
    outsideTokensPerSecond: outside,
    costFraction: inside !== null && outside !== null && outside > 0 ? 1 - inside / outside : null,
  };
}

export interface ThrottleSampleKeys {
  /** Temperature keys to take the maximum of (default: every key ending in "TempC"). */
  tempKeys?: readonly string[];
  /** Pairs of current/maximum clock keys (default: every "<x>FreqKHz" with a "<x>MaxFreqKHz"). */
  clockKeys?: ReadonlyArray<{ cur: string; max: string }>;
  /** Key holding the Raspberry Pi get_throttled word. */
  rpiKey?: string;
}

/**
 * Throttle points from samples. Samples of one tick may come from several collectors (thermal,
 * cpufreq, vcgencmd): values with the same tMs are combined.
 */
export function throttlePointsFromSamples(samples: readonly Sample[], keys: ThrottleSampleKeys = {}): ThrottlePoint[] {
  const rpiKey = keys.rpiKey ?? 'rpiThrottled';
  const byTime = new Map<number, Record<string, number>>();
  for (const s of samples) {
    if (!Number.isFinite(s.tMs)) continue;
    const v = byTime.get(s.tMs) ?? {};
    for (const [k, x] of Object.entries(s.values)) if (typeof x === 'number' && Number.isFinite(x)) v[k] = x;
    byTime.set(s.tMs, v);
  }
  const out: ThrottlePoint[] = [];
  for (const [tMs, v] of [...byTime.entries()].sort((a, b) => a[0] - b[0])) {
    const tempKeys = keys.tempKeys ?? Object.keys(v).filter((k) => /TempC$/.test(k));
    let tempC: number | null = null;
    for (const k of tempKeys) {
      const t = v[k];
      if (t !== undefined) tempC = tempC === null ? t : Math.max(tempC, t);
    }
    const clockKeys =
      keys.clockKeys ??
      Object.keys(v)
        .filter((k) => /FreqKHz$/.test(k) && !/MaxFreqKHz$/.test(k))
        .map((k) => ({ cur: k, max: k.replace(/FreqKHz$/, 'MaxFreqKHz') }));
    let clockFraction: number | null = null;
    for (const { cur, max } of clockKeys) {
      const curKHz = v[cur];
      const maxKHz = v[max];
      if (curKHz === undefined || maxKHz === undefined || maxKHz <= 0) continue;
      const f = curKHz / maxKHz;
      clockFraction = clockFraction === null ? f : Math.min(clockFraction, f);
    }
    const rpi = v[rpiKey] ?? null;
    if (tempC === null && clockFraction === null && rpi === null) continue;
    out.push({ tMs, tempC, clockFraction, rpiThrottled: rpi });
  }
  return out;
}
