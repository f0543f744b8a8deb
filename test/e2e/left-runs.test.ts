// Runs a dead app left on a board, offered by the app (issue 10, item 4), in real Chromium against
// the real `kvscope web` and a REAL OpenSSH sshd on loopback: two runs are left on the board by a
// `kvscope profile` SIGKILLed mid-run (one of them made three days old), the board is probed in the
// UI, the offer names both with their ages; Recover makes a session that the library lists and
// that holds every sample of the run, and removes its run directory; Discard asks first, then
// removes the other. A run kept running after its app died (Keep running) is listed as running,
// offered Stop on board after a confirmation, and then recovered whole. Needs `npm run build` (the
// web bundle and the demo engine).
import { existsSync, readFileSync, utimesSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSession } from '../../electron/node/session/session-store';
import { addTrustedBoardAndProbe, openBrowserApp, saveScreenshot, type BrowserApp } from '../helpers/browser-app';
import { defined } from '../helpers/defined';
import { killAppMidRun, runEnded, spoolCounts } from '../helpers/left-run';
import { makeTempDir, startTrustedSshd, waitFor, type Sshd } from '../helpers/sshd';

/** Generous: 2 shared cores; these are not speed checks. */
const WAIT_MS = 45_000;
const TEST_MS = 180_000;
const INTERVAL_MS = 200;
const DAY_S = 86_400;

let sshd: Sshd;
let knownHosts: string;
let app: BrowserApp;
/** The login's TMPDIR (sshd SetEnv): run directories of this test only. */
let remoteTmp: string;

beforeAll(async () => {
  remoteTmp = await makeTempDir('kvscope-left-runs-tmp-');
  ({ sshd, knownHosts } = await startTrustedSshd({ extraConfig: [`SetEnv TMPDIR=${remoteTmp}`] }));
  delete process.env.SSH_AUTH_SOCK;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await sshd?.stop();
});

/** A new app (its own home) with the loopback board added and probed, its left-runs offer shown. */
async function openAppOnBoard(homePrefix: string, label: string): Promise<BrowserApp> {
  const opened = await openBrowserApp({ homePrefix });
  await opened.page.setViewportSize({ width: 1440, height: 1200 });
  await addTrustedBoardAndProbe(opened.page, {
    label,
    port: sshd.port,
    user: sshd.user,
    identityFile: sshd.clientKey.privatePath,
    knownHostsFile: knownHosts,
  });
  await opened.page.getByTestId('left-runs').waitFor({ timeout: WAIT_MS });
  return opened;
}

