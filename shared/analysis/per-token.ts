// What the board spent per generated token, over the decode (first token to last): the perf
// collector's counts (instructions per cycle per PMU — low IPC while decoding means the cores wait
// on memory — and each count per token: cache misses per token grow once the KV cache outgrows the
// caches) and the energy the board drew per token: its input rail's, or the sum of the rails that
// add up to its module's power (./power-rails.ts). Read from series (the dashboard's store, or a
// run's samples through seriesOfSamples), so the dashboard and the report say the same. Pure.
import { perfKeyParts } from '../collectors/perf-parser';
import { totalPower } from './power-rails';
import type { TimeSeries } from './time-series';

export type SeriesAccess = (key: string) => TimeSeries | undefined;

/**
 * Where rail readings come from, in the order tried: tegrastats' current readings (never its
 * `…avgmW`, a running average of the same rail), then the INA sensors read through hwmon. A total
 * is summed from one source only: the two read the same rails.
 */
const RAIL_SOURCES: ReadonlyArray<{ re: RegExp; key: (rail: string) => string }> = [
  { re: /^tegra\.rail\.([\w.#-]+)\.curmW$/, key: (rail) => `tegra.rail.${rail}.curmW` },
  { re: /^power\.([\w.#-]+)\.mW$/, key: (rail) => `power.${rail}.mW` },
];

export interface PerTokenSummary {
  /** The decode: first token to last, and the tokens generated after the first. */
  fromMs: number;
  toMs: number;
  tokens: number;
  /** Instructions per cycle over the decode, per PMU ('' for a CPU with one). */
  ipc: Array<{ pmu: string; ipc: number }>;
  /** Each perf count per token generated while it was counted in the decode (CPU-time keys, `…Us`, left out). */
  perToken: Array<{ key: string; event: string; pmu: string; perToken: number }>;
  /**
   * The board's energy over the decode per token and its mean power, from `rails`: the input rail,
   * or the rails whose sum is the module's power (their mean powers added); null without them.
   */
  energy: { rails: readonly string[]; joulesPerToken: number; meanMw: number } | null;
  /** Why a board that reads power rails has no energy per token, in one line (`no input rail: …`); else null. */
  noEnergy: string | null;
}

/** The count a cumulative series (the engine's tokens) had at `tMs`: its latest value at or before, else 0. */
function countAt(s: TimeSeries, tMs: number): number {
  let lo = 0;
  let hi = s.length - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((s.t[mid] ?? Infinity) <= tMs) {
      found = s.v[mid] ?? 0;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * A perf series' counts over the decode, and the tokens generated while they were counted. A perf
 * sample holds the counts of the interval that ended at its time: the samples taken in the decode
 * after the first of them cover exactly (first, last], and the tokens are counted over that window.
 * Null with fewer than two samples in the decode.
 */
function countedInDecode(
  s: TimeSeries,
  tokens: TimeSeries,
  from: number,
  to: number,
): { total: number; tokens: number } | null {
  let first = NaN;
  let last = NaN;
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const t = s.t[i] ?? NaN;
    if (!(t >= from && t <= to)) continue;
    if (Number.isNaN(first)) first = t;
    else total += s.v[i] ?? 0;
    last = t;
  }
  if (!(last > first)) return null;
  return { total, tokens: countAt(tokens, last) - countAt(tokens, first) };
}

/**
 * The mean power (mW) of a power series over [from, to]: trapezoids between its readings in there,
 * the one reading when there is one (a short decode between two readings of a slow rail), null for none.
 */
function meanPowerIn(s: TimeSeries, from: number, to: number): number | null {
  let mJ = 0;
  let first = NaN;
  let prevT = NaN;
  let prevV = NaN;
  for (let i = 0; i < s.length; i++) {
    const t = s.t[i] ?? NaN;
    const v = s.v[i] ?? NaN;
    if (!(t >= from && t <= to) || !Number.isFinite(v)) continue;
    if (Number.isFinite(prevT)) mJ += ((prevV + v) / 2) * ((t - prevT) / 1000);
    else first = t;
    prevT = t;
    prevV = v;
  }
  if (Number.isNaN(first)) return null;
  return prevT > first ? mJ / ((prevT - first) / 1000) : prevV;
}

/** Null without two token counts a token apart or more. */
export function perTokenSummary(get: SeriesAccess, keys: readonly string[]): PerTokenSummary | null {
  const tokens = get('tokens');
  if (!tokens || tokens.length < 2) return null;
  let fromMs = NaN;
  let firstCount = 0;
  for (let i = 0; i < tokens.length; i++)
    if ((tokens.v[i] ?? 0) >= 1) {
      fromMs = tokens.t[i] ?? NaN;
      firstCount = tokens.v[i] ?? 0;
      break;
    }
  const toMs = tokens.t[tokens.length - 1] ?? NaN;
  const made = (tokens.v[tokens.length - 1] ?? 0) - firstCount;
  if (!Number.isFinite(fromMs) || !(toMs > fromMs) || made < 1) return null;

  const ipc: PerTokenSummary['ipc'] = [];
  const perToken: PerTokenSummary['perToken'] = [];
  for (const key of [...keys].sort()) {
    const parts = perfKeyParts(key);
    const s = parts ? get(key) : undefined;
    // CPU time keys (…Us) are not counts: per token they would be a latency, which token timing gives.
    if (!parts || !s || key.endsWith('Us')) continue;
    const { pmu, event } = parts;
    const counted = countedInDecode(s, tokens, fromMs, toMs);
    if (!counted) continue;
    if (counted.tokens > 0) perToken.push({ key, event, pmu, perToken: counted.total / counted.tokens });
    // Instructions per cycle of a PMU: its two counters come in the same perf samples.
    const instructions =
      event === 'cycles' ? get(pmu === '' ? 'perf.instructions' : `perf.${pmu}.instructions`) : undefined;
    const executed = instructions ? countedInDecode(instructions, tokens, fromMs, toMs) : null;
    if (executed && counted.total > 0) ipc.push({ pmu, ipc: executed.total / counted.total });
  }

  return { fromMs, toMs, tokens: made, ipc, perToken, ...energyInDecode(get, keys, fromMs, toMs, made) };
}

/**
 * The board's energy per token over the decode [from, to] (`made` tokens), from the first source
 * whose rails give a total; else why not, from the first source with rails at all.
 */
function energyInDecode(
  get: SeriesAccess,
  keys: readonly string[],
  from: number,
  to: number,
  made: number,
): Pick<PerTokenSummary, 'energy' | 'noEnergy'> {
  let noEnergy: string | null = null;
  for (const source of RAIL_SOURCES) {
    const names: string[] = [];
    for (const key of keys) {
      const rail = source.re.exec(key)?.[1];
      if (rail !== undefined) names.push(rail);
    }
    const total = totalPower(names);
    if (total?.kind === 'none') noEnergy ??= total.why;
    if (total?.kind !== 'rails') continue;
    // Each rail's mean power over the decode (its readings span part of it at most), added up.
    const means = total.rails.map((rail) => {
      const s = get(source.key(rail));
      return s ? meanPowerIn(s, from, to) : null;
    });
    if (means.some((m) => m === null)) continue;
    const meanMw = means.reduce<number>((sum, m) => sum + (m ?? 0), 0);
    const joulesPerToken = (meanMw * ((to - from) / 1000)) / 1000 / made;
    return { energy: { rails: total.rails, meanMw, joulesPerToken }, noEnergy: null };
  }
  return { energy: null, noEnergy };
}
