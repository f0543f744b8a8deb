// The alert rules on hand-made observations: each expectation is worked out in the comment above it.
import { describe, expect, it } from 'vitest';
import {
  ALERT_REASONS,
  alertToRunEvent,
  DEFAULT_ALERT_THRESHOLDS,
  evaluateAlerts,
  INITIAL_ALERT_STATE,
  sanitizeThresholds,
  type Alert,
  type AlertObservation,
  type AlertState,
  type AlertThresholds,
} from '../../../../shared/analysis/alerts';

const MiB = 1024 * 1024;

/** Feeds observations in order; returns every alert raised, as [tMs, rule] pairs plus the alerts. */
/** The first alert (a test that expects one fails here, by name, when there is none). */
function first(alerts: readonly Alert[]): Alert {
  const [alert] = alerts;
  if (!alert) throw new Error('no alert was raised');
  return alert;
}

function run(observations: AlertObservation[], thresholds: AlertThresholds = DEFAULT_ALERT_THRESHOLDS) {
  let state: AlertState = INITIAL_ALERT_STATE;
  const all: Alert[] = [];
  for (const o of observations) {
    const out = evaluateAlerts(state, o, thresholds);
    state = out.state;
    all.push(...out.alerts);
  }
  return { alerts: all, fired: all.map((a) => [a.tMs, a.rule]), state };
}

describe('rss-budget', () => {
  it('fires once when RSS reaches 80 % of the budget, and again only after it fell below', () => {
    // Budget 100 MiB: 79 MiB is 79 % (quiet), 80 MiB is exactly 80 % (fires), 95 MiB is still raised,
    // 70 MiB clears it, 81 MiB fires again.
    const budgetBytes = 100 * MiB;
    const { fired, alerts } = run(
      [79, 80, 95, 70, 81].map((m, i) => ({ tMs: i * 1000, rssBytes: m * MiB, budgetBytes })),
    );
    expect(fired).toEqual([
      [1000, 'rss-budget'],
      [4000, 'rss-budget'],
    ]);
    expect(first(alerts).message).toBe('RSS 80.0 MiB is 80 % of the 100.0 MiB memory budget (alert at 80 %)');
    expect(first(alerts).severity).toBe('warning');
    expect(first(alerts).data).toMatchObject({ rssBytes: 80 * MiB, budgetBytes, fraction: 0.8 });
  });

  it('is critical over the budget, silent without a budget, and follows a changed threshold', () => {
    expect(first(run([{ tMs: 0, rssBytes: 120 * MiB, budgetBytes: 100 * MiB }]).alerts).severity).toBe('critical');
    expect(run([{ tMs: 0, rssBytes: 120 * MiB, budgetBytes: null }]).fired).toEqual([]);
    // At a 50 % threshold, 60 of 100 MiB fires; at the default 80 % it would not.
    const half = { ...DEFAULT_ALERT_THRESHOLDS, rssBudgetFraction: 0.5 };
    expect(run([{ tMs: 5, rssBytes: 60 * MiB, budgetBytes: 100 * MiB }], half).fired).toEqual([[5, 'rss-budget']]);
    expect(run([{ tMs: 5, rssBytes: 60 * MiB, budgetBytes: 100 * MiB }]).fired).toEqual([]);
  });

  it('does nothing when the rule is switched off', () => {
    const off = { ...DEFAULT_ALERT_THRESHOLDS, enabled: { ...DEFAULT_ALERT_THRESHOLDS.enabled, 'rss-budget': false } };
    expect(run([{ tMs: 0, rssBytes: 99 * MiB, budgetBytes: 100 * MiB }], off).fired).toEqual([]);
  });
});

describe('oom-horizon', () => {
  it('fires when the budget is within 1024 tokens, and says when it is reached', () => {
    // Horizon 5000 tokens: at 3000 tokens 2000 are left (quiet), at 4000 1000 are left (≤ 1024: fires).
    const { alerts } = run([
      { tMs: 0, tokens: 3000, oomHorizonTokens: 5000 },
      { tMs: 1, tokens: 4000, oomHorizonTokens: 5000 },
    ]);
    expect(alerts.map((a) => [a.tMs, a.message])).toEqual([
      [1, 'the memory budget is 1000 tokens away at the measured bytes per token'],
    ]);
    // Already past the horizon: 0 tokens left, critical.
    const past = first(run([{ tMs: 0, tokens: 6000, oomHorizonTokens: 5000 }]).alerts);
    expect([past.severity, past.message]).toEqual(['critical', 'RSS has reached the memory budget']);
  });
});

describe('near-trip', () => {
  it('fires per zone within 5 °C of its trip point and re-arms after cooling 2 °C more', () => {
    // Trip 99 °C → near from 94 °C; re-armed below 92 °C. cpu: 93 (quiet), 94 (fires), 93 (still
    // raised: not below 92), 91.9 (re-armed), 95 (fires). gpu has no trip point: never fires.
    const trips = { cpu: 99, gpu: null };
    const temps = [93, 94, 93, 91.9, 95];
    const { fired, alerts } = run(temps.map((c, i) => ({ tMs: i, tempsC: { cpu: c, gpu: 120 }, tripsC: trips })));
    expect(fired).toEqual([
      [1, 'near-trip'],
      [4, 'near-trip'],
    ]);
    expect(first(alerts).message).toBe('cpu at 94.0 °C, 5.0 °C below its 99 °C trip point');
  });

  it('says a zone given by its sample key as the reports name the series; the key stays in the data', () => {
    const key = 'tegra.temp.CPU.C';
    const { alerts } = run([{ tMs: 0, tempsC: { [key]: 96 }, tripsC: { [key]: 99 } }]);
    expect(first(alerts).message).toBe('temperature (tegrastats): CPU at 96.0 °C, 3.0 °C below its 99 °C trip point');
    expect(first(alerts).data).toMatchObject({ zone: key });
  });
});

