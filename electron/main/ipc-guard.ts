// What the main process checks before an IPC call reaches a handler, as a pure function over
// plain facts about the sender (tests exercise it without Electron). As VS Code's
// base/parts/ipc/electron-main/ipcMain.ts: refuse a sender that is not one of our windows, not
// the main frame, or whose frame is not showing our app's URL (a window that navigated away, an
// iframe, a devtools extension page). Then parse the payload with the contract's schema.
import { parseApiCall } from '../node/api/api-dispatch';
import type { ApiMethodName } from '../../shared/api/contract';
import { isAppUrl } from './window-options';

/** Facts about an IpcMainInvokeEvent, taken from event.sender and event.senderFrame. */
export interface IpcSenderFacts {
  webContentsId: number;
  /** senderFrame.url; null when the frame is gone (navigated or destroyed). */
  frameUrl: string | null;
  /** senderFrame.parent === null. */
  isMainFrame: boolean;
}

export interface IpcGuardPolicy {
  /** webContents ids of the windows this app created. */
  isOwnWebContents(id: number): boolean;
  /** kvscope://app (or the dev server's base): see window-options.ts appBaseFor. */
  appBase: string;
}

export type IpcSenderCheck = { ok: true } | { ok: false; reason: string };

export function checkIpcSender(sender: IpcSenderFacts, policy: IpcGuardPolicy): IpcSenderCheck {
  if (!policy.isOwnWebContents(sender.webContentsId))
    return { ok: false, reason: `sender ${sender.webContentsId} is not a KVScope window` };
  if (sender.frameUrl === null) return { ok: false, reason: 'sender frame is gone' };
  if (!sender.isMainFrame) return { ok: false, reason: 'sender is not the main frame' };
  if (!isAppUrl(sender.frameUrl, policy.appBase)) {
    let shown = 'an unreadable URL';
    try {
      shown = new URL(sender.frameUrl).origin;
    } catch {
      /* keep the generic text */
    }
    return { ok: false, reason: `sender frame shows ${shown}, not the app` };
  }
  return { ok: true };
}

export type IpcGuardResult = { ok: true; method: ApiMethodName; input: unknown } | { ok: false; error: string };

/** Sender first (a foreign sender learns nothing about our schemas), then the payload. */
export function guardIpcCall(
  method: ApiMethodName,
  sender: IpcSenderFacts,
  payload: unknown,
  policy: IpcGuardPolicy,
): IpcGuardResult {
  const check = checkIpcSender(sender, policy);
  if (!check.ok) return { ok: false, error: `refused: ${check.reason}` };
  return parseApiCall(method, payload);
}
