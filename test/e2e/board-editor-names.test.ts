// The Add-board dialog's fields as a screen reader names them, in real Chromium against the real
// `kvscope web`: each is named exactly by its label, as the run form's are; its hint, and the error
// a refused Save puts on it, describe it (aria-describedby) instead of being read as part of its
// name ("Host required", "Name Defaults to the host"). A refused Save puts the focus on the first
// field it marked. Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';

const TEST_MS = 60_000;

let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-board-names-' });
  page = app.page;
}, TEST_MS);
afterAll(() => app?.close());

/** The texts the control's aria-describedby points at, joined. */
const description = (testId: string) =>
  page.getByTestId(testId).evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' | '),
  );

describe('the Add-board dialog', () => {
  it('names each field by its label; hints and errors describe it', { timeout: TEST_MS }, async () => {
    await page.getByTestId('add-board').click();
    const dialog = page.getByRole('dialog', { name: 'Add a board' });
    await dialog.waitFor();
    const fields: Array<[string, string]> = [
      ['Name', 'board-label'],
      ['Host', 'board-host'],
      ['Port', 'board-port'],
      ['User', 'board-user'],
      ['Keepalive', 'board-keepaliveSec'],
      ['Identity file', 'board-identityFile'],
      ['Jump hosts', 'board-jump'],
      ['Known-hosts file', 'board-knownHostsFile'],
    ];
    for (const [name, testId] of fields) {
      const byName = dialog.getByRole('textbox', { name, exact: true });
      expect(await byName.count(), name).toBe(1);
      expect(await byName.getAttribute('data-testid'), name).toBe(testId);
    }
    expect(await description('board-label')).toBe('Defaults to the host');
    expect(await description('board-identityFile')).toBe('Empty: ssh-agent, then ~/.ssh/id_*');

    // Save with no host, and a port that is not one: the errors describe their fields.
    await page.getByTestId('board-port').fill('99999');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('board-error-host').waitFor();
    const host = dialog.getByRole('textbox', { name: 'Host', exact: true });
    expect(await host.getAttribute('aria-invalid')).toBe('true');
    expect(await description('board-host')).toBe(await page.getByTestId('board-error-host').textContent());
    expect(await description('board-port')).toBe('a whole number from 1 to 65535');
    expect(await dialog.getByRole('textbox', { name: 'Port', exact: true }).count()).toBe(1);
    expect(app.problems).toEqual([]);
  });

  it('puts the focus on the first field a refused Save marked, not on Save', { timeout: TEST_MS }, async () => {
    const dialog = page.getByRole('dialog', { name: 'Add a board' });
    await page.getByTestId('board-host').fill('');
    await page.getByTestId('board-port').fill('22');
    await page.getByTestId('board-keepaliveSec').fill('-1');
    const save = dialog.getByRole('button', { name: 'Save', exact: true });
    await save.focus();
    await page.keyboard.press('Enter');
    await page
      .waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'board-host', null, {
        timeout: 10_000,
      })
      .catch(() => undefined);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('board-host');
    expect(await page.getByTestId('board-host').getAttribute('aria-invalid')).toBe('true');
    expect(app.problems).toEqual([]);
  });
});
