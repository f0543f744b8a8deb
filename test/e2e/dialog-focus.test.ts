// Where the keyboard focus goes when a dialog closes, in real Chromium against the real `kvscope
// web` and a REAL OpenSSH sshd on loopback: "Test & probe" on a board whose host key is unknown and
// whose key has a passphrase asks two questions in a row while its own button is disabled
// ("Connecting…"). The focus went to <body> (the next Tab started from the page's top): it goes to
// the nearest control of the button's region, and never into the void. Needs `npm run build`.
import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';
import { ensureKeyUser, generateKey, makeTempDir, startSshd, type SshKey, type Sshd } from '../helpers/sshd';

const WAIT_MS = 45_000;
const TEST_MS = 90_000;
const PASSPHRASE = `focus ${Date.now()}`;

let sshd: Sshd;
let dir: string;
let encryptedKey: SshKey;
let app: BrowserApp;
let page: Page;

/** The focused element's test id, or its tag when it has none ('BODY' when nothing has it). */
const focused = () =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

beforeAll(async () => {
  sshd = await startSshd();
  dir = await makeTempDir('kvscope-e2e-focus-');
  encryptedKey = await generateKey(join(dir, 'client_encrypted'), { passphrase: PASSPHRASE });
  await appendFile(join(sshd.dir, 'authorized_keys'), encryptedKey.publicLine + '\n');
  const user = await ensureKeyUser();
  delete process.env.SSH_AUTH_SOCK;
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-focus-home-' });
  ({ page } = app);
  await page.getByTestId('add-board').click();
  await page.getByTestId('board-label').fill('Focus board');
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
      expect(app.problems).toEqual([]);
    },
  );
});
