// The dashboard's remembered choices (layout, theme, alert thresholds) in localStorage. Reads
// never throw: storage may be missing (tests under Node), full or hold an older shape.
export const STORAGE_KEYS = {
  layout: 'kvscope.dashboard.layout.v1',
  theme: 'kvscope.theme.v1',
  alerts: 'kvscope.alerts.v1',
} as const;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function loadJson(key: string): unknown {
  try {
    const text = storage()?.getItem(key);
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

export function saveJson(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // Full or refused storage: the choice lasts for this window only.
  }
}
