// The before/after table of two compared runs: what changed between them (the model, the board,
// the engine command, the KV type, the context, the limits, the stop, the interval, the
// collectors) and how much it bought (max safe context, decode tokens/s, peak RSS, OOM horizon,
// time spent throttled). Rows of compare-model.ts's shape, for `kvscope compare` (markdown,
// html) and the Compare view. Pure.
import { passiveTripC } from '../analysis/recommendations-setup';
import { clockCeilingsOf, detectThrottleIntervals, throttlePointsFromSamples } from '../analysis/throttle';
import {
  formatBytes,
  formatCount,
  formatDeltaPercent,
  formatMs,
  formatTokens,
  formatTokensPerSecond,
} from '../format/units';
import { modelLabel } from '../run/run-labels';
import type { TargetFacts } from '../run/target-facts';
import type { RunReport } from './report-model';
import type { SessionRun } from './session-data';

/** One row of a compare table (compare-model.ts's pair rows, and these). */
export interface CompareRow {
  label: string;
  a: string;
  b: string;
  /** "+12.5 %", "-47.0 %", "differs" or "" for text rows. */
  delta: string;
  /** For the better / worse / unchanged, or null when the direction has no meaning. */
  verdict: 'better' | 'worse' | 'same' | null;
}

export interface BeforeAfter {
  /** Only the settings that differ (empty: the same setup, run twice). */
  changed: CompareRow[];
  /** The numbers a change is for, A → B, with the change and whether it is for the better. */
  bought: CompareRow[];
}

/** Milliseconds the run spent throttled (shared/analysis/throttle.ts intervals), null without clock or temperature samples. */
export function throttledMs(run: SessionRun, target: TargetFacts | null): number | null {
  const points = throttlePointsFromSamples(run.samples, clockCeilingsOf(target));
  if (points.length === 0) return null;
  return detectThrottleIntervals(points, { tripC: passiveTripC(target) }).reduce(
    (sum, i) => sum + (i.endMs - i.startMs),
    0,
  );
}

function boardOf(run: SessionRun, sessionTarget: TargetFacts | null): string | null {
  const t = run.target ?? sessionTarget;
  if (typeof t?.label === 'string') return t.label;
  return typeof t?.hostname === 'string' ? t.hostname : null;
}

/** The collectors the run's outcome lists, sorted ('–' for a run that kept none: cut short, or recorded before they were). */
function collectorsOf(run: SessionRun): string {
  const ids = Object.keys(run.outcome?.collectors ?? {});
  return ids.length ? ids.sort().join(', ') : '–';
}

const limitOf = (run: SessionRun) => run.analysisInputs?.memoryLimitBytes ?? run.request.memoryLimitBytes ?? null;

/** The profile's own stop (`--tokens`, `--duration-ms`), null when the engine ended by itself. */
function stopOf(run: SessionRun): string | null {
  const { tokens, durationMs } = run.request;
  const parts = [tokens ? formatTokens(tokens) : null, durationMs ? formatMs(durationMs) : null];
  return parts.filter((p) => p !== null).join(' or ') || null;
}

type Verdict = CompareRow['verdict'];

export interface BeforeAfterSide {
  run: SessionRun;
  report: RunReport;
  sessionTarget: TargetFacts | null;
}

/**
 * `verdictOf(a, b, better)` is compare-model.ts's rule (changes under its noise threshold are 'same'),
 * passed in so both tables judge alike.
 */
export function beforeAfter(
  a: BeforeAfterSide,
  b: BeforeAfterSide,
  verdictOf: (a: number | null, b: number | null, better: 'lower' | 'higher') => Verdict,
): BeforeAfter {
  const settings: Array<[string, (s: BeforeAfterSide) => string | null]> = [
    ['Model', (s) => modelLabel(s.run) || null],
    ['Board', (s) => boardOf(s.run, s.sessionTarget)],
    // The command line as run (scrubbed of secrets when the session was written): threads, batch,
    // flash attention, the demo engine's token count — whatever flag differs shows here.
    ['Engine command', (s) => s.report.engineCommand || null],
    ['KV cache type', (s) => s.report.numbers.kvType],
    ['Context (cells)', (s) => (s.report.numbers.ctx === null ? null : formatCount(s.report.numbers.ctx))],
    [
      'Memory budget',
      (s) => (s.run.analysisInputs?.budgetBytes ? formatBytes(s.run.analysisInputs.budgetBytes) : null),
    ],
    ['Memory limit (cgroup)', (s) => (limitOf(s.run) ? formatBytes(limitOf(s.run)) : null)],
    ['Stop after', (s) => stopOf(s.run)],
    ['Sample interval', (s) => formatMs(s.run.request.intervalMs)],
    ['Collectors', (s) => collectorsOf(s.run)],
  ];
  const changed: CompareRow[] = [];
  for (const [label, of] of settings) {
    const va = of(a) ?? '–';
    const vb = of(b) ?? '–';
    if (va !== vb) changed.push({ label, a: va, b: vb, delta: '', verdict: null });
  }
  const numbers: Array<
    [string, (s: BeforeAfterSide) => number | null, (v: number | null) => string, 'lower' | 'higher']
  > = [
    ['Max safe context', (s) => s.report.numbers.maxSafeContextTokens, formatTokens, 'higher'],
    ['Decode', (s) => s.report.numbers.decodeTokensPerSecond, formatTokensPerSecond, 'higher'],
    ['Peak RSS', (s) => s.report.numbers.peakRssBytes, formatBytes, 'lower'],
    ['OOM horizon', (s) => s.report.numbers.oomHorizonTokens, formatTokens, 'higher'],
    ['Time throttled', (s) => throttledMs(s.run, s.run.target ?? s.sessionTarget), formatMs, 'lower'],
  ];
  const bought = numbers.map(([label, of, format, better]): CompareRow => {
    const va = of(a);
    const vb = of(b);
    // From zero (no throttling in A) a percentage means nothing, but the direction still does.
    const fromZero: Verdict =
      va === 0 && vb !== null ? (vb === 0 ? 'same' : vb > 0 === (better === 'higher') ? 'better' : 'worse') : null;
    return {
      label,
      a: format(va),
      b: format(vb),
      delta: formatDeltaPercent(va, vb),
      verdict: fromZero ?? verdictOf(va, vb, better),
    };
  });
  return { changed, bought };
}
