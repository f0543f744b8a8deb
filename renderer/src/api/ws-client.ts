// The KvScopeApi over the browser-mode WebSocket bridge (shared/api/bridge-protocol.ts): request
// ids and a pending map, a queue while disconnected, reconnection with capped exponential
// backoff and jitter. The server pushes every API event to every client, so "resubscribing" after
// a reconnect needs no message: handlers registered with on() stay attached to the client, not
// to a socket, and the app reloads what it missed with getRun when the state returns to 'open'.
// No DOM globals beyond the WebSocket constructor, which tests replace with the ws package.
import {
  apiEventNames,
  apiMethodNames,
  PROMPTING_METHODS,
  type ApiEventName,
  type EventPayload,
  type KvScopeApi,
} from '../../../shared/api/contract';
import type { BridgeResponse } from '../../../shared/api/bridge-protocol';

/** 'refused': the server is there but no longer takes this page (it was restarted: a new token). */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'refused' | 'closed';

/** The part of the WebSocket API used here (browser WebSocket and the ws package both fit). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
}
export type SocketFactory = (url: string, protocols?: string[]) => SocketLike;

export interface WsApiOptions {
  url: string;
  /** WebSocket subprotocols to offer (browser mode: the page key, shared/api/bridge-protocol.ts). */
  protocols?: string[];
  createSocket?: SocketFactory;
  /** First retry delay; doubles per failed attempt up to maxBackoffMs. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** A call that gets no answer within this is rejected (the run keeps going on the server). */
  requestTimeoutMs?: number;
  /**
   * The same for calls that may wait for a person (PROMPTING_METHODS: a connection can ask for a
   * host key, then a jump host's, then a password, each for up to PROMPT_TIMEOUT_MS).
   */
  promptingRequestTimeoutMs?: number;
  random?: () => number;
  /**
   * Asked after a connection attempt that failed before it opened: true when the server is up but
   * refuses this page for good (browser mode: a restarted `kvscope web` has a new token, and the
   * page's cookie and key are the old one's). The client then stops retrying: state 'refused',
   * and every call, queued or new, fails at once with REFUSED_MESSAGE. A browser's WebSocket does
   * not show the refusal's status, hence the question.
   */
  isRefused?: () => Promise<boolean>;
}

/** What a call fails with once the server refuses this page. */
export const REFUSED_MESSAGE =
  'KVScope no longer accepts this page (it was restarted): open the URL that `kvscope web` printed';

export interface WsApiClient {
  api: KvScopeApi;
  state: () => ConnectionState;
  /** Called on every state change; returns an unsubscribe. */
  onState: (listener: (state: ConnectionState) => void) => () => void;
  close: () => void;
}

const OPEN = 1;
const DEFAULTS = {
  minBackoffMs: 250,
  maxBackoffMs: 5000,
  requestTimeoutMs: 60_000,
  promptingRequestTimeoutMs: 15 * 60_000,
};