describe('runs left on a board by a dead app', () => {
  it(
    'are offered with their age after a probe; Recover makes a session with every sample, Discard asks first',
    async () => {
      // Two runs of 300 tokens at 100/s: each ends by itself seconds after its app was killed.
      const target = { sshd, knownHosts, intervalMs: INTERVAL_MS };
      const oldDir = await killAppMidRun(target, ['--tokens', '300', '--tps', '100'], 60);
      const expected = spoolCounts(await runEnded(oldDir));
      expect(expected.tokens).toBe(300);
      const newDir = await killAppMidRun(target, ['--tokens', '300', '--tps', '100'], 60);
      await runEnded(newDir);
      // The first was left three days ago (its spool's mtime is what the age is read from).
      const threeDaysAgo = Date.now() / 1000 - 3 * DAY_S;
      utimesSync(join(oldDir, 'spool'), threeDaysAgo, threeDaysAgo);

      app = await openAppOnBoard('kvscope-e2e-left-runs-', 'Lab board');
      const { page } = app;
      const offer = page.getByTestId('left-runs');
      expect(await offer.getByRole('heading').textContent()).toMatch(/^2 runs left on Lab board/);
      const oldRow = offer.locator(`[data-testid=left-run][data-dir="${oldDir}"]`);
      const newRow = offer.locator(`[data-testid=left-run][data-dir="${newDir}"]`);
      expect(await oldRow.getByTestId('left-run-age').textContent()).toBe(' · last written 3 days ago');
      expect(await newRow.getByTestId('left-run-age').textContent()).toMatch(/ · last written \d+ seconds? ago$/);
      // Named by the run's label (the demo's shape), as the session list will name it.
      expect(await oldRow.locator('strong').textContent()).toMatch(/demo/i);
      // Its buttons name it too: a list of "Recover, Discard, Recover, Discard" says nothing.
      const oldName = await oldRow.locator('strong').textContent();
      expect(await oldRow.getByRole('button', { name: `Recover run ${oldName}`, exact: true }).count()).toBe(1);
      expect(await oldRow.getByRole('button', { name: `Discard run ${oldName}`, exact: true }).count()).toBe(1);
      await saveScreenshot(page, 'left-runs-offer.png');

      await oldRow.getByTestId('left-run-recover').click();
      await page.getByTestId('left-runs-notice').waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('left-runs-notice').textContent()).toMatch(
        /^Recovered ".+" \(\d+ samples\) into the session list\.$/,
      );
      expect(existsSync(oldDir)).toBe(false);
      expect(await offer.getByTestId('left-run').count()).toBe(1);

      // The library lists the recovered run; its file holds every procfs tick and token of the spool.
      const runId = basename(oldDir).replace(/^kvscope-/, '');
      await page.getByTestId('view-sessions').click();
      await page.getByTestId(`session-${runId}`).waitFor({ timeout: WAIT_MS });
      const session = readSession(join(app.home, 'sessions', `${runId}.kvscope`));
      const run = defined(session.runs[0], 'the recovered run');
      const ticks = run.samples.filter((s) => s.source === 'procfs');
      expect(ticks).toHaveLength(expected.procfsTicks);
      const t = ticks.map((s) => s.tMs);
      expect(Math.max(...t.slice(1).map((v, i) => v - defined(t[i])))).toBeLessThanOrEqual(2 * INTERVAL_MS);
      expect(Math.max(...run.samples.map((s) => s.values.tokens ?? 0))).toBe(300);

      // Discard: a confirmation first; Cancel keeps the run, the second time it goes.
      const newRowHere = page.locator(`[data-testid=left-run][data-dir="${newDir}"]`);
      await newRowHere.getByTestId('left-run-discard').click();
      await page.getByTestId('confirm-discard').waitFor();
      await page.getByTestId('confirm-discard').getByRole('button', { name: 'Cancel' }).click();
      expect(existsSync(newDir)).toBe(true);
      await newRowHere.getByTestId('left-run-discard').click();
      await page.getByTestId('confirm-discard-yes').click();
      await waitFor(() => !existsSync(newDir), 'the discarded run directory to go', WAIT_MS);
      await page.getByTestId('left-runs-notice').filter({ hasText: 'Discarded' }).waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('left-run').count()).toBe(0);
      expect(app.problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'a run kept running after its app died is listed as running; Stop on board ends it, then Recover makes its session',
    async () => {
      // Kept running: the target's watchdog leaves it alone once its app is gone, and it would go on
      // for minutes (QA: after a restart the app showed nothing of it, with no way to stop it).
      const target = { sshd, knownHosts, intervalMs: INTERVAL_MS };
      const dir = await killAppMidRun(target, ['--tokens', '100000', '--tps', '20', '--keep-running'], 60);
      // Its app beat for it every second until it died: an hour ago, as after a night.
      const hourAgo = Date.now() / 1000 - 3600;
      utimesSync(join(dir, 'hb'), hourAgo, hourAgo);

      const kept = await openAppOnBoard('kvscope-e2e-kept-running-', 'Soak board');
      try {
        const { page } = kept;
        const offer = page.getByTestId('left-runs');
        expect(await offer.getByRole('heading').textContent()).toBe(
          'A run still running on Soak board, not followed by this app',
        );
        const row = offer.locator(`[data-testid=left-run][data-dir="${dir}"]`);
        expect(await row.getAttribute('data-running')).toBe('true');
        expect(await row.getByTestId('left-run-running').textContent()).toBe(
          ' · running on the board, no KVScope follows it (kept running by an app that closed)',
        );
        expect(await row.getByTestId('left-run-recover').count()).toBe(0);
        expect(await row.getByTestId('left-run-stop').getAttribute('aria-label')).toMatch(/^Stop on board run .*demo/i);
        await saveScreenshot(page, 'left-runs-running.png');

        // Stop asks first; Cancel leaves it running.
        await row.getByTestId('left-run-stop').click();
        const confirm = page.getByTestId('confirm-stop-left-run');
        await confirm.waitFor();
        expect(await confirm.textContent()).toContain('The samples stay on the board');
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        expect(/^X \S+ end$/m.test(readFileSync(join(dir, 'spool'), 'utf8'))).toBe(false);
        await row.getByTestId('left-run-stop').click();
        await page.getByTestId('confirm-stop-left-run-yes').click();
        await page.getByTestId('left-runs-notice').filter({ hasText: 'Stopped' }).waitFor({ timeout: WAIT_MS });
        const expected = spoolCounts(await runEnded(dir));
        expect(expected.tokens).toBeGreaterThan(20);
        expect(expected.tokens).toBeLessThan(100_000);

        // Now a run that ended: Recover makes a session of the whole of it.
        expect(await row.getAttribute('data-running')).toBeNull();
        await row.getByTestId('left-run-recover').click();
        await page.getByTestId('left-runs-notice').filter({ hasText: 'Recovered' }).waitFor({ timeout: WAIT_MS });
        expect(existsSync(dir)).toBe(false);
        const runId = basename(dir).replace(/^kvscope-/, '');
        const run = defined(readSession(join(kept.home, 'sessions', `${runId}.kvscope`)).runs[0], 'the recovered run');
        expect(run.samples.filter((s) => s.source === 'procfs')).toHaveLength(expected.procfsTicks);
        expect(Math.max(...run.samples.map((s) => s.values.tokens ?? 0))).toBe(expected.tokens);
        expect(kept.problems).toEqual([]);
      } finally {
        await kept.close();
      }
    },
    TEST_MS,
  );
});
