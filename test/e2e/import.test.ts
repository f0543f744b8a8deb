// A log imported with `kvscope import` opens in the dashboard like a recorded session: `kvscope web
// --open <file>` shows it, and its tegrastats series are listed with the collector that writes them
// live. Needs `npm run build`.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';
import { runCli } from '../helpers/cli';
import { orinLogLines } from '../helpers/tegrastats-log';

const TEST_MS = 120_000;
/** Ten minutes of the AGX Orin capture at 1 Hz. */
const LINES = 600;

let app: BrowserApp;

beforeAll(async () => {
  app = await openBrowserApp({
    homePrefix: 'kvscope-e2e-import-',
    prepareHome: async (home) => {
      const log = join(home, 'orin.log');
      writeFileSync(log, orinLogLines(LINES).join('\n') + '\n');
      const result = await runCli(['import', 'tegrastats', log, '--out', join(home, 'orin.kvscope')]);
      expect(result.code, result.stderr).toBe(0);
    },
    webArgs: (home) => ['--open', join(home, 'orin.kvscope')],
    readyTestId: 'viewing-session',
  });
}, TEST_MS);

afterAll(() => app?.close());

describe('an imported tegrastats log in the dashboard', () => {
  it(
    'opens with --open and lists the tegrastats series',
    async () => {
      const { page, problems } = app;
      await page.getByTestId('viewing-session').waitFor();
      // The newest reading is the log's last line, the capture's third (599 % 3 = 2), read by hand:
      // `RAM 18203/62841MB … GR3D_FREQ 0%@[0,0] … VIN_SYS_5V0 4707mW/4674mW`.
      const shown: Array<[string, string]> = [
        ['tegra.ramUsedBytes', '17.8 GiB'],
        ['tegra.gpu.loadPct', '0.0 %'],
        ['tegra.rail.VIN_SYS_5V0.avgmW', '4674 mW'],
      ];
      for (const [key, value] of shown) {
        // The "All series" table's row (the panels' tracks carry the same test id on their series).
        const row = page.getByRole('region', { name: 'All series' }).getByTestId(`series-${key}`);
        await row.waitFor();
        const cells = await row.locator('td').allTextContents();
        expect(cells, key).toEqual(['tegrastats', value]);
      }
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );
});
