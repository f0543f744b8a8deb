// Sessions from the user's side, in real Chromium against the real `kvscope web` with its own
// app data folder: two demo runs started from the UI are both kept and listed with their
// headline numbers; one opens read-only into the dashboard; rename, export (HTML and CSV
// downloads), delete after a confirmation; a run stopped by the user is badged STOPPED.
// Needs `npm run build`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserApp } from '../helpers/browser-app';
import { openBrowserApp, saveScreenshot, waitForPhase, waitForRssPoints } from '../helpers/browser-app';
import { fillRunForm, startDemoRun } from '../helpers/run-form-page';

/** Generous: 2 shared cores; these are not speed checks. */
const WAIT_MS = 90_000;
const TEST_MS = 180_000;

let app: BrowserApp;
let page: Page;
let problems: string[];

const sessionsDir = () => join(app.home, 'sessions');
const sessionFiles = () => readdirSync(sessionsDir()).filter((f) => f.endsWith('.kvscope'));

beforeAll(async () => {
  // Sessions land in the app's own data folder, not in the user's.
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-sessions-', firstClick: 'board-local' });
  ({ page, problems } = app);
}, 60_000);

afterAll(() => app?.close());

async function runDemo(kvType: 'f16' | 'q8_0', tokens: string) {
  await page.getByTestId('view-run').click();
  await startDemoRun(page, { kvType, tokens, tps: '800', intervalMs: '100', budget: '2 GiB' });
  await waitForPhase(page, ['done'], WAIT_MS);
}

/** The list refreshes on run events; a session is 'recording' until its file is closed. */
async function waitForSessions(states: string[]) {
  await page.getByTestId('view-sessions').click();
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const found = await page
      .locator('[data-testid^=session-][data-state]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-state')).sort());
    if (JSON.stringify(found) === JSON.stringify([...states].sort())) return;
    if (Date.now() > deadline) throw new Error(`sessions ${JSON.stringify(found)}, expected ${JSON.stringify(states)}`);
    await page.getByRole('button', { name: 'Refresh', exact: true }).last().click();
    await page.waitForTimeout(400);
  }
}

const row = (text: string) => page.locator('[data-testid^=session-][data-state]', { hasText: text });

