// electron/main/index.ts wired up against a fake 'electron' module (the binary cannot run here):
// what it registers, how IPC calls are guarded and answered, what the session refuses, and that
// events reach our windows. The real 'electron' package is never loaded.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiMethodNames, ipcChannel } from '../../../../shared/api/contract';
import { CONTENT_SECURITY_POLICY } from '../../../../electron/node/web/content-security-policy';
import { RawJson } from '../../../../shared/api/raw-json';

const h = vi.hoisted(() => {
  type Listener = (...args: any[]) => any;
  const appListeners = new Map<string, Listener[]>();
  const ipcHandlers = new Map<string, Listener>();
  const windows: any[] = [];
  let nextWebContentsId = 10;
  const sinks: Array<(event: string, payload: unknown) => void> = [];
  const recorded = {
    privileged: [] as unknown[],
    protocolHandlers: new Map<string, Listener>(),
    permissionRequest: null as Listener | null,
    permissionCheck: null as Listener | null,
    headersReceived: null as Listener | null,
    sandboxEnabled: false,
    quit: 0,
    openDialogCalls: [] as unknown[],
    openDialogAnswer: { canceled: true, filePaths: [] as string[] },
  };

  class FakeBrowserWindow {
    options: any;
    webContents: any;
    listeners = new Map<string, Listener>();
    constructor(options: any) {
      this.options = options;
      const contents = {
        id: nextWebContentsId++,
        url: '',
        send: vi.fn(),
        isDestroyed: () => false,
        getURL: () => contents.url,
      };
      this.webContents = contents;
      windows.push(this);
    }
    loadURL = vi.fn((url: string) => {
      this.webContents.url = url;
      return Promise.resolve();
    });
    once(event: string, fn: Listener) {
      this.listeners.set(event, fn);
    }
    on(event: string, fn: Listener) {
      this.listeners.set(event, fn);
    }
    static getFocusedWindow() {
      return null;
    }
    show() {}
    focus() {}
    restore() {}
    isMinimized() {
      return false;
    }
  }

  const electron = {
    app: {
      isPackaged: true,
      enableSandbox: () => {
        recorded.sandboxEnabled = true;
      },
      requestSingleInstanceLock: () => true,
      on: (event: string, fn: Listener) => appListeners.set(event, [...(appListeners.get(event) ?? []), fn]),
      whenReady: () => Promise.resolve(),
      getVersion: () => '9.9.9',
      quit: () => {
        recorded.quit += 1;
      },
    },
    BrowserWindow: FakeBrowserWindow,
    // The system's open dialog: what the user picks next (recorded.openDialogAnswer).
    dialog: {
      showOpenDialog: vi.fn((...args: any[]) => {
        recorded.openDialogCalls.push(args.at(-1));
        return Promise.resolve(recorded.openDialogAnswer);
      }),
    },
    // Desktop notifications for alerts (electron/main/alert-notifications.ts): none on this fake desktop.
    Notification: { isSupported: () => false },
    ipcMain: { handle: (channel: string, fn: Listener) => ipcHandlers.set(channel, fn) },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => recorded.privileged.push(...schemes),
      handle: (scheme: string, fn: Listener) => recorded.protocolHandlers.set(scheme, fn),
    },
    // A Linux desktop without a keyring: safeStorage would fall back to plain text.
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: (text: string) => Buffer.from(text),
      decryptString: (data: Buffer) => data.toString(),
      getSelectedStorageBackend: () => 'basic_text',
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: Listener) => (recorded.permissionRequest = fn),
        setPermissionCheckHandler: (fn: Listener) => (recorded.permissionCheck = fn),
        webRequest: { onHeadersReceived: (fn: Listener) => (recorded.headersReceived = fn) },
      },
    },
  };

  const services = {
    handlers: {
      appInfo: vi.fn(() => Promise.resolve({ version: '9.9.9', shell: 'electron', platform: 'linux' })),
      listBoards: vi.fn(() => Promise.resolve([{ id: 'local', label: 'This computer', spec: { kind: 'local' } }])),
      computeKv: vi.fn(),
      startRun: vi.fn(() => Promise.reject(new Error('engine not found: llama-cli'))),
      stopRun: vi.fn(),
      listRuns: vi.fn(() => Promise.resolve([])),
      getRun: vi.fn(),
    },
    subscribe: (sink: (event: string, payload: unknown) => void) => {
      sinks.push(sink);
      return () => {};
    },
    dispose: vi.fn(async () => {}),
  };
  const createAppServices = vi.fn(() => services);

  return { electron, appListeners, ipcHandlers, windows, recorded, services, createAppServices, sinks };
});

vi.mock('electron', () => ({ ...h.electron, default: h.electron }));
vi.mock('../../../../electron/node/api/create-app-services', () => ({ createAppServices: h.createAppServices }));

const emitApp = (event: string, ...args: unknown[]) => (h.appListeners.get(event) ?? []).map((fn) => fn(...args));

