// The renderer's only way to the main side. In Electron the preload has put the API on
// window.kvscope (IPC); in a browser (`kvscope web`, end-to-end tests) it is a WebSocket client to
// /api on the origin that served the page. Either way the UI holds a KvScopeApi.
import type { KvScopeApi } from '../../../shared/api/contract';
import { BRIDGE_PATH } from '../../../shared/api/bridge-protocol';
import { createWsApiClient, type ConnectionState } from './ws-client';

declare global {
  interface Window {
    /** Set by electron/preload when running inside the desktop app; the type comes from the contract. */
    kvscope?: KvScopeApi;
  }
}

export type { ConnectionState };

export interface ApiConnection {
  api: KvScopeApi;
  shell: 'electron' | 'web';
  state(): ConnectionState;
  onState(listener: (state: ConnectionState) => void): () => void;
}

let connection: ApiConnection | null = null;

export function bridgeUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${BRIDGE_PATH}`;
}

export function getApiConnection(): ApiConnection {
  if (connection) return connection;
  if (window.kvscope) {
    // IPC has no connection to lose.
    connection = { api: window.kvscope, shell: 'electron', state: () => 'open', onState: () => () => {} };
  } else {
    // The HttpOnly cookie set when the page was opened with ?token= authenticates the upgrade.
    const client = createWsApiClient({ url: bridgeUrl(window.location) });
    connection = { api: client.api, shell: 'web', state: client.state, onState: client.onState };
  }
  return connection;
}

export function getApi(): KvScopeApi {
  return getApiConnection().api;
}
