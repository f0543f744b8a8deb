// The renderer's only way to the main side. In Electron the preload has put the API on
// window.kvscope (IPC); in a browser (`kvscope web`, end-to-end tests) it is a WebSocket client to
// /api on the origin that served the page. Either way the UI holds a KvScopeApi.
import type { KvScopeApi } from '../../../shared/api/contract';
import { BRIDGE_PATH, PAGE_KEY_FRAGMENT_PARAM, PAGE_KEY_PROTOCOL_PREFIX } from '../../../shared/api/bridge-protocol';
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

/** Where the page keeps its key across reloads: this tab only, gone when the tab closes. */
const PAGE_KEY_STORAGE = 'kvscope-page-key';

/**
 * The page key of browser mode (electron/node/web/page-key.ts): taken from the URL fragment the
 * token exchange redirected to, which is then removed from the address bar (and from history),
 * and kept in sessionStorage for reloads of this tab. Null when the page was opened without it.
 */
export function takePageKey(
  location: Pick<Location, 'hash' | 'pathname' | 'search'>,
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
  history: Pick<History, 'replaceState'> | null,
): string | null {
  const fromFragment = new URLSearchParams(location.hash.slice(1)).get(PAGE_KEY_FRAGMENT_PARAM);
  if (fromFragment) {
    try {
      storage?.setItem(PAGE_KEY_STORAGE, fromFragment);
    } catch {
      // Storage refused (quota, privacy mode): the key serves this page until it reloads.
    }
    history?.replaceState(null, '', location.pathname + location.search);
    return fromFragment;
  }
  try {
    return storage?.getItem(PAGE_KEY_STORAGE) ?? null;
  } catch {
    return null;
  }
}

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Whether the browser-mode server at `origin` is up and refuses this page's cookie: a restarted
 * `kvscope web` answers the API's address with 401/403 (a new token), the same one with 426 (use a
 * WebSocket). Down, or any other answer: false (the client keeps retrying).
 */
export async function refusesThisPage(origin: string, fetchFn: typeof fetch = fetch): Promise<boolean> {
  try {
    const response = await fetchFn(`${origin}${BRIDGE_PATH}`, { cache: 'no-store', credentials: 'same-origin' });
    return response.status === 401 || response.status === 403;
  } catch {
    return false;
  }
}

export function getApiConnection(): ApiConnection {
  if (connection) return connection;
  if (window.kvscope) {
    // IPC has no connection to lose.
    connection = { api: window.kvscope, shell: 'electron', state: () => 'open', onState: () => () => {} };
  } else {
    // The upgrade carries the HttpOnly cookie set when the page was opened with ?token=, and the
    // page key as a subprotocol: the cookie alone does not open the API.
    const pageKey = takePageKey(window.location, sessionStorageOrNull(), window.history);
    const client = createWsApiClient({
      url: bridgeUrl(window.location),
      protocols: pageKey ? [PAGE_KEY_PROTOCOL_PREFIX + pageKey] : [],
      isRefused: () => refusesThisPage(window.location.origin),
    });
    connection = { api: client.api, shell: 'web', state: client.state, onState: client.onState };
  }
  return connection;
}

export function getApi(): KvScopeApi {
  return getApiConnection().api;
}
