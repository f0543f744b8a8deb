// Where the keyboard focus is while a run starts, stops and ends, in real Chromium against the real
// `kvscope web`: Start, a field Ctrl+Enter is pressed in and Stop all become disabled the moment they
// act, and a disabled control drops the focus to <body> (a screen reader loses its place). The focus
// goes on to the button that can be pressed now, or to the buttons' group while neither can.
// Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, waitForPhase, type BrowserApp } from '../helpers/browser-app';
import { fillRunForm } from '../helpers/run-form-page';

/** Generous: the machine has 2 cores shared with other suites; these are not speed checks. */
const WAIT_MS = 45_000;
const TEST_MS = 90_000;
/** Long enough that only Stop ends it. */
const LONG_DEMO = { tokens: '100000', tps: '50', weightsMb: '4', intervalMs: '100' };

let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-run-focus-' });
  page = app.page;
  await page.getByTestId('engine-kind-demo').click();
}, 60_000);

afterAll(() => app?.close());

/** The focused element's test id, or its tag (BODY when the focus was dropped). */
const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el?.getAttribute('data-testid') ?? (el?.getAttribute('aria-label') || el?.tagName) ?? 'none';
  });

describe('the focus while a run starts and stops', () => {
  it(
    'goes from Start to Stop, to the Run controls group while stopping, then back to Start',
    async () => {
      await fillRunForm(page, LONG_DEMO);
      await page.getByTestId('start-run').focus();
      await page.keyboard.press('Enter');
      await waitForPhase(page, ['running'], WAIT_MS);
      expect(await focused()).toBe('stop-run');

      await page.keyboard.press('Enter');
      // Stopping: both buttons are disabled; the focus waits on their group, not on <body>.
      const whileStopping = await focused();
      await waitForPhase(page, ['done'], WAIT_MS);
      expect(['Run controls', 'start-run']).toContain(whileStopping);
      await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'start-run', null, {
        timeout: WAIT_MS,
      });
      expect(app.problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'goes from the field Ctrl+Enter was pressed in to Stop, and from Ctrl+. back to Start',
    async () => {
      await page.getByTestId('field-tokens').focus();
      await page.keyboard.press('Control+Enter');
      await waitForPhase(page, ['running'], WAIT_MS);
      expect(await focused()).toBe('stop-run');

      await page.keyboard.press('Control+.');
      await waitForPhase(page, ['done'], WAIT_MS);
      await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'start-run', null, {
        timeout: WAIT_MS,
      });
      expect(app.problems).toEqual([]);
    },
    TEST_MS,
  );
});
