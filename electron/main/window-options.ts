// The security-relevant settings of the Electron shell, as plain data, so a test can check them
// under plain Node without the Electron binary (this file imports only types from 'electron').
// Baseline: Electron's security checklist (docs/tutorial/security.md) and Electron Fiddle.
import type { BrowserWindowConstructorOptions, CustomScheme } from 'electron';
import { CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY } from '../node/web/content-security-policy';

export { CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY };

/**
 * The UI is served from a custom scheme rather than file:// (checklist item "Avoid usage of the
 * file:// protocol"): a file:// page is allowed to read other local files, kvscope://app can read
 * only out/renderer, and it has a proper origin to check IPC senders and navigation against.
 */
export const APP_SCHEME = 'kvscope';
export const APP_HOST = 'app';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** As VS Code registers vscode-file: a standard, secure scheme; fetch and module scripts work on it. */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true },
};

export function createWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1360,
    height: 860,
    minWidth: 960,
    minHeight: 600,
    title: 'KVScope',
    // Shown on 'ready-to-show' so the window never flashes white before the dark UI paints.
    show: false,
    backgroundColor: '#0e1116',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    },
  };
}

/** "scheme://host" of a URL, or null. WHATWG URL gives non-special schemes an opaque origin, so compare these parts. */
export function urlBase(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.host ? `${parsed.protocol}//${parsed.host}` : null;
  } catch {
    return null;
  }
}

/** The base the app is served from: kvscope://app, or electron-vite's dev server in development. */
export function appBaseFor(devServerUrl: string | undefined): string {
  return (devServerUrl && urlBase(devServerUrl)) || `${APP_SCHEME}://${APP_HOST}`;
}

/** Whether a URL is a page of the app itself (navigation and IPC sender checks). */
export function isAppUrl(url: string | null | undefined, appBase: string): boolean {
  return !!url && urlBase(url) === appBase;
}
