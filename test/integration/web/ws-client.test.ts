// The renderer's WebSocket client: against the real bridge server (calls, errors, events) and
// against a scripted server (reconnection with backoff, queueing, in-flight failures, timeouts).
// The browser's WebSocket is replaced by the ws package, which has the same on* interface.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import type { EventSink } from '../../../shared/api/contract';
import type { AppServices } from '../../../electron/node/api/app-services';
import { createAppServices } from '../../../electron/node/api/create-app-services';
import { startWebServer, type WebServer } from '../../../electron/node/web/bridge-server';
import {
  createWsApiClient,
  REFUSED_MESSAGE,
  type ConnectionState,
  type SocketLike,
} from '../../../renderer/src/api/ws-client';
import { defined } from '../../helpers/defined';
import { finishedRun } from '../../helpers/session-fixtures';
import { createSession, readPackedSession, readSession } from '../../../electron/node/session/session-store';
import { packSessionData } from '../../../shared/api/packed-samples';
import { RawJson } from '../../../shared/api/raw-json';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { frameText } from '../../helpers/ws-frame';

const nodeSocket = (url: string) => new WebSocket(url) as unknown as SocketLike;

function waitForState(
  client: { state(): ConnectionState; onState(l: (s: ConnectionState) => void): () => void },
  wanted: ConnectionState,
): Promise<void> {
  if (client.state() === wanted) return Promise.resolve();
  return new Promise((resolve) => {
    const off = client.onState((s) => {
      if (s === wanted) {
        off();
        resolve();
      }
    });
  });
}

/** A socket that fails to connect, like a refused TCP connection: closed (1006) without opening. */
function socketThatFailsToConnect(): SocketLike {
  const socket: SocketLike = {
    readyState: 3,
    send() {},
    close() {},
    onopen: null,
    onerror: null,
    onmessage: null,
    onclose: null,
  };
  queueMicrotask(() => socket.onclose?.({ code: 1006, reason: '' }));
  return socket;
}

