// Browser mode end to end: the real `kvscope web` CLI in a child process, the built UI
// (out/renderer, from `npm run build`) in real Chromium.
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import NodeWebSocket from 'ws';
import { saveScreenshot } from '../helpers/browser-app';
import { launchChromium, watchPage } from '../helpers/chromium';
import { startWebMode, type WebMode } from '../helpers/web-mode';

let web: WebMode;
let browser: Browser;

/** A new page of `context` that records console errors, uncaught errors and CSP violations. */
async function watchedPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  await watchPage(page, problems);
  return { page, problems };
}

/** The app open and connected in a page of a fresh context; `beforeLoad` runs before the page loads. */
async function connectedPage(
  viewport: { width: number; height: number },
  beforeLoad?: (page: Page) => Promise<unknown>,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport });
  const { page, problems } = await watchedPage(context);
  await beforeLoad?.(page);
  await page.goto(web.url);
  await page.getByTestId('connection-state').getByText('connected').waitFor();
  return { context, page, problems };
}

/**
 * The app open in one page of a fresh context, and a second page of that context on a plain HTTP
 * server at another port of 127.0.0.1: the same site to cookies, another origin to the API.
 */
async function withPageOnAnotherPort(
  onRequest: (headers: IncomingHttpHeaders) => void,
  use: (pages: { own: Page; other: Page }) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext();
  const own = await context.newPage();
  await own.goto(web.url);
  await own.getByTestId('board-local').waitFor();
  const server: Server = createServer((req, res) => {
    onRequest(req.headers);
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>other</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const other = await context.newPage();
    await other.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await use({ own, other });
  } finally {
    server.close();
    await context.close();
  }
}

beforeAll(async () => {
  web = await startWebMode();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (web && web.child.exitCode === null) await web.stop();
});

describe('kvscope web', () => {
  it('prints exactly one line: the URL with its token', () => {
    expect(web.stdout()).toBe(`KVScope at ${web.url}\n`);
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
  });

  it('refuses requests without the token', async () => {
    const page = await fetch(`${web.origin}/`);
    expect(page.status).toBe(401);
    const api = await fetch(`${web.origin}/api`);
    expect(api.status).toBe(401);
    const wrong = await fetch(`${web.origin}/?token=${'A'.repeat(32)}`, { redirect: 'manual' });
    expect(wrong.status).toBe(403);
  });

  it('opens the UI from the printed URL, trades the token for a cookie and a page key, and lists this computer', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const { page, problems } = await watchedPage(context);
    await page.goto(web.url);
    expect(page.url()).toBe(`${web.origin}/`);
    await expect(page.getByTestId('board-local').textContent()).resolves.toContain('This computer');
    await page.getByTestId('connection-state').getByText('connected').waitFor();
    expect(await page.getByTestId('shell-badge').textContent()).toContain('Browser mode');
    expect(await page.getByTestId('chart-empty').textContent()).toContain('Nothing measured yet');
    expect(await page.getByTestId('readout-measured-bytes-per-token').textContent()).toBe('–');

    const cookies = await context.cookies();
    const cookie = cookies.find((c) => c.name === `kvscope-page-${web.port}`);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie?.value).not.toBe(web.token);
    // HttpOnly: page scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    // The page key left the address bar (the URL above has no fragment) for this tab's storage,
    // and it survives a reload.
    expect(await page.evaluate(() => sessionStorage.getItem('kvscope-page-key'))).toMatch(/^[\w-]+\.[\w-]+$/);
    await page.reload();
    await page.getByTestId('connection-state').getByText('connected').waitFor();

    await saveScreenshot(page, 'web-mode-idle.png');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('draws one recharts chart out of sight once the page is idle, then removes it (ChartWarmup.tsx)', async () => {
    // Every frame: what the warm-up element holds while it is there.
    const watchWarmup = (page: Page) =>
      page.addInitScript(() => {
        const seen: Array<{ lines: number; hidden: string | null; inView: boolean; visibility: string; x: number }> =
          [];
        (window as unknown as { warmupSeen: typeof seen }).warmupSeen = seen;
        const look = () => {
          const el = document.querySelector('[data-testid="chart-warmup"]');
          if (el)
            seen.push({
              lines: el.querySelectorAll('path.recharts-line-curve').length,
              hidden: el.getAttribute('aria-hidden'),
              inView: el.closest('[role="tabpanel"]') !== null,
              visibility: getComputedStyle(el).visibility,
              x: el.getBoundingClientRect().right,
            });
          requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      });
    const { context, page, problems } = await connectedPage({ width: 1440, height: 900 }, watchWarmup);
    await page.waitForFunction(() => (window as unknown as { warmupSeen: unknown[] }).warmupSeen.length > 0);
    await page.getByTestId('chart-warmup').waitFor({ state: 'detached' });
    const seen = await page.evaluate(
      () => (window as unknown as { warmupSeen: Array<Record<string, unknown>> }).warmupSeen,
    );
    // Drawn with its lines, for a few frames, never in a view, hidden from sight and from assistive technology.
    expect(Math.max(...seen.map((s) => Number(s.lines)))).toBe(2);
    expect(seen.length).toBeGreaterThanOrEqual(5);
    for (const s of seen) expect(s).toMatchObject({ hidden: 'true', inView: false, visibility: 'hidden' });
    expect(Math.max(...seen.map((s) => Number(s.x)))).toBeLessThanOrEqual(0);
    // Once: still gone a second later, and the start screen shows no chart of it.
    await page.waitForTimeout(1000);
    expect(await page.getByTestId('chart-warmup').count()).toBe(0);
    expect(await page.getByTestId('chart-empty').textContent()).toContain('Nothing measured yet');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Test & probe from another view goes to the Run view, where the device card answers', async () => {
    const { context, page, problems } = await connectedPage({ width: 1440, height: 900 });
    await page.getByTestId('view-kv').click();
    await page.getByTestId('probe-board').click();
    await page.getByTestId('device-card').waitFor();
    expect(await page.getByTestId('view-run').getAttribute('aria-selected')).toBe('true');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('stacks the sidebar above the views in a narrow window, and nothing scrolls sideways', async () => {
    const { context, page, problems } = await connectedPage({ width: 700, height: 900 });
    for (const view of ['run', 'sessions', 'compare', 'kv']) {
      await page.getByTestId(`view-${view}`).click();
      // Both boxes at one instant (the click may still be scrolling the page).
      const [sidebarBottom, mainTop, mainWidth] = await page.evaluate(() => {
        const sidebar = document.querySelector('aside.sidebar')!.getBoundingClientRect();
        const main = document.querySelector('main.main')!.getBoundingClientRect();
        return [sidebar.bottom, main.top, main.width];
      });
      expect(mainTop, view).toBeGreaterThanOrEqual(sidebarBottom - 1);
      expect(mainWidth, view).toBeGreaterThan(650);
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(sideways, view).toBe(0);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a field error instead of sending an invalid run', async () => {
    const context = await browser.newContext();
    const { page, problems } = await watchedPage(context);
    await page.goto(web.url);
    await page.getByTestId('board-local').waitFor();
    await page.getByTestId('field-layers').fill('0');
    await page.getByTestId('field-budget').fill('two gigs');
    await page.getByTestId('start-run').click();
    expect(await page.getByTestId('error-layers').textContent()).toBe('a whole number from 1 to 512');
    expect(await page.getByTestId('error-budget').textContent()).toContain('cannot read "two gigs"');
    expect(await page.getByTestId('run-phase').getAttribute('data-phase')).toBe('idle');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a 401 page to a browser without the token, and refuses its WebSocket', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`${web.origin}/`);
    expect(response?.status()).toBe(401);
    expect(await page.textContent('body')).toContain('access token required');
    const outcome = await webSocketOutcome(page, `ws://127.0.0.1:${web.port}/api`);
    expect(outcome).toBe('refused');
    await context.close();
  });

  it("refuses the API to another site's page even when the browser holds the cookie", async () => {
    // Another port on 127.0.0.1 is the same *site*, so SameSite=Strict still sends the cookie: the
    // Origin check is what stops this page.
    await withPageOnAnotherPort(
      () => {},
      async ({ other }) => {
        const outcome = await webSocketOutcome(other, `ws://127.0.0.1:${web.port}/api`);
        expect(outcome).toBe('refused');
      },
    );
  });

  it('a local service on another port receives the cookie, but what it gets does not open the API', async () => {
    // Cookies ignore ports: every page the browser loads from 127.0.0.1 sends KVScope's cookie.
    const seen: IncomingHttpHeaders[] = [];
    await withPageOnAnotherPort(
      (headers) => seen.push(headers),
      async ({ own }) => {
        const captured = seen.map((h) => h.cookie ?? '').find((c) => c.includes(`-${web.port}=`));
        expect(captured, 'the browser sent the cookie to the other port').toBeDefined();
        const cookie = captured!;

        // The foreign service now replays it from outside any browser, forging what it likes.
        const served = await httpGet(web.port, '/', { Cookie: cookie });
        expect(served.status).toBe(200); // the UI's public files only
        expect(served.body).not.toContain('kvscope-key');
        const foreignOrigin = web.origin; // a non-browser client can claim our own origin
        expect(await apiOutcome(`ws://127.0.0.1:${web.port}/api`, { Cookie: cookie }, foreignOrigin)).toBe(
          'refused 401',
        );
        expect(await apiOutcome(`ws://127.0.0.1:${web.port}/api`, { Cookie: cookie })).toBe('refused 401');
        for (const value of cookie.split(';').map((c) => c.trim().slice(c.trim().indexOf('=') + 1)))
          expect(await apiOutcome(`ws://127.0.0.1:${web.port}/api?token=${encodeURIComponent(value)}`, {})).toBe(
            'refused 403',
          );
        // The user's own page is unaffected.
        expect(await own.getByTestId('connection-state').textContent()).toContain('connected');
      },
    );
  });

  it('stops cleanly on SIGTERM, and an open page says the connection is lost', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(web.url);
    await page.getByTestId('connection-state').getByText('connected').waitFor();
    expect(await web.stop()).toBe(0);
    expect(web.stderr()).toBe('');
    await page.getByTestId('connection-lost').waitFor();
    expect(await page.getByTestId('connection-state').textContent()).toContain('reconnecting');

    // Started again on the same port, KVScope has a new token: the page cannot come back. It says
    // so, and what was asked of it fails at once, instead of "reconnecting…" for ever and a Read
    // header that read on (a minute, then "not connected").
    const again = await startWebMode(['--port', String(web.port)]);
    try {
      await page.getByTestId('connection-refused').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('connection-state').textContent()).toBe('KVScope restarted: open its new URL');
      await page.getByTestId('view-kv').click();
      await page.getByTestId('kv-source-gguf').click();
      await page.getByTestId('kv-ggufPath').fill('/models/model.gguf');
      await page.getByTestId('kv-read-header').click();
      expect(await page.getByTestId('kv-header-error').textContent()).toContain(
        'KVScope no longer accepts this page (it was restarted)',
      );
      // Its printed URL opens the app again.
      await page.goto(again.url);
      await page.getByTestId('connection-state').getByText('connected').waitFor();
    } finally {
      await again.stop();
    }
    await context.close();
  });
});

/** Whether a page may open a WebSocket to `url`: 'open' or 'refused'. */
function webSocketOutcome(page: Page, url: string): Promise<string> {
  return page.evaluate(
    (u) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(u);
        ws.onopen = () => resolve('open');
        ws.onclose = () => resolve('refused');
      }),
    url,
  );
}

function httpGet(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * What a non-browser client gets from the API with these headers: 'answered' when listBoards
 * answers over the socket, 'refused <status>' when the upgrade is refused.
 */
function apiOutcome(url: string, headers: Record<string, string>, origin?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new NodeWebSocket(url, { headers, origin });
    ws.once('open', () => ws.send(JSON.stringify({ id: 1, method: 'listBoards', input: {} })));
    ws.once('message', () => {
      resolve('answered');
      ws.close();
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(`refused ${res.statusCode}`);
      res.resume();
      ws.terminate();
    });
    ws.once('error', reject);
  });
}
