// Where the keyboard focus is while "Test & probe" probes, in real Chromium against the real
// `kvscope web` (probing This computer): the button becomes a disabled "Connecting…", and a
// disabled button drops the focus to <body> (a screen reader loses its place, the next Tab starts
// again near the page's top). The focus goes to the next control of the row, "+ Add board", and
// stays there once the device card is shown. Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';

/** Generous: the machine has 2 cores shared with other suites; these are not speed checks. */
const WAIT_MS = 45_000;
const TEST_MS = 90_000;

let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-probe-focus-', firstClick: 'board-local' });
  page = app.page;
}, 60_000);

afterAll(() => app?.close());

/** The focused element's test id, or its tag (BODY when the focus was dropped). */
const focused = () =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '');

describe('the focus while a board is probed', () => {
  it('goes from the disabled "Test & probe" to "+ Add board", not to <body>', { timeout: TEST_MS }, async () => {
    await page.getByTestId('probe-board').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector<HTMLButtonElement>('[data-testid=probe-board]')?.disabled === true,
      null,
      { timeout: WAIT_MS },
    );
    expect(await focused()).toBe('add-board');
    await page.getByTestId('device-card').waitFor({ timeout: WAIT_MS });
    await page.waitForFunction(
      () => document.querySelector<HTMLButtonElement>('[data-testid=probe-board]')?.disabled === false,
      null,
      { timeout: WAIT_MS },
    );
    expect(await focused()).toBe('add-board');
    expect(app.problems).toEqual([]);
  });
});