describe('against the bridge server', () => {
  let server: WebServer;
  let services: AppServices;
  const sinks = new Set<EventSink>();

  beforeAll(async () => {
    const real = createAppServices({ shell: 'web' });
    services = {
      handlers: real.handlers,
      subscribe: (sink) => {
        sinks.add(sink);
        return () => sinks.delete(sink);
      },
      dispose: () => real.dispose(),
    };
    server = await startWebServer({ services, staticDir: '/nonexistent', port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await services.dispose();
  });

  const client = () =>
    createWsApiClient({ url: `ws://127.0.0.1:${server.port}/api?token=${server.token}`, createSocket: nodeSocket });

  it('calls methods and resolves with their output', async () => {
    const c = client();
    expect(await c.api.listBoards({})).toEqual([{ id: 'local', label: 'This computer', spec: { kind: 'local' } }]);
    expect((await c.api.appInfo({})).shell).toBe('web');
    expect(c.state()).toBe('open');
    c.close();
  });

  it('rejects with the server error text', async () => {
    const c = client();
    await expect(c.api.stopRun({ runId: 'no spaces allowed' })).rejects.toThrow(/^invalid input for stopRun: runId: /);
    c.close();
  });

  it('delivers pushed events to on() handlers until unsubscribed', async () => {
    const c = client();
    await waitForState(c, 'open');
    const seen: string[] = [];
    const off = c.api.on('runStatus', (status) => seen.push(status.state));
    const other: unknown[] = [];
    c.api.on('runSamples', (p) => other.push(p));
    for (const sink of sinks) sink('runStatus', { runId: 'r', state: 'running', label: 'x' });
    await c.api.listRuns({}); // a round trip: the event was sent before the answer
    off();
    for (const sink of sinks) sink('runStatus', { runId: 'r', state: 'done', label: 'x' });
    await c.api.listRuns({});
    expect(seen).toEqual(['running']);
    expect(other).toEqual([]);
    expect(() => c.api.on('noSuchEvent' as never, () => {})).toThrow('unknown event "noSuchEvent"');
    c.close();
  });
});

describe('openSession of a finished run against the bridge server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-ws-open-'));
  const path = join(dir, 'finished.kvscope');
  let server: WebServer;
  let services: AppServices;

  beforeAll(async () => {
    const store = createSession(path, { appVersion: 'test' });
    const run = finishedRun();
    // A label the answer must escape around the spliced samples.
    const seq = store.addRun({
      id: 'finished',
      label: 'a "quoted" run \u2014 ok',
      request: run.request,
      state: 'running',
    });
    store.appendSamples(seq, run.samples);
    store.finishRun(seq, {
      label: 'a "quoted" run \u2014 ok',
      state: 'done',
      error: null,
      endedAt: '2026-01-01T00:00:10.000Z',
      outcome: defined(run.outcome ?? undefined, 'outcome'),
      analysis: run.analysis,
    });
    store.close();
    services = createAppServices({ shell: 'web', sessionsDir: join(dir, 'sessions'), openSessionFile: path });
    server = await startWebServer({ services, staticDir: '/nonexistent', port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await services.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('parses in the page to the session as read from its rows (the stored snapshot spliced in unparsed)', async () => {
    // The server reads the run's samples as their stored text…
    expect(readPackedSession(path).runs[0]?.samples).toBeInstanceOf(RawJson);
    const frames: string[] = [];
    const c = createWsApiClient({
      url: `ws://127.0.0.1:${server.port}/api?token=${server.token}`,
      createSocket: (url) => {
        const ws = new WebSocket(url);
        ws.on('message', (data: Buffer) => frames.push(data.toString('utf8')));
        return ws as unknown as SocketLike;
      },
    });
    const { openOnStart } = await c.api.listSessions({});
    const { data } = await c.api.openSession({ id: defined(openOnStart ?? undefined, 'the opened file') });
    // …and the client receives plain packed samples, the ones the rows hold.
    expect(data).toEqual(packSessionData(readSession(path)));
    expect(data.runs[0]?.label).toBe('a "quoted" run \u2014 ok');
    // Every frame is ASCII (a browser keeps such a text one byte per character): the dash escaped.
    const answer = defined(
      frames.find((f) => f.includes('"finished"')),
      'the answer frame',
    );
    expect(answer).toContain('a \\"quoted\\" run \\u2014 ok');
    for (const frame of frames) expect([...frame].every((ch) => ch.charCodeAt(0) < 0x80)).toBe(true);
    c.close();
  });
});

describe('reconnection', () => {
  let wss: WebSocketServer;
  let port: number;
  const sockets: WebSocket[] = [];
  let answer = true;

  beforeAll(async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => wss.once('listening', resolve));
    port = (wss.address() as { port: number }).port;
    wss.on('connection', (ws) => {
      sockets.push(ws);
      ws.on('message', (data) => {
        const { id, method } = JSON.parse(frameText(data));
        if (answer) ws.send(JSON.stringify({ id, ok: true, output: { method, connection: sockets.length } }));
      });
    });
  });
  afterAll(() => new Promise((resolve) => wss.close(resolve)));

  it('reconnects after the socket drops, keeps handlers, fails in-flight calls and sends queued ones', async () => {
    const c = createWsApiClient({
      url: `ws://127.0.0.1:${port}/`,
      createSocket: nodeSocket,
      minBackoffMs: 20,
      maxBackoffMs: 40,
      random: () => 0.5,
    });
    await waitForState(c, 'open');
    const states: ConnectionState[] = [];
    c.onState((s) => states.push(s));
    const events: unknown[] = [];
    c.api.on('runEvent', (p) => events.push(p));

    answer = false;
    const inFlight = c.api.listRuns({});
    await new Promise((resolve) => setTimeout(resolve, 30));
    defined(sockets.at(-1), 'the open socket').terminate();
    await expect(inFlight).rejects.toThrow('connection to KVScope lost during listRuns');
    answer = true;

    const queued = c.api.appInfo({}); // sent once the next connection opens
    await waitForState(c, 'open');
    expect(await queued).toEqual({ method: 'appInfo', connection: sockets.length });
    expect(states).toEqual(['reconnecting', 'open']);

    defined(sockets.at(-1), 'the open socket').send(
      JSON.stringify({ event: 'runEvent', payload: { runId: 'r', event: { tMs: 1, kind: 'info' } } }),
    );
    await c.api.listRuns({});
    expect(events).toEqual([{ runId: 'r', event: { tMs: 1, kind: 'info' } }]);
    c.close();
    expect(c.state()).toBe('closed');
    await expect(c.api.appInfo({})).rejects.toThrow('closed');
  });

  it('keeps retrying while the server is down, with capped exponential backoff', async () => {
    vi.useFakeTimers();
    try {
      const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
      let attempts = 0;
      const refused = (): SocketLike => {
        attempts += 1;
        return socketThatFailsToConnect();
      };
      const c = createWsApiClient({
        url: 'ws://127.0.0.1:1/',
        createSocket: refused,
        minBackoffMs: 10,
        maxBackoffMs: 80,
        random: () => 1,
      });
      await Promise.resolve(); // the first refusal
      for (let i = 0; i < 6; i++) await vi.advanceTimersToNextTimerAsync();
      c.close();
      // Only the client's own retry timers (other code may schedule long ones, e.g. 30 s keepalives).
      const delays = setTimeoutSpy.mock.calls.map((call) => call[1]).filter((ms) => typeof ms === 'number' && ms <= 80);
      // random() = 1 → the full delay: 10, 20, 40, 80 (cap), 80 …
      expect(delays.slice(0, 6)).toEqual([10, 20, 40, 80, 80, 80]);
      expect(attempts).toBe(7);
      expect(c.state()).toBe('closed');
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops retrying once the server refuses this page for good, and fails every call at once', async () => {
    let attempts = 0;
    const failing = (): SocketLike => {
      attempts += 1;
      return socketThatFailsToConnect();
    };
    // Down for two attempts (the question says no), then up with a new token (it says yes).
    let asked = 0;
    const c = createWsApiClient({
      url: 'ws://127.0.0.1:1/',
      createSocket: failing,
      minBackoffMs: 5,
      maxBackoffMs: 5,
      isRefused: () => Promise.resolve(++asked >= 3),
    });
    const queued = c.api.listBoards({}).catch((e: Error) => e.message);
    await waitForState(c, 'refused');
    expect(await queued).toBe(REFUSED_MESSAGE);
    await expect(c.api.appInfo({})).rejects.toThrow(REFUSED_MESSAGE);
    expect(attempts).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(attempts).toBe(3); // no more attempts
    c.close();
    expect(c.state()).toBe('closed');
  });

  it('rejects a call that gets no answer in time', async () => {
    answer = false;
    const c = createWsApiClient({ url: `ws://127.0.0.1:${port}/`, createSocket: nodeSocket, requestTimeoutMs: 50 });
    await expect(c.api.listBoards({})).rejects.toThrow('no answer to listBoards within 0.05 s');
    answer = true;
    c.close();
  });

  it('gives calls that may wait for a person (a host key or password dialog) their own, longer timeout', async () => {
    answer = false;
    const c = createWsApiClient({
      url: `ws://127.0.0.1:${port}/`,
      createSocket: nodeSocket,
      requestTimeoutMs: 50,
      promptingRequestTimeoutMs: 400,
    });
    const quick = c.api.listBoards({}).catch((e: Error) => e.message);
    const probe = c.api.probeBoard({ boardId: 'local' }).catch((e: Error) => e.message);
    expect(await quick).toBe('no answer to listBoards within 0.05 s');
    expect(await probe).toBe('no answer to probeBoard within 0.4 s');
    answer = true;
    c.close();
  });
});
