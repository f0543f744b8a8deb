// The wire format of the browser-mode WebSocket bridge (`kvscope web`): the same KvScopeApi as
// Electron's IPC, one JSON text frame per message. Shared by the Node server
// (electron/node/web/bridge-server.ts) and the renderer's client (renderer/src/api/ws-client.ts).
//
//   client → server   { id, method, input }
//   server → client   { id, ok: true, output } | { id, ok: false, error }   (id null: unreadable request)
//   server → client   { event, payload }                                    (every API event, pushed)
import { z } from 'zod';
import type { ApiEventName } from './contract';

/** Path of the WebSocket endpoint, on the same origin as the UI. */
export const BRIDGE_PATH = '/api';

/**
 * The page key: the WebSocket's second factor next to the cookie (electron/node/web/page-key.ts).
 * The server hands it to the page in the URL fragment of the token exchange's redirect
 * (`/#kvscope-key=…`, never sent to any server, never in a cookie); the page keeps it in
 * sessionStorage and offers it as the WebSocket subprotocol `kvscope-key.<key>`.
 */
export const PAGE_KEY_FRAGMENT_PARAM = 'kvscope-key';
export const PAGE_KEY_PROTOCOL_PREFIX = 'kvscope-key.';

/**
 * Largest frame either side accepts. Requests are small (a run request is < 20 KB even with a long
 * engine command); responses can be larger (getRun of a long run), so the client allows more.
 */
export const BRIDGE_MAX_REQUEST_BYTES = 1024 * 1024;
export const BRIDGE_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

export const BridgeRequestSchema = z
  .object({
    id: z.union([z.string().min(1).max(64), z.number().int().nonnegative()]),
    method: z.string().min(1).max(64),
    input: z.unknown().optional(),
  })
  .strict();
export type BridgeRequest = z.infer<typeof BridgeRequestSchema>;

export type BridgeResponse =
  { id: string | number | null; ok: true; output: unknown } | { id: string | number | null; ok: false; error: string };

export type BridgeEventMessage = { event: ApiEventName; payload: unknown };

/** The result of one API call, whatever the transport (IPC returns the same envelope). */
export type ApiCallResult = { ok: true; output: unknown } | { ok: false; error: string };
