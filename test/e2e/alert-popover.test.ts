// The "Alerts…" popover as WAI-ARIA's disclosure of a non-modal dialog, in real Chromium against the
// real `kvscope web`: its button says open or closed (aria-expanded) and that it opens a dialog; the
// dialog is not aria-modal; opening puts the focus in it; Escape from the dialog or from its button
// closes it and gives the focus back to the button (it fell to <body>). Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';

const TEST_MS = 60_000;

let app: BrowserApp;
let page: Page;

/** The focused element's test id, or its tag when it has none ('BODY' when nothing has it). */
const focused = () =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-alert-popover-' });
  ({ page } = app);
}, TEST_MS);
afterAll(() => app?.close());

describe('the Alerts… popover', () => {
  it('opens and closes by keyboard, the focus going in and back to its button', { timeout: TEST_MS }, async () => {
    const toggle = page.getByTestId('alert-settings-toggle');
    const dialog = page.getByRole('dialog', { name: 'Alert thresholds' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await toggle.getAttribute('aria-haspopup')).toBe('dialog');

    await toggle.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await toggle.getAttribute('aria-controls')).toBe(await dialog.getAttribute('id'));
    expect(await dialog.getAttribute('aria-modal')).toBeNull();
    // The focus is in the dialog, on its first control.
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);

    await page.getByTestId('threshold-rss-budget').focus();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focused()).toBe('alert-settings-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // Escape on the button of the open popover closes it as well.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await toggle.focus();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focused()).toBe('alert-settings-toggle');
    expect(app.problems).toEqual([]);
  });
});
