import { useEffect } from 'react';
import type { ApiConnection } from '../api';
import { connectApiEvents, startPageTicker, type AppStore } from '../state/store';
import type { MainView } from '../state/sessions-slice';
import { keepTabMemory, leftImport, rememberedScreen } from '../state/tab-memory';
import { BoardEditor } from './BoardEditor';
import { ChartWarmup } from './ChartWarmup';
import { CompareView } from './compare/CompareView';
import { Dashboard } from './dashboard/Dashboard';
import { useShortcuts, useTheme } from './dashboard/dashboard-hooks';
import { DeviceCard } from './DeviceCard';
import { KvCalculatorView } from './kv-calculator/KvCalculatorView';
import { PromptDialogs } from './PromptDialogs';
import { RunFormPanel } from './RunFormPanel';
import { RunHeader, useRunTarget } from './RunHeader';
import { RunLog } from './RunLog';
import { SessionsView } from './sessions/SessionsView';
import { LeftRunsNotice } from './sessions/LeftRunsNotice';
import { SeriesPanel } from './SeriesPanel';
import { SshConfigImportDialog } from './SshConfigImportDialog';
import { StoreProvider, useAppStore, useAppStoreApi } from './store-context';
import { BoardList } from './BoardList';
import { TopBar } from './TopBar';

/** Wires the store to the API once: events in, the 4 Hz page tick, and a resync after a reconnect. */
function useLiveWiring(store: AppStore, connection: ApiConnection) {
  useEffect(() => {
    // Before the targets load: a reload keeps the form and the selected target (tab-memory.ts).
    const remembered = rememberedScreen(window.sessionStorage);
    const importLeft = leftImport(window.sessionStorage);
    if (importLeft) void connection.api.cancelImport({ importKey: importLeft }).catch(() => undefined);
    const forgetTab = keepTabMemory(store, window.sessionStorage);
    const state = store.getState();
    const offEvents = connectApiEvents(store, connection.api);
    const stopTicker = startPageTicker(store);
    state.setConnection(connection.state());
    let wasOpen = connection.state() === 'open';
    const offState = connection.onState((next) => {
      store.getState().setConnection(next);
      if (next === 'open' && !wasOpen) {
        // Events sent while we were away are lost: reload what the main side knows.
        void store.getState().loadBoards();
        void store.getState().loadPrompts();
        void store.getState().resyncRun();
        void store.getState().loadSessions();
      }
      wasOpen = next === 'open';
    });
    // A run that starts or ends changes the session list (every app run is recorded).
    const offStatus = connection.api.on('runStatus', () => void store.getState().loadSessions());
    void state.loadAppInfo();
    void state.loadBoards();
    void state.loadPrompts();
    void state.loadSecretStorage();
    void store.getState().showStartScreen(remembered);
    return () => {
      forgetTab();
      offEvents();
      offStatus();
      stopTicker();
      offState();
    };
  }, [store, connection]);
}

const VIEWS: Array<[MainView, string]> = [
  ['run', 'Run'],
  ['sessions', 'Sessions'],
  ['compare', 'Compare'],
  ['kv', 'KV calculator'],
];

/** The tab an arrow key, Home or End goes to from tab `index` (WAI-ARIA tabs: wrapping); null for other keys. */
function tabForKey(key: string, index: number): number | null {
  if (key === 'ArrowRight') return (index + 1) % VIEWS.length;
  if (key === 'ArrowLeft') return (index - 1 + VIEWS.length) % VIEWS.length;
  if (key === 'Home') return 0;
  if (key === 'End') return VIEWS.length - 1;
  return null;
}

/**
 * The views as WAI-ARIA tabs: one Tab stop (the selected tab; roving tabindex), the arrow keys,
 * Home and End move between them and show the view at once (automatic activation: a view shows
 * without waiting on anything).
 */
