// The dashboard's alert settings reach the run, in real Chromium against the real `kvscope web`:
// the thresholds and switches set in the Alerts… popover travel with the run request (one schema,
// shared/analysis/alert-thresholds.ts) and are recorded in the session with it, so the alerts the
// run raises itself (near a trip point, throttling: electron/node/run/memory-tick-events.ts) follow
// them; the popover says those two apply from the next run. Needs `npm run build`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_THRESHOLDS } from '../../shared/analysis/alert-thresholds';
import { readSession } from '../../electron/node/session/session-store';
import { openBrowserApp, waitForPhase, type BrowserApp } from '../helpers/browser-app';
import { defined } from '../helpers/defined';
import { startDemoRun } from '../helpers/run-form-page';

const WAIT_MS = 60_000;
const TEST_MS = 120_000;

let app: BrowserApp;

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-alert-thresholds-' });
}, 60_000);

afterAll(() => app?.close());

describe('the alert settings and the run', () => {
  it(
    'sends the near-trip threshold and the throttling switch with the run; the session keeps them',
    async () => {
      const { page } = app;
      await page.getByTestId('engine-kind-demo').click();
      await page.getByTestId('alert-settings-toggle').click();
      const popover = page.getByRole('dialog', { name: 'Alert thresholds' });
      await page.getByTestId('threshold-near-trip').fill('12');
      await popover.getByRole('checkbox', { name: 'Throttling started', exact: true }).uncheck();
      // The two rules the run judges on the board say when a change applies; the dashboard's own do not.
      expect(await page.getByTestId('alert-next-run-near-trip').textContent()).toBe(
        'Judged by the run on the board: a change applies from the next run.',
      );
      expect(await page.getByTestId('alert-next-run-throttling').count()).toBe(1);
      expect(await page.getByTestId('alert-next-run-rss-budget').count()).toBe(0);
      await page.keyboard.press('Escape');

      await startDemoRun(page, { tokens: '120', tps: '60', weightsMb: '4', intervalMs: '100' });
      await waitForPhase(page, ['done', 'failed'], WAIT_MS);
      expect(await page.getByTestId('run-phase').getAttribute('data-phase')).toBe('done');

      const sessions = readdirSync(join(app.home, 'sessions')).filter((f) => f.endsWith('.kvscope'));
      expect(sessions).toHaveLength(1);
      const run = defined(readSession(join(app.home, 'sessions', defined(sessions[0]))).runs[0]);
      expect(run.request.alertThresholds).toEqual({
        ...DEFAULT_ALERT_THRESHOLDS,
        enabled: { ...DEFAULT_ALERT_THRESHOLDS.enabled, throttling: false },
        nearTripC: 12,
      });
      expect(app.problems).toEqual([]);
    },
    TEST_MS,
  );
});
