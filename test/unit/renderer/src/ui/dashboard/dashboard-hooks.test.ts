// The recharts chart's slower lane: while a run is live, new chart data reaches it at most once
// per interval, with the page's tick that comes once the interval is over (one render, one frame
// for the whole page), and the last change always lands; a finished run's data lands at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { AppState, AppStore } from '../../../../../../renderer/src/state/store';
import { PAGE_TICK_MS } from '../../../../../../renderer/src/live/live-config';
import { subscribeThrottledWhileLive } from '../../../../../../renderer/src/ui/dashboard/dashboard-hooks';

type Mini = { run: { phase: string }; chart: { n: number } };
const selectChart = (s: AppState) => s.chart;

/** The value that lands at once in these tests: chart n = 0, the emptied chart of a new run. */
const emptied = (c: unknown) => (c as Mini['chart']).n === 0;

function setup(phase: string) {
  const store = createStore<Mini>()(() => ({ run: { phase }, chart: { n: 0 } }));
  const seen: number[] = [];
  const off = subscribeThrottledWhileLive(
    store as unknown as AppStore,
    selectChart,
    1000,
    (c) => seen.push((c as unknown as Mini['chart']).n),
    emptied,
  );
  const tick = (n: number) => store.setState({ chart: { n } });
  return { store, seen, off, tick };
}

describe('subscribeThrottledWhileLive', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes at most one change per interval while live, with the tick that ends the interval, the last one included', () => {
    const { seen, tick, off } = setup('running');
    expect(seen).toEqual([0]);
    // Page ticks: the changes wait for the interval since the last shown value (1 s); the tick at
    // 1 s shows its own value within its own store update (the same render as the page's).
    for (let n = 1; n <= 3; n++) {
      vi.advanceTimersByTime(PAGE_TICK_MS);
      tick(n);
    }
    expect(seen).toEqual([0]);
    vi.advanceTimersByTime(1000 - 3 * PAGE_TICK_MS);
    expect(seen).toEqual([0]);
    tick(4);
    expect(seen).toEqual([0, 4]);
    // No change after the held-back one: it lands one tick after its interval, not later.
    vi.advanceTimersByTime(PAGE_TICK_MS);
    tick(5);
    vi.advanceTimersByTime(1000 - PAGE_TICK_MS);
    expect(seen).toEqual([0, 4]);
    vi.advanceTimersByTime(PAGE_TICK_MS);
    expect(seen).toEqual([0, 4, 5]);
    off();
    tick(6);
    vi.advanceTimersByTime(2000);
    expect(seen).toEqual([0, 4, 5]);
  });

  it('shows a held-back value with any later store change once the interval is over', () => {
    const { seen, tick, store } = setup('running');
    vi.advanceTimersByTime(PAGE_TICK_MS);
    tick(1);
    // Past the interval, before the fallback (one tick after it).
    vi.advanceTimersByTime(1000 - PAGE_TICK_MS + PAGE_TICK_MS / 2);
    expect(seen).toEqual([0]);
    // The page's tick changed something else (the readouts): the chart's held-back value goes with it.
    store.setState({ run: { phase: 'running' } });
    expect(seen).toEqual([0, 1]);
  });

  it('passes an emptied chart at once while live: a new run never shows the last run’s curve', () => {
    const { seen, tick, store } = setup('done');
    tick(7);
    // Start: the store empties the chart as the phase turns active, right after a shown value.
    store.setState({ run: { phase: 'starting' }, chart: { n: 0 } });
    expect(seen).toEqual([0, 7, 0]);
  });

  it('passes every change at once when the run is not live', () => {
    const { seen, tick, store } = setup('done');
    tick(1);
    tick(2);
    expect(seen).toEqual([0, 1, 2]);
    // A run that ends shows its final data at once, even right after a live update.
    store.setState({ run: { phase: 'running' } });
    tick(3);
    store.setState({ run: { phase: 'done' }, chart: { n: 4 } });
    expect(seen).toEqual([0, 1, 2, 4]);
    vi.advanceTimersByTime(2000);
    expect(seen).toEqual([0, 1, 2, 4]);
  });
});
