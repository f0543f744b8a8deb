// What `electron-vite build` produced for the Electron shell, checked without the Electron binary.
// The preload runs here the way a sandboxed preload runs in Electron: as a classic script (no ESM)
// with a `require` that knows only 'electron', and the sandbox's few globals.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiMethodNames, ipcChannel, type KvScopeApi } from '../../shared/api/contract';
import { CONTENT_SECURITY_POLICY } from '../../electron/node/web/content-security-policy';

const out = (path: string) => fileURLToPath(new URL(`../../out/${path}`, import.meta.url));

type Listener = (event: unknown, message: unknown) => void;

function loadPreload() {
  const requested: string[] = [];
  const exposed = new Map<string, KvScopeApi>();
  const invoked: Array<[string, unknown]> = [];
  const listeners = new Map<string, Set<Listener>>();
  let reply: unknown = { ok: true, output: 'answer' };
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: KvScopeApi) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: (channel: string, payload: unknown) => {
        invoked.push([channel, payload]);
        return Promise.resolve(reply);
      },
      on: (channel: string, fn: Listener) => {
        if (!listeners.has(channel)) listeners.set(channel, new Set());
        listeners.get(channel)!.add(fn);
      },
      removeListener: (channel: string, fn: Listener) => listeners.get(channel)?.delete(fn),
    },
  };
  const module = { exports: {} };
  // Electron's sandboxed preload gets require (electron, events, timers, url), process, Buffer,
  // global, setImmediate and clearImmediate; nothing from node_modules.
  const sandbox = {
    require: (name: string) => {
      requested.push(name);
      if (name === 'electron') return electron;
      throw new Error(`module not found: ${name}`);
    },
    module,
    exports: module.exports,
    process: { platform: 'linux', env: {}, versions: {} },
    Buffer,
    setImmediate,
    clearImmediate,
    setTimeout,
    clearTimeout,
    console,
  };
  const context = vm.createContext({ ...sandbox, global: undefined });
  (context as { global?: unknown }).global = context;
  new vm.Script(readFileSync(out('preload/index.cjs'), 'utf8'), { filename: 'preload/index.cjs' }).runInContext(
    context,
  );
  return {
    requested,
    exposed,
    invoked,
    listeners,
    setReply: (value: unknown) => (reply = value),
  };
}

let preload: ReturnType<typeof loadPreload>;

function exposedApi(): KvScopeApi {
  const api = preload.exposed.get('kvscope');
  if (!api) throw new Error('the preload exposed no kvscope API');
  return api;
}

beforeAll(() => {
  if (!existsSync(out('preload/index.cjs')))
    throw new Error('out/ is missing: run `npm run build` first (`npm test` does)');
  preload = loadPreload();
});

describe('the built preload (out/preload/index.cjs)', () => {
  it('is a classic script that requires only electron', () => {
    expect(preload.requested).toEqual(['electron']);
  });

  it('exposes one named function per API method and on(), nothing else', () => {
    expect([...preload.exposed.keys()]).toEqual(['kvscope']);
    const api: Record<string, unknown> = exposedApi();
    expect(Object.keys(api).sort()).toEqual([...apiMethodNames, 'on'].sort());
    for (const key of Object.keys(api)) expect(typeof api[key], key).toBe('function');
  });

  it('invokes the method channel and unwraps the answer', async () => {
    const api = exposedApi();
    preload.setReply({ ok: true, output: [{ id: 'local' }] });
    await expect(api.listBoards({})).resolves.toEqual([{ id: 'local' }]);
    expect(preload.invoked.at(-1)).toEqual([ipcChannel.invoke('listBoards'), {}]);
    preload.setReply({ ok: false, error: 'invalid input for stopRun: runId: Invalid string' });
    await expect(api.stopRun({ runId: '!' })).rejects.toThrow('invalid input for stopRun: runId: Invalid string');
  });

  it('delivers only the subscribed event and unsubscribes', () => {
    const api = exposedApi();
    const seen: unknown[] = [];
    const off = api.on('runStatus', (payload: unknown) => seen.push(payload));
    const [listener] = preload.listeners.get(ipcChannel.event) ?? [];
    if (!listener) throw new Error('the preload subscribed no listener');
    listener({}, { event: 'runSamples', payload: 1 });
    listener({}, { event: 'runStatus', payload: 2 });
    expect(seen).toEqual([2]);
    off();
    expect(preload.listeners.get(ipcChannel.event)!.size).toBe(0);
    // An event name outside the contract, as untyped renderer code could send it (hence the cast).
    expect(() => api.on('notAnEvent' as 'runStatus', () => {})).toThrow('unknown event "notAnEvent"');
  });
});

describe('the built main process and renderer', () => {
  it('points the window at the preload that was built', () => {
    const main = readFileSync(out('main/index.js'), 'utf8');
    expect(main).toContain('"../preload/index.cjs"');
    expect(existsSync(out('preload/index.cjs'))).toBe(true);
  });

  it('ships index.html with the CSP meta tag and no inline script', () => {
    const html = readFileSync(out('renderer/index.html'), 'utf8');
    expect(/<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1]).toBe(
      CONTENT_SECURITY_POLICY,
    );
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toMatch(/\ssrc="\.\/assets\//);
    expect(html).not.toMatch(/<style\b/);
  });
});
