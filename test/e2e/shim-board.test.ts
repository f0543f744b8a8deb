// The shim board of test/integration/collectors/board-over-ssh.test.ts, seen from the user's side
// (issue 8 acceptance 1's UI panels, issue 9's "every panel fills"): a REAL OpenSSH sshd on
// loopback whose login has shim `tegrastats` and `vcgencmd` (test/fixtures/shims, replaying real
// captures) first on PATH and the RK3588 sysfs tree (test/fixtures/board-root/rk3588-orange-pi-5)
// as KVSCOPE_SYSFS_ROOT; real Chromium against the real `kvscope web`. The board is added and
// probed in the UI, a demo run on it fills every panel, and the legends and the readouts carry the
// capture's values, written here by hand from its lines (test/fixtures/shims/SOURCE).
// Needs `npm run build` (the demo engine bundle).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  addTrustedBoardAndProbe,
  openBrowserApp,
  saveScreenshot,
  waitForPhase,
  type BrowserApp,
} from '../helpers/browser-app';
import { projectRoot } from '../helpers/cli';
import { startTrustedSshd, type Sshd } from '../helpers/sshd';

const SHIMS = join(projectRoot, 'test/fixtures/shims/bin');
const RK3588 = join(projectRoot, 'test/fixtures/board-root/rk3588-orange-pi-5');
/** Generous: the machine has 2 cores shared with other suites; these are not speed checks. */
const WAIT_MS = 40_000;
const TEST_MS = 60_000;

let sshd: Sshd;
let knownHosts: string;
let app: BrowserApp;
const sshTmp = mkdtempSync(join(tmpdir(), 'kvscope-shim-board-ssh-'));

beforeAll(async () => {
  ({ sshd, knownHosts } = await startTrustedSshd({
    extraConfig: [`SetEnv PATH=${SHIMS}:/usr/local/bin:/usr/bin:/bin KVSCOPE_SYSFS_ROOT=${RK3588} TMPDIR=${sshTmp}`],
  }));
  delete process.env.SSH_AUTH_SOCK;
  app = await openBrowserApp({ homePrefix: 'kvscope-shim-board-' });
  await app.page.setViewportSize({ width: 1440, height: 1800 });
}, TEST_MS);

afterAll(async () => {
  await app?.close();
  await sshd?.stop();
  rmSync(sshTmp, { recursive: true, force: true });
});

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const legend = (page: Page, name: string) => region(page, name).getByTestId('legend-entry').allTextContents();
const pointsOf = (page: Page, key: string) =>
  page.evaluate(
    (k) => Number(document.querySelector(`[data-testid="series-${k}"]`)?.getAttribute('data-points') ?? 0),
    key,
  );

describe('a demo run on the shim board over SSH, in the app', () => {
  it(
    'fills every panel with the replayed tegrastats, NPU and vcgencmd values',
    async () => {
      const { page } = app;
      await addTrustedBoardAndProbe(page, {
        label: 'Shim board',
        port: sshd.port,
        user: sshd.user,
        identityFile: sshd.clientKey.privatePath,
        knownHostsFile: knownHosts,
      });
      await page.getByTestId('device-card').waitFor({ timeout: WAIT_MS });

      await page.getByTestId('engine-kind-demo').click();
      await page.getByTestId('field-tokens').fill('6000');
      await page.getByTestId('field-tps').fill('300');
      await page.getByTestId('field-weightsMb').fill('4');
      await page.getByTestId('field-intervalMs').fill('200');
      await page.getByTestId('start-run').click();
      await waitForPhase(page, ['running'], WAIT_MS);

      // Three tegrastats lines and an NPU reading have arrived.
      await page.waitForFunction(
        () =>
          Number(document.querySelector('[data-testid="series-tegra.gpu.loadPct"]')?.getAttribute('data-points')) >=
            3 &&
          Number(document.querySelector('[data-testid="series-npu.core0.loadPct"]')?.getAttribute('data-points')) >= 1,
        null,
        { timeout: WAIT_MS },
      );
      await saveScreenshot(page, 'shim-board-running.png');
      await page.getByTestId('stop-run').click();
      await waitForPhase(page, ['done', 'stopped', 'failed'], WAIT_MS);
      await page.waitForTimeout(500); // one more 4 Hz paint after the last samples

      for (const name of ['Memory', 'Throughput', 'Thermal and clocks', 'Power and counters', 'Events'])
        expect(
          await region(page, name).locator('[data-testid^="empty-"], [data-testid=chart-empty]').count(),
          name,
        ).toBe(0);
      expect(await pointsOf(page, 'rssBytes')).toBeGreaterThan(0);
      for (const key of ['tegra.gpu.loadPct', 'tegra.rail.VDD_IN.curmW', 'npu.core0.loadPct', 'devfreq.dmc.curFreqMHz'])
        expect(await pointsOf(page, key), key).toBeGreaterThan(0);
      expect(await legend(page, 'Thermal and clocks')).toEqual(expect.arrayContaining(['gpu', 'core0']));
      expect(await legend(page, 'Power and counters')).toEqual(expect.arrayContaining(['rail.VDD_IN']));

      // The latest readouts are the last replayed line: the capture's 3 lines cycle (GR3D_FREQ 99 %
      // in each; VDD_IN 14703, 14703, 14664 mW), and the run drew one point per line.
      const lines = await pointsOf(page, 'tegra.rail.VDD_IN.curmW');
      const vddInMw = [14703, 14703, 14664][(lines - 1) % 3];
      const thermal =
        (await region(page, 'Thermal and clocks').getByTestId('cursor-readout-thermal').textContent()) ?? '';
      const power = (await region(page, 'Power and counters').getByTestId('cursor-readout-power').textContent()) ?? '';
      expect(thermal).toContain('gpu 99.0 %');
      expect(power).toContain(`rail.VDD_IN ${vddInMw} mW`);
      await saveScreenshot(page, 'shim-board-done.png');
      expect(app.problems).toEqual([]);
    },
    TEST_MS,
  );
});
