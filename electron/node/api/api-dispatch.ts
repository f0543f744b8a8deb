// Validation and dispatch of one API call, shared by every transport that carries untrusted
// input into the main side: Electron IPC (electron/main/ipc-guard.ts) and the browser-mode
// WebSocket bridge (electron/node/web/bridge-server.ts). Nothing reaches a handler unparsed.
import type { z } from 'zod';
import { apiMethods, type ApiHandlers, type ApiMethodName } from '../../../shared/api/contract';
import type { ApiCallResult } from '../../../shared/api/bridge-protocol';
import { describeError } from '../util/describe-error';

export type ParsedApiCall = { ok: true; method: ApiMethodName; input: unknown } | { ok: false; error: string };

/** Own keys only: "__proto__", "constructor" or "toString" are not methods. */
export function isApiMethodName(name: unknown): name is ApiMethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(apiMethods, name);
}

/** One line naming every offending field: `engine.demo.layers: Too small: expected number to be >=1`. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.map(String).join('.') : '(input)'}: ${issue.message}`)
    .join('; ');
}

export function parseApiCall(method: unknown, input: unknown): ParsedApiCall {
  if (!isApiMethodName(method)) {
    const shown = typeof method === 'string' ? `"${method.slice(0, 64)}"` : typeof method;
    return { ok: false, error: `unknown method ${shown}` };
  }
  // A call without input means "no arguments" (appInfo, listBoards): same as {}.
  const parsed = apiMethods[method].input.safeParse(input === undefined ? {} : input);
  if (!parsed.success) return { ok: false, error: `invalid input for ${method}: ${describeZodError(parsed.error)}` };
  return { ok: true, method, input: parsed.data };
}

/**
 * Calls a handler with already-parsed input; whatever it throws or rejects with — synchronously or
 * not, an Error or not — becomes `{ ok: false, error }` (message only, no stack). Never rejects.
 */
export async function callHandler(
  handlers: ApiHandlers,
  method: ApiMethodName,
  input: unknown,
): Promise<ApiCallResult> {
  try {
    const handler = handlers[method] as (input: unknown) => Promise<unknown>;
    return { ok: true, output: await handler(input) };
  } catch (error) {
    return { ok: false, error: describeError(error) || `${method} failed` };
  }
}

export async function dispatchApiCall(handlers: ApiHandlers, method: unknown, input: unknown): Promise<ApiCallResult> {
  const call = parseApiCall(method, input);
  if (!call.ok) return call;
  return callHandler(handlers, call.method, call.input);
}
