// One vanilla zustand store built from slices (zustand docs, "Slices pattern"); React reads it
// with atomic selectors (ui/store-context.tsx), tests drive it directly.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { apiEventNames } from '../../../shared/api/contract';
import { PAGE_TICK_MS } from '../live/live-config';
import { createBoardsSlice } from './boards-slice';
import { createDashboardSlice } from './dashboard-slice';
import { createLiveRunSlice } from './live-run-slice';
import { createPromptsSlice } from './prompts-slice';
import { createCompareSlice } from './compare-slice';
import { createKvSlice } from './kv-slice';
import { createLeftRunsSlice } from './left-runs-slice';
import { createSessionsSlice } from './sessions-slice';
import { createAppSlice, createRunFormSlice, createBoardListSlice } from './slices';
import type { AppState, StoreDeps } from './types';

export type AppStore = StoreApi<AppState>;
export type { AppState, StoreDeps };

export function createAppStore(deps: StoreDeps): AppStore {
  return createStore<AppState>()((set, get) => ({
    ...createAppSlice(set, get, deps),
    ...createBoardListSlice(set, get, deps),
    ...createRunFormSlice(set, get, deps),
    ...createLiveRunSlice(set, get, deps),
    ...createBoardsSlice(set, get, deps),
    ...createPromptsSlice(set, get, deps),
    ...createDashboardSlice(set, get, deps),
    ...createSessionsSlice(set, get, deps),
    ...createCompareSlice(set, get, deps),
    ...createKvSlice(set, get, deps),
    ...createLeftRunsSlice(set, get, deps),
  }));
}

/** Routes every API event to the store; returns an unsubscribe for all of them. */
export function connectApiEvents(store: AppStore, api: StoreDeps['api']): () => void {
  const offs = apiEventNames.map((event) =>
    api.on(event, (payload) => {
      const state = store.getState();
      if (event === 'hostKeyPrompt' || event === 'credentialPrompt' || event === 'promptClosed')
        state.handlePromptEvent(event, payload);
      else {
        state.handleApiEvent(event, payload as never);
        state.handleDashboardEvent(event, payload as never);
      }
    }),
  );
  return () => offs.forEach((off) => off());
}

/**
 * The few-times-a-second update of the store (live-config.ts PAGE_TICK_MS): the memory ring, the
 * readouts and the analysis (flushChart), then the dashboard's series and its alert rules
 * (flushDashboard, which reads the analysis just published), in one task, so React renders them
 * together. Alerts are judged whichever view is shown.
 */
export function startPageTicker(store: AppStore, intervalMs = PAGE_TICK_MS): () => void {
  const timer = setInterval(() => {
    const state = store.getState();
    state.flushChart();
    state.flushDashboard();
  }, intervalMs);
  return () => clearInterval(timer);
}
