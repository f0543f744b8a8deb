// Session files that change behind the app's back, in real Chromium against the real `kvscope web`:
// deleted or overwritten after the list was read, damaged while picked for a comparison, or
// unreadable when named with `kvscope web --open`. The user is told what happened, the list shows
// the file as it is now, and nothing stays stuck. Needs `npm run build`.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';
import { writeSmallSession } from '../helpers/hostile-session';
import { openAppWithSessions } from '../helpers/sessions-app';

const TEST_MS = 120_000;
/** Not a SQLite file: what a disk error or another program can leave in place of a session. */
const GARBAGE = 'this is not a session\n'.repeat(500);

let app: BrowserApp;
let page: Page;

const sessionPath = (id: string) => join(app.home, 'sessions', `${id}.kvscope`);

beforeAll(async () => {
  app = await openAppWithSessions('kvscope-e2e-session-files-', [
    'keep',
    'gone',
    'overwritten',
    'damaged-pick',
    'damaged-too',
  ]);
  ({ page } = app);
}, TEST_MS);

afterAll(() => app?.close());

describe('session files changed behind the app', () => {
  it(
    'an Open that fails reads the list again: a deleted file leaves it, a damaged one says so',
    { timeout: TEST_MS },
    async () => {
      rmSync(sessionPath('gone'));
      await page.getByTestId('open-gone').click();
      await page.getByTestId('session-action-error').waitFor();
      expect(await page.getByTestId('session-action-error').textContent()).toContain('no session "gone"');
      await page.getByTestId('session-gone').waitFor({ state: 'detached' });

      writeFileSync(sessionPath('overwritten'), GARBAGE);
      await page.getByTestId('open-overwritten').click();
      const row = page.getByTestId('session-overwritten');
      await row.getByTestId('session-error').waitFor();
      const said = await row.getByTestId('session-error').textContent();
      expect(said).toContain('not a KVScope session');
      // No newer version reads a damaged file: the row does not send the user looking for one.
      expect(said).not.toContain('newer KVScope');
      expect(await page.getByTestId('open-overwritten').isDisabled()).toBe(true);
      // The rest of the list still works.
      await page.getByTestId('open-keep').click();
      await page.getByTestId('viewing-session').waitFor();
      await page.getByTestId('view-sessions').click();
    },
  );

  it('a picked session damaged on disk can be unticked, as the comparison asks', { timeout: TEST_MS }, async () => {
    await page.getByTestId('compare-pick-keep').check();
    await page.getByTestId('compare-pick-damaged-pick').check();
    await page.getByTestId('compare-picked').click();
    await page.getByTestId('compare-chart').waitFor();

    writeFileSync(sessionPath('damaged-pick'), GARBAGE);
    // The reload compares the same sessions again (the tab remembers the picks).
    await page.reload();
    await page.getByTestId('compare-error').waitFor();
    expect(await page.getByTestId('compare-error').textContent()).toContain('Remove it from the comparison');
    await page.getByTestId('compare-remove-damaged-pick').waitFor();

    await page.getByTestId('view-sessions').click();
    const pick = page.getByTestId('compare-pick-damaged-pick');
    await page.getByTestId('session-damaged-pick').getByTestId('session-error').waitFor();
    expect(await pick.isChecked()).toBe(true);
    await pick.uncheck();
    expect(await page.getByTestId('compare-count').textContent()).toBe('1 picked for comparison');
    // Unticked, it cannot be picked again while it cannot be read.
    expect(await pick.isDisabled()).toBe(true);
  });

  it('the comparison removes a session it cannot open where it says so', { timeout: TEST_MS }, async () => {
    // 'keep' is still picked from the test above.
    await page.getByTestId('compare-pick-damaged-too').check();
    await page.getByTestId('compare-picked').click();
    await page.getByTestId('compare-chart').waitFor();
    writeFileSync(sessionPath('damaged-too'), GARBAGE);
    await page.reload();
    const error = page.getByTestId('compare-error');
    await error.waitFor();
    // Named as the session list names it (a file it cannot read goes by its id).
    expect(await error.textContent()).toMatch(/^Could not open “damaged-too”: .*not a KVScope session/);
    await page.getByTestId('compare-remove-damaged-too').click();
    await error.waitFor({ state: 'detached' });
    await page.getByTestId('compare-empty').waitFor();
    await page.getByTestId('view-sessions').click();
    expect(await page.getByTestId('compare-count').textContent()).toBe('1 picked for comparison');
    expect(app.problems).toEqual([]);
  });
});

describe('kvscope web --open <a session this version cannot read>', () => {
  let other: BrowserApp;
  afterAll(() => other?.close());

  it('opens on the Sessions view with the reason, not an empty dashboard', { timeout: TEST_MS }, async () => {
    other = await openBrowserApp({
      homePrefix: 'kvscope-e2e-open-newer-',
      prepareHome: (home) => {
        const path = join(home, 'from-a-newer-version.kvscope');
        writeSmallSession(path);
        const db = new Database(path);
        // A schema version above every one this KVScope reads (electron/node/session/session-migrations.ts).
        db.pragma('user_version = 999');
        db.close();
      },
      webArgs: (home) => ['--open', join(home, 'from-a-newer-version.kvscope')],
    });
    const error = other.page.getByTestId('session-action-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/Could not open the session: .*written by a newer KVScope/);
    expect(await other.page.getByTestId('view-sessions').getAttribute('aria-selected')).toBe('true');
    // Its row is named by its file (not by the hash the app uses as its id), and offers no Delete advice.
    const row = other.page.locator('[data-testid^=session-][data-state]');
    expect(await row.getByTestId('session-name').textContent()).toBe('from-a-newer-version.kvscope');
    expect(await row.getByTestId('session-error').textContent()).toContain(
      'KVScope does not change a file it opened from elsewhere.',
    );
    expect(other.problems).toEqual([]);
  });
});
