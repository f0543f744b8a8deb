// Exposes the KvScopeApi to the sandboxed renderer as `window.kvscope`: one named function per
// method of the contract (generated, so a new method needs no edit here) and `on(event, handler)`
// returning an unsubscribe. Raw ipcRenderer never crosses the bridge (Electron Fiddle's shape).
// Built as one CommonJS file whose only runtime require is 'electron': a sandboxed preload can
// load nothing else (electron.vite.config.ts bundles zod in).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { ApiCallResult, BridgeEventMessage } from '../../shared/api/bridge-protocol';
import { apiEventNames, apiMethodNames, ipcChannel, type ApiMethodName } from '../../shared/api/contract';

const knownEvents = new Set<string>(apiEventNames);

function invoker(method: ApiMethodName) {
  return async (input: unknown): Promise<unknown> => {
    // The main side answers with the same envelope as the WebSocket bridge; errors arrive as text.
    const result = (await ipcRenderer.invoke(ipcChannel.invoke(method), input)) as ApiCallResult;
    if (!result.ok) throw new Error(result.error);
    return result.output;
  };
}

const api: Record<string, unknown> = Object.fromEntries(apiMethodNames.map((method) => [method, invoker(method)]));

api.on = (event: string, handler: (payload: unknown) => void): (() => void) => {
  if (!knownEvents.has(event)) throw new Error(`unknown event "${String(event)}"`);
  if (typeof handler !== 'function') throw new TypeError('handler must be a function');
  const listener = (_event: IpcRendererEvent, message: BridgeEventMessage) => {
    if (message?.event === event) handler(message.payload);
  };
  ipcRenderer.on(ipcChannel.event, listener);
  return () => {
    ipcRenderer.removeListener(ipcChannel.event, listener);
  };
};

// The renderer sees it as the contract's KvScopeApi (renderer/src/api/index.ts declares window.kvscope).
contextBridge.exposeInMainWorld('kvscope', api);