describe('throttling, swap, engine exit', () => {
  it('fires each time throttling starts', () => {
    const flags = [false, true, true, false, true];
    expect(run(flags.map((throttling, i) => ({ tMs: i, throttling }))).fired).toEqual([
      [1, 'throttling'],
      [4, 'throttling'],
    ]);
  });

  it('judges swap-in by the collected rate, else by the growth of the engine’s swapped-out memory', () => {
    // 2 MiB/s collected ≥ 1 MiB/s: fires.
    expect(run([{ tMs: 0, swapInBytesPerSecond: 2 * MiB }]).fired).toEqual([[0, 'swap-in']]);
    // VmSwap 0 → 0.5 MiB in 1 s = 0.5 MiB/s (quiet) → 3.5 MiB 1 s later = 3 MiB/s (fires).
    const { alerts } = run([
      { tMs: 0, engineSwapBytes: 0 },
      { tMs: 1000, engineSwapBytes: 0.5 * MiB },
      { tMs: 2000, engineSwapBytes: 3.5 * MiB },
    ]);
    expect(alerts.map((a) => [a.tMs, a.message])).toEqual([
      [2000, 'engine swap-out activity at 3.0 MiB/s: the board is short of memory'],
    ]);
  });

  it('reports an engine that left by itself, once, but not one the user stopped', () => {
    const crash = run([
      { tMs: 7, engineExit: { code: null, signal: 'SIGKILL' } },
      { tMs: 8, engineExit: { code: null, signal: 'SIGKILL' } },
    ]);
    expect(crash.alerts.map((a) => [a.tMs, a.severity, a.message])).toEqual([
      [7, 'critical', 'the engine was ended by SIGKILL'],
    ]);
    expect(run([{ tMs: 7, engineExit: { code: 0, signal: null, stoppedByUser: true } }]).fired).toEqual([]);
    // A clean exit (status 0: the tokens asked for, then gone) is the normal end, not an alert.
    expect(run([{ tMs: 7, engineExit: { code: 0, signal: null } }]).fired).toEqual([]);
    expect(run([{ tMs: 7, engineExit: { code: 1, signal: null } }]).alerts.map((a) => a.message)).toEqual([
      'the engine exited with status 1',
    ]);
  });
});

describe('alerts as run events and thresholds from storage', () => {
  it('keeps the rule in the event data', () => {
    const alert = first(run([{ tMs: 42, rssBytes: 90 * MiB, budgetBytes: 100 * MiB }]).alerts);
    expect(alertToRunEvent(alert)).toEqual({
      tMs: 42,
      kind: 'alert',
      message: 'RSS 90.0 MiB is 90 % of the 100.0 MiB memory budget (alert at 80 %)',
      data: {
        rule: 'rss-budget',
        severity: 'warning',
        rssBytes: 90 * MiB,
        budgetBytes: 100 * MiB,
        fraction: 0.9,
        thresholdFraction: 0.8,
      },
    });
  });

  it('replaces unusable stored fields by the defaults and keeps the usable ones', () => {
    const t = sanitizeThresholds({
      rssBudgetFraction: 0.6,
      nearTripC: -3,
      oomHorizonTokens: 'x',
      enabled: { throttling: false, bogus: true },
    });
    expect(t.rssBudgetFraction).toBe(0.6);
    expect(t.nearTripC).toBe(5);
    expect(t.oomHorizonTokens).toBe(1024);
    expect(t.enabled.throttling).toBe(false);
    expect(t.enabled['rss-budget']).toBe(true);
    expect(Object.keys(t.enabled)).not.toContain('bogus');
    expect(sanitizeThresholds(null)).toEqual(DEFAULT_ALERT_THRESHOLDS);
  });
});

describe('the state', () => {
  it('is never changed in place: a raised or cleared key is in the next state only', () => {
    const budgetBytes = 100 * MiB;
    const quiet = evaluateAlerts(INITIAL_ALERT_STATE, { tMs: 0, rssBytes: 10 * MiB, budgetBytes });
    // Nothing changed: the very same set goes on (no copy per observation).
    expect(quiet.state.raised).toBe(INITIAL_ALERT_STATE.raised);
    const fired = evaluateAlerts(quiet.state, { tMs: 1, rssBytes: 90 * MiB, budgetBytes });
    expect([...fired.state.raised]).toEqual(['rss-budget']);
    expect(INITIAL_ALERT_STATE.raised.size).toBe(0);
    const cleared = evaluateAlerts(fired.state, { tMs: 2, rssBytes: 10 * MiB, budgetBytes });
    expect(cleared.state.raised.size).toBe(0);
    expect([...fired.state.raised]).toEqual(['rss-budget']);
  });
});

describe('the reasons the settings popover shows', () => {
  it('are in the user’s words: no source file or folder of the app in them', () => {
    for (const [rule, { label, reason }] of Object.entries(ALERT_REASONS)) {
      for (const text of [label, reason]) {
        expect(text, rule).not.toMatch(/\b[\w-]+\.(?:ts|tsx|js|mjs)\b/);
        expect(text, rule).not.toMatch(/\b(?:shared|renderer|electron)\//);
      }
    }
  });
});
