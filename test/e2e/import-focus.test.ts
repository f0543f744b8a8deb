// Import log… refused, pressed from the keyboard, in real Chromium against the real `kvscope web`:
// Import is disabled while the file is read, which dropped the focus to <body>, and it stayed
// there, inside a modal dialog, once the refusal was shown. The focus goes to the path field,
// which the refusal now describes. Needs `npm run build`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';

const TEST_MS = 60_000;

let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-import-focus-', firstClick: 'view-sessions' });
  page = app.page;
}, TEST_MS);
afterAll(() => app?.close());

describe('a refused import', () => {
  it('puts the focus on the path field the refusal describes', { timeout: TEST_MS }, async () => {
    // A file that is no tegrastats log: the importer reads it and refuses it.
    const notALog = join(app.home, 'notes.txt');
    writeFileSync(notALog, 'not a reading\nnor this\n');
    await page.getByTestId('sessions-import-log').click();
    const dialog = page.getByTestId('session-file-dialog');
    await dialog.getByTestId('session-file-path').fill(notALog);
    await dialog.getByTestId('session-file-submit').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(
        () =>
          dialog
            .getByTestId('session-file-error')
            .textContent()
            .catch(() => ''),
        { timeout: 30_000 },
      )
      .toMatch(/nothing to import/);
    await page
      .waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'session-file-path', null, {
        timeout: 10_000,
      })
      .catch(() => undefined);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? 'BODY')).toBe(
      'session-file-path',
    );
    expect(app.problems).toEqual([]);
  });
});
