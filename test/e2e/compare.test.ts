// Comparing sessions in the UI, against `kvscope compare` on the same files: two demo sessions
// recorded by the real CLI (f16 and q8_0 KV) into the app's sessions folder, a third opened
// directly with `kvscope web --open <file>`. The overlay draws one legend entry per session and
// the delta table says exactly what the command's Markdown says. Needs `npm run build`.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, saveScreenshot, type BrowserApp } from '../helpers/browser-app';
import { runCli } from '../helpers/cli';

const TEST_MS = 180_000;

let app: BrowserApp;
let page: Page;
let problems: string[];

async function recordDemo(file: string, kvType: string) {
  const result = await runCli([
    'profile',
    'local',
    '--demo',
    '--kv-type',
    kvType,
    '--tokens',
    '600',
    '--tps',
    '800',
    '--interval-ms',
    '100',
    '--budget',
    '2GiB',
    '--out',
    file,
  ]);
  expect(result.code, result.stderr).toBe(0);
}

beforeAll(async () => {
  app = await openBrowserApp({
    homePrefix: 'kvscope-e2e-compare-',
    prepareHome: async (home) => {
      mkdirSync(join(home, 'sessions'));
      await recordDemo(join(home, 'sessions', 'a-f16.kvscope'), 'f16');
      await recordDemo(join(home, 'sessions', 'b-q8.kvscope'), 'q8_0');
      // A session outside the app's folder, as someone hands one over.
      copyFileSync(join(home, 'sessions', 'a-f16.kvscope'), join(home, 'handed-over.kvscope'));
    },
    webArgs: (home) => ['--open', join(home, 'handed-over.kvscope')],
    readyTestId: 'viewing-session',
  });
  ({ page, problems } = app);
}, TEST_MS);

afterAll(() => app?.close());

/** Ticks the two recorded sessions in the session list and compares them. */
async function compareAB(): Promise<void> {
  await page.getByTestId('compare-pick-a-f16').check();
  await page.getByTestId('compare-pick-b-q8').check();
  await page.getByTestId('compare-picked').click();
}

/** What `kvscope compare a-f16 b-q8` writes as Markdown. */
async function compareMarkdown(): Promise<string> {
  const out = join(app.home, 'diff.md');
  const cli = await runCli([
    'compare',
    join(app.home, 'sessions', 'a-f16.kvscope'),
    join(app.home, 'sessions', 'b-q8.kvscope'),
    '-o',
    out,
  ]);
  expect(cli.code, cli.stderr).toBe(0);
  return readFileSync(out, 'utf8');
}

/** The rows of the first table of `kvscope compare`'s Markdown: label → [A, B, Change]. */
function markdownRows(markdown: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| ---')) continue;
    const cells = line
      .slice(2, -2)
      .split(' | ')
      .map((c) => c.trim());
    const [label, ...rest] = cells;
    if (label !== undefined && !rows.has(label)) rows.set(label, rest);
  }
  return rows;
}

describe('kvscope web --open', () => {
  it(
    'shows the named session when the window opens, read-only, never deletable',
    async () => {
      await page.getByTestId('viewing-session').waitFor();
      await page.waitForFunction(
        () => Number(document.querySelector('[data-testid=memory-chart]')?.getAttribute('data-rss-points')) >= 5,
      );
      expect(await page.getByTestId('readout-theory-bytes-per-token').textContent()).toBe('32.0 KiB/token');
      await page.getByTestId('view-sessions').click();
      const rows = page.locator('[data-testid^=session-][data-state]');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid^=session-][data-state]').length === 3);
      const external = rows.filter({ has: page.locator('[data-testid^=delete-file-]') });
      expect(await external.count()).toBe(1);
      expect(await external.getByRole('button', { name: /^Delete session / }).isDisabled()).toBe(true);
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );
});

