// The Events panel's list: the run's events with the dashboard's own alerts. The dashboard judges
// the memory and exit rules again with the user's thresholds; the run judged them with the
// defaults. What the user set is what the panel shows.
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../../../../shared/api/schemas';
import { mergeEvents } from '../../../../../../renderer/src/ui/dashboard/EventsStrip';

const alert = (tMs: number, rule: string, message: string): RunEvent => ({
  tMs,
  kind: 'alert',
  message,
  data: { rule },
});

describe('mergeEvents', () => {
  const runEvents: RunEvent[] = [
    { tMs: 0, kind: 'start', message: 'engine: demo' },
    alert(3000, 'rss-budget', 'RSS 120.1 MiB is 80 % of the 150.0 MiB memory budget (alert at 80 %)'),
    alert(9000, 'oom-horizon', 'the memory budget is 1019 tokens away at the measured bytes per token'),
    // Raised by the target's launcher, no rule of the dashboard's: always shown.
    { tMs: 9500, kind: 'alert', message: "the target's watchdog ended the engine after 120s without the app" },
    { tMs: 10_000, kind: 'exit', message: 'engine ended by SIGTERM', data: { code: 143 } },
  ];

  it('shows the alert at the threshold the user set, not the run’s at the default', () => {
    const mine = [alert(0, 'rss-budget', 'RSS 110.0 MiB is 73 % of the 150.0 MiB memory budget (alert at 50 %)')];
    const merged = mergeEvents(runEvents, mine, []);
    expect(merged.filter((e) => e.kind === 'alert').map((e) => e.message)).toEqual([
      'RSS 110.0 MiB is 73 % of the 150.0 MiB memory budget (alert at 50 %)',
      "the target's watchdog ended the engine after 120s without the app",
    ]);
  });

  it('shows none of a rule the user turned off (the dashboard raised none), and every other event', () => {
    const merged = mergeEvents(runEvents, [], [{ startMs: 4000, endMs: 6500 }]);
    expect(merged.map((e) => [e.tMs, e.kind])).toEqual([
      [0, 'start'],
      [4000, 'throttle'],
      [9500, 'alert'],
      [10_000, 'exit'],
    ]);
    expect(merged[1]?.message).toBe('throttled for 2.5 s');
  });
});
