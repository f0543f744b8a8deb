// A log imported with `kvscope import` opens in the dashboard like a recorded session: `kvscope web
// --open <file>` shows it, and its tegrastats series are listed with the collector that writes them
// live; renamed to hostile text in the UI, its exports (HTML, Markdown, CSV) hold the name as text
// and the log's readings. Needs `npm run build`.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { openBrowserApp, type BrowserApp } from '../helpers/browser-app';
import { runCli } from '../helpers/cli';
import { orinLogLines } from '../helpers/tegrastats-log';

const TEST_MS = 120_000;
/** Ten minutes of the AGX Orin capture at 1 Hz. */
const LINES = 600;
/** Eight hours: an import of ~1.5 s, long enough to cancel while it reads. */
const LONG_LINES = 28_800;
/** A day and a half: an import of ~6 s, longer than a reload of the page and its reconnection take. */
const LONGER_LINES = 115_200;

let app: BrowserApp;

beforeAll(async () => {
  app = await openBrowserApp({
    homePrefix: 'kvscope-e2e-import-',
    prepareHome: async (home) => {
      const log = join(home, 'orin.log');
      writeFileSync(log, orinLogLines(LINES).join('\n') + '\n');
      writeFileSync(join(home, 'orin-8h.log'), orinLogLines(LONG_LINES).join('\n') + '\n');
      writeFileSync(join(home, 'orin-32h.log'), orinLogLines(LONGER_LINES).join('\n') + '\n');
      // In the app's sessions folder, so that the Sessions list has it to rename and export.
      mkdirSync(join(home, 'sessions'));
      const result = await runCli(['import', 'tegrastats', log, '--out', join(home, 'sessions', 'orin.kvscope')]);
      expect(result.code, result.stderr).toBe(0);
    },
    webArgs: (home) => ['--open', join(home, 'sessions', 'orin.kvscope')],
    readyTestId: 'viewing-session',
  });
}, TEST_MS);

afterAll(() => app?.close());

/** The Sessions view's Import log dialog. */
const importDialog = () => app.page.getByRole('dialog', { name: 'Import a board log' });

/** Import log… of a tegrastats log in the test's home, submitted (it may still be reading). */
async function startTegrastatsImport(fileName: string): Promise<void> {
  await app.page.getByTestId('sessions-import-log').click();
  await importDialog().getByLabel('Log kind', { exact: true }).selectOption('tegrastats');
  await importDialog().getByLabel('Log file', { exact: true }).fill(join(app.home, fileName));
  await importDialog().getByTestId('session-file-submit').click();
}

/** The session files in the app's sessions folder. */
const sessionFiles = () => readdirSync(join(app.home, 'sessions')).filter((f) => f.endsWith('.kvscope'));

