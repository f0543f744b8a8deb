// The dashboard's "Max safe context" of a real llama.cpp run (node-llama-cpp on the real tiny
// stories260K, whose trained context is 2,048 tokens), in real Chromium against the real `kvscope
// web`: what a 2 GiB budget holds is millions of tokens, which the readout showed bare, while
// the KV calculator says of the same number that it is beyond the model's trained context. The
// readout says so too, live and once the session is opened again. Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fillRunForm, openBrowserApp, waitForPhase, type BrowserApp } from '../helpers/browser-app';
import { assertLlamaEngineInstalled, llamaCliCommand, modelPath } from '../helpers/llama-engine';

const TEST_MS = 120_000;

let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  assertLlamaEngineInstalled();
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-trained-context-', firstClick: 'board-local' });
  ({ page } = app);
}, 60_000);
afterAll(() => app?.close());

const maxSafeNote = () =>
  page
    .getByTestId('readout-max-safe-context')
    .evaluate((el) => el.parentElement?.querySelector('.readout-note')?.textContent);

describe('Max safe context past the trained context', () => {
  it('is said to be beyond the trained context', { timeout: TEST_MS }, async () => {
    await page.getByTestId('engine-kind-command').click();
    await fillRunForm(page, {
      command: llamaCliCommand({ tokens: 64, quietNode: true }),
      commandCtx: '2048',
      gguf: modelPath,
      budget: '2 GiB',
    });
    await page.getByTestId('start-run').click();
    await waitForPhase(page, ['done', 'failed'], 90_000);
    expect(await page.getByTestId('run-phase').getAttribute('data-phase')).toBe('done');
    expect(await page.getByTestId('readout-max-safe-context').textContent()).toMatch(/^\d{1,3}(,\d{3})+ tokens$/);
    expect(await maxSafeNote()).toMatch(/; beyond the model's trained 2,048 tokens$/);

    await page.reload();
    await page.getByTestId('board-local').waitFor();
    await page.getByTestId('view-sessions').click();
    await page.locator('[data-testid^=open-]').first().click();
    await page.getByTestId('viewing-session').waitFor();
    expect(await maxSafeNote()).toMatch(/; beyond the model's trained 2,048 tokens$/);
    expect(app.problems).toEqual([]);
  });
});
