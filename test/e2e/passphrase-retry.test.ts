// A wrong key passphrase typed in the app's dialog, in real Chromium against the real `kvscope
// web` and a REAL OpenSSH sshd on loopback: the dialog comes back saying the passphrase did not
// unlock the key (attempt 2 of 3), and the right one then connects and the probe succeeds. Before,
// the key was skipped at once: a password dialog next, or "Authentication failed". Needs
// `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openAppWithEncryptedKeyBoard, type EncryptedKeyBoard } from '../helpers/encrypted-key-board';

const WAIT_MS = 45_000;
const TEST_MS = 90_000;
const PASSPHRASE = `retry ${Date.now()}`;

let board: EncryptedKeyBoard;
let page: Page;

beforeAll(async () => {
  board = await openAppWithEncryptedKeyBoard({
    label: 'Passphrase board',
    passphrase: PASSPHRASE,
    prefix: 'kvscope-e2e-passphrase',
  });
  ({ page } = board.app);
}, TEST_MS);

afterAll(async () => {
  await board?.close();
});

describe('a wrong key passphrase', () => {
  it('brings the dialog back saying so, and the right one then probes the board', { timeout: TEST_MS }, async () => {
    await page.getByTestId('probe-board').click();
    await page.getByTestId('hostkey-dialog').waitFor({ timeout: WAIT_MS });
    await page.getByTestId('hostkey-accept').click();

    await page.getByTestId('credential-dialog').waitFor({ timeout: WAIT_MS });
    expect(await page.getByTestId('credential-retry').count()).toBe(0);
    await page.getByTestId('credential-input').fill(`not ${PASSPHRASE}`);
    await page.getByTestId('credential-submit').click();

    const retry = page.getByTestId('credential-retry');
    await retry.waitFor({ timeout: WAIT_MS });
    expect(await retry.textContent()).toBe(
      `That passphrase did not unlock ${board.keyPath}: try again (attempt 2 of 3).`,
    );
    // A fresh, empty field with the focus, marked invalid and described by the reason.
    const input = page.getByTestId('credential-input');
    expect(await input.inputValue()).toBe('');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('credential-input');
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await input.getAttribute('aria-describedby')).toBe(await retry.getAttribute('id'));
    await input.fill(PASSPHRASE);
    await page.getByTestId('credential-submit').click();

    await page.getByTestId('credential-dialog').waitFor({ state: 'detached', timeout: WAIT_MS });
    await page.getByTestId('device-card').waitFor({ timeout: WAIT_MS });
    expect(await page.getByTestId('probe-error').count()).toBe(0);
    expect(board.app.problems).toEqual([]);
  });
});
