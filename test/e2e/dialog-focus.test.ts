// Where the keyboard focus goes when a dialog closes, in real Chromium against the real `kvscope
// web` and a REAL OpenSSH sshd on loopback: "Test & probe" on a board whose host key is unknown and
// whose key has a passphrase asks two questions in a row while its own button is disabled
// ("Connecting…"). The focus went to <body> (the next Tab started from the page's top): it goes to
// the nearest control of the button's region, and never into the void. Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openAppWithEncryptedKeyBoard, type EncryptedKeyBoard } from '../helpers/encrypted-key-board';

const WAIT_MS = 45_000;
const TEST_MS = 90_000;
const PASSPHRASE = `focus ${Date.now()}`;

let board: EncryptedKeyBoard;
let page: Page;

/** The focused element's test id, or its tag when it has none ('BODY' when nothing has it). */
const focused = () =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

beforeAll(async () => {
  board = await openAppWithEncryptedKeyBoard({
    label: 'Focus board',
    passphrase: PASSPHRASE,
    prefix: 'kvscope-e2e-focus',
  });
  ({ page } = board.app);
}, TEST_MS);

afterAll(async () => {
  await board?.close();
});

describe('the focus after dialogs', () => {
  it(
    'goes from two questions in a row to the control beside the disabled "Test & probe", not to <body>',
    { timeout: TEST_MS },
    async () => {
      await page.getByTestId('probe-board').focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('hostkey-dialog').waitFor({ timeout: WAIT_MS });
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('hostkey-accept');
      await page.keyboard.press('Enter');

      await page.getByTestId('credential-dialog').waitFor({ timeout: WAIT_MS });
      expect(await focused()).toBe('credential-input');
      await page.keyboard.type(PASSPHRASE);
      await page.keyboard.press('Enter');
      await page.getByTestId('credential-dialog').waitFor({ state: 'detached' });
      // "Test & probe" is still disabled ("Connecting…"): the next control of its row has the focus.
      expect(await page.getByTestId('probe-board').isDisabled()).toBe(true);
      expect(await focused()).toBe('add-board');

      await page.getByTestId('device-card').waitFor({ timeout: WAIT_MS });
      expect(await focused()).toBe('add-board');
      expect(board.app.problems).toEqual([]);
    },
  );
});
