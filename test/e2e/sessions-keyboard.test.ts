// The session list with the keyboard alone, in real Chromium against the real `kvscope web`: rename
// (Enter, type, Enter or Escape) and delete (Enter, the dialog, Escape or Enter) leave the focus where
// the user goes on from, never on the page's start. Needs `npm run build`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserApp } from '../helpers/browser-app';
import { openAppWithSessions } from '../helpers/sessions-app';

const TEST_MS = 120_000;

let app: BrowserApp;
let page: Page;

/** The focused element's test id (or its tag when it has none). */
const focused = () =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

/** Tab until the control with test id `testId` has the focus (as a keyboard user gets there). */
async function tabTo(testId: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if ((await focused()) === testId) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${testId}; the focus is on ${await focused()}`);
}

describe('the session list by keyboard', () => {
  beforeAll(async () => {
    app = await openAppWithSessions('kvscope-e2e-sessions-keyboard-', ['first', 'second']);
    ({ page } = app);
  }, TEST_MS);
  afterAll(() => app?.close());

  it(
    'renames with Enter and gives the focus back to Rename after Save and after Escape',
    { timeout: TEST_MS },
    async () => {
      await page.getByTestId('view-sessions').focus();
      await tabTo('rename-first');
      await page.keyboard.press('Enter');
      expect(await focused()).toBe('rename-input');
      await page.keyboard.press('Control+A');
      await page.keyboard.type('by keyboard');
      await page.keyboard.press('Enter');
      await page.getByTestId('session-first').getByText('by keyboard', { exact: true }).waitFor();
      expect(await focused()).toBe('rename-first');

      await page.keyboard.press('Enter');
      expect(await focused()).toBe('rename-input');
      await page.keyboard.press('Escape');
      await page.getByTestId('rename-input').waitFor({ state: 'detached' });
      expect(await focused()).toBe('rename-first');
    },
  );

  it(
    'deletes through the dialog; the focus goes to the row that took its place, then to the heading',
    { timeout: TEST_MS },
    async () => {
      await tabTo('delete-first');
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Delete this session?' }).waitFor();
      await page.keyboard.press('Escape');
      expect(await focused()).toBe('delete-first');

      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('confirm-delete-yes');
      await page.keyboard.press('Enter');
      await page.getByTestId('session-first').waitFor({ state: 'detached' });
      await page.waitForFunction(() => document.activeElement !== document.body);
      expect(await focused()).toBe('compare-pick-second');

      await tabTo('delete-second');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.getByTestId('sessions-empty').waitFor();
      await page.waitForFunction(() => document.activeElement !== document.body);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('sessions-heading');
      expect(readdirSync(join(app.home, 'sessions')).filter((f) => f.endsWith('.kvscope'))).toEqual([]);
      expect(app.problems).toEqual([]);
    },
  );
});
