// Export pressed from the keyboard in the Sessions view, in real Chromium against the real
// `kvscope web`: the button says "Exporting…" until the file comes; it used to be disabled then,
// which dropped the focus to <body>, where it stayed after the download (the next Tab started
// again near the page's top). It keeps the focus (aria-disabled while it exports).
// Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserApp } from '../helpers/browser-app';
import { openAppWithSessions } from '../helpers/sessions-app';

const TEST_MS = 60_000;

let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  app = await openAppWithSessions('kvscope-e2e-export-focus-', ['first']);
  ({ page } = app);
}, TEST_MS);
afterAll(() => app?.close());

const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? 'BODY');

describe('Export from the keyboard', () => {
  it('keeps the focus on the Export button while it exports and after', { timeout: TEST_MS }, async () => {
    const downloads: string[] = [];
    page.on('download', (d) => downloads.push(d.suggestedFilename()));
    await page.getByTestId('export-format-first').selectOption('md');
    await page.getByTestId('export-first').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      /^Downloaded /.test(document.querySelector('.sessions-view .banner')?.textContent ?? ''),
    );
    expect(await focused()).toBe('export-first');
    expect(await page.getByTestId('export-first').textContent()).toBe('Export');
    expect(downloads).toEqual(['demo.md']);
    expect(app.problems).toEqual([]);
  });
});
