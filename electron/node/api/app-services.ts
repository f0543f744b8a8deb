// The services behind the API contract, independent of the transport: Electron IPC, the
// browser-mode WebSocket bridge and tests all wrap one AppServices.
import type { ApiHandlers, EventSink } from '../../../shared/api/contract';

export interface AppServices {
  readonly handlers: ApiHandlers;
  /** Receive every API event; returns an unsubscribe. */
  subscribe(sink: EventSink): () => void;
  /** Stop runs that are not marked keep-running, close targets. */
  dispose(): Promise<void>;
}

export interface AppServicesOptions {
  shell: 'electron' | 'web';
  version?: string;
}
