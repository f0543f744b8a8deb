// Real Chromium for end-to-end tests: Debian's /usr/bin/chromium through playwright-core, with the
// flags docs/DEVELOPING.md ("The test machine") lists (without the networking ones Chromium keeps calling home).
import { chromium, type Browser, type Page } from 'playwright-core';

import { CHROMIUM_QUIET_FLAGS } from '../../electron/node/session/pdf';

export const CHROMIUM_ARGS = CHROMIUM_QUIET_FLAGS;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

/**
 * A page that records what a user would never see but a test must: uncaught errors, console
 * errors and CSP violations (pushed to `problems`), then opens `url`.
 */
export async function openWatchedPage(browser: Browser, url: string, problems: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await watchPage(page, problems);
  await page.goto(url);
  return page;
}

/** Records on `page`, before it loads anything, what openWatchedPage records. */
export async function watchPage(page: Page, problems: string[]): Promise<void> {
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
}
