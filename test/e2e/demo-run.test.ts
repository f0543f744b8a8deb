// The whole loop from the user's side: start a demo workload from the UI in real Chromium against
// the real `kvscope web`, and see memory samples, the theoretical KV line and the analysis.
// Needs the run service behind startRun/getRun/stopRun (createAppServices) and `npm run build`.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { RunRequestSchema, type Sample } from '../../shared/api/schemas';
import { createSession } from '../../electron/node/session/session-store';
import {
  openBrowserApp,
  saveScreenshot,
  waitForMeasuredBytesPerToken,
  waitForPhase,
  waitForRssPoints,
  type BrowserApp,
} from '../helpers/browser-app';
import { openWatchedPage } from '../helpers/chromium';
import { fillRunForm } from '../helpers/run-form-page';

/** Generous: the machine has 2 cores and other suites run alongside; these are not speed checks. */
const WAIT_MS = 90_000;
const TEST_MS = 150_000;
const ACTIVE = ['starting', 'running', 'stopping'];

let app: BrowserApp;

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-demo-' });
}, 60_000);

afterAll(() => app?.close());

const phaseOf = (page: Page) => page.getByTestId('run-phase').getAttribute('data-phase');

async function openApp(): Promise<{ page: Page; problems: string[] }> {
  const problems: string[] = [];
  // A page per test, beside the app's first one, so one test's page state never leaks into the next.
  const page = await openWatchedPage(app.browser, app.web.url, problems);
  await page.getByTestId('board-local').waitFor();
  await page.waitForTimeout(300); // resumeLatestRun: a run left by a failed test shows up here
  await stopIfActive(page);
  await page.getByTestId('board-local').click();
  return { page, problems };
}

/** Each test leaves no run going, so a failure cannot lock the next test's form. */
async function stopIfActive(page: Page) {
  if (!ACTIVE.includes((await phaseOf(page)) ?? '')) return;
  if (await page.getByTestId('stop-run').isEnabled()) await page.getByTestId('stop-run').click();
  await page.waitForFunction(
    (active) => !active.includes(document.querySelector('[data-testid=run-phase]')?.getAttribute('data-phase') ?? ''),
    ACTIVE,
    { timeout: WAIT_MS },
  );
}

/** Demo workload as docs/DESIGN.md's example: Llama-3.2-1B-like, 16 layers × 8 KV heads × head dim 64, f16. */
async function fillDemo(page: Page, options: { tokens: string; tps: string; intervalMs: string; budget: string }) {
  await page.getByTestId('engine-kind-demo').click();
  await fillRunForm(page, { layers: '16', kvHeads: '8', headDim: '64', kvType: 'f16', mode: 'growth', ...options });
}