describe('an imported tegrastats log in the dashboard', () => {
  it(
    'opens with --open and lists the tegrastats series',
    async () => {
      const { page, problems } = app;
      await page.getByTestId('viewing-session').waitFor();
      // A log names no board: the header says on none ("on –" before).
      expect(await page.getByTestId('run-target-name').count()).toBe(0);
      // No engine process in a board log: the memory chart says where its samples are instead of
      // "the run ended before any memory sample was taken".
      expect(await page.getByTestId('chart-empty').innerText()).toMatch(/^No engine memory in this run\n/);
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

describe('an imported log renamed to hostile text, exported from the UI', () => {
  // What a name typed in the UI must survive in every place it lands: HTML (a tag, an attribute,
  // the style block), a Markdown table cell, a spreadsheet formula.
  const NAME = '</style><img src=x onerror="window.pwned=1">"|=HYPERLINK("http://x")';

  it(
    'the name is text in the UI, the HTML and the Markdown; the CSV holds the log’s readings',
    async () => {
      const { page, problems, home } = app;
      await page.getByTestId('view-sessions').click();
      const row = page.locator('[data-testid^=session-][data-state]', { hasText: 'orin.log' });
      await row.getByRole('button', { name: /^Rename session / }).click();
      await page.getByLabel('Session name', { exact: true }).fill(NAME);
      await page.getByTestId('rename-save').click();
      const renamed = page.locator('[data-testid^=session-][data-state]', { hasText: 'HYPERLINK' });
      expect(await renamed.getByTestId('session-name').textContent()).toBe(NAME);

      const download = async (format: 'html' | 'md' | 'csv') => {
        await renamed.getByLabel(/^Export format of session /).selectOption(format);
        const [file] = await Promise.all([
          page.waitForEvent('download'),
          renamed.getByRole('button', { name: /^Export session / }).click(),
        ]);
        const path = join(home, `export.${format}`);
        await file.saveAs(path);
        return { name: file.suggestedFilename(), path, text: readFileSync(path, 'utf8') };
      };

      // HTML, opened in the same Chromium: no image loads, no handler runs, the title reads the name.
      const html = await download('html');
      expect(html.name).toBe('style-img-src-x-onerror-window.pwned-1-HYPERLINK-http-x.html');
      const report = await app.browser.newPage();
      const requests: string[] = [];
      report.on('request', (r) => requests.push(r.url()));
      await report.goto(`file://${html.path}`);
      expect(await report.locator('h1').textContent()).toBe(`KVScope report: ${NAME}`);
      expect(await report.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
      expect(await report.locator('img').count()).toBe(0);
      expect(requests).toEqual([`file://${html.path}`]);
      // 600 lines of the capture, each a reading: the Collectors row says so.
      expect(await report.locator('tr', { hasText: 'unreadable line' }).locator('td').allTextContents()).toEqual([
        'tegrastats',
        '600 samples, 0 unreadable lines',
      ]);
      await report.close();

      // Markdown: the heading is one line, the tag inert, the pipe escaped.
      const md = await download('md');
      const title = md.text.split('\n')[0];
      expect(title).toBe(
        '# KVScope report: &lt;/style&gt;&lt;img src=x onerror="window.pwned=1"&gt;"\\|=HYPERLINK("http://x")',
      );

      // CSV: a row per reading; the last is the capture's third line (599 % 3 = 2), read by hand:
      // `RAM 18203/62841MB … VIN_SYS_5V0 4707mW/4674mW`, at 599 s.
      const csv = await download('csv');
      const lines = csv.text.trimEnd().split('\r\n');
      expect(lines).toHaveLength(1 + LINES);
      const columns = (lines[0] ?? '').split(',');
      const last = (lines.at(-1) ?? '').split(',');
      const cell = (key: string) => last[columns.indexOf(key)];
      expect([cell('t_ms'), cell('tegra.ramUsedBytes'), cell('tegra.rail.VIN_SYS_5V0.avgmW')]).toEqual([
        '599000',
        String(18203 * 1024 ** 2),
        '4674',
      ]);
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );
});

describe("the Sessions view's Import log and Open file", () => {
  it(
    'imports a board log into a session that opens in the dashboard; a wrong path or kind is said in the dialog',
    async () => {
      const { page, problems, home } = app;
      const log = join(home, 'orin.log');
      await page.getByTestId('view-sessions').click();
      const before = await page.locator('[data-testid^=session-][data-state]').count();
      await page.getByTestId('sessions-import-log').click();
      const dialog = page.getByRole('dialog', { name: 'Import a board log' });
      // Browser mode: no system dialog to browse with (the desktop app has one), the path is typed.
      expect(await dialog.getByTestId('session-file-browse').count()).toBe(0);
      // A relative path would be read from wherever the app was started: refused on the field, nothing sent.
      await dialog.getByLabel('Log file', { exact: true }).fill('orin.log');
      await dialog.getByTestId('session-file-submit').click();
      expect(await dialog.getByTestId('session-file-error').textContent()).toMatch(/^the full path, from \//);
      // The right file read as the wrong kind: the importer's own words, and no session is made.
      await dialog.getByLabel('Log kind', { exact: true }).selectOption('vcgencmd');
      await dialog.getByLabel('Log file', { exact: true }).fill(log);
      await dialog.getByTestId('session-file-submit').click();
      await expect
        .poll(() => dialog.getByTestId('session-file-error').textContent(), { timeout: 30_000 })
        .toBe(`${log}: nothing to import (none of its ${LINES} lines is a vcgencmd reading)`);
      // As tegrastats, from ~/ (the app's home here is the test's KVSCOPE_HOME, not HOME: the full path).
      await dialog.getByLabel('Log kind', { exact: true }).selectOption('tegrastats');
      await dialog.getByTestId('session-file-submit').click();
      await page.getByTestId('viewing-session').waitFor({ timeout: 30_000 });
      expect(await page.getByRole('dialog').count()).toBe(0);
      // The newest reading, the capture's third line (599 % 3 = 2) read by hand: RAM 18203 MB.
      const ram = page.getByRole('region', { name: 'All series' }).getByTestId('series-tegra.ramUsedBytes');
      expect(await ram.locator('td').allTextContents()).toEqual(['tegrastats', '17.8 GiB']);
      await page.getByTestId('view-sessions').click();
      await expect.poll(() => page.locator('[data-testid^=session-][data-state]').count()).toBe(before + 1);
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'Cancel while a long log imports stops the import: no session is listed or written, and the log imports again',
    async () => {
      const { page, problems } = app;
      await page.getByTestId('view-sessions').click();
      const before = await page.locator('[data-testid^=session-][data-state]').count();
      const filesBefore = sessionFiles();
      await startTegrastatsImport('orin-8h.log');
      await importDialog().getByRole('button', { name: 'Importing…' }).waitFor();
      await importDialog().getByTestId('session-file-cancel').click();
      expect(await page.getByRole('dialog').count()).toBe(0);
      // The same log again, to the end: the cancelled import, started first, would have ended by now.
      await startTegrastatsImport('orin-8h.log');
      await page.getByTestId('viewing-session').waitFor({ timeout: 60_000 });
      await page.getByTestId('view-sessions').click();
      await expect.poll(() => page.locator('[data-testid^=session-][data-state]').count()).toBe(before + 1);
      expect(sessionFiles()).toHaveLength(filesBefore.length + 1);
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'a reload while a long log imports stops the import as Cancel does, and the focus stays on Import meanwhile',
    async () => {
      const { page, problems } = app;
      await page.getByTestId('view-sessions').click();
      const before = await page.locator('[data-testid^=session-][data-state]').count();
      const filesBefore = sessionFiles();
      await startTegrastatsImport('orin-32h.log');
      const working = importDialog().getByRole('button', { name: 'Importing…' });
      await working.waitFor();
      // Pressed, the button keeps the focus while it works (it was disabled, and the focus fell to <body>).
      expect(await working.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.reload();
      await page.getByTestId('view-sessions').waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      // The same log again, to the end: the first import, started before it and had the reload left
      // it running, would have written its session by then.
      await page.getByTestId('view-sessions').click();
      await startTegrastatsImport('orin-32h.log');
      await page.getByTestId('viewing-session').waitFor({ timeout: 90_000 });
      await page.getByTestId('view-sessions').click();
      await expect.poll(() => page.locator('[data-testid^=session-][data-state]').count()).toBe(before + 1);
      expect(sessionFiles()).toHaveLength(filesBefore.length + 1);
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'opens a session file from outside the library and refuses a file that is no session',
    async () => {
      const { page, problems, home } = app;
      const elsewhere = join(home, 'elsewhere');
      mkdirSync(elsewhere, { recursive: true });
      const copy = join(elsewhere, 'colleague.kvscope');
      const result = await runCli(['import', 'tegrastats', join(home, 'orin.log'), '--out', copy]);
      expect(result.code, result.stderr).toBe(0);
      await page.getByTestId('view-sessions').click();
      await page.getByTestId('sessions-open-file').click();
      const dialog = page.getByRole('dialog', { name: 'Open a session file' });
      // A log is not a session: said in the dialog, and nothing is listed.
      const rowsBefore = await page.locator('[data-testid^=session-][data-state]').count();
      await dialog.getByLabel('Session file', { exact: true }).fill(join(home, 'orin.log'));
      await dialog.getByTestId('session-file-submit').click();
      await expect
        .poll(() => dialog.getByTestId('session-file-error').textContent(), { timeout: 30_000 })
        .toBe(`${join(home, 'orin.log')} is not a KVScope session (not an SQLite file)`);
      await dialog.getByLabel('Session file', { exact: true }).fill(join(home, 'missing.kvscope'));
      await dialog.getByTestId('session-file-submit').click();
      await expect
        .poll(() => dialog.getByTestId('session-file-error').textContent(), { timeout: 30_000 })
        .toBe(`${join(home, 'missing.kvscope')}: no such session file`);
      await dialog.getByLabel('Session file', { exact: true }).fill(copy);
      await dialog.getByTestId('session-file-submit').click();
      await page.getByTestId('viewing-session').waitFor({ timeout: 30_000 });
      const ram = page.getByRole('region', { name: 'All series' }).getByTestId('series-tegra.ramUsedBytes');
      expect(await ram.locator('td').allTextContents()).toEqual(['tegrastats', '17.8 GiB']);
      await page.getByTestId('view-sessions').click();
      await expect.poll(() => page.locator('[data-testid^=session-][data-state]').count()).toBe(rowsBefore + 1);
      // Listed from where it is (an id of its path, not of the library's folder): the app neither
      // renames nor deletes a file it did not make.
      const row = page.locator('[data-session-id^="file-"]');
      expect(await row.count()).toBe(1);
      // It says so (QA: it looked exactly like a library session, its buttons greyed out with no reason).
      expect(await row.getByTestId('session-external').textContent()).toBe(
        'a file from outside the library, listed until the app closes: KVScope does not rename or delete it',
      );
      expect(await row.getByRole('button', { name: /^Delete session / }).getAttribute('title')).toMatch(
        /KVScope does not rename or delete it$/,
      );
      expect(await row.getByRole('button', { name: /^Rename session / }).isDisabled()).toBe(true);
      expect(await row.getByRole('button', { name: /^Delete session / }).isDisabled()).toBe(true);
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );
});
