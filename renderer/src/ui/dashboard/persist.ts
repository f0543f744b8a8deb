// The dashboard's remembered choices (layout, theme, alert thresholds) in localStorage, and the
// time window of the run on screen in this tab's sessionStorage (a reload keeps the zoom; another
// tab opens on the whole run). Reads never throw: storage may be missing (tests under Node), full
// or hold an older shape.
import type { TimeView } from '../../state/dashboard-types';

export const STORAGE_KEYS = {
  layout: 'kvscope.dashboard.layout.v1',
  theme: 'kvscope.theme.v1',
  alerts: 'kvscope.alerts.v1',
} as const;

/** The time window of the run on screen, for this tab only. */
const TIME_VIEW_KEY = 'kvscope.dashboard.timeView.v1';

function storage(kind: 'local' | 'tab' = 'local'): Storage | null {
  try {
    if (kind === 'tab') return typeof sessionStorage === 'undefined' ? null : sessionStorage;
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function loadJson(key: string, kind: 'local' | 'tab' = 'local'): unknown {
  try {
    const text = storage(kind)?.getItem(key);
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

export function saveJson(key: string, value: unknown, kind: 'local' | 'tab' = 'local'): void {
  try {
    storage(kind)?.setItem(key, JSON.stringify(value));
  } catch {
    // Full or refused storage: the choice lasts for this window only.
  }
}

/** The time window this tab showed for run `runId` before a reload, or null (another run, or nothing readable). */
export function loadTimeView(runId: string): TimeView | null {
  const saved = loadJson(TIME_VIEW_KEY, 'tab') as { runId?: unknown; view?: Record<string, unknown> } | null;
  const view = saved?.runId === runId ? saved.view : null;
  if (!view) return null;
  const { t0, t1, spanMs } = view;
  if (view.follow === false && typeof t0 === 'number' && typeof t1 === 'number' && Number.isFinite(t0 + t1) && t0 < t1)
    return { follow: false, t0, t1 };
  if (
    view.follow === true &&
    (spanMs === null || (typeof spanMs === 'number' && spanMs > 0 && Number.isFinite(spanMs)))
  )
    return { follow: true, spanMs };
  return null;
}

export function saveTimeView(runId: string, view: TimeView): void {
  saveJson(TIME_VIEW_KEY, { runId, view }, 'tab');
}
