// "Import log…" and "Open file…" of the Sessions view, in real Chromium against the real `kvscope
// web`: one dialog, two purposes. The path typed for one was the path the other opened with (a
// tegrastats log offered as the session file to open, a .kvscope as the log to import), and the
// session file's field said that a .gz log is read as it is. Each keeps its own path; each field
// says what it takes. Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';

const TEST_MS = 60_000;

let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-file-dialog-paths-', firstClick: 'view-sessions' });
  ({ page } = app);
}, TEST_MS);
afterAll(() => app?.close());

const pathField = () => page.getByTestId('session-file-path');

describe('the file dialog of the Sessions view', () => {
  it('keeps a path for each purpose', { timeout: TEST_MS }, async () => {
    await page.getByTestId('sessions-import-log').click();
    await pathField().fill('/var/log/tegrastats.log');
    await page.keyboard.press('Escape');
    await page.getByTestId('session-file-dialog').waitFor({ state: 'detached' });

    await page.getByTestId('sessions-open-file').click();
    expect(await pathField().inputValue()).toBe('');
    expect(await page.locator('#session-file-path-hint').textContent()).not.toMatch(/log/);
    await pathField().fill('/home/edge/orin.kvscope');
    await page.keyboard.press('Escape');
    await page.getByTestId('session-file-dialog').waitFor({ state: 'detached' });

    // Each comes back with its own, to correct a typo without typing it all again.
    await page.getByTestId('sessions-import-log').click();
    expect(await pathField().inputValue()).toBe('/var/log/tegrastats.log');
    await page.keyboard.press('Escape');
    await page.getByTestId('sessions-open-file').click();
    expect(await pathField().inputValue()).toBe('/home/edge/orin.kvscope');
    await page.keyboard.press('Escape');
    expect(app.problems).toEqual([]);
  });
});
