// Start with an invalid run form, in real Chromium against the real `kvscope web`: the button and
// its shortcut (Ctrl+Enter) put the focus on the first invalid field, which says it is invalid and
// is described by its error (what a screen reader announces on focus). The focus stayed on Start,
// the error possibly out of view. Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fillRunForm, openBrowserApp, type BrowserApp } from '../helpers/browser-app';

const TEST_MS = 60_000;

let app: BrowserApp;
let page: Page;

/** The focused element's test id, or its tag when it has none ('BODY' when nothing has it). */
const focused = () =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

/** The text of the elements the focused one names in aria-describedby. */
const focusedDescription = () =>
  page.evaluate(() =>
    (document.activeElement?.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? `(no #${id})`)
      .join(' | '),
  );

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-start-invalid-', firstClick: 'board-local' });
  ({ page } = app);
}, TEST_MS);
afterAll(() => app?.close());

describe('Start with an invalid form', () => {
  it('moves the focus to the first invalid field, described by its error', { timeout: TEST_MS }, async () => {
    await page.getByTestId('engine-kind-demo').click();
    await fillRunForm(page, { tokens: '-5', budget: 'lots' });
    await page.getByTestId('start-run').click();
    await page.getByTestId('error-tokens').waitFor();
    expect(await focused()).toBe('field-tokens');
    expect(await page.getByTestId('field-tokens').getAttribute('aria-invalid')).toBe('true');
    expect(await focusedDescription()).toBe(await page.getByTestId('error-tokens').textContent());

    // Fixed, then Start by its shortcut from elsewhere on the run view: the next invalid field.
    await fillRunForm(page, { tokens: '2000' });
    await page.getByTestId('view-run').focus();
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'field-budget');
    expect(await page.getByTestId('field-budget').getAttribute('aria-invalid')).toBe('true');
    expect(await focusedDescription()).toBe(await page.getByTestId('error-budget').textContent());
    expect(await page.getByTestId('run-phase').getAttribute('data-phase')).not.toBe('running');
    expect(app.problems).toEqual([]);
  });
});