function ipcEvent(
  win: any,
  frame: { url: string; parent: unknown } | null = { url: 'kvscope://app/index.html', parent: null },
) {
  return { sender: win.webContents, senderFrame: frame };
}

beforeAll(async () => {
  await import('../../../../electron/main/index');
  await new Promise((resolve) => setTimeout(resolve, 0));
});

afterAll(() => vi.resetModules());

describe('the Electron main process', () => {
  it('registers the app scheme as privileged and enables the sandbox for every renderer', () => {
    expect(h.recorded.privileged).toEqual([
      expect.objectContaining({
        scheme: 'kvscope',
        privileges: expect.objectContaining({ standard: true, secure: true }),
      }),
    ]);
    expect(h.recorded.sandboxEnabled).toBe(true);
  });

  it('creates the services as the electron shell and one hardened window on the app URL', () => {
    expect(h.createAppServices).toHaveBeenCalledWith({
      shell: 'electron',
      version: '9.9.9',
      secretStore: expect.anything(),
      // No --open on the test's command line; exports go through the save dialog.
      openSessionFile: undefined,
      saveFile: expect.any(Function),
      pickFile: expect.any(Function),
    });
    expect(h.windows).toHaveLength(1);
    const [win] = h.windows;
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(win.options.webPreferences.preload).toMatch(/preload[\\/]index\.cjs$/);
    expect(win.loadURL).toHaveBeenCalledWith('kvscope://app/index.html');
  });

  it("picks the Sessions view's files with the system's open dialog: sessions by their extension, logs of any name", async () => {
    const [[options]] = h.createAppServices.mock.calls as unknown as [
      [{ pickFile: (p: string) => Promise<string | null> }],
    ];
    h.recorded.openDialogAnswer = { canceled: false, filePaths: ['/home/me/orin.kvscope'] };
    expect(await options.pickFile('session')).toBe('/home/me/orin.kvscope');
    h.recorded.openDialogAnswer = { canceled: true, filePaths: [] };
    expect(await options.pickFile('log')).toBeNull();
    expect(h.recorded.openDialogCalls).toEqual([
      {
        properties: ['openFile'],
        filters: [
          { name: 'KVScope session', extensions: ['kvscope'] },
          { name: 'All files', extensions: ['*'] },
        ],
      },
      { properties: ['openFile'], filters: [{ name: 'All files', extensions: ['*'] }] },
    ]);
  });

  it('gives the services a secret store over safeStorage that refuses the plain-text backend', () => {
    const { secretStore } = (
      h.createAppServices.mock.calls[0] as unknown as [
        { secretStore: { status(): { available: boolean; backend: string; reason: string | null } } },
      ]
    )[0];
    const status = secretStore.status();
    expect(status).toMatchObject({ available: false, backend: 'basic_text' });
    expect(status.reason).toMatch(/plain text/);
  });

  it('registers one IPC handler per method of the contract', () => {
    expect([...h.ipcHandlers.keys()].sort()).toEqual(apiMethodNames.map((m) => ipcChannel.invoke(m)).sort());
  });

  it('answers a valid call from our window with the handler output', async () => {
    const [win] = h.windows;
    const result = await h.ipcHandlers.get(ipcChannel.invoke('listBoards'))!(ipcEvent(win), {});
    expect(result).toEqual({ ok: true, output: [{ id: 'local', label: 'This computer', spec: { kind: 'local' } }] });
  });

  it('sends stored JSON text kept raw for the WebSocket bridge as its parsed value (IPC clones values)', async () => {
    const [win] = h.windows;
    const samples = new RawJson('{"shapes":[{"source":"procfs","keys":["rssBytes"]}],"cells":[0,0,null]}');
    h.services.handlers.listBoards.mockImplementationOnce(() => Promise.resolve([{ id: 'x', samples }] as never));
    const result = await h.ipcHandlers.get(ipcChannel.invoke('listBoards'))!(ipcEvent(win), {});
    expect(result).toEqual({
      ok: true,
      output: [{ id: 'x', samples: { shapes: [{ source: 'procfs', keys: ['rssBytes'] }], cells: [0, 0, null] } }],
    });
  });

  it('returns handler errors as text', async () => {
    const [win] = h.windows;
    const result = await h.ipcHandlers.get(ipcChannel.invoke('startRun'))!(ipcEvent(win), {
      target: { kind: 'local' },
      engine: { kind: 'demo', demo: {} },
    });
    expect(result).toEqual({ ok: false, error: 'engine not found: llama-cli' });
  });

  it('survives a failing service call: sync throws and non-Error rejections come back as text', async () => {
    const [win] = h.windows;
    const listBoards = h.ipcHandlers.get(ipcChannel.invoke('listBoards'))!;
    const messageThrows = new Error('x');
    Object.defineProperty(messageThrows, 'message', {
      get() {
        throw new Error('getter');
      },
    });
    const failures: Array<[string, () => never | Promise<never>]> = [
      [
        'sync throw',
        () => {
          throw new TypeError('boom');
        },
      ],
      // Rejections with non-Errors are the cases under test: the IPC handler must still answer.
      /* eslint-disable @typescript-eslint/prefer-promise-reject-errors */
      ['object without a prototype', () => Promise.reject(Object.create(null) as never)],
      ['a throwing message getter', () => Promise.reject(messageThrows)],
      ['undefined', () => Promise.reject(undefined)],
      /* eslint-enable @typescript-eslint/prefer-promise-reject-errors */
    ];
    for (const [name, impl] of failures) {
      h.services.handlers.listBoards.mockImplementationOnce(impl);
      const result = await listBoards(ipcEvent(win), {});
      expect(result.ok, name).toBe(false);
      expect(typeof result.error, name).toBe('string');
    }
    // The next call is served as usual.
    expect(await listBoards(ipcEvent(win), {})).toMatchObject({ ok: true });
  });

  it('refuses foreign senders and invalid payloads without calling the handler', async () => {
    const [win] = h.windows;
    const listBoards = h.ipcHandlers.get(ipcChannel.invoke('listBoards'))!;
    h.services.handlers.listBoards.mockClear();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const stranger = { webContents: { id: 999 } };
    expect((await listBoards(ipcEvent(stranger), {})).error).toMatch(/^refused: sender 999/);
    expect((await listBoards(ipcEvent(win, { url: 'https://attacker.example/', parent: null }), {})).error).toMatch(
      /^refused/,
    );
    expect((await listBoards(ipcEvent(win, { url: 'kvscope://app/index.html', parent: {} }), {})).error).toMatch(
      /^refused: sender is not the main frame/,
    );
    expect((await listBoards(ipcEvent(win, null), {})).error).toMatch(/^refused/);
    expect((await listBoards(ipcEvent(win), { extra: true })).error).toMatch(/^invalid input for listBoards/);
    expect(h.services.handlers.listBoards).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('forwards API events to windows that show the app', () => {
    const [win] = h.windows;
    for (const sink of h.sinks) sink('runStatus', { runId: 'r1', state: 'running', label: 'x' });
    expect(win.webContents.send).toHaveBeenCalledWith(ipcChannel.event, {
      event: 'runStatus',
      payload: { runId: 'r1', state: 'running', label: 'x' },
    });
    win.webContents.send.mockClear();
    win.webContents.url = 'https://attacker.example/';
    for (const sink of h.sinks) sink('runStatus', { runId: 'r1', state: 'done', label: 'x' });
    expect(win.webContents.send).not.toHaveBeenCalled();
    win.webContents.url = 'kvscope://app/index.html';
  });

  it('denies every permission request and check', () => {
    const callback = vi.fn();
    h.recorded.permissionRequest!({}, 'media', callback, {});
    expect(callback).toHaveBeenCalledWith(false);
    expect(h.recorded.permissionCheck!({}, 'clipboard-read', 'kvscope://app', {})).toBe(false);
  });

  it('sets the CSP header on every response, replacing any other', () => {
    const callback = vi.fn();
    h.recorded.headersReceived!(
      { responseHeaders: { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] } },
      callback,
    );
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: { 'X-Other': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });

  it('denies navigation away from the app, new windows and webviews', () => {
    const listeners = new Map<string, (...args: any[]) => void>();
    let openHandler: (() => unknown) | null = null;
    const contents = {
      on: (event: string, fn: any) => listeners.set(event, fn),
      setWindowOpenHandler: (fn: any) => (openHandler = fn),
    };
    emitApp('web-contents-created', {}, contents);
    const navigate = (url: string) => {
      const event = { preventDefault: vi.fn() };
      listeners.get('will-navigate')!(event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    expect(navigate('https://attacker.example/')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(navigate('kvscope://app/index.html')).toBe(false);
    const redirect = { preventDefault: vi.fn() };
    listeners.get('will-redirect')!(redirect, 'https://attacker.example/');
    expect(redirect.preventDefault).toHaveBeenCalled();
    const webview = { preventDefault: vi.fn() };
    listeners.get('will-attach-webview')!(webview);
    expect(webview.preventDefault).toHaveBeenCalled();
    expect(openHandler!()).toEqual({ action: 'deny' });
  });

  it('serves only its own host on the app scheme', async () => {
    const handler = h.recorded.protocolHandlers.get('kvscope')!;
    expect((await handler(new Request('kvscope://elsewhere/index.html'))).status).toBe(404);
    expect((await handler(new Request('kvscope://app/../../etc/passwd'))).status).toBe(404);
    expect((await handler(new Request('kvscope://app/index.html', { method: 'POST', body: 'x' }))).status).toBe(404);
  });

  it('disposes the services once before quitting', async () => {
    const first = { preventDefault: vi.fn() };
    emitApp('before-quit', first);
    expect(first.preventDefault).toHaveBeenCalled();
    expect(h.services.dispose).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.recorded.quit).toBe(1);
    const second = { preventDefault: vi.fn() };
    emitApp('before-quit', second);
    expect(second.preventDefault).not.toHaveBeenCalled();
    expect(h.services.dispose).toHaveBeenCalledTimes(1);
  });
});