describe('comparing two sessions', () => {
  it(
    'overlays both curves and tabulates what `kvscope compare` reports',
    async () => {
      await compareAB();
      const chart = page.getByTestId('compare-chart');
      await chart.waitFor();
      // One legend entry per session, one drawn line each.
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid=compare-chart] .recharts-legend-item').length === 2,
      );
      const legend = await chart.locator('.recharts-legend-item-text').allTextContents();
      expect(legend).toHaveLength(2);
      expect(legend.some((t) => t.includes('f16'))).toBe(true);
      expect(legend.some((t) => t.includes('q8_0'))).toBe(true);
      expect(await chart.locator('path.recharts-line-curve').count()).toBe(2);
      const points = (await chart.getAttribute('data-points'))?.split(',').map(Number) ?? [];
      expect(points).toHaveLength(2);
      expect(points.every((n) => n >= 5)).toBe(true);
      await saveScreenshot(page, 'compare.png');

      // Aligned by time, the same two curves.
      await page.getByTestId('align-time').click();
      expect(await chart.getAttribute('data-align')).toBe('time');
      expect(await chart.locator('path.recharts-line-curve').count()).toBe(2);
      // A reload compares the same sessions, in the same order, aligned the same way (tab-memory.ts).
      await page.reload();
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid=compare-chart] .recharts-legend-item').length === 2,
      );
      expect(await chart.getAttribute('data-align')).toBe('time');
      expect(await chart.locator('.recharts-legend-item-text').allTextContents()).toEqual(legend);
      await page.getByTestId('align-tokens').click();

      const expected = markdownRows(await compareMarkdown());
      const metrics = [
        'KV cache type',
        'KV bytes/token, theory',
        'KV bytes/token, measured',
        'Overhead factor',
        'Peak RSS',
        'Budget',
        'OOM horizon',
        'Max safe context',
        'Decode',
        'Tokens generated',
      ];
      for (const label of metrics) {
        const row = page.locator(`[data-testid=delta-row][data-label="${label}"]`);
        const [a, b, change] = expected.get(label) ?? [];
        expect(await row.getByTestId('delta-reference').textContent(), label).toBe(a);
        expect(await row.getByTestId('delta-value').textContent(), label).toBe(b);
        expect(await row.getByTestId('delta-change').textContent(), label).toBe(change);
      }
      // By hand: q8_0 against f16 theory, 17,408 B against 32,768 B per token.
      expect(expected.get('KV bytes/token, theory')?.slice(0, 2)).toEqual(['32.0 KiB', '17.0 KiB']);

      // In a narrow window the tables scroll inside their panel; the page does not scroll sideways.
      const size = page.viewportSize();
      await page.setViewportSize({ width: 700, height: size?.height ?? 900 });
      await page.getByTestId('before-after-bought').waitFor();
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      const wide = await page.evaluate(() =>
        Array.from(document.querySelectorAll('*'))
          .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth)
          .map((e) => `${e.tagName}.${String(e.className)} ${e.getBoundingClientRect().right}`)
          .slice(0, 15)
          .join(' | '),
      );
      if (size) await page.setViewportSize(size);
      expect(sideways, wide).toBe(0);
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'a before/after table: what changed in the setup and what it bought, as `kvscope compare` says',
    async () => {
      await page.getByTestId('view-sessions').click();
      await compareAB();
      const table = page.getByTestId('before-after');
      await table.waitFor();
      // The Markdown's "### Before → after" section: its two tables, label → cells.
      const section = (await compareMarkdown()).split('### Before → after')[1]?.split('\n## ')[0] ?? '';
      const expected = markdownRows(section);
      const rowsOf = (testId: string) =>
        table
          .getByTestId(testId)
          .locator('tbody tr')
          .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (c) => c.textContent ?? '')));
      const changed = await rowsOf('before-after-changed');
      // The runs differ in their KV type (by hand: the sessions were recorded with f16 and q8_0).
      expect(changed.find((r) => r[0] === 'KV cache type')?.slice(1)).toEqual(['f16', 'q8_0']);
      for (const [label, ...cells] of changed) expect(cells, label).toEqual(expected.get(label ?? '')?.slice(0, 2));
      const bought = await rowsOf('before-after-bought');
      expect(bought.map((r) => r[0])).toEqual([
        'Max safe context',
        'Decode',
        'Peak RSS',
        'OOM horizon',
        'Time throttled',
      ]);
      for (const [label, a, b, change] of bought)
        expect([a, b, change?.replace(/ \((?:better|worse)\)$/, '')], label).toEqual(
          expected.get(label ?? '')?.map((c) => c.replace(/ \((?:better|worse)\)$/, '')),
        );
      // At the same 2 GiB budget q8_0's 17,408 B/token hold more context than f16's 32,768 B.
      expect(
        await table
          .locator('[data-testid=before-after-bought] tr[data-label="Max safe context"] td')
          .last()
          .getAttribute('data-verdict'),
      ).toBe('better');
      await saveScreenshot(page, 'compare-before-after.png');
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );
});
