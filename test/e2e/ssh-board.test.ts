// A board over SSH from the user's side, in real Chromium against the real `kvscope web` and a
// REAL OpenSSH sshd on loopback (test/helpers/sshd.ts): add the board in the board list,
// "Test & probe" → the fingerprint dialog shows what `ssh-keygen -lf` says about the server's
// host key (an oracle independent of our code) → accept → the device card with the board's
// facts and findings; a demo run on the board; a second connection that does not ask again; a
// key protected by a passphrase (masked dialog, no "remember" in browser mode); import from
// ~/.ssh/config; and a CHANGED host key, refused in plain words with both fingerprints.
// The web child gets its own KVSCOPE_HOME (saved boards, the app's known_hosts), so the store
// starts clean and the test can read what the app wrote.
import { readFileSync } from 'node:fs';
import { appendFile, rm, writeFile } from 'node:fs/promises';
import { arch, release } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { saveScreenshot, waitForMeasuredBytesPerToken, waitForPhase, waitForRssPoints } from '../helpers/browser-app';
import { launchChromium, openWatchedPage } from '../helpers/chromium';
import { ensureKeyUser, generateKey, makeTempDir, startSshd, type SshKey, type Sshd } from '../helpers/sshd';
import { startWebMode, type WebMode } from '../helpers/web-mode';
import { startDemoRun } from '../helpers/run-form-page';

/** Generous: the machine has 2 cores and other suites run alongside; these are not speed checks. */
const WAIT_MS = 45_000;
const TEST_MS = 90_000;
const PASSPHRASE = `pass "phrase" ${Date.now()}`;

let sshd: Sshd;
let user: string;
let home: string;
let encryptedKey: SshKey;
let web: WebMode;
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  sshd = await startSshd();
  // A login without root's heavy shell profile, like a field engineer's account on a board.
  user = await ensureKeyUser();
  home = await makeTempDir('kvscope-home-');
  // A second client key, protected by a passphrase, that the server also accepts.
  encryptedKey = await generateKey(join(sshd.dir, 'client_encrypted'), {
    passphrase: PASSPHRASE,
    comment: 'kvscope-test-encrypted',
  });
  await appendFile(join(sshd.dir, 'authorized_keys'), encryptedKey.publicLine + '\n');
  const sshConfig = join(home, 'ssh_config');
  await writeFile(
    sshConfig,
    [
      'Host lab-board',
      '  HostName 127.0.0.1',
      `  Port ${sshd.port}`,
      `  User ${user}`,
      `  IdentityFile ${sshd.clientKey.privatePath}`,
      `  UserKnownHostsFile ${join(home, 'user_known_hosts')}`,
      '',
      'Host *.example',
      '  User nobody',
      '',
    ].join('\n'),
  );
  // Inherited by the `kvscope web` child (this file runs in its own worker process).
  process.env.KVSCOPE_HOME = join(home, 'app');
  process.env.KVSCOPE_SSH_CONFIG = sshConfig;
  delete process.env.SSH_AUTH_SOCK;
  web = await startWebMode();
  browser = await launchChromium();
  page = await openWatchedPage(browser, web.url, problems);
  await page.getByTestId('board-local').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await web?.stop();
  await sshd?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

const shot = (name: string) => saveScreenshot(page, name);

const boardButton = (label: string) => page.locator('[data-testid^="board-"][aria-pressed]', { hasText: label });
const appKnownHosts = () => {
  try {
    return readFileSync(join(home, 'app', 'known_hosts'), 'utf8');
  } catch {
    return '';
  }
};

