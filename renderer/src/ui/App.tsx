import { useEffect } from 'react';
import type { ApiConnection } from '../api';
import { connectApiEvents, startChartTicker, type AppStore } from '../state/store';
import { BoardEditor } from './BoardEditor';
import { DeviceCard } from './DeviceCard';
import { MemoryChart } from './MemoryChart';
import { PromptDialogs } from './PromptDialogs';
import { Readouts } from './Readouts';
import { RunFormPanel } from './RunFormPanel';
import { RunHeader } from './RunHeader';
import { RunLog } from './RunLog';
import { SeriesPanel } from './SeriesPanel';
import { SshConfigImportDialog } from './SshConfigImportDialog';
import { StoreProvider } from './store-context';
import { TargetList } from './TargetList';
import { TopBar } from './TopBar';

/** Wires the store to the API once: events in, a 4 Hz chart tick, and a resync after a reconnect. */
function useLiveWiring(store: AppStore, connection: ApiConnection) {
  useEffect(() => {
    const state = store.getState();
    const offEvents = connectApiEvents(store, connection.api);
    const stopTicker = startChartTicker(store);
    state.setConnection(connection.state());
    let wasOpen = connection.state() === 'open';
    const offState = connection.onState((next) => {
      store.getState().setConnection(next);
      if (next === 'open' && !wasOpen) {
        // Events sent while we were away are lost: reload what the main side knows.
        void store.getState().loadTargets();
        void store.getState().loadPrompts();
        void store.getState().resyncRun();
      }
      wasOpen = next === 'open';
    });
    void state.loadAppInfo();
    void state.loadTargets();
    void state.loadPrompts();
    void state.loadSecretStorage();
    void state.resumeLatestRun();
    return () => {
      offEvents();
      stopTicker();
      offState();
    };
  }, [store, connection]);
}

export function App({ store, connection }: { store: AppStore; connection: ApiConnection }) {
  useLiveWiring(store, connection);
  return (
    <StoreProvider store={store}>
      <div className="app">
        <TopBar />
        <div className="layout">
          <aside className="sidebar">
            <TargetList />
            <RunFormPanel />
          </aside>
          <main className="main">
            <RunHeader />
            <DeviceCard />
            <MemoryChart />
            <Readouts />
            <SeriesPanel />
            <RunLog />
          </main>
        </div>
        <BoardEditor />
        <SshConfigImportDialog />
        <PromptDialogs />
      </div>
    </StoreProvider>
  );
}
