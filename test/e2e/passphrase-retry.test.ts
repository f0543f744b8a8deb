// A wrong key passphrase typed in the app's dialog, in real Chromium against the real `kvscope
// web` and a REAL OpenSSH sshd on loopback: the dialog comes back saying the passphrase did not
// unlock the key (attempt 2 of 3), and the right one then connects and the probe succeeds. Before,
// the key was skipped at once: a password dialog next, or "Authentication failed". Needs
// `npm run build`.
import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';
import { ensureKeyUser, generateKey, makeTempDir, startSshd, type SshKey, type Sshd } from '../helpers/sshd';

const WAIT_MS = 45_000;
const TEST_MS = 90_000;
const PASSPHRASE = `retry ${Date.now()}`;

let sshd: Sshd;
let dir: string;
let encryptedKey: SshKey;
let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  sshd = await startSshd();
  dir = await makeTempDir('kvscope-e2e-passphrase-');
  encryptedKey = await generateKey(join(dir, 'client_encrypted'), { passphrase: PASSPHRASE });
  await appendFile(join(sshd.dir, 'authorized_keys'), encryptedKey.publicLine + '\n');
  const user = await ensureKeyUser();
  delete process.env.SSH_AUTH_SOCK;
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-passphrase-home-' });
  ({ page } = app);
  await page.getByTestId('add-board').click();
  await page.getByTestId('board-label').fill('Passphrase board');
  await page.getByTestId('board-host').fill('127.0.0.1');
  await page.getByTestId('board-port').fill(String(sshd.port));
  await page.getByTestId('board-user').fill(user);
  await page.getByTestId('board-identityFile').fill(encryptedKey.privatePath);
  await page.getByTestId('board-knownHostsFile').fill(join(dir, 'user_known_hosts'));
  await page.getByTestId('board-save').click();
  await page.getByTestId('board-editor').waitFor({ state: 'detached' });
}, TEST_MS);

afterAll(async () => {
  await app?.close();
  await sshd?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
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
      `That passphrase did not unlock ${encryptedKey.privatePath}: try again (attempt 2 of 3).`,
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
    expect(app.problems).toEqual([]);
  });
});
