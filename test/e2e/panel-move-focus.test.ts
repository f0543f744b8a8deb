// The dashboard panels' ↑ and ↓ used from the keyboard, in real Chromium against the real
// `kvscope web`: the button pressed becomes disabled when the panel reaches the top (or the
// bottom), which dropped the focus to <body>. The focus stays on the button pressed while it can
// be pressed again, and goes to the panel's other one once it is disabled. Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';

const TEST_MS = 60_000;

let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-panel-move-' });
  page = app.page;
  await page.getByTestId('panel-thermal').waitFor();
}, TEST_MS);

afterAll(() => app?.close());

const order = () =>
  page.locator('[data-testid^=panel-]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? 'BODY');

describe('moving a panel with the keyboard', () => {
  it('keeps the focus on the panel’s move buttons, up to the top and back down', { timeout: TEST_MS }, async () => {
    const before = await order();
    const at = before.indexOf('panel-thermal');
    expect(at).toBeGreaterThan(1);
    await page.getByRole('button', { name: 'Move Thermal and clocks up', exact: true }).focus();
    for (let i = at; i > 0; i--) {
      await page.keyboard.press('Enter');
      await page.waitForFunction((want) => {
        const panels = Array.from(document.querySelectorAll('[data-testid^=panel-]'), (e) =>
          e.getAttribute('data-testid'),
        );
        return panels.indexOf('panel-thermal') === want;
      }, i - 1);
      if (i > 1) expect(await focusedName()).toBe('Move Thermal and clocks up');
    }
    expect((await order())[0]).toBe('panel-thermal');
    // At the top ↑ is disabled: the focus is on ↓ of the same panel.
    expect(await focusedName()).toBe('Move Thermal and clocks down');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid^=panel-]')[1]?.getAttribute('data-testid') === 'panel-thermal',
    );
    expect(await focusedName()).toBe('Move Thermal and clocks down');
    expect(app.problems).toEqual([]);
  });
});
