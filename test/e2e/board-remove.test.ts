// "Remove board" in real Chromium against the real `kvscope web`: the board editor asks first in a
// dialog that names the board; Escape and Cancel keep the board (and the editor, with the focus
// back on "Remove board"); confirming removes it from the list and from boards.json, and the focus
// goes to the row that took its place. Needs `npm run build`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';

const TEST_MS = 90_000;

let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  app = await openBrowserApp({
    homePrefix: 'kvscope-e2e-board-remove-',
    prepareHome: (home) => {
      const boards = ['orin', 'rpi5', 'imx8'].map((id, i) => ({
        id,
        label: `Board ${id}`,
        spec: { kind: 'ssh', host: `10.0.0.${i + 10}`, user: 'edge' },
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      }));
      writeFileSync(join(home, 'boards.json'), JSON.stringify({ version: 2, boards }));
    },
    readyTestId: 'board-imx8',
  });
  ({ page } = app);
}, 60_000);

afterAll(() => app?.close());

const focused = () =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);
const savedIds = () =>
  (JSON.parse(readFileSync(join(app.home, 'boards.json'), 'utf8')) as { boards: { id: string }[] }).boards.map(
    (b) => b.id,
  );

describe('Remove board', () => {
  it('asks first, naming the board; Escape and Cancel keep it', { timeout: TEST_MS }, async () => {
    await page.getByRole('button', { name: 'Edit Board rpi5' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit Board rpi5' });
    await editor.waitFor();
    await page.getByRole('button', { name: 'Remove board' }).click();
    const question = page.getByRole('dialog', { name: 'Remove Board rpi5?' });
    await question.waitFor();
    expect(await question.textContent()).toContain('“Board rpi5” leaves the board list');
    // Cancel has the focus first: Enter on a reflex does not remove anything.
    expect(await question.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement)).toBe(
      true,
    );

    // Escape closes the question only: the editor stays, the focus is back on "Remove board".
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    expect(await editor.count()).toBe(1);
    expect(await focused()).toBe('board-remove');

    await page.keyboard.press('Enter');
    await question.waitFor();
    await question.getByRole('button', { name: 'Cancel' }).click();
    await question.waitFor({ state: 'detached' });
    expect(await editor.count()).toBe(1);
    expect(await focused()).toBe('board-remove');
    expect(await page.getByTestId('board-rpi5').count()).toBe(1);
    expect(savedIds()).toEqual(['orin', 'rpi5', 'imx8']);

    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    expect(app.problems).toEqual([]);
  });

  it('removes the board once confirmed; the focus goes to the next row', { timeout: TEST_MS }, async () => {
    await page.getByRole('button', { name: 'Edit Board rpi5' }).click();
    await page.getByRole('button', { name: 'Remove board' }).click();
    const question = page.getByRole('dialog', { name: 'Remove Board rpi5?' });
    await question.getByRole('button', { name: 'Remove board' }).click();
    await page.getByTestId('board-rpi5').waitFor({ state: 'detached' });
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(savedIds()).toEqual(['orin', 'imx8']);
    await page.waitForFunction(() => document.activeElement !== document.body);
    expect(await focused()).toBe('board-imx8');

    // The last row: the focus goes to the row before it.
    await page.getByRole('button', { name: 'Edit Board imx8' }).click();
    await page.getByRole('button', { name: 'Remove board' }).click();
    await page.getByTestId('confirm-remove-board-yes').click();
    await page.getByTestId('board-imx8').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement !== document.body);
    expect(await focused()).toBe('board-orin');
    expect(savedIds()).toEqual(['orin']);
    expect(app.problems).toEqual([]);
  });
});
