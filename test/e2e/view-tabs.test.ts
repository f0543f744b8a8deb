// The view tabs (Run, Sessions, Compare, KV calculator) by keyboard as WAI-ARIA's tabs pattern has
// them, in real Chromium against the real `kvscope web`: one Tab stop, the selected tab (roving
// tabindex); ArrowRight/ArrowLeft (wrapping), Home and End move the focus and show the view.
// Every tab was a Tab stop and the arrows did nothing. Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';

const TEST_MS = 60_000;

let app: BrowserApp;
let page: Page;

/** The focused element's test id, or its tag when it has none. */
const focused = () =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

/** Each tab's test id with its tabindex and aria-selected, in order. */
const tabs = () =>
  page
    .getByRole('tab')
    .evaluateAll((els) =>
      els.map(
        (e) => `${e.getAttribute('data-testid')} ${e.getAttribute('tabindex')} ${e.getAttribute('aria-selected')}`,
      ),
    );

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-view-tabs-' });
  ({ page } = app);
}, TEST_MS);
afterAll(() => app?.close());

describe('the view tabs', () => {
  it('move with the arrow keys, Home and End, one Tab stop among them', { timeout: TEST_MS }, async () => {
    await page.getByTestId('view-run').focus();
    expect(await tabs()).toEqual([
      'view-run 0 true',
      'view-sessions -1 false',
      'view-compare -1 false',
      'view-kv -1 false',
    ]);
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('view-sessions');
    await page.getByTestId('sessions-view').waitFor();
    expect(await tabs()).toEqual([
      'view-run -1 false',
      'view-sessions 0 true',
      'view-compare -1 false',
      'view-kv -1 false',
    ]);
    await page.keyboard.press('End');
    expect(await focused()).toBe('view-kv');
    expect(await page.getByRole('tabpanel').getAttribute('id')).toBe('view-kv');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('view-run');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('view-kv');
    await page.keyboard.press('Home');
    expect(await focused()).toBe('view-run');
    expect(await page.getByRole('tabpanel').getAttribute('id')).toBe('view-run');

    // Tab leaves the tab list from the selected tab, Shift+Tab comes back to it.
    await page.keyboard.press('Tab');
    expect(await focused()).not.toMatch(/^view-/);
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('view-run');
    expect(app.problems).toEqual([]);
  });
});
