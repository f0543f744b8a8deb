// Browser mode (`kvscope web`): serves the built renderer and the typed API over one WebSocket,
// on loopback only. What protects it, in the order requests meet it:
// - bound to 127.0.0.1, never a routable address;
// - the Host header must be 127.0.0.1:<port> or localhost:<port>: a page on another site whose
//   DNS name was re-pointed at 127.0.0.1 (DNS rebinding) is refused even though it reaches us;
// - a random token, as Jupyter does: the printed URL carries `?token=…`; the first visit trades it
//   for an HttpOnly SameSite=Strict page cookie (a different secret) and redirects to the clean
//   URL, so the token leaves the address bar and history. Every request needs the token or the
//   cookie (compared in constant time): 401 without one, 403 with a wrong one;
// - the cookie reaches every port of 127.0.0.1 (cookies ignore ports), so it opens the UI's files
//   only: the WebSocket needs `?token=` (a non-browser client) or the cookie AND the page key that
//   the exchange's redirect gave the page in its URL fragment (page-key.ts says why that is safe);
// - the WebSocket upgrade must come from our own origin (browsers always send Origin on a
//   WebSocket; a missing Origin means a non-browser client, which still needs the credentials);
// - every message is parsed against the contract's zod schemas before a handler sees it
//   (api-dispatch.ts), and frames are capped at BRIDGE_MAX_REQUEST_BYTES. A request that makes a
//   handler (or the bridge) fail gets an error answer; nothing one request does closes the server.
import { createReadStream } from 'node:fs';
import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  BRIDGE_MAX_REQUEST_BYTES,
  BRIDGE_PATH,
  BridgeRequestSchema,
  PAGE_KEY_FRAGMENT_PARAM,
  PAGE_KEY_PROTOCOL_PREFIX,
  type BridgeResponse,
} from '../../../shared/api/bridge-protocol';
import type { ApiEventName } from '../../../shared/api/contract';
import { describeZodError, dispatchApiCall } from '../api/api-dispatch';
import { asciiJson, stringifyWithRawJson } from '../../../shared/api/raw-json';
import { describeError } from '../util/describe-error';
import type { AppServices } from '../api/app-services';
import { CONTENT_SECURITY_POLICY } from './content-security-policy';
import { createBrowserCredentials } from './page-key';
import { resolveStaticFile } from './static-files';

/**
 * A client that cannot keep up (events queued in its socket beyond this) is disconnected rather
 * than letting the main process buffer without bound; it reconnects and reloads the run with getRun.
 */
const MAX_CLIENT_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Dead connections (laptop lid closed, tab killed) are noticed within two of these. */
const HEARTBEAT_MS = 30_000;

export interface WebServerOptions {
  services: AppServices;
  /** The built renderer: out/renderer. */
  staticDir: string;
  /** 0 or undefined: any free port. */
  port?: number;
}

export interface WebServer {
  /** http://127.0.0.1:N/?token=… */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS: OutgoingHttpHeaders = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** Splits a request target into path and query without letting a `//host/…` path pick a host. */
function splitTarget(target: string): { pathname: string; query: URLSearchParams } | null {
  if (!target.startsWith('/')) return null;
  const q = target.indexOf('?');
  return {
    pathname: q < 0 ? target : target.slice(0, q),
    query: new URLSearchParams(q < 0 ? '' : target.slice(q + 1)),
  };
}

function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return cookies;
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const { services, staticDir } = options;
  const credentials = createBrowserCredentials();
  const { token } = credentials;
  let port = 0;
  // The port is part of the name: two KVScope instances on one machine keep separate cookies.
  const cookieName = () => `kvscope-page-${port}`;

  /** The Host header, when it names this server; null otherwise (DNS rebinding, proxies, typos). */
  const checkHost = (host: string | undefined): string | null => {
    const normalized = (host ?? '').toLowerCase();
    return normalized === `127.0.0.1:${port}` || normalized === `localhost:${port}` ? normalized : null;
  };

