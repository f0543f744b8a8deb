// "Read header" in the KV calculator, in real Chromium against the real `kvscope web`: the button
// says "Reading…" until the header comes; it used to be disabled then, which dropped the focus of
// whoever pressed it to <body>, where it stayed once the model's facts (or the error) showed (the
// next Tab started again near the page's top). It keeps the focus (aria-disabled while it reads).
// Needs `npm run build`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';

const STORIES_GGUF = fileURLToPath(new URL('../../../shared/models/stories260K.gguf', import.meta.url));
const TEST_MS = 60_000;

let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-kv-read-focus-', firstClick: 'view-kv' });
  ({ page } = app);
  await page.getByTestId('kv-source-gguf').click();
}, TEST_MS);
afterAll(() => app?.close());

const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? 'BODY');

describe('Read header from the keyboard', () => {
  it('keeps the focus on the button while it reads a model and after', { timeout: TEST_MS }, async () => {
    await page.getByTestId('kv-ggufPath').fill(STORIES_GGUF);
    await page.getByTestId('kv-read-header').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('kv-model-facts').waitFor();
    expect(await focused()).toBe('kv-read-header');
    expect(await page.getByTestId('kv-read-header').textContent()).toBe('Read header');
    expect(app.problems).toEqual([]);
  });

  it('keeps it when the file is not a model', { timeout: TEST_MS }, async () => {
    const notModel = join(app.home, 'notes.txt');
    writeFileSync(notModel, 'not a model\n');
    await page.getByTestId('kv-ggufPath').fill(notModel);
    await page.getByTestId('kv-read-header').click();
    await page.getByTestId('kv-header-error').waitFor();
    expect(await focused()).toBe('kv-read-header');
    expect(app.problems).toEqual([]);
  });
});
