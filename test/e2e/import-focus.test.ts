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

  // QA: the refusal stayed beside the path once another file was typed (and beside a later interval
  // error), as if the new file had been read and refused too.
  it('goes once the path is changed: it said nothing of the new file', { timeout: TEST_MS }, async () => {
    const dialog = page.getByTestId('session-file-dialog');
    const path = dialog.getByTestId('session-file-path');
    expect(await dialog.getByTestId('session-file-error').count()).toBe(1);
    await path.press('End');
    await page.keyboard.type('.old');
    expect(await dialog.getByTestId('session-file-error').count()).toBe(0);
    expect(await path.getAttribute('aria-invalid')).toBe('false');
    // An interval refused next is said alone.
    await dialog.getByTestId('import-interval').fill('-1');
    await dialog.getByTestId('session-file-submit').click();
    expect(await dialog.getByTestId('import-interval-error').count()).toBe(1);
    expect(await dialog.getByTestId('session-file-error').count()).toBe(0);
    expect(app.problems).toEqual([]);
  });
});
