// The dashboard's wiring to the page: following the run on screen, the theme on <html> and the
// keyboard shortcuts (both mounted for the whole page, App.tsx), the width every track shares,
// and the slower lane of the recharts chart.
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { PAGE_TICK_MS } from '../../live/live-config';
import { isActivePhase } from '../../state/live-run-slice';
import type { AppState, AppStore } from '../../state/store';
import { useAppStoreApi } from '../store-context';
import { frameScheduler } from './frame-scheduler';
import { useElementSize } from '../use-element-size';

/**
 * The dashboard publishes what it has when it appears, and follows a new run on screen (Start, a
 * reload, an opened session) at once; the page's tick does the rest (state/store.ts startPageTicker).
 */
export function useDashboardFollowsRun(store: AppStore) {
  useEffect(() => {
    store.getState().flushDashboard();
    const off = store.subscribe((state, prev) => {
      if (state.run.runId !== prev.run.runId) state.flushDashboard();
    });
    return off;
  }, [store]);
}

/** data-theme on <html>: the user's choice, else the system's (prefers-color-scheme), live. */
export function useTheme(choice: 'system' | 'light' | 'dark') {
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: light)');
    const apply = () => {
      document.documentElement.dataset.theme = choice === 'system' ? (media.matches ? 'light' : 'dark') : choice;
      // The canvas tracks read the theme's colours when they paint: a system switch repaints them.
      frameScheduler.requestAll();
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [choice]);
}

/** The shortcuts, one table: shown in the toolbar's hint and used by the handler. */
export const SHORTCUTS = {
  start: { keys: 'Ctrl+Enter', test: (e: KeyboardEvent) => (e.ctrlKey || e.metaKey) && e.key === 'Enter' },
  stop: { keys: 'Ctrl+.', test: (e: KeyboardEvent) => (e.ctrlKey || e.metaKey) && e.key === '.' },
  marker: {
    keys: 'M',
    test: (e: KeyboardEvent) => !e.ctrlKey && !e.metaKey && !e.altKey && (e.key === 'm' || e.key === 'M'),
  },
} as const;

/** Typing in a field is never a shortcut without a modifier. */
function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/** In the run form's panel (RunFormPanel.tsx marks it data-run-form). */
function inRunForm(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('[data-run-form]') !== null;
}

/** Start and Stop act on the run form, Marker on the run on screen; mounted once for the page (App.tsx). */
export function useShortcuts(store: AppStore) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.repeat) return;
      const state = store.getState();
      if (SHORTCUTS.start.test(e)) {
        // From the run view, or from the run form wherever it is shown (the sidebar, on every
        // view); elsewhere Ctrl+Enter belongs to the field it is typed in (a session's new name).
        if (state.view !== 'run' && !inRunForm(e.target)) return;
        e.preventDefault();
        void state.startRun();
      } else if (SHORTCUTS.stop.test(e)) {
        e.preventDefault();
        void state.stopRun();
      } else if (SHORTCUTS.marker.test(e) && !isTyping(e.target) && state.view === 'run') {
        // A marker is put where its run is watched: on another view M is just a key.
        e.preventDefault();
        void state.addMarker();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}

/**
 * A 'wheel' listener that may cancel the page's scroll. React attaches onWheel as a passive
 * listener (its root listens with { passive: true }), where preventDefault is ignored: the page
 * would scroll while the charts zoom. The handler may change every render; the listener stays.
 */
export function useNonPassiveWheel(ref: RefObject<HTMLElement>, onWheel: (e: WheelEvent) => void) {
  const handler = useRef(onWheel);
  useLayoutEffect(() => {
    handler.current = onWheel;
  });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const listener = (e: WheelEvent) => {
      e.preventDefault();
      handler.current(e);
    };
    el.addEventListener('wheel', listener, { passive: false });
    return () => el.removeEventListener('wheel', listener);
  }, [ref]);
}

/** Width of the element, updated on resize (every track uses the same one, so x lines up). */
export function useWidth<T extends HTMLElement>(fallback = 900) {
  const [ref, size] = useElementSize<T>();
  return [ref, size?.width ?? fallback] as const;
}

/**
 * How often, at most, the recharts RSS-against-tokens chart (renderer/src/ui/MemoryChart.tsx)
 * takes new data while a run is live. recharts redoes its selectors, axis measuring and every
 * path on each update, ≈ 40 ms here whatever changed (issue 9's UI benchmark: at the 4 Hz tick it
 * alone kept the main thread ≈ 25 % busy); once a second keeps it live at a few percent. A
 * finished run or an opened session is drawn at once. The canvas tracks keep the 4 Hz tick.
 */
export const SVG_CHART_LIVE_UPDATE_MS = 1000;

/**
 * Calls `onValue` with the selected store value whenever it changes, but while the run on screen
 * is live at most every `intervalMs`; at once otherwise. Calls it once at the start. Returns the
 * unsubscribe. A value held back lands with the first store change once the interval is over —
 * the page's tick (PAGE_TICK_MS), so the chart renders in the same React pass and the same frame
 * as the rest of the page, not in a frame of its own — and at the latest one tick after the
 * interval when nothing changes any more (the last change always lands). A value `landsAtOnce`
 * accepts (a chart emptied for a new run) is never held back: else the last run's curve stays up
 * to `intervalMs` under the new run's header.
 */
export function subscribeThrottledWhileLive<T>(
  store: AppStore,
  selector: (state: AppState) => T,
  intervalMs: number,
  onValue: (value: T) => void,
  landsAtOnce: (value: T) => boolean = () => false,
): () => void {
  let shownAt = -Infinity;
  /** A change is held back (the fallback timer runs). */
  let timer: ReturnType<typeof setTimeout> | null = null;
  const show = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    shownAt = performance.now();
    onValue(selector(store.getState()));
  };
  const off = store.subscribe((state, prev) => {
    const value = selector(state);
    if (value === selector(prev) && timer === null) return;
    const wait = isActivePhase(state.run.phase) && !landsAtOnce(value) ? shownAt + intervalMs - performance.now() : 0;
    if (wait > 0) {
      timer ??= setTimeout(show, wait + PAGE_TICK_MS);
      return;
    }
    show();
  });
  show();
  return () => {
    off();
    if (timer) clearTimeout(timer);
  };
}

/** subscribeThrottledWhileLive for a component. `selector` and `landsAtOnce` must be stable (module-level functions). */
export function useThrottledWhileLive<T>(
  selector: (state: AppState) => T,
  landsAtOnce?: (value: T) => boolean,
  intervalMs = SVG_CHART_LIVE_UPDATE_MS,
): T {
  const store = useAppStoreApi();
  const [value, setValue] = useState(() => selector(store.getState()));
  // The first call also catches what changed between the first render and the subscription.
  useEffect(
    () => subscribeThrottledWhileLive(store, selector, intervalMs, (next) => setValue(() => next), landsAtOnce),
    [store, selector, intervalMs, landsAtOnce],
  );
  return value;
}