  const printedUrlHint = () => `Open the URL that \`kvscope web\` printed (http://127.0.0.1:${port}/?token=…).`;
  type Auth = { ok: true; by: 'token' | 'cookie' } | { ok: false; status: 401 | 403; message: string };
  const authenticate = (req: IncomingMessage, query: URLSearchParams): Auth => {
    const fromUrl = query.get('token');
    if (fromUrl !== null) {
      if (credentials.tokenMatches(fromUrl)) return { ok: true, by: 'token' };
      return {
        ok: false,
        status: 403,
        message:
          'KVScope: wrong access token. Open the URL that `kvscope web` printed; it changes every time KVScope starts.',
      };
    }
    const fromCookie = parseCookies(req.headers.cookie).get(cookieName());
    if (fromCookie === undefined)
      return { ok: false, status: 401, message: `KVScope: access token required. ${printedUrlHint()}` };
    if (!credentials.cookieMatches(fromCookie))
      return {
        ok: false,
        status: 403,
        message: `KVScope: this browser's session belongs to an earlier KVScope. ${printedUrlHint()}`,
      };
    return { ok: true, by: 'cookie' };
  };

  /** The page keys offered in Sec-WebSocket-Protocol (a comma-separated list). */
  const offeredPageKeys = (req: IncomingMessage): string[] =>
    (req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p.startsWith(PAGE_KEY_PROTOCOL_PREFIX))
      .map((p) => p.slice(PAGE_KEY_PROTOCOL_PREFIX.length));