function ViewTabs() {
  const view = useAppStore((s) => s.view);
  const setView = useAppStore((s) => s.setView);
  const sessions = useAppStore((s) => s.sessions.length);
  return (
    <div
      className="view-tabs"
      role="tablist"
      aria-label="Views"
      onKeyDown={(e) => {
        const current = VIEWS.findIndex(([id]) => id === view);
        const next = tabForKey(e.key, current);
        const entry = next === null ? undefined : VIEWS[next];
        if (!entry) return;
        e.preventDefault();
        setView(entry[0]);
        document.getElementById(`tab-${entry[0]}`)?.focus();
      }}
    >
      {VIEWS.map(([id, text]) => (
        <button
          key={id}
          type="button"
          role="tab"
          id={`tab-${id}`}
          aria-selected={view === id}
          aria-controls={`view-${id}`}
          tabIndex={view === id ? 0 : -1}
          onClick={() => setView(id)}
          data-testid={`view-${id}`}
        >
          {text}
          {id === 'sessions' && sessions > 0 && <span className="muted"> ({sessions})</span>}
        </button>
      ))}
    </div>
  );
}

/** The run dashboard; a finished run of another target is not shown under this target's card. */
function RunView() {
  const runTarget = useRunTarget();
  const selected = useAppStore((s) => s.boards.find((t) => t.id === s.selectedBoardId) ?? null);
  const phase = useAppStore((s) => s.run.phase);
  const viewing = useAppStore((s) => s.viewedSession !== null);
  const otherTarget =
    !viewing &&
    phase !== 'idle' &&
    phase !== 'starting' &&
    phase !== 'running' &&
    phase !== 'stopping' &&
    runTarget !== null &&
    selected !== null &&
    (runTarget.targetId !== null ? runTarget.targetId !== selected.id : runTarget.label !== selected.label);
  const setView = useAppStore((s) => s.setView);
  return (
    <>
      <RunHeader />
      <DeviceCard />
      <LeftRunsNotice />
      {otherTarget && runTarget && selected ? (
        <div className="chart-empty" data-testid="run-on-other-target">
          <div className="chart-empty-title">No run on {selected.label} yet</div>
          <p>
            The last run was on {runTarget.label}. Press Start to run on {selected.label}, or find that run in{' '}
            <button type="button" className="link-button" onClick={() => setView('sessions')}>
              Sessions
            </button>
            .
          </p>
        </div>
      ) : (
        <>
          <Dashboard />
          <SeriesPanel />
          <RunLog />
        </>
      )}
    </>
  );
}

function MainColumn() {
  const view = useAppStore((s) => s.view);
  return (
    <main className="main">
      <ViewTabs />
      <div role="tabpanel" id={`view-${view}`} aria-labelledby={`tab-${view}`} className="view-panel">
        {view === 'run' && <RunView />}
        {view === 'sessions' && <SessionsView />}
        {view === 'compare' && <CompareView />}
        {view === 'kv' && <KvCalculatorView />}
      </div>
    </main>
  );
}

/**
 * What the whole page follows whichever view is shown: the theme (a "system" choice follows the
 * system's switch) and the keyboard shortcuts, which act on the run form of the sidebar, there on
 * every view. Mounted with the dashboard they did nothing on the other views.
 */
function PageWiring() {
  useShortcuts(useAppStoreApi());
  useTheme(useAppStore((s) => s.dash.theme));
  return null;
}

export function App({ store, connection }: { store: AppStore; connection: ApiConnection }) {
  useLiveWiring(store, connection);
  return (
    <StoreProvider store={store}>
      <PageWiring />
      <div className="app">
        <TopBar />
        <div className="layout">
          <aside className="sidebar">
            <BoardList />
            <RunFormPanel />
          </aside>
          <MainColumn />
        </div>
        <BoardEditor />
        <SshConfigImportDialog />
        <PromptDialogs />
        {/* The first chart a user opens comes faster when recharts' code has run once (ChartWarmup.tsx). */}
        <ChartWarmup />
      </div>
    </StoreProvider>
  );
}
