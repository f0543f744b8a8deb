// Browser mode's security and protocol, against a real server on loopback and the real
// AppServices (createAppServices), with a small static root made here so no build is needed.
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { EventSink } from '../../../shared/api/contract';
import type { AppServices } from '../../../electron/node/api/app-services';
import { createAppServices } from '../../../electron/node/api/create-app-services';
import { PAGE_KEY_FRAGMENT_PARAM, PAGE_KEY_PROTOCOL_PREFIX } from '../../../shared/api/bridge-protocol';
import { startWebServer, type WebServer } from '../../../electron/node/web/bridge-server';
import { CONTENT_SECURITY_POLICY } from '../../../electron/node/web/content-security-policy';
import { frameText } from '../../helpers/ws-frame';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let root: string;
let staticDir: string;
let services: AppServices;
let sinks: Set<EventSink>;
let server: WebServer;
let cookie: string;
/** The page key the token exchange gave "the page" (page-key.ts): the WebSocket's second factor. */
let pageKey: string;
const cookieName = () => `kvscope-page-${server.port}`;

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, method, headers: { Host: `127.0.0.1:${server.port}`, ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Opens a WebSocket; resolves with the open socket or the HTTP status of the refused upgrade. */
function connect(
  options: {
    path?: string;
    headers?: Record<string, string>;
    origin?: string;
    maxPayload?: number;
    protocols?: string[];
  } = {},
): Promise<{ ws?: WebSocket; status?: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}${options.path ?? '/api'}`, options.protocols ?? [], {
      headers: options.headers,
      origin: options.origin,
      maxPayload: options.maxPayload,
    });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode });
      res.resume();
      ws.terminate();
    });
    ws.once('error', (error) => reject(error));
  });
}

const origin = () => `http://127.0.0.1:${server.port}`;

const pageKeyProtocol = (key = pageKey) => [`${PAGE_KEY_PROTOCOL_PREFIX}${key}`];

/** Trades the printed URL's token, as a browser does: the cookie it sets and the page key in the fragment. */
async function exchangeToken(path = `/?token=${server.token}`): Promise<{ cookie: string; pageKey: string }> {
  const reply = await get(path);
  if (reply.status !== 302) throw new Error(`token exchange answered ${reply.status}`);
  const setCookie = String(reply.headers['set-cookie']);
  const fragment = new URLSearchParams(String(reply.headers.location).split('#')[1] ?? '');
  return { cookie: setCookie.split(';')[0] ?? '', pageKey: fragment.get(PAGE_KEY_FRAGMENT_PARAM) ?? '' };
}

async function openApi(): Promise<WebSocket> {
  const { ws, status } = await connect({ headers: { Cookie: cookie }, origin: origin(), protocols: pageKeyProtocol() });
  if (!ws) throw new Error(`upgrade refused with ${status}`);
  return ws;
}

function nextMessage(ws: WebSocket): Promise<any> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(frameText(data)))));
}

async function call(ws: WebSocket, message: unknown): Promise<any> {
  const reply = nextMessage(ws);
  ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  return reply;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'kvscope-bridge-'));
  staticDir = join(root, 'renderer');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>KVScope test page</title>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log("app")');
  writeFileSync(join(staticDir, 'assets', 'app.css'), 'body{}');
  writeFileSync(join(staticDir, '.env'), 'SECRET=dotfile');
  writeFileSync(join(root, 'secret.txt'), 'TOP-SECRET-OUTSIDE-ROOT');
  symlinkSync(join(root, 'secret.txt'), join(staticDir, 'assets', 'link.txt'));

  // The real services, with a hook to publish events the way the run service does.
  const real = createAppServices({ shell: 'web' });
  sinks = new Set();
  services = {
    handlers: real.handlers,
    subscribe(sink) {
      sinks.add(sink);
      const off = real.subscribe(sink);
      return () => {
        sinks.delete(sink);
        off();
      };
    },
    dispose: () => real.dispose(),
  };
  server = await startWebServer({ services, staticDir, port: 0 });
  ({ cookie, pageKey } = await exchangeToken());
});

