// The run form as a user meets it, in real Chromium against the real `kvscope web`: exact
// accessible names (no unit, hint or option text in them), Start in view with four saved boards,
// a reload during a run that keeps the form and the target, an error on the field in the form's
// words, the GGUF header shown before a run, and the Add-board dialog keeping focus inside.
// Needs `npm run build`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  openBrowserApp,
  saveScreenshot,
  waitForPhase,
  waitForRssPoints,
  type BrowserApp,
} from '../helpers/browser-app';

const STORIES_GGUF = fileURLToPath(new URL('../../../shared/models/stories260K.gguf', import.meta.url));
const WAIT_MS = 90_000;
const TEST_MS = 150_000;

let app: BrowserApp;
let page: Page;
let problems: string[];

beforeAll(async () => {
  app = await openBrowserApp({
    homePrefix: 'kvscope-e2e-form-',
    // Four saved boards (never connected to here): the list pushes the form down.
    prepareHome: (home) => {
      const boards = ['orin', 'rock5', 'rpi5', 'imx8'].map((id, i) => ({
        id,
        label: `Board ${id}`,
        spec: { kind: 'ssh', host: `10.0.0.${i + 10}`, user: 'edge' },
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      }));
      writeFileSync(join(home, 'targets.json'), JSON.stringify({ version: 1, targets: boards }));
    },
    readyTestId: 'board-imx8',
  });
  ({ page, problems } = app);
}, 60_000);

afterAll(() => app?.close());

const form = () => page.locator('.run-form');

describe('the run form', () => {
  it(
    'names every control exactly, with units and hints as descriptions',
    async () => {
      await page.getByTestId('board-local').click();
      await page.getByTestId('engine-kind-demo').click();
      const names: Array<['textbox' | 'combobox', string, string]> = [
        ['textbox', 'Speed', 'field-tps'],
        ['textbox', 'Context', 'field-ctx'],
        ['textbox', 'Memory budget', 'field-budget'],
        ['textbox', 'Sample every', 'field-intervalMs'],
        ['combobox', 'KV type', 'field-kvType'],
        ['combobox', 'KV mode', 'field-mode'],
      ];
      for (const [role, name, testId] of names) {
        const byName = form().getByRole(role, { name, exact: true });
        expect(await byName.count(), name).toBe(1);
        expect(await byName.getAttribute('data-testid'), name).toBe(testId);
      }
      // The unit and the hint describe the control; they are not part of its name.
      expect(await form().getByRole('textbox', { name: 'Speed tok/s' }).count()).toBe(0);
      const budget = form().getByLabel('Memory budget', { exact: true });
      expect(await budget.evaluate((el) => el.getAttribute('aria-describedby'))).toBeTruthy();
      const described = await budget.evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent)
          .join(' '),
      );
      expect(described).toBe('OOM horizon is computed against it');
      expect(await form().getByRole('checkbox', { name: 'Keep running', exact: true }).count()).toBe(1);
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'keeps Start in view with four saved boards',
    async () => {
      const start = page.getByTestId('start-run');
      const box = await start.boundingBox();
      const viewport = page.viewportSize();
      expect(box).not.toBeNull();
      expect(box!.y + box!.height).toBeLessThanOrEqual(viewport!.height);
      await saveScreenshot(page, 'run-form.png');
    },
    TEST_MS,
  );

  it(
    'says on the Context field that {ctx} needs a size, not in the CLI words',
    async () => {
      await page.getByTestId('engine-kind-command').click();
      await form().getByLabel('Engine command on the target', { exact: true }).fill('llama-cli -m m.gguf -c {ctx}');
      await page.getByTestId('start-run').click();
      const error = page.getByTestId('error-commandCtx');
      expect(await error.textContent()).toBe('the command contains {ctx}: give the context size to put there');
      expect(await form().textContent()).not.toContain('--ctx');
      // The error is the field's description: a screen reader reads it with the field.
      const ctx = form().getByRole('textbox', { name: 'Context', exact: true });
      expect(await ctx.getAttribute('aria-invalid')).toBe('true');
      expect(await ctx.getAttribute('aria-describedby')).toContain('run-field-commandCtx-error');
    },
    TEST_MS,
  );

  it(
    'shows the header of the GGUF the run will use, read on the selected target',
    async () => {
      await form().getByLabel('GGUF model on the target', { exact: true }).fill(STORIES_GGUF);
      await page.getByTestId('gguf-read-header').click();
      const header = page.getByTestId('gguf-header');
      await header.waitFor();
      // stories260K: 5 layers × 4 KV heads × head dim 8; 5 × 4 × (8 + 8) × 2 B = 640 B per token at f16.
      expect(await header.textContent()).toContain('5 layers × 4 KV heads × head dim 8/8');
      expect(await header.textContent()).toContain('640 B/token at f16');
      await page.getByTestId('engine-kind-demo').click();
    },
    TEST_MS,
  );

  it(
    'keeps the selected board across a reload',
    async () => {
      await page.getByTestId('board-rock5').click();
      await page.reload();
      await page.getByTestId('board-rock5').waitFor();
      await page.waitForFunction(
        () => document.querySelector('[data-testid=board-rock5]')?.getAttribute('aria-pressed') === 'true',
      );
      expect(await page.getByTestId('run-target').textContent()).toBe('on Board rock5');
    },
    TEST_MS,
  );

  it(
    'keeps the form and the target while a run goes on across a reload',
    async () => {
      await page.getByTestId('board-local').click();
      await page.getByTestId('field-kvType').selectOption('q8_0');
      await page.getByTestId('field-tokens').fill('20000');
      await page.getByTestId('field-tps').fill('150');
      await page.getByTestId('field-intervalMs').fill('150');
      await page.getByTestId('start-run').click();
      await waitForRssPoints(page, 3, WAIT_MS);
      await page.reload();
      await waitForPhase(page, ['running'], WAIT_MS);
      expect(await page.getByTestId('field-kvType').inputValue()).toBe('q8_0');
      expect(await page.getByTestId('field-tokens').inputValue()).toBe('20000');
      expect(await page.getByTestId('field-tps').inputValue()).toBe('150');
      expect(await page.getByTestId('field-intervalMs').inputValue()).toBe('150');
      expect(await page.getByTestId('board-local').getAttribute('aria-pressed')).toBe('true');
      expect(await page.getByTestId('run-target-name').textContent()).toBe('on This computer');
      await page.getByTestId('stop-run').click();
      await waitForPhase(page, ['done'], WAIT_MS);
      // The finished run of This computer is not shown under another board's card.
      await page.getByTestId('board-orin').click();
      await page.getByTestId('run-on-other-target').waitFor();
      expect(await page.getByTestId('memory-chart').count()).toBe(0);
      await page.getByTestId('board-local').click();
      await page.getByTestId('memory-chart').waitFor();
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'keeps focus inside the Add-board dialog',
    async () => {
      await page.getByTestId('add-board').click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const inside = () => dialog.evaluate((d) => d.contains(document.activeElement));
      expect(await inside()).toBe(true);
      const focusable = await dialog.locator('input, select, textarea, button').count();
      for (let i = 0; i < focusable + 3; i++) {
        await page.keyboard.press('Tab');
        expect(await inside(), `after ${i + 1} Tab`).toBe(true);
      }
      for (let i = 0; i < focusable + 3; i++) {
        await page.keyboard.press('Shift+Tab');
        expect(await inside(), `after ${i + 1} Shift+Tab`).toBe(true);
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );
});