describe('sessions from the UI', () => {
  it('keeps both demo runs and lists them with target, model and headline numbers', { timeout: TEST_MS }, async () => {
    await runDemo('f16', '600');
    await runDemo('q8_0', '600');
    await waitForSessions(['done', 'done']);
    expect(sessionFiles()).toHaveLength(2);

    const f16 = row('×64 f16');
    const q8 = row('×64 q8_0');
    expect(await f16.getByTestId('session-target').textContent()).toBe('This computer');
    expect(await f16.getByTestId('session-model').textContent()).toBe('demo 16L×8H×64 f16');
    // By hand: 16 layers × 8 KV heads × (64 + 64) values × 2 bytes (f16) = 32,768 B = 32.0 KiB.
    expect(await f16.getByTestId('session-theory').textContent()).toBe('32.0 KiB/token');
    // q8_0: blocks of 32 values in 34 bytes → a row of 64 values is 68 B; 16 × 8 × (68 + 68) = 17,408 B = 17.0 KiB.
    expect(await q8.getByTestId('session-theory').textContent()).toBe('17.0 KiB/token');
    for (const r of [f16, q8]) {
      expect(await r.getByTestId('session-tokens').textContent()).toBe('600 tokens');
      expect(await r.getByTestId('session-peak-rss').textContent()).toMatch(/^\d+(?:\.\d+)? MiB$/);
      expect(await r.getByTestId('session-measured').textContent()).toMatch(/^\d+(?:\.\d+)? KiB\/token$/);
      expect(await r.getByTestId('session-decode').textContent()).toMatch(/ tok\/s$/);
      expect(await r.getByTestId('session-state').textContent()).toBe('finished');
    }
    await saveScreenshot(page, 'sessions-list.png');
    expect(problems).toEqual([]);
  });

  it('opens a session read-only into the dashboard', { timeout: TEST_MS }, async () => {
    await row('×64 f16')
      .getByRole('button', { name: /^Open session / })
      .click();
    await page.getByTestId('viewing-session').waitFor();
    await waitForRssPoints(page, 5, WAIT_MS);
    expect(await page.getByTestId('readout-theory-bytes-per-token').textContent()).toBe('32.0 KiB/token');
    expect(await page.getByTestId('run-target-name').textContent()).toBe('on This computer');
    expect(await page.getByTestId('run-phase').getAttribute('data-outcome')).toBe('done');
    // The horizon, without the live countdown ("in about 20 min") a finished run never reaches.
    expect(await page.getByTestId('oom-summary').textContent()).toMatch(/^OOM horizon [\d,]+ tokens$/);
    await saveScreenshot(page, 'session-open.png');
    expect(problems).toEqual([]);
  });

  it('renames a session; the name is kept in the file across a reload', { timeout: TEST_MS }, async () => {
    await page.getByTestId('view-sessions').click();
    await row('×64 f16')
      .getByRole('button', { name: /^Rename session / })
      .click();
    await page.getByLabel('Session name', { exact: true }).fill('f16 baseline');
    await page.getByTestId('rename-save').click();
    await row('f16 baseline').waitFor();
    await page.reload();
    // The reload shows what the tab showed: the Sessions list, and the open session behind it.
    await row('f16 baseline').waitFor({ timeout: WAIT_MS });
    expect(await page.getByTestId('view-sessions').getAttribute('aria-selected')).toBe('true');
    expect(await row('f16 baseline').getByTestId('session-name').textContent()).toBe('f16 baseline');
    await page.getByTestId('view-run').click();
    expect(await page.getByTestId('viewing-session').textContent()).toContain('f16 baseline');
    await waitForRssPoints(page, 5, WAIT_MS);
    await page.getByTestId('view-sessions').click();
  });

  it('exports HTML, CSV and PDF as downloads that parse', { timeout: TEST_MS }, async () => {
    const f16 = row('f16 baseline');
    const download = async (format: 'html' | 'csv' | 'pdf') => {
      await f16.getByLabel(/^Export format of session /).selectOption(format);
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        f16.getByRole('button', { name: /^Export session / }).click(),
      ]);
      const path = join(app.home, `download.${format}`);
      await file.saveAs(path);
      return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8'), bytes: readFileSync(path) };
    };
    const html = await download('html');
    expect(html.name).toBe('f16-baseline.html');
    expect(html.text).toMatch(/^<!doctype html>/i);
    expect(html.text).toContain('</html>');
    // The theory by hand (16 × 8 × 128 values × 2 B), as the report words it.
    expect(html.text).toContain('32.0 KiB (32,768 B)');

    const csv = await download('csv');
    expect(csv.name).toBe('f16-baseline.csv');
    const lines = csv.text.trim().split(/\r?\n/);
    const columns = lines[0]?.split(',') ?? [];
    expect(columns).toContain('rssBytes');
    expect(lines.length).toBeGreaterThan(5);
    // Every row has the header's columns and a number where RSS was sampled.
    const rss = columns.indexOf('rssBytes');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.every((r) => r.length === columns.length)).toBe(true);
    expect(rows.some((r) => Number(r[rss]) > 1024 * 1024)).toBe(true);

    // PDF travels as base64 through the bridge and arrives byte for byte.
    const pdf = await download('pdf');
    expect(pdf.name).toBe('f16-baseline.pdf');
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.bytes.subarray(-8).toString('latin1')).toContain('%%EOF');
    expect(problems).toEqual([]);
  });

  it('deletes a session only after the confirmation', { timeout: TEST_MS }, async () => {
    const q8 = row('×64 q8_0');
    await q8.getByRole('button', { name: /^Delete session / }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this session?' });
    await dialog.waitFor();
    await saveScreenshot(page, 'session-delete-confirm.png');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(await q8.count()).toBe(1);
    expect(sessionFiles()).toHaveLength(2);

    await q8.getByRole('button', { name: /^Delete session / }).click();
    await page.getByTestId('confirm-delete-yes').click();
    await q8.waitFor({ state: 'detached' });
    expect(sessionFiles()).toHaveLength(1);
    expect(await row('f16 baseline').count()).toBe(1);
  });

  it('badges a run stopped by the user as STOPPED, in the header and the list', { timeout: TEST_MS }, async () => {
    await page.getByTestId('view-run').click();
    // The demo engine is still chosen from the runs above.
    await fillRunForm(page, { tokens: '20000', tps: '200' });
    await page.getByTestId('start-run').click();
    await waitForRssPoints(page, 3, WAIT_MS);
    await page.getByTestId('stop-run').click();
    await waitForPhase(page, ['done'], WAIT_MS);
    const badge = page.getByTestId('run-phase');
    expect(await badge.getAttribute('data-outcome')).toBe('stopped');
    expect(await badge.textContent()).toBe('stopped');
    await waitForSessions(['done', 'stopped']);

    // Opened from the list, the recorded run reads the same: stopped, and no warning about the
    // exit code the stop's signal left (143) as if the engine had failed.
    const stoppedRow = page.locator('[data-testid^=session-][data-state=stopped]');
    await stoppedRow.getByRole('button', { name: /^Open session / }).click();
    await page.getByTestId('viewing-session').waitFor();
    // The live wait above counted this run's points (a new run empties the chart at once), so
    // the recorded run holds them too.
    await waitForRssPoints(page, 3, WAIT_MS);
    expect(await badge.getAttribute('data-outcome')).toBe('stopped');
    expect(await page.getByTestId('run-exit').count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
