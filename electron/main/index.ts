// The Electron shell: one window over the same AppServices as the CLI and browser mode. Kept thin
// on purpose (the binary cannot run in CI): every decision worth testing lives in
// window-options.ts, ipc-guard.ts, ../node/api/api-dispatch.ts and ../node/web/static-files.ts,
// which run under plain Node.
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Notification,
  protocol,
  safeStorage,
  session,
  type OpenDialogOptions,
  type WebContents,
} from 'electron';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ApiCallResult } from '../../shared/api/bridge-protocol';
import { apiMethodNames, ipcChannel } from '../../shared/api/contract';
import { callHandler } from '../node/api/api-dispatch';
import { resolveRawJson } from '../../shared/api/raw-json';
import type { AppServices } from '../node/api/app-services';
import { createAppServices } from '../node/api/create-app-services';
import { EncryptedFileSecretStore } from '../node/boards/secret-store';
import { resolveStaticFile } from '../node/web/static-files';
import { alertNotifier } from './alert-notifications';
import { guardIpcCall, type IpcGuardPolicy, type IpcSenderFacts } from './ipc-guard';
import { safeStorageCipher } from './safe-storage-cipher';
import {
  APP_ENTRY_URL,
  APP_HOST,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  appBaseFor,
  CONTENT_SECURITY_POLICY,
  createWindowOptions,
  DEV_CONTENT_SECURITY_POLICY,
  isAppUrl,
} from './window-options';

/** The file of `--open <file>` / `--open=<file>` on the command line, if any. */
function openArgument(argv: readonly string[]): string | undefined {
  const at = argv.indexOf('--open');
  if (at >= 0) return argv[at + 1];
  return argv.find((a) => a.startsWith('--open='))?.slice('--open='.length);
}

// Both must happen before 'ready'.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
app.enableSandbox();

/** electron-vite dev serves the renderer over http; a packaged or built app uses kvscope://app. */
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const appBase = appBaseFor(devServerUrl);
const contentSecurityPolicy = devServerUrl ? DEV_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY;
// A sandboxed preload must be a classic script (CommonJS), hence .cjs: see electron.vite.config.ts.
const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url));

const windows = new Set<BrowserWindow>();
const ownWebContentsIds = new Set<number>();
let services: AppServices | null = null;

function serveRenderer(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || (request.method !== 'GET' && request.method !== 'HEAD'))
      return new Response('Not found', { status: 404 });
    const file = await resolveStaticFile(rendererDir, url.pathname);
    if (!file.ok) return new Response('Not found', { status: file.status });
    const body = request.method === 'HEAD' ? null : new Uint8Array(await readFile(file.filePath));
    return new Response(body, {
      headers: {
        'Content-Type': file.contentType,
        'Content-Security-Policy': CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
}

function hardenSession(): void {
  const ses = session.defaultSession;
  // The UI needs no camera, notifications, clipboard reads, geolocation…: refuse every request and check.
  ses.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  // The same policy as the <meta> tag, as a header on everything the session loads (dev server too).
  ses.webRequest.onHeadersReceived((details, callback) => {
    const headers = Object.fromEntries(
      Object.entries(details.responseHeaders ?? {}).filter(
        ([name]) => name.toLowerCase() !== 'content-security-policy',
      ),
    );
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [contentSecurityPolicy] } });
  });
}

// Applies to every webContents, including any the app never meant to create.
app.on('web-contents-created', (_event, contents) => {
  const denyForeign = (event: Electron.Event, url: string) => {
    if (!isAppUrl(url, appBase)) event.preventDefault();
  };
  contents.on('will-navigate', denyForeign);
  contents.on('will-redirect', denyForeign);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
});

function senderFacts(sender: WebContents, frame: Electron.WebFrameMain | null): IpcSenderFacts {
  try {
    return {
      webContentsId: sender.id,
      frameUrl: frame ? frame.url : null,
      isMainFrame: frame ? frame.parent === null : false,
    };
  } catch {
    // A frame disposed while the message was in flight throws on access.
    return { webContentsId: sender.id, frameUrl: null, isMainFrame: false };
  }
}