describe('a demo run from the UI', () => {
  it('draws RSS and the theory line and shows the measured bytes per token', { timeout: TEST_MS }, async () => {
    const { page, problems } = await openApp();
    await fillDemo(page, { tokens: '2000', tps: '1000', intervalMs: '100', budget: '2 GiB' });
    await page.getByTestId('start-run').click();

    const chart = page.getByTestId('memory-chart');
    await page.waitForFunction(
      () => {
        const el = document.querySelector('[data-testid=memory-chart]');
        return Number(el?.getAttribute('data-rss-points')) >= 5 && Number(el?.getAttribute('data-theory-points')) >= 2;
      },
      null,
      { timeout: WAIT_MS },
    );
    await waitForMeasuredBytesPerToken(page, WAIT_MS);
    await waitForPhase(page, ['done'], WAIT_MS);
    await page.waitForTimeout(500); // one more 4 Hz tick so the final analysis is painted

    // Painted lines, not only data: RSS, anon, file-backed and the dashed theory line.
    expect(await chart.locator('path.recharts-line-curve').count()).toBeGreaterThanOrEqual(4);
    // Its legend names each of them, the theory line's swatch dashed like the line.
    const legendEntries = page.getByRole('list', { name: 'Memory against tokens legend' }).getByRole('listitem');
    expect(await legendEntries.allTextContents()).toEqual(['RSS', 'anon RSS', 'file-backed RSS', 'KV theory']);
    expect(await legendEntries.last().locator('.swatch-dashed').count()).toBe(1);
    // 16 layers × 8 KV heads × (64 + 64) × 2 bytes (f16) = 32 KiB per token (docs/DESIGN.md).
    expect(await page.getByTestId('readout-theory-bytes-per-token').textContent()).toBe('32.0 KiB/token');
    expect(await page.getByTestId('readout-measured-bytes-per-token').textContent()).toMatch(
      /^\d+(\.\d+)? KiB\/token$/,
    );
    expect(await page.getByTestId('readout-overhead-factor').textContent()).toMatch(/^\d+\.\d\d×$/);
    expect(await page.getByTestId('readout-peak-rss').textContent()).toMatch(/MiB|GiB/);
    expect(await page.getByTestId('readout-decode-tps').textContent()).toMatch(/ tok\/s$/);
    expect(await page.getByTestId('run-error').count()).toBe(0);
    // Every registered series the collectors produced, with its unit (shared/collectors/registry.ts):
    // the procfs sampler's and the pressure collector's (this machine has /proc/pressure).
    const series = page.getByRole('region', { name: 'All series' });
    expect(await series.getByTestId('series-rssBytes').textContent()).toMatch(/RSSprocfs\d+(\.\d+)? MiB$/);
    expect(await series.getByTestId('series-psi.memory.some.avg10Pct').textContent()).toMatch(/pressure\d+\.\d %$/);

    // The budget (2 GiB) is far above this small run: drawn to scale on request.
    await page.getByTestId('chart-scale-budget').check();
    expect(await chart.getAttribute('data-budget-line')).toBe('shown');
    expect(await chart.locator('.recharts-reference-line').count()).toBe(1);
    await page.getByTestId('chart-scale-budget').uncheck();
    // The tooltip renders too (all of it under the CSP, checked through `problems` below).
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
    await chart.locator('.recharts-tooltip-wrapper .recharts-default-tooltip').waitFor();
    expect(await chart.locator('.recharts-default-tooltip').textContent()).toMatch(/tokens.*(MiB|KiB)/);
    await page.mouse.move(0, 0);

    await saveScreenshot(page, 'demo-run.png');
    expect(problems).toEqual([]);
    await page.close();
  });

  it(
    'draws a run whose samples all came at one token count as dots clear of the y axis',
    { timeout: TEST_MS },
    async () => {
      // As a 3-token demo run at 150 tok/s records it when every memory sample comes before its
      // first token (over in 20 ms after a 1.3 s prefill): written to the app's session folder, so
      // the timing of this machine cannot put a sample after a token.
      const store = createSession(join(app.home, 'sessions', 'one-token-count.kvscope'), { appVersion: 'test' });
      const request = RunRequestSchema.parse({ target: { kind: 'local' }, engine: { kind: 'demo', demo: {} } });
      const run = store.addRun({ id: 'one-token-count', label: 'three fast tokens', request, state: 'done' });
      const samples: Sample[] = [];
      for (let i = 0; i < 13; i++) {
        const rss = 110 * 2 ** 20 + i * 4096;
        samples.push(
          { tMs: i * 100, source: 'engine', values: { tokens: 0 } },
          {
            tMs: i * 100,
            source: 'procfs',
            values: { rssBytes: rss, rssAnonBytes: rss - 36 * 2 ** 20, rssFileBytes: 36 * 2 ** 20 },
          },
        );
      }
      samples.push({ tMs: 1320, source: 'engine', values: { tokens: 3 } });
      store.appendSamples(run, samples);
      store.close();

      const { page, problems } = await openApp();
      await page.getByTestId('view-sessions').click();
      await page.getByTestId('open-one-token-count').click();
      const chart = page.getByTestId('memory-chart');
      await page.waitForFunction(
        () => Number(document.querySelector('[data-testid=memory-chart]')?.getAttribute('data-rss-points')) === 13,
        null,
        { timeout: WAIT_MS },
      );
      const rssDots = chart.locator('.recharts-line-dots').first().locator('circle');
      await rssDots.first().waitFor();
      expect(await rssDots.count()).toBe(13);
      // The dots sit right of the y axis' line, not on it.
      const axisLine = (await chart.locator('.recharts-yAxis .recharts-cartesian-axis-line').boundingBox())!;
      const dot = (await rssDots.first().boundingBox())!;
      expect(dot.x).toBeGreaterThan(axisLine.x + axisLine.width);
      await saveScreenshot(page, 'demo-run-one-token-count.png');
      await page.getByTestId('viewing-session').getByRole('button', { name: 'Close' }).click();
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it('stops a running demo with the Stop button', { timeout: TEST_MS }, async () => {
    const { page, problems } = await openApp();
    await fillDemo(page, { tokens: '10000', tps: '200', intervalMs: '100', budget: '' });
    await page.getByTestId('start-run').click();
    await waitForRssPoints(page, 3, WAIT_MS);
    expect(await phaseOf(page)).toBe('running');

    // The engine output follows its tail while lines come, and stays put once the user scrolls up.
    const box = page.locator('.output-scroll');
    const lastLineShown = () =>
      box.evaluate((el) => {
        const last = el.querySelector('pre > span:last-child');
        if (!last) return false;
        const a = el.getBoundingClientRect();
        const b = last.getBoundingClientRect();
        return b.bottom <= a.bottom + 1 && b.top >= a.top - 1;
      });
    const lineCount = () => page.locator('[data-testid=engine-output] > span').count();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=engine-output] > span').length > 40,
      null,
      {
        timeout: WAIT_MS,
      },
    );
    expect(await lastLineShown()).toBe(true);
    const before = await page.locator('[data-testid=engine-output] > span').last().textContent();
    await page.waitForFunction(
      (seen) => document.querySelector('[data-testid=engine-output] > span:last-child')?.textContent !== seen,
      before,
    );
    expect(await lastLineShown()).toBe(true);
    await box.hover();
    await page.mouse.wheel(0, -400);
    await page.waitForFunction(() => (document.querySelector('.output-scroll')?.scrollTop ?? 0) < -100);
    /** The lines in view, top to bottom. */
    const linesInView = () =>
      box.evaluate((el) => {
        const a = el.getBoundingClientRect();
        return Array.from(el.querySelectorAll('pre > span'))
          .filter((s) => {
            const b = s.getBoundingClientRect();
            return b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
          })
          .map((s) => s.textContent);
      });
    const readingBefore = await linesInView();
    const shownLine = await page.locator('[data-testid=engine-output] > span').last().textContent();
    await page.waitForFunction(
      (seen) => document.querySelector('[data-testid=engine-output] > span:last-child')?.textContent !== seen,
      shownLine,
    );
    // New lines came below: the ones being read stay in view, and the tail is not shown.
    const readingAfter = await linesInView();
    expect(readingAfter.filter((l) => readingBefore.includes(l)).length).toBeGreaterThanOrEqual(
      readingBefore.length - 1,
    );
    expect(await lastLineShown()).toBe(false);
    expect(await lineCount()).toBeGreaterThan(40);

    await page.getByTestId('stop-run').click();
    await waitForPhase(page, ['done', 'failed'], WAIT_MS);
    expect(await phaseOf(page)).toBe('done');
    expect(await page.getByTestId('start-run').isEnabled()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a run already going after a reload, from getRun', { timeout: TEST_MS }, async () => {
    const { page } = await openApp();
    await fillDemo(page, { tokens: '10000', tps: '200', intervalMs: '100', budget: '' });
    await page.getByTestId('start-run').click();
    await waitForRssPoints(page, 5, WAIT_MS);
    await page.reload();
    await waitForRssPoints(page, 5, WAIT_MS);
    expect(await phaseOf(page)).toBe('running');
    await page.getByTestId('stop-run').click();
    await waitForPhase(page, ['done'], WAIT_MS);
    await page.close();
  });
});
