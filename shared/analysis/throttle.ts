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
import { isAlarmLevelKey } from './alarm-sensors';
import { seriesOfSamples, type TimeSeries } from './time-series';
import { maxOfPresent, minOfPresent } from '../util/nullable-extremes';
import type { CpufreqPolicy, ThermalZone } from '../probe/probe-schema';
import { DEFAULT_NEAR_TRIP_C } from './alert-thresholds';
import { tokenEventsFromSamples, type TokenEvent } from './throughput';

// Defaults, each with its reason.
/** Governors and DVFS jitter keep busy clocks within ~10% of max; below 90% while hot is a cap. */
export const DEFAULT_CLOCK_BELOW_FRACTION = 0.9;
/**
 * A passive trip below room temperature caps nothing: it is a driver printing degrees where sysfs
 * means millidegrees (`85` read as 0.085 °C) or a trip left at 0 (unused). Taken as the trip, it
 * would put every reading "near" it and make every idling clock a throttle.
 */
export const MIN_PLAUSIBLE_TRIP_C = 20;

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
  /** The clocks as a fraction of their maxima (0..1), by lowerClockFraction's rule. */
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

/**
 * A zone's throttle trip point: its lowest `passive` trip, where the kernel starts clocking down.
 * `active` trips switch fans (a Raspberry Pi's cpu-thermal has only an active one, at 70 °C:
 * test/fixtures/board-root/raspberry-pi-4), `hot` only notifies, `critical` shuts down: none of
 * them caps a clock, so "near" one says nothing about throttling. Null without a passive trip.
 */
export function zonePassiveTripC(zone: Pick<ThermalZone, 'trips'>): number | null {
  let trip: number | null = null;
  for (const t of zone.trips)
    if (t.type === 'passive' && t.tempC !== null && t.tempC >= MIN_PLAUSIBLE_TRIP_C)
      trip = trip === null ? t.tempC : Math.min(trip, t.tempC);
  return trip;
}

