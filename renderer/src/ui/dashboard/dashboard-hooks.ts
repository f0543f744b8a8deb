// The dashboard's wiring to the page: the few-times-a-second tick, the theme on <html>, the
// keyboard shortcuts, and the width every track shares.
import { useEffect, useRef, useState } from 'react';
import type { AppStore } from '../../state/store';

/** The dashboard reads the series store 4 times a second (zustand "transient updates"). */
export const DASHBOARD_TICK_MS = 250;

export function useDashboardTicker(store: AppStore) {
  useEffect(() => {
    store.getState().flushDashboard();
    const timer = setInterval(() => store.getState().flushDashboard(), DASHBOARD_TICK_MS);
    // A new run on screen (Start, a reload, an opened session) is followed at once, not at the next tick.
    const off = store.subscribe((state, prev) => {
      if (state.run.runId !== prev.run.runId) state.flushDashboard();
    });
    return () => {
      clearInterval(timer);
      off();
    };
  }, [store]);
}

/** data-theme on <html>: the user's choice, else the system's (prefers-color-scheme), live. */
export function useTheme(choice: 'system' | 'light' | 'dark') {
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: light)');
    const apply = () => {
      document.documentElement.dataset.theme = choice === 'system' ? (media.matches ? 'light' : 'dark') : choice;
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

export function useShortcuts(store: AppStore) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.repeat) return;
      const state = store.getState();
      if (SHORTCUTS.start.test(e)) {
        e.preventDefault();
        void state.startRun();
      } else if (SHORTCUTS.stop.test(e)) {
        e.preventDefault();
        void state.stopRun();
      } else if (SHORTCUTS.marker.test(e) && !isTyping(e.target)) {
        e.preventDefault();
        void state.addMarker();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}

/** Width of the element, updated on resize (every track uses the same one, so x lines up). */
export function useWidth<T extends HTMLElement>(fallback = 900) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(Math.floor(el.clientWidth));
    const observer = new ResizeObserver(() => setWidth(Math.floor(el.clientWidth)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}