afterAll(async () => {
  await server?.close();
  await services?.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe('startWebServer', () => {
  it('listens on loopback and prints a URL with a 192-bit base64url token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token).toMatch(/^[\w-]{32}$/);
  });
});

describe('HTTP authentication', () => {
  it('answers 401 without a token, with the security headers', async () => {
    const reply = await get('/');
    expect(reply.status).toBe(401);
    expect(reply.body).toContain('access token required');
    expect(reply.body).not.toContain('KVScope test page');
    expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 401 for assets too', async () => {
    expect((await get('/assets/app.js')).status).toBe(401);
  });

  it('answers 403 to a wrong token, in the URL or in the cookie', async () => {
    expect((await get('/?token=not-the-token')).status).toBe(403);
    expect((await get('/', { Cookie: `${cookieName()}=not-the-token` })).status).toBe(403);
    expect((await get('/', { Cookie: `${cookie}x` })).status).toBe(403);
  });

  it('trades the URL token for an HttpOnly SameSite=Strict cookie and redirects to the clean URL', async () => {
    const reply = await get(`/?token=${server.token}`);
    expect(reply.status).toBe(302);
    // The page key rides in the fragment: browsers never send a fragment to a server.
    expect(reply.headers.location).toMatch(new RegExp(`^/#${PAGE_KEY_FRAGMENT_PARAM}=[\\w-]{22}\\.[\\w-]{43}$`));
    const setCookie = String(reply.headers['set-cookie']);
    expect(setCookie).toMatch(new RegExp(`^${cookieName()}=[\\w-]{32};`));
    // The cookie reaches every port of 127.0.0.1: it is not the token, and it is no page key.
    expect(setCookie).not.toContain(server.token);
    expect(setCookie).not.toContain(pageKey);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
  });

  it('keeps other query parameters when redirecting', async () => {
    const reply = await get(`/?run=abc&token=${server.token}`);
    expect(reply.status).toBe(302);
    expect(reply.headers.location).toMatch(new RegExp(`^/\\?run=abc#${PAGE_KEY_FRAGMENT_PARAM}=`));
  });

  it('serves the page with the cookie, with CSP, nosniff and the right content types', async () => {
    const page = await get('/', { Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('KVScope test page');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect((await get('/assets/app.js', { Cookie: cookie })).headers['content-type']).toBe(
      'text/javascript; charset=utf-8',
    );
    expect((await get('/assets/app.css', { Cookie: cookie })).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get('/', { Cookie: cookie }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const post = await get('/', { Cookie: cookie }, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('DNS rebinding: the Host header', () => {
  it('refuses a foreign host name even with a valid cookie', async () => {
    const reply = await get('/', { Cookie: cookie, Host: `attacker.example:${server.port}` });
    expect(reply.status).toBe(403);
    expect(reply.body).not.toContain('KVScope test page');
  });

  it('refuses loopback on another port and a missing port', async () => {
    expect((await get('/', { Cookie: cookie, Host: `127.0.0.1:${server.port + 1}` })).status).toBe(403);
    expect((await get('/', { Cookie: cookie, Host: '127.0.0.1' })).status).toBe(403);
  });

  it('accepts localhost:<port>', async () => {
    expect((await get('/', { Cookie: cookie, Host: `localhost:${server.port}` })).status).toBe(200);
  });
});

describe('static files', () => {
  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%2e%2e%5c%2e%2e%5csecret.txt',
    '/assets/link.txt',
    '/%00index.html',
    '/assets%2f..%2f..%2fsecret.txt',
  ])('never serves a file outside the root: %s', async (path) => {
    const reply = await get(path, { Cookie: cookie });
    expect([400, 404]).toContain(reply.status);
    expect(reply.body).not.toContain('TOP-SECRET');
  });

  it('lists no directories and serves no dotfiles', async () => {
    for (const path of ['/assets', '/assets/', '/.env', '/assets/missing.js']) {
      const reply = await get(path, { Cookie: cookie });
      expect(reply.status, path).toBe(404);
      expect(reply.body).not.toContain('app.js');
      expect(reply.body).not.toContain('SECRET');
    }
  });

  it('refuses a malformed percent-encoding and an absolute-form target', async () => {
    expect((await get('/%E0%A4%A', { Cookie: cookie })).status).toBe(400);
    expect((await get(`http://attacker.example/`, { Cookie: cookie })).status).toBe(400);
  });
});

describe('WebSocket upgrade', () => {
  it('is refused with 401 without a token', async () => {
    expect((await connect({ origin: origin() })).status).toBe(401);
  });

  it('is refused with 403 with a wrong token', async () => {
    expect(
      (await connect({ headers: { Cookie: `${cookieName()}=wrong` }, origin: origin(), protocols: pageKeyProtocol() }))
        .status,
    ).toBe(403);
    expect((await connect({ path: '/api?token=wrong', origin: origin() })).status).toBe(403);
  });

  it('is refused with the cookie alone (every port of 127.0.0.1 receives it): 401 without a page key, 403 with a wrong one', async () => {
    expect((await connect({ headers: { Cookie: cookie }, origin: origin() })).status).toBe(401);
    expect((await connect({ headers: { Cookie: cookie } })).status).toBe(401);
    const [nonce] = pageKey.split('.');
    for (const wrong of [`${nonce}.${'A'.repeat(43)}`, 'x', `${pageKey}x`, `.${pageKey}`])
      expect(
        (await connect({ headers: { Cookie: cookie }, origin: origin(), protocols: pageKeyProtocol(wrong) })).status,
        wrong,
      ).toBe(403);
    // The cookie's value is no token either.
    const value = cookie.slice(cookie.indexOf('=') + 1);
    expect((await connect({ path: `/api?token=${value}` })).status).toBe(403);
  });

  it('accepts a page key only with the cookie, and every page gets its own', async () => {
    expect((await connect({ origin: origin(), protocols: pageKeyProtocol() })).status).toBe(401);
    const second = await exchangeToken();
    expect(second.pageKey).not.toBe(pageKey);
    const { ws } = await connect({
      headers: { Cookie: cookie },
      origin: origin(),
      protocols: pageKeyProtocol(second.pageKey),
    });
    expect(ws?.protocol).toBe(pageKeyProtocol(second.pageKey)[0]);
    ws?.close();
  });

  it('is refused with 403 from another origin, even with the cookie and the page key', async () => {
    const protocols = pageKeyProtocol();
    expect((await connect({ headers: { Cookie: cookie }, origin: 'http://attacker.example', protocols })).status).toBe(
      403,
    );
    expect(
      (await connect({ headers: { Cookie: cookie }, origin: `http://127.0.0.1:${server.port + 1}`, protocols })).status,
    ).toBe(403);
  });

  it('is refused with 403 for a foreign Host header', async () => {
    expect(
      (
        await connect({
          headers: { Cookie: cookie, Host: `attacker.example:${server.port}` },
          origin: `http://attacker.example:${server.port}`,
        })
      ).status,
    ).toBe(403);
  });

  it('is refused on any path but /api', async () => {
    expect(
      (await connect({ path: '/other', headers: { Cookie: cookie }, origin: origin(), protocols: pageKeyProtocol() }))
        .status,
    ).toBe(404);
  });

  it('opens with the cookie and the page key from the same origin, or with ?token= from a non-browser client', async () => {
    const a = await openApi();
    a.close();
    const { ws } = await connect({ path: `/api?token=${server.token}` });
    expect(ws).toBeDefined();
    ws!.close();
  });
});

describe('WebSocket messages', () => {
  let ws: WebSocket;
  beforeAll(async () => {
    ws = await openApi();
  });
  afterAll(() => ws.close());

  it('calls a method of the real services', async () => {
    const reply = await call(ws, { id: 1, method: 'listBoards', input: {} });
    expect(reply).toEqual({
      id: 1,
      ok: true,
      output: [{ id: 'local', label: 'This computer', spec: { kind: 'local' } }],
    });
    const info = await call(ws, { id: 'info', method: 'appInfo' });
    expect(info.ok).toBe(true);
    expect(info.output.shell).toBe('web');
  });

  it('rejects text that is not JSON', async () => {
    expect(await call(ws, '{not json')).toEqual({ id: null, ok: false, error: 'message is not valid JSON' });
  });

  it('rejects a request without an id or method, naming the field', async () => {
    const reply = await call(ws, { method: 'listBoards', input: {} });
    expect(reply.ok).toBe(false);
    expect(reply.error).toMatch(/^invalid request: id: /);
    const noMethod = await call(ws, { id: 7, input: {} });
    expect(noMethod).toMatchObject({ id: 7, ok: false });
    expect(noMethod.error).toContain('method');
  });

  it('rejects an unknown method, including inherited property names', async () => {
    expect(await call(ws, { id: 2, method: 'deleteEverything', input: {} })).toEqual({
      id: 2,
      ok: false,
      error: 'unknown method "deleteEverything"',
    });
    for (const method of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const reply = await call(ws, { id: 3, method, input: {} });
      expect(reply, method).toEqual({ id: 3, ok: false, error: `unknown method "${method}"` });
    }
  });

  it('rejects invalid input before the handler runs, naming the field', async () => {
    const reply = await call(ws, {
      id: 4,
      method: 'startRun',
      input: { target: { kind: 'local' }, engine: { kind: 'demo', demo: { layers: 0 } } },
    });
    expect(reply.ok).toBe(false);
    expect(reply.error).toContain('invalid input for startRun');
    expect(reply.error).toContain('engine.demo.layers');
    const ssh = await call(ws, {
      id: 5,
      method: 'startRun',
      input: { target: { kind: 'ssh', host: '-oProxyCommand=evil' }, engine: { kind: 'demo', demo: {} } },
    });
    expect(ssh.error).toContain('target.host');
    const extra = await call(ws, { id: 6, method: 'listBoards', input: { sneaky: true } });
    expect(extra.ok).toBe(false);
    expect(extra.error).toContain('sneaky');
  });

  it('rejects binary frames', async () => {
    const reply = nextMessage(ws);
    ws.send(Buffer.from('{"id":1,"method":"appInfo"}'), { binary: true });
    expect((await reply).error).toContain('binary frames are not supported');
  });

  it('pushes API events to connected clients', async () => {
    const message = nextMessage(ws);
    for (const sink of sinks) sink('runStatus', { runId: 'r1', state: 'running', label: 'demo' });
    expect(await message).toEqual({ event: 'runStatus', payload: { runId: 'r1', state: 'running', label: 'demo' } });
  });

  it('closes the connection on a frame above the size cap', async () => {
    const big = await openApi();
    const closed = new Promise<number>((resolve) => big.once('close', (code) => resolve(code)));
    big.send(JSON.stringify({ id: 1, method: 'appInfo', input: { pad: 'x'.repeat(2 * 1024 * 1024) } }));
    expect(await closed).toBe(1009);
  });
});

describe('a failing service call', () => {
  // Handlers that fail every way a bug can make them fail. None may take the server down (an
  // unhandled rejection ends a Node process) or leave the caller without an answer.
  const messageThrows = new Error('x');
  Object.defineProperty(messageThrows, 'message', {
    get() {
      throw new Error('getter');
    },
  });
  let failing: WebServer;
  let ws: WebSocket;
  beforeAll(async () => {
    const handlers = {
      ...services.handlers,
      appInfo: () => {
        throw new TypeError('thrown synchronously');
      },
      listBoards: () => Promise.reject(Object.create(null) as Error),
      listRuns: () => Promise.reject(messageThrows),
      // A handler that rejects with a non-Error is the case under test: the bridge must still answer.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      listPrompts: () => Promise.reject('a plain string'),
      secretStorage: () => Promise.resolve({ available: false, backend: 10n, reason: null }),
    } as unknown as AppServices['handlers'];
    failing = await startWebServer({ services: { ...services, handlers }, staticDir, port: 0 });
    const opened = new WebSocket(`ws://127.0.0.1:${failing.port}/api?token=${failing.token}`);
    await new Promise((resolve) => opened.once('open', resolve));
    ws = opened;
  });
  afterAll(async () => {
    ws.close();
    await failing.close();
  });

  it.each([
    ['appInfo', 'thrown synchronously'],
    ['listBoards', 'a non-Error value was thrown (object)'],
    ['listRuns', 'an unreadable error was thrown'],
    ['listPrompts', 'a plain string'],
    ['secretStorage', 'response could not be encoded: Do not know how to serialize a BigInt'],
  ])('%s answers { ok: false, error } and the server goes on', async (method, error) => {
    expect(await call(ws, { id: 9, method, input: {} })).toEqual({ id: 9, ok: false, error });
    // Malformed frames in between change nothing.
    expect((await call(ws, '\u0000{')).ok).toBe(false);
    expect((await call(ws, 'null')).ok).toBe(false);
    expect(
      await call(ws, { id: 10, method: 'computeKv', input: { layers: 1, kvHeads: 1, headDimK: 64, ctx: 16 } }),
    ).toMatchObject({ id: 10, ok: true });
  });
});

describe('close()', () => {
  it('closes open sockets and stops listening', async () => {
    const extra = await startWebServer({ services, staticDir, port: 0 });
    const ws = new WebSocket(`ws://127.0.0.1:${extra.port}/api?token=${extra.token}`);
    await new Promise((resolve) => ws.once('open', resolve));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await extra.close();
    expect(await closed).toBe(1001);
    await expect(
      new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: extra.port, path: '/' }, resolve);
        req.on('error', reject);
        req.end();
      }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
