// The Electron shell's security settings and IPC guard, checked under plain Node: these modules
// import only types from 'electron', so no Electron binary is involved.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { apiMethodNames } from '../../../../shared/api/contract';
import {
  checkIpcSender,
  guardIpcCall,
  type IpcGuardPolicy,
  type IpcSenderFacts,
} from '../../../../electron/main/ipc-guard';
import {
  APP_ENTRY_URL,
  APP_SCHEME_PRIVILEGES,
  appBaseFor,
  CONTENT_SECURITY_POLICY,
  createWindowOptions,
  DEV_CONTENT_SECURITY_POLICY,
  isAppUrl,
} from '../../../../electron/main/window-options';

const source = (path: string) => readFileSync(fileURLToPath(new URL(`../../../../${path}`, import.meta.url)), 'utf8');

/** "directive value…" pairs of a policy string. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .flatMap(([name, ...values]): Array<[string, string[]]> => (name ? [[name, values]] : [])),
  );
}

describe('createWindowOptions', () => {
  const options = createWindowOptions('/app/out/preload/index.cjs');
  const prefs = options.webPreferences!;

  it('isolates and sandboxes the renderer', () => {
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.experimentalFeatures).toBe(false);
  });

  it('uses the given preload', () => {
    expect(prefs.preload).toBe('/app/out/preload/index.cjs');
  });

  it('serves the app from a standard, secure custom scheme rather than file://', () => {
    expect(APP_ENTRY_URL).toBe('kvscope://app/index.html');
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({ scheme: 'kvscope', privileges: { standard: true, secure: true } });
    expect(APP_SCHEME_PRIVILEGES.privileges?.bypassCSP).toBeUndefined();
  });

  it('is a pure module: only types come from electron', () => {
    for (const file of ['electron/main/window-options.ts', 'electron/main/ipc-guard.ts']) {
      const imports = source(file).match(/^import .* from 'electron';$/gm) ?? [];
      for (const line of imports) expect(line, file).toMatch(/^import type /);
    }
  });
});

describe('CONTENT_SECURITY_POLICY', () => {
  const policy = directives(CONTENT_SECURITY_POLICY);

  it('denies by default and allows scripts from the app only', () => {
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|unsafe-inline|\*/);
  });

  it('lets the page talk to its own origin only', () => {
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
  });

  it('is the policy of the <meta> tag in renderer/index.html', () => {
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(source('renderer/index.html'));
    expect(meta?.[1]).toBe(CONTENT_SECURITY_POLICY);
  });

  it('is relaxed for the development server in style-src only', () => {
    const dev = directives(DEV_CONTENT_SECURITY_POLICY);
    expect(dev.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(dev.get('script-src')).toEqual(["'self'"]);
    expect([...dev.keys()]).toEqual([...policy.keys()]);
  });
});

describe('isAppUrl', () => {
  const base = appBaseFor(undefined);
  it('accepts pages of the app and nothing else', () => {
    expect(base).toBe('kvscope://app');
    expect(isAppUrl('kvscope://app/index.html', base)).toBe(true);
    expect(isAppUrl('kvscope://app/index.html#runs', base)).toBe(true);
    for (const url of [
      'kvscope://evil/index.html',
      'https://app/index.html',
      'file:///etc/passwd',
      'about:blank',
      'javascript:alert(1)',
      '',
      'not a url',
    ]) {
      expect(isAppUrl(url, base), url).toBe(false);
    }
    expect(isAppUrl(null, base)).toBe(false);
  });

  it('accepts the dev server origin in development only', () => {
    const dev = appBaseFor('http://localhost:5173/');
    expect(isAppUrl('http://localhost:5173/index.html', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/index.html', dev)).toBe(false);
    expect(isAppUrl('kvscope://app/index.html', dev)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', base)).toBe(false);
  });
});

describe('IPC guard', () => {
  const policy: IpcGuardPolicy = { appBase: 'kvscope://app', isOwnWebContents: (id) => id === 7 };
  const ours: IpcSenderFacts = { webContentsId: 7, frameUrl: 'kvscope://app/index.html', isMainFrame: true };

  it('accepts the main frame of our own window showing the app', () => {
    expect(checkIpcSender(ours, policy)).toEqual({ ok: true });
  });

  it('refuses a webContents that is not one of our windows', () => {
    const check = checkIpcSender({ ...ours, webContentsId: 8 }, policy);
    expect(check.ok).toBe(false);
  });

  it('refuses a sub-frame, a vanished frame, and a frame showing another page', () => {
    expect(checkIpcSender({ ...ours, isMainFrame: false }, policy).ok).toBe(false);
    expect(checkIpcSender({ ...ours, frameUrl: null }, policy).ok).toBe(false);
    const foreign = checkIpcSender({ ...ours, frameUrl: 'https://attacker.example/x' }, policy);
    expect(foreign).toEqual({ ok: false, reason: 'sender frame shows https://attacker.example, not the app' });
    expect(checkIpcSender({ ...ours, frameUrl: 'file:///home/user/page.html' }, policy).ok).toBe(false);
  });

  it('parses the payload with the contract once the sender is accepted', () => {
    expect(guardIpcCall('listBoards', ours, {}, policy)).toEqual({ ok: true, method: 'listBoards', input: {} });
    const parsed = guardIpcCall(
      'startRun',
      ours,
      { target: { kind: 'local' }, engine: { kind: 'demo', demo: {} } },
      policy,
    );
    expect(parsed.ok).toBe(true);
    // Defaults of the schema are applied before a handler sees the input.
    if (parsed.ok)
      expect(parsed.input).toMatchObject({ intervalMs: 200, engine: { demo: { layers: 16, kvType: 'f16' } } });
  });

  it('rejects an invalid payload, naming the field', () => {
    const result = guardIpcCall('stopRun', ours, { runId: 'x; rm -rf /' }, policy);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^invalid input for stopRun: runId: /);
    const extra = guardIpcCall('appInfo', ours, { extra: 1 }, policy);
    expect(extra.ok).toBe(false);
  });

  it('checks the sender before the payload', () => {
    const result = guardIpcCall('stopRun', { ...ours, webContentsId: 99 }, { runId: 42 }, policy);
    expect(result).toEqual({ ok: false, error: 'refused: sender 99 is not a KVScope window' });
  });

  it('knows every method of the contract', () => {
    for (const method of apiMethodNames) {
      const result = guardIpcCall(method, ours, 'not an object', policy);
      expect(result.ok, method).toBe(false);
      if (!result.ok) expect(result.error, method).toContain(`invalid input for ${method}`);
    }
  });
});