/** Each zone's passive trip, by the series key its temperature has (keyOf: the collector's, e.g. procfs-sampler-parser's tempKey). */
export function passiveTripsByKey(
  zones: ReadonlyArray<Pick<ThermalZone, 'type' | 'trips'>>,
  keyOf: (zoneType: string) => string,
): Record<string, number> {
  const trips: Record<string, number> = {};
  for (const zone of zones) {
    const tripC = zonePassiveTripC(zone);
    if (zone.type && tripC !== null) trips[keyOf(zone.type)] = tripC;
  }
  return trips;
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

const NO_REASONS: readonly ThrottleReason[] = [];

type RuleOptions = Required<Pick<ThrottleOptions, 'nearTripC' | 'clockBelowFraction'>> & { tripC: number | null };

function ruleOptions(options: ThrottleOptions): RuleOptions {
  return {
    tripC: options.tripC ?? null,
    nearTripC: options.nearTripC ?? DEFAULT_NEAR_TRIP_C,
    clockBelowFraction: options.clockBelowFraction ?? DEFAULT_CLOCK_BELOW_FRACTION,
  };
}

function pointReasons(
  tempC: number | null,
  clockFraction: number | null,
  rpiThrottled: number | null | undefined,
  o: RuleOptions,
): readonly ThrottleReason[] {
  const thermal =
    o.tripC !== null &&
    tempC !== null &&
    clockFraction !== null &&
    tempC >= o.tripC - o.nearTripC &&
    clockFraction < o.clockBelowFraction;
  // Most points are neither: no array made for them (an 8-hour session has 28,800).
  if (!thermal && typeof rpiThrottled !== 'number') return NO_REASONS;
  const reasons: ThrottleReason[] = [];
  if (thermal) reasons.push('thermal');
  if (typeof rpiThrottled === 'number') reasons.push(...rpiThrottleReasons(rpiThrottled));
  return reasons;
}

function finiteInTimeOrder(points: readonly ThrottlePoint[]): boolean {
  let last = -Infinity;
  for (const p of points) {
    if (!Number.isFinite(p.tMs) || p.tMs < last) return false;
    last = p.tMs;
  }
  return true;
}

/**
 * The throttle rule over points given one at a time, in time order: the intervals without an
 * array of points (the dashboard feeds it straight from the series, throttleIntervalsFromSeries).
 */
class ThrottleDetector {
  private readonly o: RuleOptions;
  private readonly out: ThrottleInterval[] = [];
  private open: ThrottleInterval | null = null;

  constructor(private readonly options: ThrottleOptions) {
    this.o = ruleOptions(options);
  }

  push(tMs: number, tempC: number | null, clockFraction: number | null, rpiThrottled: number | null | undefined): void {
    const reasons = pointReasons(tempC, clockFraction, rpiThrottled, this.o);
    let open = this.open;
    if (reasons.length) {
      if (!open) open = this.open = { startMs: tMs, endMs: tMs, reasons: [], maxTempC: null, minClockFraction: null };
      open.endMs = tMs;
      for (const r of reasons) if (!open.reasons.includes(r)) open.reasons.push(r);
      open.maxTempC = maxOfPresent(open.maxTempC, tempC);
      open.minClockFraction = minOfPresent(open.minClockFraction, clockFraction);
    } else if (open) {
      open.endMs = tMs;
      this.out.push(open);
      this.open = null;
    }
  }

  finish(): ThrottleInterval[] {
    if (this.open) this.out.push(this.open);
    this.open = null;
    const gap = this.options.mergeGapMs ?? 0;
    const merged: ThrottleInterval[] = [];
    for (const i of this.out) {
      const prev = merged[merged.length - 1];
      if (prev && i.startMs - prev.endMs <= gap) {
        prev.endMs = Math.max(prev.endMs, i.endMs);
        for (const r of i.reasons) if (!prev.reasons.includes(r)) prev.reasons.push(r);
        prev.maxTempC = maxOfPresent(prev.maxTempC, i.maxTempC);
        prev.minClockFraction = minOfPresent(prev.minClockFraction, i.minClockFraction);
      } else merged.push({ ...i, reasons: [...i.reasons] });
    }
    return merged;
  }
}

export function detectThrottleIntervals(
  points: readonly ThrottlePoint[],
  options: ThrottleOptions = {},
): ThrottleInterval[] {
  // Points usually come in time order (throttlePointsFromSeries makes them so): sorted only when not.
  const sorted = finiteInTimeOrder(points)
    ? points
    : points.filter((p) => Number.isFinite(p.tMs)).sort((a, b) => a.tMs - b.tMs);
  const detector = new ThrottleDetector(options);
  for (const p of sorted) detector.push(p.tMs, p.tempC, p.clockFraction, p.rpiThrottled);
  return detector.finish();
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
  return insideOutside(
    intervals,
    events.length,
    (i) => events[i]?.tMs ?? NaN,
    (i) => events[i]?.tokens ?? 0,
  );
}

/**
 * throughputInsideOutside over a cumulative token series' columns (the dashboard's buffer), read in
 * place: an 8-hour run at 10 Hz made 288,000 TokenEvents each time the dashboard looked.
 */
export function throughputInsideOutsideOfSeries(
  intervals: readonly ThrottleInterval[],
  tokens: ThrottleSeries | undefined,
): ThrottleCost {
  if (!tokens)
    return insideOutside(
      intervals,
      0,
      () => NaN,
      () => 0,
    );
  return insideOutside(
    intervals,
    tokens.length,
    (i) => tokens.t[i] ?? NaN,
    (i) => tokens.v[i] ?? 0,
  );
}

/** Events 0..n-1 in time order, read through tAt/countAt (tokensAt's rule: the last count at or before a time, else 0). */
function insideOutside(
  intervals: readonly ThrottleInterval[],
  n: number,
  tAt: (i: number) => number,
  countAt: (i: number) => number,
): ThrottleCost {
  // The first and the last event that counts a token (the decode span); two at least.
  let first = -1;
  for (let i = 0; i < n && first < 0; i++) if (countAt(i) >= 1) first = i;
  let last = -1;
  for (let i = n - 1; i > first && last < 0; i--) if (countAt(i) >= 1) last = i;
  if (first < 0 || last < 0)
    return { insideMs: 0, outsideMs: 0, insideTokensPerSecond: null, outsideTokensPerSecond: null, costFraction: null };
  const tokensAtTime = (tMs: number): number => {
    let lo = 0;
    let hi = n - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (tAt(mid) <= tMs) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? 0 : countAt(found);
  };
  const t0 = tAt(first);
  const t1 = tAt(last);
  const total = tokensAtTime(t1) - tokensAtTime(t0);
  let insideMs = 0;
  let insideTokens = 0;
  for (const i of intervals) {
    const a = Math.max(i.startMs, t0);
    const b = Math.min(i.endMs, t1);
    if (b <= a) continue;
    insideMs += b - a;
    insideTokens += tokensAtTime(b) - tokensAtTime(a);
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

// Which series the detection reads: the keys the collectors declare (shared/collectors/procfs-collector.ts,
// tegrastats-collector.ts, board-sysfs-collector.ts, vcgencmd-collector.ts).

/** Sensor readings in °C: thermal zones (procfs sampler), tegrastats and the Pi firmware. `trip.*.C` are limits, not readings. */
const TEMP_KEY = /^(?:temp|tegra\.temp)\..+\.C$|^rpi\.soc\.C$/;
/** Clocks, each against the highest value the run saw (the samplers do not read the hardware maximum). */
const CLOCK_KEY =
  /^cpufreq\.[^.]+\.KHz$|^tegra\.(?:cpu\.\d+|gpu|emc)\.freqMHz$|^devfreq\..+\.curFreqMHz$|^rpi\.armFreqMHz$/;
/** The Raspberry Pi get_throttled word (shared/collectors/vcgencmd-collector-parser.ts). */
export const RPI_THROTTLED_KEY = 'rpi.throttledBits';

/**
 * A temperature the rule reads. Not an alarm level (./alarm-sensors.ts: the Jetson PMIC's `PMIC@100C`
 * and `PMIC-Die` zone read a fixed 100 °C, 120 or 140 °C when an alarm fires): as the hottest sensor it
 * would hold a Jetson "near its trip" for the whole run and make every idling clock a throttle.
 */
export function isThrottleTempKey(key: string): boolean {
  return TEMP_KEY.test(key) && !isAlarmLevelKey(key);
}

export interface ThrottleClockKey {
  cur: string;
  /** The load series of the clock's unit (tegrastats' per core, GR3D, EMC), else null. */
  load: string | null;
  /**
   * A series holding the clock's cap now (a cpufreq policy's scaling_max_freq, a devfreq device's
   * max_freq), else null. Where there is one the rule reads the cap, not the clock: a unit left idle
   * sits at its floor under a cap at the top (an RK3588 running on its big cores, its Mali GPU and
   * NPU unused), and a thermal cap (cpufreq and devfreq cooling lower these, through PM QoS) shows
   * there whether the unit works or not. Its highest value is also the clock's ceiling.
   */
  cap: string | null;
}

/** The cap series of a clock series: cpufreq's `.max.KHz` (procfs sampler), devfreq's `maxFreqMHz` (board sysfs). */
function capKeyOf(clock: string): string | null {
  if (/^cpufreq\.[^.]+\.KHz$/.test(clock)) return clock.replace(/\.KHz$/, '.max.KHz');
  if (/\.curFreqMHz$/.test(clock)) return clock.replace(/curFreqMHz$/, 'maxFreqMHz');
  return null;
}

export function throttleClockKeys(keys: readonly string[]): ThrottleClockKey[] {
  const all = new Set(keys);
  return keys
    .filter((k) => CLOCK_KEY.test(k))
    .map((cur) => {
      const load = clockLoadKey(cur);
      const cap = capKeyOf(cur);
      return {
        cur,
        load: load !== null && all.has(load) ? load : null,
        cap: cap !== null && all.has(cap) ? cap : null,
      };
    });
}

/**
 * A unit whose load is below this says nothing about a cap on its clock: an idle GPU, memory
 * controller or core sits at its lowest clock by the governor's choice, hot board or not.
 */
export const BUSY_LOAD_PCT = 50;

/** The load series of the unit a clock drives, where a collector reads one (tegrastats). */
function clockLoadKey(clock: string): string | null {
  const m = /^tegra\.(cpu\.\d+|gpu|emc)\.freqMHz$/.exec(clock);
  return m ? `tegra.${m[1]}.loadPct` : null;
}

/**
 * The clocks' fraction of their maxima, as the rule reads it, one clock at a time (no object per
 * point: the dashboard folds 288,000 points of a long run at each look): the lowest so far and
 * this clock's value over its ceiling, unless its unit is idle where its load is read (tegrastats'
 * cores, GR3D, EMC: an idle GPU of a CPU-only engine sits at its floor, hot board or not). Null
 * while no clock counts. (cpufreq policies and devfreq devices have no load of their own here:
 * their caps stand for them, ThrottleClockKey.cap.)
 */
function lowerClockFraction(
  sofar: number | null,
  value: number,
  ceiling: number,
  loadPct: number | null,
): number | null {
  if (loadPct !== null && loadPct < BUSY_LOAD_PCT) return sofar;
  const f = value / ceiling;
  return sofar === null || f < sofar ? f : sofar;
}

/** A clock series' known hardware maximum, by key, in the series' unit. */
export type ClockCeilings = Readonly<Record<string, number>>;

/**
 * The hardware maximum of the clock series the probe can name: cpuinfo_max_freq of each cpufreq
 * policy (kHz) for the procfs sampler's `cpufreq.<policy>.KHz` and, in MHz, for tegrastats'
 * `tegra.cpu.<n>.freqMHz` of every CPU the policy clocks. Without it a clock is judged against
 * the highest it reached in the run, and a board throttled before the run started and until it
 * ended never shows its maximum: no interval at all.
 */
export function clockCeilingsFromPolicies(
  policies: ReadonlyArray<Pick<CpufreqPolicy, 'policy' | 'cpus' | 'hwMaxKHz'>>,
): ClockCeilings {
  const out: Record<string, number> = {};
  for (const p of policies) {
    if (p.hwMaxKHz === null || !(p.hwMaxKHz > 0)) continue;
    out[`cpufreq.${p.policy}.KHz`] = p.hwMaxKHz;
    for (const cpu of p.cpus) out[`tegra.cpu.${cpu}.freqMHz`] = p.hwMaxKHz / 1000;
  }
  return out;
}

/** clockCeilingsFromPolicies over a target's probe facts (none when the probe read no policy). */
export function clockCeilingsOf(target: { cpu?: { policies?: CpufreqPolicy[] } } | null | undefined): ClockCeilings {
  return clockCeilingsFromPolicies(target?.cpu?.policies ?? []);
}

/** One series as points in time order (a sample's value of one key, or the dashboard's buffer). */
export type ThrottleSeries = TimeSeries;

function seriesMax(s: ThrottleSeries | undefined): number {
  let m = 0;
  for (let i = 0; s && i < s.length; i++) {
    const x = s.v[i] ?? 0;
    if (Number.isFinite(x) && x > m) m = x;
  }
  return m;
}

/**
 * Throttle points from series: one point at every time any temperature, clock or get_throttled
 * series has a value, each series read at its latest value at or before that time (collectors
 * tick at their own pace: a clock read at 1 s and a temperature at 2 s both hold until their next
 * reading). Temperature: the hottest sensor; clock: the lowest as a fraction of its ceiling, of
 * the clocks whose unit works (lowerClockFraction).
 */
export function throttlePointsFromSeries(
  get: (key: string) => ThrottleSeries | undefined,
  keys: readonly string[],
  ceilings: ClockCeilings = {},
): ThrottlePoint[] {
  const out: ThrottlePoint[] = [];
  forEachThrottlePoint(get, keys, ceilings, (tMs, tempC, clockFraction, rpiThrottled) =>
    out.push({ tMs, tempC, clockFraction, rpiThrottled }),
  );
  return out;
}

/**
 * detectThrottleIntervals(throttlePointsFromSeries(…)) without the points: each goes straight to
 * the rule (what the dashboard runs while a long run grows; no object per point).
 */
export function throttleIntervalsFromSeries(
  get: (key: string) => ThrottleSeries | undefined,
  keys: readonly string[],
  ceilings: ClockCeilings = {},
  options: ThrottleOptions = {},
): ThrottleInterval[] {
  const detector = new ThrottleDetector(options);
  forEachThrottlePoint(get, keys, ceilings, (tMs, tempC, clockFraction, rpiThrottled) =>
    detector.push(tMs, tempC, clockFraction, rpiThrottled),
  );
  return detector.finish();
}

/** throttlePointsFromSeries' points, in time order, given to `visit` one by one. */
function forEachThrottlePoint(
  get: (key: string) => ThrottleSeries | undefined,
  keys: readonly string[],
  ceilings: ClockCeilings,
  visit: (tMs: number, tempC: number | null, clockFraction: number | null, rpiThrottled: number | null) => void,
): void {
  const temps = keys.filter(isThrottleTempKey).flatMap((k) => get(k) ?? []);
  const clocks = throttleClockKeys(keys).flatMap(({ cur, load, cap }) => {
    const clock = get(cur);
    const capped = cap === null ? undefined : get(cap);
    const ceiling = Math.max(ceilings[cur] ?? 0, seriesMax(clock), seriesMax(capped));
    // The cap, where it is read, stands for the clock (ThrottleClockKey.cap).
    const s = capped ?? clock;
    return s && ceiling > 0 ? [{ s, ceiling, load: load === null ? undefined : get(load) }] : [];
  });
  // A clock's load is read at the point's time (its latest reading then, as every series here)
  // without making points of its own: a cursor each.
  const loadNext = new Int32Array(clocks.length);
  const loadLatest = new Int32Array(clocks.length).fill(-1);
  const loadAt = (c: number, tMs: number): number | null => {
    const s = clocks[c]?.load;
    if (!s) return null;
    let i = loadNext[c] as number;
    for (; i < s.length; i++) {
      const t = s.t[i] as number;
      if (!Number.isFinite(t)) continue;
      if (t > tMs) break;
      loadLatest[c] = i;
    }
    loadNext[c] = i;
    const at = loadLatest[c] as number;
    const v = at < 0 ? NaN : (s.v[at] as number);
    return Number.isFinite(v) ? v : null;
  };
  const rpi = get(RPI_THROTTLED_KEY);
  const all = [...temps, ...clocks.map((c) => c.s), ...(rpi ? [rpi] : [])];
  const firstClock = temps.length;
  const rpiAt = rpi ? all.length - 1 : -1;
  // Each series is in time order: the points' times are a merge of theirs (no sort), and each
  // series is walked once. latest[j]: its last point at or before the current time (-1: none
  // yet); next[j]: its first point after it. A point with no finite time is passed over.
  const latest = new Int32Array(all.length).fill(-1);
  const next = new Int32Array(all.length);
  const valueAt = (j: number): number | null => {
    const i = latest[j] ?? -1;
    const v = i < 0 ? undefined : all[j]?.v[i];
    return v !== undefined && Number.isFinite(v) ? v : null;
  };
  for (;;) {
    let tMs = Infinity;
    for (let j = 0; j < all.length; j++) {
      const s = all[j] as ThrottleSeries;
      let i = next[j] as number;
      while (i < s.length && !Number.isFinite(s.t[i])) i += 1;
      next[j] = i;
      const t = i < s.length ? (s.t[i] as number) : Infinity;
      if (t < tMs) tMs = t;
    }
    if (tMs === Infinity) break;
    for (let j = 0; j < all.length; j++) {
      const s = all[j] as ThrottleSeries;
      let i = next[j] as number;
      for (; i < s.length; i++) {
        const t = s.t[i] as number;
        if (Number.isFinite(t)) {
          if (t > tMs) break;
          latest[j] = i;
        }
      }
      next[j] = i;
    }
    let tempC: number | null = null;
    for (let j = 0; j < firstClock; j++) {
      const v = valueAt(j);
      if (v !== null) tempC = tempC === null ? v : Math.max(tempC, v);
    }
    let clockFraction: number | null = null;
    for (let c = 0; c < clocks.length; c++) {
      const v = valueAt(firstClock + c);
      const clock = clocks[c] as (typeof clocks)[number];
      if (v !== null) clockFraction = lowerClockFraction(clockFraction, v, clock.ceiling, loadAt(c, tMs));
    }
    visit(tMs, tempC, clockFraction, rpiAt >= 0 ? valueAt(rpiAt) : null);
  }
}

/** Throttle points from samples (the run record's, a session's): throttlePointsFromSeries over their values. */
export function throttlePointsFromSamples(samples: readonly Sample[], ceilings: ClockCeilings = {}): ThrottlePoint[] {
  const byKey = seriesOfSamples(samples);
  return throttlePointsFromSeries((k) => byKey.get(k), [...byKey.keys()], ceilings);
}

/** What a live run's latest readings say (ThrottleWatch): for the near-trip and throttling alerts (./alerts.ts). */
export interface ThrottleNow {
  /** Every sensor's latest reading, °C, by series key. */
  tempsC: Record<string, number>;
  /** Throttled now, or null before any temperature, clock or get_throttled reading. */
  throttling: boolean | null;
  reasons: ThrottleReason[];
}

/**
 * The throttle rule (pointReasons) applied as readings arrive, one collector's sample at a time:
 * each reading held until its series reads again, each clock against the highest it has reached
 * so far (a live run cannot know the later maximum the finished run's intervals use).
 */
export class ThrottleWatch {
  private readonly held = new Map<string, number>();
  private readonly clockMax = new Map<string, number>();

  constructor(
    private readonly tripC: number | null,
    private readonly ceilings: ClockCeilings = {},
  ) {}

  observe(values: Readonly<Record<string, number | null | undefined>>): ThrottleNow {
    for (const [k, v] of Object.entries(values)) if (typeof v === 'number' && Number.isFinite(v)) this.held.set(k, v);
    const keys = [...this.held.keys()];
    const tempsC: Record<string, number> = {};
    let tempC: number | null = null;
    for (const k of keys.filter(isThrottleTempKey)) {
      const t = this.held.get(k) as number;
      tempsC[k] = t;
      tempC = tempC === null ? t : Math.max(tempC, t);
    }
    let clockFraction: number | null = null;
    for (const { cur, load, cap } of throttleClockKeys(keys)) {
      const v = (cap === null ? undefined : this.held.get(cap)) ?? this.held.get(cur) ?? 0;
      const ceiling = Math.max(this.ceilings[cur] ?? 0, this.clockMax.get(cur) ?? 0, v, this.held.get(cur) ?? 0);
      this.clockMax.set(cur, ceiling);
      const loadPct = load === null ? null : (this.held.get(load) ?? null);
      if (ceiling > 0) clockFraction = lowerClockFraction(clockFraction, v, ceiling, loadPct);
    }
    const rpiThrottled = this.held.get(RPI_THROTTLED_KEY) ?? null;
    if (tempC === null && clockFraction === null && rpiThrottled === null)
      return { tempsC, throttling: null, reasons: [] };
    const reasons = pointReasons(tempC, clockFraction, rpiThrottled, ruleOptions({ tripC: this.tripC }));
    return { tempsC, throttling: reasons.length > 0, reasons: [...reasons] };
  }
}

/** What throttling did to a run (`profile --json` `throttle`, the JSON report): from its samples and its board's facts. */
export interface ThrottleSummary {
  /** The trip point the thermal rule used (the lowest passive trip), °C; null: only get_throttled bits could say. */
  tripC: number | null;
  intervals: ThrottleInterval[];
  throttledMs: number;
  /** Decode tokens/s inside the intervals and outside them (throughputInsideOutside). */
  insideTokensPerSecond: number | null;
  outsideTokensPerSecond: number | null;
}

/** Null when the run has no temperature, clock or get_throttled reading: nothing could be judged. */
export function summarizeThrottle(
  samples: readonly Sample[],
  target: { thermal?: ThermalZone[]; cpu?: { policies?: CpufreqPolicy[] } } | null | undefined,
): ThrottleSummary | null {
  const points = throttlePointsFromSamples(samples, clockCeilingsOf(target));
  if (points.length === 0) return null;
  const trips = (target?.thermal ?? []).map(zonePassiveTripC).filter((t): t is number => t !== null);
  const tripC = trips.length > 0 ? Math.min(...trips) : null;
  const intervals = detectThrottleIntervals(points, { tripC });
  const cost = throughputInsideOutside(intervals, tokenEventsFromSamples(samples));
  return {
    tripC,
    intervals,
    throttledMs: intervals.reduce((sum, i) => sum + (i.endMs - i.startMs), 0),
    insideTokensPerSecond: cost.insideTokensPerSecond,
    outsideTokensPerSecond: cost.outsideTokensPerSecond,
  };
}
