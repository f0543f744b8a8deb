// The accessible names of the buttons a list repeats for each of its items, in real Chromium
// against the real `kvscope web`: each names its item ("Open session demo"), so a screen reader's
// list of buttons is not "Open, Rename, Export, Delete, Open, Rename…"; the visible text stays short
// and starts the name (WCAG 2.5.3, label in name). Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserApp } from '../helpers/browser-app';
import { openAppWithSessions } from '../helpers/sessions-app';

const TEST_MS = 60_000;

let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  app = await openAppWithSessions('kvscope-e2e-button-names-', ['first']);
  ({ page } = app);
}, TEST_MS);
afterAll(() => app?.close());

describe('buttons repeated per item', () => {
  it('name the session of their row, their text unchanged', { timeout: TEST_MS }, async () => {
    const row = page.getByTestId('session-first');
    const name = (await row.getByTestId('session-name').textContent()) ?? '';
    expect(name).not.toBe('');
    for (const [verb, testId] of [
      ['Open', 'open-first'],
      ['Rename', 'rename-first'],
      ['Export', 'export-first'],
      ['Delete', 'delete-first'],
    ]) {
      const button = row.getByRole('button', { name: `${verb} session ${name}`, exact: true });
      expect(await button.getAttribute('data-testid')).toBe(testId);
      expect(await button.textContent()).toBe(verb);
    }
    expect(await row.getByLabel(`Export format of session ${name}`, { exact: true }).count()).toBe(1);
    expect(await row.getByRole('checkbox', { name: `Compare ${name}`, exact: true }).count()).toBe(1);
  });

  it('"Test & probe" names the board it probes', { timeout: TEST_MS }, async () => {
    const probe = page.getByRole('button', { name: 'Test & probe This computer', exact: true });
    expect(await probe.getAttribute('data-testid')).toBe('probe-board');
    expect(await probe.textContent()).toBe('Test & probe');
    expect(app.problems).toEqual([]);
  });
});
