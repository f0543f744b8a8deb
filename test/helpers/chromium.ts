// Real Chromium for end-to-end tests: Debian's /usr/bin/chromium through playwright-core, with the
// flags ENVIRONMENT.md requires (without the networking ones Chromium keeps calling home).
import { chromium, type Browser } from 'playwright-core';

import { CHROMIUM_QUIET_FLAGS } from '../../electron/node/session/pdf';

export const CHROMIUM_ARGS = CHROMIUM_QUIET_FLAGS;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}