function registerIpc(appServices: AppServices): void {
  const policy: IpcGuardPolicy = { appBase, isOwnWebContents: (id) => ownWebContentsIds.has(id) };
  for (const method of apiMethodNames) {
    ipcMain.handle(ipcChannel.invoke(method), async (event, payload: unknown): Promise<ApiCallResult> => {
      const guard = guardIpcCall(method, senderFacts(event.sender, event.senderFrame), payload, policy);
      if (!guard.ok) {
        if (guard.error.startsWith('refused')) console.warn(`kvscope: IPC ${method} ${guard.error}`);
        return guard;
      }
      // IPC clones values: stored JSON text kept raw for the WebSocket bridge is parsed here, once (shared/api/raw-json.ts).
      return resolveRawJson(await callHandler(appServices.handlers, guard.method, guard.input));
    });
  }
  appServices.subscribe((event, payload) => {
    for (const win of windows) {
      const contents = win.webContents;
      if (!contents.isDestroyed() && isAppUrl(contents.getURL(), appBase))
        contents.send(ipcChannel.event, { event, payload });
    }
  });
}

function createWindow(): void {
  const win = new BrowserWindow(createWindowOptions(preloadPath));
  const id = win.webContents.id;
  windows.add(win);
  ownWebContentsIds.add(id);
  win.on('closed', () => {
    windows.delete(win);
    ownWebContentsIds.delete(id);
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(devServerUrl ?? APP_ENTRY_URL);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [win] = windows;
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });

  void app.whenReady().then(() => {
    hardenSession();
    serveRenderer();
    // Remembered SSH passwords are encrypted by the OS keychain (never stored when Linux has only
    // safeStorage's plain-text fallback: secret-store.ts); safeStorage is usable only after 'ready'.
    const secretStore = new EncryptedFileSecretStore(safeStorageCipher(safeStorage));
    services = createAppServices({
      shell: 'electron',
      version: app.getVersion(),
      secretStore,
      // `npm start -- --open <file.kvscope>` (scripts/start.mjs passes it on).
      openSessionFile: openArgument(process.argv),
      // Exports go where the user says, through the system's save dialog.
      saveFile: async (suggestedName, data) => {
        const owner = BrowserWindow.getFocusedWindow();
        const choice = owner
          ? await dialog.showSaveDialog(owner, { defaultPath: suggestedName })
          : await dialog.showSaveDialog({ defaultPath: suggestedName });
        if (choice.canceled || !choice.filePath) return null;
        await writeFile(choice.filePath, data);
        return choice.filePath;
      },
      // The Sessions view's Open file and Import log pick the file here (a page cannot name one).
      pickFile: async (purpose) => {
        const options: OpenDialogOptions = {
          properties: ['openFile'],
          filters:
            purpose === 'session'
              ? [
                  { name: 'KVScope session', extensions: ['kvscope'] },
                  { name: 'All files', extensions: ['*'] },
                ]
              : [{ name: 'All files', extensions: ['*'] }],
        };
        const owner = BrowserWindow.getFocusedWindow();
        const choice = owner ? await dialog.showOpenDialog(owner, options) : await dialog.showOpenDialog(options);
        return choice.canceled ? null : (choice.filePaths[0] ?? null);
      },
    });
    registerIpc(services);
    if (Notification.isSupported())
      services.subscribe(alertNotifier((title, body) => new Notification({ title, body }).show()));
    createWindow();
    app.on('activate', () => {
      if (windows.size === 0) createWindow();
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Stop runs (those not marked keep-running) and close targets before the process goes.
  let disposed = false;
  app.on('before-quit', (event) => {
    if (disposed || !services) return;
    event.preventDefault();
    const pending = services;
    services = null;
    pending
      .dispose()
      .catch((error: unknown) => console.error(`kvscope: dispose failed: ${(error as Error)?.message ?? error}`))
      .finally(() => {
        disposed = true;
        app.quit();
      });
  });
}
