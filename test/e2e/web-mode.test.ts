// Browser mode end to end: the real `kvscope web` CLI in a child process, the built UI
// (out/renderer, from `npm run build`) in real Chromium.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium';
import { startWebMode, type WebMode } from '../helpers/web-mode';

const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url);

let web: WebMode;
let browser: Browser;

/** Records console errors and CSP violations of a page. */
async function watchedPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return { page, problems };
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
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
  });

  it('refuses requests without the token', async () => {
    const page = await fetch(`${web.origin}/`);
    expect(page.status).toBe(401);
    const api = await fetch(`${web.origin}/api`);
    expect(api.status).toBe(401);
    const wrong = await fetch(`${web.origin}/?token=${'A'.repeat(32)}`, { redirect: 'manual' });
    expect(wrong.status).toBe(403);
  });

  it('opens the UI from the printed URL, moves the token into a cookie and lists this computer', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const { page, problems } = await watchedPage(context);
    await page.goto(web.url);
    expect(page.url()).toBe(`${web.origin}/`);
    await expect(page.getByTestId('board-local').textContent()).resolves.toContain('This computer');
    await page.getByTestId('connection-state').getByText('connected').waitFor();
    expect(await page.getByTestId('shell-badge').textContent()).toContain('Browser mode');
    expect(await page.getByTestId('chart-empty').textContent()).toContain('Nothing measured yet');
    expect(await page.getByTestId('readout-measured-bytes-per-token').textContent()).toBe('—');

    const cookies = await context.cookies();
    const token = cookies.find((c) => c.name === `kvscope-token-${web.port}`);
    expect(token).toMatchObject({ value: web.token, httpOnly: true, sameSite: 'Strict', path: '/' });
    // HttpOnly: page scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL('web-mode-idle.png', ARTIFACTS).pathname });
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
    expect(await page.getByTestId('error-layers').textContent()).toBe('must be >=1');
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
    const context = await browser.newContext();
    const own = await context.newPage();
    await own.goto(web.url);
    await own.getByTestId('board-local').waitFor();
    const other: Server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>other</title>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
      const outcome = await webSocketOutcome(page, `ws://127.0.0.1:${web.port}/api`);
      expect(outcome).toBe('refused');
    } finally {
      other.close();
      await context.close();
    }
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