describe('an SSH board in the app', () => {
  it('is added in the board list and saved without any secret', { timeout: TEST_MS }, async () => {
    await page.getByTestId('add-board').click();
    await page.getByTestId('board-editor').waitFor();
    // A mistake first: the field says what is wrong, nothing is saved.
    await page.getByTestId('board-port').fill('70000');
    await page.getByTestId('board-save').click();
    expect(await page.getByTestId('board-error-port').textContent()).toBe('a whole number from 1 to 65535');
    expect(await page.getByTestId('board-error-host').textContent()).toMatch(/required/);

    await page.getByTestId('board-label').fill('Lab board');
    await page.getByTestId('board-host').fill('127.0.0.1');
    await page.getByTestId('board-port').fill(String(sshd.port));
    await page.getByTestId('board-user').fill(user);
    await page.getByTestId('board-identityFile').fill(sshd.clientKey.privatePath);
    // An empty user known_hosts: only the app's own store decides (and ~/.ssh stays untouched).
    await page.getByTestId('board-knownHostsFile').fill(join(home, 'user_known_hosts'));
    await shot('ssh-board-editor.png');
    await page.getByTestId('board-save').click();
    await page.getByTestId('board-editor').waitFor({ state: 'detached' });

    await boardButton('Lab board').waitFor();
    expect(await boardButton('Lab board').getAttribute('aria-pressed')).toBe('true');
    expect(await boardButton('Lab board').textContent()).toContain(`${user}@127.0.0.1:${sshd.port}`);
    expect(await page.getByTestId('run-target').textContent()).toBe('on Lab board');

    const file = JSON.parse(readFileSync(join(home, 'app', 'boards.json'), 'utf8'));
    expect(file.boards).toHaveLength(1);
    expect(file.boards[0]).toMatchObject({
      label: 'Lab board',
      spec: { kind: 'ssh', host: '127.0.0.1', port: sshd.port, user, identityFile: sshd.clientKey.privatePath },
    });
  });

  it(
    'asks for the unknown host key with the fingerprint ssh-keygen prints, then shows the device card',
    { timeout: TEST_MS },
    async () => {
      expect(appKnownHosts()).toBe('');
      await page.getByTestId('probe-board').click();
      const dialog = page.getByTestId('hostkey-dialog');
      await dialog.waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('hostkey-fingerprint').textContent()).toBe(sshd.hostKey.fingerprint);
      expect(await page.getByTestId('hostkey-type').textContent()).toBe('ssh-ed25519');
      expect(await page.getByTestId('hostkey-host').textContent()).toBe(`127.0.0.1:${sshd.port}`);
      expect(await dialog.textContent()).toContain(join(home, 'app', 'known_hosts'));
      await shot('ssh-hostkey-prompt.png');
      await page.getByTestId('hostkey-accept').click();

      const card = page.getByTestId('device-card');
      await card.waitFor({ timeout: WAIT_MS });
      // Facts of this very machine (the "board" is loopback), from Node, not from the probe.
      const unameArch = { x64: 'x86_64', arm64: 'aarch64', arm: 'armv7l' }[arch()] ?? arch();
      expect(await page.getByTestId('device-arch').textContent()).toBe(unameArch);
      expect(await page.getByTestId('device-kernel').textContent()).toBe(release());
      expect(await page.getByTestId('device-distro').textContent()).toMatch(/\w/);
      expect(await page.getByTestId('device-ram').textContent()).toMatch(/(MiB|GiB) · .* available/);
      expect(await page.getByTestId('device-cores').textContent()).toMatch(/^\d+ online/);
      expect(await page.getByTestId('device-page-size').textContent()).toMatch(/KiB/);
      expect(await page.getByTestId('device-thp').textContent()).toMatch(/always|madvise|never/);
      // Findings with a severity each; those with a fix show it as a command.
      const findings = page.locator('[data-testid=device-findings] [data-testid^="finding-"]');
      expect(await findings.count()).toBeGreaterThan(0);
      for (const severity of await findings.evaluateAll((els) => els.map((e) => e.getAttribute('data-severity'))))
        expect(['info', 'warn', 'error']).toContain(severity);
      expect(await page.locator('[data-testid^="fix-"]').count()).toBeGreaterThan(0);
      // The accepted key is in the app's own store, as ssh(1) would write it.
      expect(appKnownHosts()).toContain(sshd.knownHostsLine);
      await card.scrollIntoViewIfNeeded();
      await shot('ssh-device-card.png');
    },
  );

  it('runs the demo workload on the board without asking for the host key again', { timeout: TEST_MS }, async () => {
    const knownBefore = appKnownHosts();
    await startDemoRun(page, { tokens: '1500', tps: '300', weightsMb: '4', intervalMs: '100', budget: '2 GiB' });

    await waitForRssPoints(page, 5, WAIT_MS);
    await waitForMeasuredBytesPerToken(page, WAIT_MS);
    await waitForPhase(page, ['done', 'failed'], WAIT_MS);
    expect(await page.getByTestId('run-phase').getAttribute('data-phase')).toBe('done');
    await page.waitForTimeout(500); // one more 4 Hz tick so the final analysis is painted
    expect(await page.getByTestId('readout-theory-bytes-per-token').textContent()).toBe('32.0 KiB/token');
    expect(await page.getByTestId('readout-measured-bytes-per-token').textContent()).toMatch(
      /^\d+(\.\d+)? KiB\/token$/,
    );
    expect(await page.getByTestId('hostkey-dialog').count()).toBe(0);
    expect(appKnownHosts()).toBe(knownBefore);
    // The device card folded to its summary when the run started, so the chart is in view.
    expect(await page.getByTestId('device-card-toggle').textContent()).toBe('Show');
    await shot('ssh-demo-run.png');
  });

  it(
    'asks for the passphrase of an encrypted key in a masked field and says why it cannot remember it',
    { timeout: TEST_MS },
    async () => {
      await page.getByTestId('add-board').click();
      await page.getByTestId('board-label').fill('Encrypted key');
      await page.getByTestId('board-host').fill('127.0.0.1');
      await page.getByTestId('board-port').fill(String(sshd.port));
      await page.getByTestId('board-user').fill(user);
      await page.getByTestId('board-identityFile').fill(encryptedKey.privatePath);
      await page.getByTestId('board-knownHostsFile').fill(join(home, 'user_known_hosts'));
      await page.getByTestId('board-save').click();
      await page.getByTestId('board-editor').waitFor({ state: 'detached' });
      await page.getByTestId('probe-board').click();

      await page.getByTestId('credential-dialog').waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('credential-dialog').textContent()).toContain(encryptedKey.privatePath);
      expect(await page.getByTestId('credential-input').getAttribute('type')).toBe('password');
      expect(await page.getByTestId('credential-remember').isDisabled()).toBe(true);
      expect(await page.getByTestId('credential-remember-note').textContent()).toMatch(
        /Browser mode does not remember passwords/,
      );
      await page.getByTestId('credential-input').fill(PASSPHRASE);
      await shot('ssh-passphrase-prompt.png');
      await page.getByTestId('credential-submit').click();
      // Same host and port: its key is known already, so no fingerprint question this time.
      await page.getByTestId('device-card').waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('hostkey-dialog').count()).toBe(0);
      expect(readFileSync(join(home, 'app', 'boards.json'), 'utf8')).not.toContain(PASSPHRASE);
    },
  );

  it(
    'says which identity file could not be used when the password question it led to is cancelled',
    { timeout: TEST_MS },
    async () => {
      // A typo in the key's path: the server also takes passwords, so the app asks for one.
      const missingKey = join(home, 'no_such_key');
      await page.getByTestId('add-board').click();
      await page.getByTestId('board-label').fill('Key typo');
      await page.getByTestId('board-host').fill('127.0.0.1');
      await page.getByTestId('board-port').fill(String(sshd.port));
      await page.getByTestId('board-user').fill(user);
      await page.getByTestId('board-identityFile').fill(missingKey);
      await page.getByTestId('board-knownHostsFile').fill(join(home, 'user_known_hosts'));
      await page.getByTestId('board-save').click();
      await page.getByTestId('board-editor').waitFor({ state: 'detached' });
      await page.getByTestId('probe-board').click();
      await page.getByTestId('credential-dialog').waitFor({ timeout: WAIT_MS });
      await page.getByTestId('credential-cancel').click();
      const error = page.getByTestId('probe-error-text');
      await error.waitFor({ timeout: WAIT_MS });
      expect(await error.textContent()).toBe(
        `Not connected to Key typo: the password question was cancelled. Before it: tried key ${missingKey} (not found); the server accepts publickey, password.`,
      );
    },
  );

  it(
    'imports a Host from ~/.ssh/config, resolved, and connects to it without a prompt',
    { timeout: TEST_MS },
    async () => {
      await page.getByTestId('import-ssh-config').click();
      const row = page.getByTestId('ssh-host-lab-board');
      await row.waitFor();
      expect(await row.textContent()).toContain(`${user}@127.0.0.1:${sshd.port}`);
      expect(await row.textContent()).toContain(sshd.clientKey.privatePath);
      // Wildcard patterns are not hosts.
      expect(await page.locator('[data-testid^="ssh-host-"]').count()).toBe(1);
      await shot('ssh-config-import.png');
      await page.getByTestId('import-host-lab-board').click();
      await row.getByText('saved').waitFor();
      await page.getByTestId('ssh-config-close').click();
      await boardButton('lab-board').click();
      await page.getByTestId('probe-board').click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid=device-card] .device-name')?.textContent === 'lab-board',
        null,
        { timeout: WAIT_MS },
      );
      expect(await page.getByTestId('hostkey-dialog').count()).toBe(0);
    },
  );

  it(
    'refuses a CHANGED host key in plain words, naming both fingerprints, without a prompt',
    { timeout: TEST_MS },
    async () => {
      // The "board was reinstalled": another sshd, with a new host key, on the same host and port.
      await sshd.pause();
      const impostor = await startSshd({ extraConfig: [`Port ${sshd.port}`] });
      try {
        expect(impostor.hostKey.fingerprint).not.toBe(sshd.hostKey.fingerprint);
        await boardButton('Lab board').click();
        await page.getByTestId('probe-board').click();
        const error = page.getByTestId('probe-error-text');
        await error.waitFor({ timeout: WAIT_MS });
        const text = (await error.textContent()) ?? '';
        expect(text).toContain('has CHANGED');
        expect(text).toContain(impostor.hostKey.fingerprint);
        expect(text).toContain(sshd.hostKey.fingerprint);
        expect(text).toContain(join(home, 'app', 'known_hosts'));
        expect(await page.getByTestId('hostkey-dialog').count()).toBe(0);
        await shot('ssh-hostkey-changed.png');

        // A run on it fails the same way, and the store still holds only the first key.
        await page.getByTestId('start-run').click();
        await page.getByTestId('run-error').waitFor({ timeout: WAIT_MS });
        expect(await page.getByTestId('run-error').textContent()).toContain(impostor.hostKey.fingerprint);
        expect(await page.getByTestId('hostkey-dialog').count()).toBe(0);
        expect(appKnownHosts()).not.toContain(impostor.hostKey.blob.toString('base64'));
      } finally {
        await impostor.stop();
      }
      expect(problems).toEqual([]);
    },
  );
});
