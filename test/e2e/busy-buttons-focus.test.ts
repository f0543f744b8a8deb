// Buttons that wait for an answer, pressed from the keyboard in real Chromium against the real
// `kvscope web`: the board list's Refresh and the run form's "Show its header" (of the engine's
// GGUF). Both were disabled while they waited, which dropped the focus of whoever pressed them to
// <body>, where it stayed once the answer came (the next Tab started again near the page's top).
// They keep it (aria-disabled while they wait). Needs `npm run build`.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';

const STORIES_GGUF = fileURLToPath(new URL('../../../shared/models/stories260K.gguf', import.meta.url));
const TEST_MS = 60_000;

let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-busy-focus-' });
  ({ page } = app);
}, TEST_MS);
afterAll(() => app?.close());

const focused = () =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

describe('buttons that wait keep the focus', () => {
  it('Refresh of the board list', { timeout: TEST_MS }, async () => {
    const refresh = page.getByRole('button', { name: 'Refresh', exact: true });
    await refresh.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('board-local').waitFor();
    // The list is loaded again (its answer comes within a few milliseconds here).
    await page.waitForTimeout(300);
    expect(await refresh.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(app.problems).toEqual([]);
  });

  it('"Show its header" of the run form', { timeout: TEST_MS }, async () => {
    await page.getByTestId('board-local').click();
    await page.getByTestId('engine-kind-command').click();
    await page.getByTestId('field-gguf').fill(STORIES_GGUF);
    await page.getByTestId('gguf-read-header').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('gguf-header').waitFor();
    expect(await focused()).toBe('gguf-read-header');
    expect(app.problems).toEqual([]);
  });
});