  const sendText = (res: ServerResponse, status: number, text: string, extra: OutgoingHttpHeaders = {}) => {
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      ...extra,
    });
    res.end(text);
  };

  const handleHttp = async (req: IncomingMessage, res: ServerResponse) => {
    if (!checkHost(req.headers.host))
      return sendText(
        res,
        403,
        'KVScope: unexpected Host header; browser mode answers only http://127.0.0.1 and http://localhost.',
      );
    const target = splitTarget(req.url ?? '');
    if (!target) return sendText(res, 400, 'KVScope: bad request target.');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendText(res, 405, 'KVScope: method not allowed.', { Allow: 'GET, HEAD' });
    const auth = authenticate(req, target.query);
    if (!auth.ok) return sendText(res, auth.status, auth.message);
    if (auth.by === 'token') {
      // Jupyter's flow: trade the URL token for a cookie and drop it from the address bar; the
      // fragment carries this page's key (page-key.ts), which no request will ever send back.
      target.query.delete('token');
      const rest = target.query.toString();
      const fragment = new URLSearchParams({ [PAGE_KEY_FRAGMENT_PARAM]: credentials.newPageKey() });
      res.writeHead(302, {
        ...SECURITY_HEADERS,
        Location: `${target.pathname}${rest ? `?${rest}` : ''}#${fragment.toString()}`,
        'Set-Cookie': `${cookieName()}=${credentials.cookieValue}; HttpOnly; SameSite=Strict; Path=/`,
        'Content-Length': 0,
      });
      return res.end();
    }
    if (target.pathname === BRIDGE_PATH)
      return sendText(res, 426, 'KVScope: this is the WebSocket endpoint.', { Upgrade: 'websocket' });
    const file = await resolveStaticFile(staticDir, target.pathname);
    if (!file.ok) return sendText(res, file.status, file.status === 404 ? 'KVScope: not found.' : 'KVScope: bad path.');
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': file.contentType,
      'Content-Length': file.sizeBytes,
      'Cache-Control': 'no-cache',
    });
    if (req.method === 'HEAD') return res.end();
    const stream = createReadStream(file.filePath);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  };

  const server = createServer((req, res) => {
    handleHttp(req, res).catch(() => {
      if (!res.headersSent) sendText(res, 500, 'KVScope: internal error.');
      else res.destroy();
    });
  });

  // ---- WebSocket: the API ----
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: BRIDGE_MAX_REQUEST_BYTES,
    perMessageDeflate: false,
    // A browser fails a WebSocket whose server picks none of the subprotocols it offered: pick the
    // page key (already checked in 'upgrade'); a client offering none (?token=) gets none.
    handleProtocols: (protocols) => [...protocols].find((p) => p.startsWith(PAGE_KEY_PROTOCOL_PREFIX)) ?? false,
  });
  const clients = new Set<WebSocket>();
  const alive = new WeakMap<WebSocket, boolean>();

  const rejectUpgrade = (socket: Duplex, status: number, text: string) => {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const host = checkHost(req.headers.host);
    if (!host) return rejectUpgrade(socket, 403, 'unexpected Host header');
    const origin = req.headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== `http://${host}`)
      return rejectUpgrade(socket, 403, 'cross-origin WebSocket refused');
    const target = splitTarget(req.url ?? '');
    if (!target) return rejectUpgrade(socket, 400, 'bad request target');
    const auth = authenticate(req, target.query);
    if (!auth.ok) return rejectUpgrade(socket, auth.status, auth.message);
    if (auth.by === 'cookie') {
      const keys = offeredPageKeys(req);
      if (keys.length === 0)
        return rejectUpgrade(socket, 401, `KVScope: this page has no key for the API. ${printedUrlHint()}`);
      if (!keys.some((k) => credentials.pageKeyMatches(k)))
        return rejectUpgrade(socket, 403, `KVScope: wrong page key. ${printedUrlHint()}`);
    }
    if (target.pathname !== BRIDGE_PATH) return rejectUpgrade(socket, 404, 'not found');
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws));
  });

  const reply = (ws: WebSocket, message: BridgeResponse) => {
    if (ws.readyState !== WebSocket.OPEN) return;
    let text: string;
    try {
      // A finished run's stored samples go in as the text they are; all of it ASCII, which the
      // page's WebSocket makes a one-byte string (shared/api/raw-json.ts).
      text = stringifyWithRawJson(message, { asciiOnly: true });
    } catch (error) {
      text = asciiJson(
        JSON.stringify({ id: message.id, ok: false, error: `response could not be encoded: ${describeError(error)}` }),
      );
    }
    ws.send(text);
  };

  const handleMessage = async (ws: WebSocket, data: RawData, isBinary: boolean) => {
    if (isBinary)
      return reply(ws, {
        id: null,
        ok: false,
        error: 'binary frames are not supported: send one JSON text frame per request',
      });
    let message: unknown;
    try {
      const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      message = JSON.parse(bytes.toString('utf8'));
    } catch {
      return reply(ws, { id: null, ok: false, error: 'message is not valid JSON' });
    }
    const request = BridgeRequestSchema.safeParse(message);
    if (!request.success) {
      const rawId = (message as { id?: unknown } | null)?.id;
      const id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
      return reply(ws, { id, ok: false, error: `invalid request: ${describeZodError(request.error)}` });
    }
    const result = await dispatchApiCall(services.handlers, request.data.method, request.data.input);
    reply(ws, { id: request.data.id, ...result });
  };

  /** Whatever goes wrong with one message is answered on its socket: it never reaches the process. */
  const onMessage = (ws: WebSocket, data: RawData, isBinary: boolean) => {
    handleMessage(ws, data, isBinary).catch((error: unknown) => {
      try {
        reply(ws, { id: null, ok: false, error: `internal error: ${describeError(error)}` });
      } catch {
        ws.terminate();
      }
    });
  };

  const onConnection = (ws: WebSocket) => {
    clients.add(ws);
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    ws.on('message', (data, isBinary) => onMessage(ws, data, isBinary));
    ws.on('close', () => clients.delete(ws));
    ws.on('error', () => ws.terminate());
  };

  const broadcast = (event: ApiEventName, payload: unknown) => {
    if (clients.size === 0) return;
    const text = asciiJson(JSON.stringify({ event, payload }));
    for (const ws of clients) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      if (ws.bufferedAmount > MAX_CLIENT_BUFFERED_BYTES) {
        ws.close(1013, 'client too slow: reconnect and reload the run');
        continue;
      }
      ws.send(text);
    }
  };
  const unsubscribe = services.subscribe(broadcast);

  const heartbeat = setInterval(() => {
    for (const ws of clients) {
      if (!alive.get(ws)) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: options.port ?? 0 }, () => {
      server.off('error', reject);
      resolvePromise();
    });
  }).catch((error) => {
    clearInterval(heartbeat);
    unsubscribe();
    throw error;
  });
  port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close() {
      closing ??= new Promise<void>((resolvePromise) => {
        clearInterval(heartbeat);
        unsubscribe();
        for (const ws of clients) ws.close(1001, 'KVScope is shutting down');
        wss.close();
        server.close(() => resolvePromise());
        // Close frames are best effort; sockets still open after them are cut.
        const cut = setTimeout(() => {
          for (const ws of clients) ws.terminate();
          server.closeAllConnections();
        }, 250);
        cut.unref();
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
