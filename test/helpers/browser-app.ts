// The app in browser mode as the end-to-end tests open it: an app data folder of the test's own,
// the real `kvscope web` (test/helpers/web-mode.ts), real Chromium and a watched page
// (test/helpers/chromium.ts); and the waits on the run's state that several e2e files share.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openWatchedPage } from './chromium';
import { startWebMode, type WebMode } from './web-mode';

export const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url);

export interface BrowserApp {
  /** The KVSCOPE_HOME the `kvscope web` child runs with, removed by close(). */
  home: string;
  web: WebMode;
  browser: Browser;
  page: Page;
  /** Uncaught errors, console errors and CSP violations of `page` (see openWatchedPage). */
  problems: string[];
  close(): Promise<void>;
}

export interface BrowserAppOptions {
  /** mkdtemp prefix of the app data folder. */
  homePrefix: string;
  /** Writes what the app should find in its data folder before it starts (saved boards, sessions). */
  prepareHome?: (home: string) => void | Promise<void>;
  /** More `kvscope web` arguments, e.g. `--open <file>`. */
  webArgs?: (home: string) => string[];
  /** The test id the page shows once the board list is loaded. */
  readyTestId?: string;
  /** A test id to click once the page is ready: the view or the board the file's tests start from. */
  firstClick?: string;
}

/**
 * Opens the app in browser mode with its own app data folder. The `kvscope web` child inherits
 * KVSCOPE_HOME from this process (each e2e file runs in its own worker), so sessions and saved
 * boards land in the test's folder, never the user's.
 */
export async function openBrowserApp(options: BrowserAppOptions): Promise<BrowserApp> {
  const home = mkdtempSync(join(tmpdir(), options.homePrefix));
  await options.prepareHome?.(home);
  process.env.KVSCOPE_HOME = home;
  const web = await startWebMode(options.webArgs?.(home) ?? []);
  const browser = await launchChromium();
  const problems: string[] = [];
  const page = await openWatchedPage(browser, web.url, problems);
  await page.getByTestId(options.readyTestId ?? 'board-local').waitFor();
  if (options.firstClick) await page.getByTestId(options.firstClick).click();
  return {
    home,
    web,
    browser,
    page,
    problems,
    async close() {
      await browser.close();
      await web.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A screenshot into test-artifacts/, for a person to look at; nothing asserts on it. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: new URL(name, ARTIFACTS).pathname });
}

/** Until the memory chart holds at least `minPoints` RSS samples. */
export async function waitForRssPoints(page: Page, minPoints: number, timeoutMs: number): Promise<void> {
  await page.waitForFunction(
    (min) => Number(document.querySelector('[data-testid=memory-chart]')?.getAttribute('data-rss-points')) >= min,
    minPoints,
    { timeout: timeoutMs },
  );
}

/** Until the run header's phase is one of `phases`. */
export async function waitForPhase(page: Page, phases: readonly string[], timeoutMs: number): Promise<void> {
  await page.waitForFunction(
    (wanted) => wanted.includes(document.querySelector('[data-testid=run-phase]')?.getAttribute('data-phase') ?? ''),
    [...phases],
    { timeout: timeoutMs },
  );
}

/** Until the analysis shows a measured KV cost per token. */
export async function waitForMeasuredBytesPerToken(page: Page, timeoutMs: number): Promise<void> {
  await page.waitForFunction(
    () =>
      /KiB\/token$/.test(document.querySelector('[data-testid=readout-measured-bytes-per-token]')?.textContent ?? ''),
    null,
    { timeout: timeoutMs },
  );
}

/**
 * Types (or picks, for a select) each run-form field `field-<name>` given, in order: one fill per
 * entry instead of a line per field in every test.
 */
export async function fillRunForm(page: Page, fields: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(fields)) {
    const control = page.getByTestId(`field-${name}`);
    if ((await control.evaluate((el) => el.tagName)) === 'SELECT') await control.selectOption(value);
    else await control.fill(value);
  }
}

/** Until the element `selector` finds says something matching `pattern`. */
export async function waitForText(page: Page, selector: string, pattern: RegExp, timeoutMs: number): Promise<void> {
  await page.waitForFunction(
    ([sel, source]) => new RegExp(source).test(document.querySelector(sel)?.textContent ?? ''),
    [selector, pattern.source] as const,
    { timeout: timeoutMs },
  );
}

/** A loopback board through the Add-board dialog (saved, not probed). */
export async function addBoard(
  page: Page,
  board: { label: string; port: number; user: string; identityFile: string; knownHostsFile: string },
): Promise<void> {
  await page.getByTestId('add-board').click();
  await page.getByTestId('board-label').fill(board.label);
  await page.getByTestId('board-host').fill('127.0.0.1');
  await page.getByTestId('board-port').fill(String(board.port));
  await page.getByTestId('board-user').fill(board.user);
  await page.getByTestId('board-identityFile').fill(board.identityFile);
  await page.getByTestId('board-knownHostsFile').fill(board.knownHostsFile);
  await page.getByTestId('board-save').click();
  await page.getByTestId('board-editor').waitFor({ state: 'detached' });
}

/**
 * Adds a board for a loopback sshd whose host key the app trusts already (startTrustedSshd: no
 * fingerprint question) through the board editor, then presses "Test & probe".
 */
export async function addTrustedBoardAndProbe(
  page: Page,
  board: { label: string; port: number; user: string; identityFile: string; knownHostsFile: string },
): Promise<void> {
  await addBoard(page, board);
  await page.getByTestId('probe-board').click();
}
