// Open and Compare in the Sessions view, pressed from the keyboard, in real Chromium against the
// real `kvscope web`: each shows another view, and the button pressed went away with the Sessions
// view, taking the focus to <body> (the next Tab started again near the page's top). The focus
// goes to the tab of the view shown. Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserApp } from '../helpers/browser-app';
import { openAppWithSessions } from '../helpers/sessions-app';

const TEST_MS = 60_000;

let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  app = await openAppWithSessions('kvscope-e2e-view-switch-focus-', ['first', 'second']);
  ({ page } = app);
}, TEST_MS);
afterAll(() => app?.close());

/** Until the focused element has this test id (BODY while nothing has the focus). */
const focusOn = (testId: string) =>
  page.waitForFunction((want) => document.activeElement?.getAttribute('data-testid') === want, testId, {
    timeout: 10_000,
  });
const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? 'BODY');

describe('a Sessions button that shows another view', () => {
  it('Open: the focus goes to the Run tab', { timeout: TEST_MS }, async () => {
    await page.getByTestId('open-first').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('view-run').and(page.locator('[aria-selected=true]')).waitFor();
    await focusOn('view-run').catch(() => undefined);
    expect(await focused()).toBe('view-run');
  });

  it('Compare: the focus goes to the Compare tab', { timeout: TEST_MS }, async () => {
    await page.getByTestId('view-sessions').click();
    await page.getByTestId('compare-pick-first').check();
    await page.getByTestId('compare-pick-second').check();
    await page.getByTestId('compare-picked').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('compare-view').waitFor();
    await focusOn('view-compare').catch(() => undefined);
    expect(await focused()).toBe('view-compare');
    expect(app.problems).toEqual([]);
  });
});