interface Pending {
  method: string;
  text: string;
  sent: boolean;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export function createWsApiClient(options: WsApiOptions): WsApiClient {
  const createSocket: SocketFactory =
    options.createSocket ?? ((url, protocols) => new WebSocket(url, protocols) as unknown as SocketLike);
  const minBackoffMs = options.minBackoffMs ?? DEFAULTS.minBackoffMs;
  const maxBackoffMs = options.maxBackoffMs ?? DEFAULTS.maxBackoffMs;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const promptingRequestTimeoutMs = Math.max(
    requestTimeoutMs,
    options.promptingRequestTimeoutMs ?? DEFAULTS.promptingRequestTimeoutMs,
  );
  const random = options.random ?? Math.random;

  let socket: SocketLike | null = null;
  let state: ConnectionState = 'connecting';
  let attempt = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  const eventListeners = new Map<string, Set<(payload: unknown) => void>>();
  const knownEvents = new Set<string>(apiEventNames);

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of [...stateListeners]) listener(next);
  };

  const flushQueue = () => {
    for (const entry of pending.values()) {
      if (entry.sent || !socket || socket.readyState !== OPEN) continue;
      socket.send(entry.text);
      entry.sent = true;
    }
  };

  const settle = (id: number, outcome: { ok: true; output: unknown } | { ok: false; error: string }) => {
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    clearTimeout(entry.timer);
    if (outcome.ok) entry.resolve(outcome.output);
    else entry.reject(new Error(outcome.error));
  };

  const onMessage = (data: unknown) => {
    let message: unknown;
    try {
      message = JSON.parse(typeof data === 'string' ? data : String(data));
    } catch {
      return;
    }
    if (!message || typeof message !== 'object') return;
    if ('event' in message) {
      const { event, payload } = message as { event: string; payload: unknown };
      for (const handler of [...(eventListeners.get(event) ?? [])]) {
        try {
          handler(payload);
        } catch (error) {
          console.error(`kvscope: ${event} handler failed`, error);
        }
      }
      return;
    }
    const response = message as BridgeResponse;
    if (typeof response.id !== 'number') {
      if (!response.ok) console.warn(`kvscope: bridge refused a message: ${response.error}`);
      return;
    }
    settle(response.id, response.ok ? { ok: true, output: response.output } : { ok: false, error: response.error });
  };

  const scheduleReconnect = () => {
    if (state === 'closed' || reconnectTimer) return;
    const base = Math.min(maxBackoffMs, minBackoffMs * 2 ** attempt);
    const delay = base * (0.5 + random() / 2);
    attempt += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      connect();
    }, delay);
  };

  function connect() {
    if (state === 'closed') return;
    let ws: SocketLike;
    try {
      ws = createSocket(options.url, options.protocols);
    } catch {
      setState('reconnecting');
      scheduleReconnect();
      return;
    }
    socket = ws;
    let opened = false;
    ws.onopen = () => {
      if (socket !== ws) return;
      opened = true;
      attempt = 0;
      setState('open');
      flushQueue();
    };
    ws.onmessage = (event) => {
      if (socket === ws) onMessage(event.data);
    };
    ws.onerror = () => {
      /* onclose follows and handles it */
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      // Calls already sent may or may not have run on the server: fail them rather than repeat a
      // startRun. Calls not yet sent wait in the queue for the next connection.
      for (const [id, entry] of pending)
        if (entry.sent) settle(id, { ok: false, error: `connection to KVScope lost during ${entry.method}` });
      if (state === 'closed') return;
      setState('reconnecting');
      if (opened || !options.isRefused) return scheduleReconnect();
      // Never opened: the server may be down (retry) or up and refusing this page (stop).
      options.isRefused().then(
        (refused) => (refused ? refuse() : scheduleReconnect()),
        () => scheduleReconnect(),
      );
    };
  }

  function refuse() {
    if (state === 'closed') return;
    setState('refused');
    for (const id of [...pending.keys()]) settle(id, { ok: false, error: REFUSED_MESSAGE });
  }

  const call = (method: string, input: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (state === 'closed') return reject(new Error('KVScope connection is closed'));
      if (state === 'refused') return reject(new Error(REFUSED_MESSAGE));
      const id = nextId++;
      const timeoutMs = PROMPTING_METHODS.has(method) ? promptingRequestTimeoutMs : requestTimeoutMs;
      const timer = setTimeout(() => {
        const entry = pending.get(id);
        const reason = entry?.sent
          ? `no answer to ${method} within ${timeoutMs / 1000} s`
          : `not connected to KVScope (${method})`;
        settle(id, { ok: false, error: reason });
      }, timeoutMs);
      pending.set(id, {
        method,
        text: JSON.stringify({ id, method, input: input ?? {} }),
        sent: false,
        resolve,
        reject,
        timer,
      });
      flushQueue();
    });

  const api = Object.fromEntries(
    apiMethodNames.map((method) => [method, (input: unknown) => call(method, input)]),
  ) as Record<string, unknown>;
  api.on = <E extends ApiEventName>(event: E, handler: (payload: EventPayload<E>) => void) => {
    if (!knownEvents.has(event)) throw new Error(`unknown event "${String(event)}"`);
    let set = eventListeners.get(event);
    if (!set) eventListeners.set(event, (set = new Set()));
    const wrapped = handler as (payload: unknown) => void;
    set.add(wrapped);
    return () => {
      set.delete(wrapped);
    };
  };

  connect();

  return {
    api: api as unknown as KvScopeApi,
    state: () => state,
    onState(listener) {
      stateListeners.add(listener);
      return () => {
        stateListeners.delete(listener);
      };
    },
    close() {
      if (state === 'closed') return;
      setState('closed');
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      for (const id of [...pending.keys()]) settle(id, { ok: false, error: 'KVScope connection is closed' });
      socket?.close(1000, 'client closed');
      socket = null;
    },
  };
}
