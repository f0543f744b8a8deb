// The run form as a user meets it, in real Chromium against the real `kvscope web`: exact
// accessible names (no unit, hint or option text in them), Start in view with four saved boards,
// a reload during a run that keeps the form and the target, an error on the field in the form's
// words, the GGUF header shown before a run, and the Add-board dialog keeping focus inside.
// Then what the CLI can do, the form does: a context sweep of the demo (`profile --demo --sweep`)
// followed run by run to its result table, and server mode (`profile --server-url`) with two
// prompts loaded from a file, against the real OpenAI-compatible llama.cpp server of the tests
// (test/engines/llama/openai-server.mjs on stories260K.gguf).
// Needs `npm run build`.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  fillRunForm,
  openBrowserApp,
  saveScreenshot,
  waitForPhase,
  waitForRssPoints,
  waitForText,
  type BrowserApp,
} from '../helpers/browser-app';
import { readSession } from '../../electron/node/session/session-store';
import { defined } from '../helpers/defined';
import { assertLlamaEngineInstalled, openaiServerCommand, storyPrompt } from '../helpers/llama-engine';

const STORIES_GGUF = fileURLToPath(new URL('../../../shared/models/stories260K.gguf', import.meta.url));
const WAIT_MS = 90_000;
const TEST_MS = 150_000;

let app: BrowserApp;
let page: Page;
let problems: string[];

beforeAll(async () => {
  app = await openBrowserApp({
    homePrefix: 'kvscope-e2e-form-',
    // Four saved boards (never connected to here): the list pushes the form down.
    prepareHome: (home) => {
      const boards = ['orin', 'rock5', 'rpi5', 'imx8'].map((id, i) => ({
        id,
        label: `Board ${id}`,
        spec: { kind: 'ssh', host: `10.0.0.${i + 10}`, user: 'edge' },
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      }));
      writeFileSync(join(home, 'targets.json'), JSON.stringify({ version: 1, targets: boards }));
    },
    readyTestId: 'board-imx8',
  });
  ({ page, problems } = app);
}, 60_000);

afterAll(() => app?.close());

const form = () => page.locator('.run-form');
const text = async (testId: string) => (await page.getByTestId(testId).textContent()) ?? '';

describe('the run form', () => {
  it(
    'names every control exactly, with units and hints as descriptions',
    async () => {
      await page.getByTestId('board-local').click();
      await page.getByTestId('engine-kind-demo').click();
      const names: Array<['textbox' | 'combobox', string, string]> = [
        ['textbox', 'Speed', 'field-tps'],
        ['textbox', 'Context', 'field-ctx'],
        ['textbox', 'Memory budget', 'field-budget'],
        ['textbox', 'Sample every', 'field-intervalMs'],
        ['combobox', 'KV type', 'field-kvType'],
        ['combobox', 'KV mode', 'field-mode'],
      ];
      for (const [role, name, testId] of names) {
        const byName = form().getByRole(role, { name, exact: true });
        expect(await byName.count(), name).toBe(1);
        expect(await byName.getAttribute('data-testid'), name).toBe(testId);
      }
      // The unit and the hint describe the control; they are not part of its name.
      expect(await form().getByRole('textbox', { name: 'Speed tok/s' }).count()).toBe(0);
      const budget = form().getByLabel('Memory budget', { exact: true });
      expect(await budget.evaluate((el) => el.getAttribute('aria-describedby'))).toBeTruthy();
      const described = await budget.evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent)
          .join(' '),
      );
      expect(described).toBe('OOM horizon is computed against it');
      expect(await form().getByRole('checkbox', { name: 'Keep running', exact: true }).count()).toBe(1);
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'keeps Start in view with four saved boards',
    async () => {
      const start = page.getByTestId('start-run');
      const box = await start.boundingBox();
      const viewport = page.viewportSize();
      expect(box).not.toBeNull();
      expect(box!.y + box!.height).toBeLessThanOrEqual(viewport!.height);
      await saveScreenshot(page, 'run-form.png');
    },
    TEST_MS,
  );

  it(
    'says on the Context field that {ctx} needs a size, not in the CLI words',
    async () => {
      await page.getByTestId('engine-kind-command').click();
      await form().getByLabel('Engine command on the target', { exact: true }).fill('llama-cli -m m.gguf -c {ctx}');
      await page.getByTestId('start-run').click();
      const error = page.getByTestId('error-commandCtx');
      expect(await error.textContent()).toBe('the command contains {ctx}: give the context size to put there');
      expect(await form().textContent()).not.toContain('--ctx');
      // The error is the field's description: a screen reader reads it with the field.
      const ctx = form().getByRole('textbox', { name: 'Context', exact: true });
      expect(await ctx.getAttribute('aria-invalid')).toBe('true');
      expect(await ctx.getAttribute('aria-describedby')).toContain('run-field-commandCtx-error');
    },
    TEST_MS,
  );

  it(
    'shows the header of the GGUF the run will use, read on the selected target',
    async () => {
      await form().getByLabel('GGUF model on the target', { exact: true }).fill(STORIES_GGUF);
      await page.getByTestId('gguf-read-header').click();
      const header = page.getByTestId('gguf-header');
      await header.waitFor();
      // stories260K: 5 layers × 4 KV heads × head dim 8; 5 × 4 × (8 + 8) × 2 B = 640 B per token at f16.
      expect(await header.textContent()).toContain('5 layers × 4 KV heads × head dim 8/8');
      expect(await header.textContent()).toContain('640 B/token at f16');
      await page.getByTestId('engine-kind-demo').click();
    },
    TEST_MS,
  );

  it(
    'keeps the selected board across a reload',
    async () => {
      await page.getByTestId('board-rock5').click();
      await page.reload();
      await page.getByTestId('board-rock5').waitFor();
      await page.waitForFunction(
        () => document.querySelector('[data-testid=board-rock5]')?.getAttribute('aria-pressed') === 'true',
      );
      expect(await page.getByTestId('run-target').textContent()).toBe('on Board rock5');
    },
    TEST_MS,
  );

  it(
    'keeps the form and the target while a run goes on across a reload',
    async () => {
      await page.getByTestId('board-local').click();
      await page.getByTestId('field-kvType').selectOption('q8_0');
      await page.getByTestId('field-tokens').fill('20000');
      await page.getByTestId('field-tps').fill('150');
      await page.getByTestId('field-intervalMs').fill('150');
      await page.getByTestId('start-run').click();
      await waitForRssPoints(page, 3, WAIT_MS);
      await page.reload();
      await waitForPhase(page, ['running'], WAIT_MS);
      expect(await page.getByTestId('field-kvType').inputValue()).toBe('q8_0');
      expect(await page.getByTestId('field-tokens').inputValue()).toBe('20000');
      expect(await page.getByTestId('field-tps').inputValue()).toBe('150');
      expect(await page.getByTestId('field-intervalMs').inputValue()).toBe('150');
      expect(await page.getByTestId('board-local').getAttribute('aria-pressed')).toBe('true');
      expect(await page.getByTestId('run-target-name').textContent()).toBe('on This computer');
      await page.getByTestId('stop-run').click();
      await waitForPhase(page, ['done'], WAIT_MS);
      // The finished run of This computer is not shown under another board's card.
      await page.getByTestId('board-orin').click();
      await page.getByTestId('run-on-other-target').waitFor();
      expect(await page.getByTestId('memory-chart').count()).toBe(0);
      await page.getByTestId('board-local').click();
      await page.getByTestId('memory-chart').waitFor();
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'keeps focus inside the Add-board dialog',
    async () => {
      await page.getByTestId('add-board').click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const inside = () => dialog.evaluate((d) => d.contains(document.activeElement));
      expect(await inside()).toBe(true);
      const focusable = await dialog.locator('input, select, textarea, button').count();
      for (let i = 0; i < focusable + 3; i++) {
        await page.keyboard.press('Tab');
        expect(await inside(), `after ${i + 1} Tab`).toBe(true);
      }
      for (let i = 0; i < focusable + 3; i++) {
        await page.keyboard.press('Shift+Tab');
        expect(await inside(), `after ${i + 1} Shift+Tab`).toBe(true);
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'starts no run from the keyboard while a dialog is open',
    async () => {
      await page.getByTestId('board-local').click();
      const phaseBefore = await page.getByTestId('run-phase').getAttribute('data-phase');
      await page.getByTestId('add-board').click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await page.getByTestId('board-host').fill('orin.local');
      // Ctrl+Enter submits many forms: here it started a run on the selected target, behind the dialog.
      await page.keyboard.press('Control+Enter');
      // Two frames: a started run would have set its phase and painted it by then.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      expect(await page.getByTestId('run-phase').getAttribute('data-phase')).toBe(phaseBefore);
      expect(await dialog.count()).toBe(1);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await page.getByTestId('run-phase').getAttribute('data-phase')).toBe(phaseBefore);
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );
});

describe('the run form, beyond one run: what the CLI can do', () => {
  it(
    'runs a two-size sweep of the demo, follows each run and shows the result table',
    async () => {
      assertLlamaEngineInstalled();
      await page.setViewportSize({ width: 1440, height: 1600 });
      await page.getByTestId('board-local').click();
      await page.getByTestId('engine-kind-demo').click();
      // The earlier tests left q8_0 and a slow demo here. A growth-mode demo does not reserve per
      // context: the form says what the CLI warns.
      await fillRunForm(page, { kvType: 'f16', mode: 'growth', sweep: '1024, 512' });
      expect(await page.locator('#run-field-sweep-hint').textContent()).toBe(
        'The demo in growth mode does not reserve memory per context: the sweep will show a flat curve (choose reserved).',
      );
      // A bad size is said on the field, in the form's words.
      await fillRunForm(page, {
        mode: 'reserved',
        tokens: '100',
        tps: '800',
        weightsMb: '8',
        intervalMs: '50',
        sweep: '512, lots',
      });
      await page.getByTestId('start-run').click();
      expect(await text('error-sweep')).toBe('"lots" is not a context size: list sizes like 512, 2048, 8k');
      await page.getByTestId('field-sweep').fill('1024, 512');
      await page.getByTestId('start-run').click();

      // The second point runs in the live view: the run header names its context.
      await waitForText(page, '[data-testid=sweep-progress]', /^Sweep point 2 of 2, ctx 1024$/, WAIT_MS);
      await waitForText(page, '.run-label', /ctx 1024$/, WAIT_MS);
      expect(await text('run-target-name')).toBe('on This computer');
      expect(await page.getByTestId('sweep-row').count()).toBe(1);
      expect(await page.getByTestId('start-run').isDisabled()).toBe(true);

      await waitForText(page, '[data-testid=sweep-progress]', /^Sweep done: 2 of 2 points ok$/, WAIT_MS);
      const rows = await page.getByTestId('sweep-row').evaluateAll((trs) =>
        trs.map((tr) =>
          Array.from(tr.children)
            .slice(0, 2)
            .map((c) => c.textContent),
        ),
      );
      expect(rows).toEqual([
        ['512', 'ok'],
        ['1,024', 'ok'],
      ]);
      // 2 × 16 layers × 8 KV heads × 64 × 2 B = 32 KiB per context token, measured by the fit.
      const measured = await text('sweep-measured');
      expect(measured).toMatch(/^3\d(\.\d+)? KiB\/token$/);
      // Written as the readouts above write them: "1.00×" and "61,947 tokens" (it said "×1.00" and
      // a bare "61,947" beside the readouts' "1.00×" and "… tokens").
      expect(await text('sweep-overhead')).toMatch(/^\d\.\d\d×$/);
      expect(await text('sweep-max-context')).toMatch(/^\d{1,3}(,\d{3})* tokens$/);
      await waitForPhase(page, ['done'], WAIT_MS);
      expect(await page.getByTestId('start-run').isDisabled()).toBe(false);
      await saveScreenshot(page, 'run-form-sweep.png');

      // The sweep is one session of two runs: opened, it shows its last point and offers the other.
      await page.getByTestId('view-sessions').click();
      const sweepRow = page.locator('[data-testid^=session-][data-state]').filter({ hasText: '2 runs' });
      await sweepRow.locator('[data-testid^=open-]').click();
      const picker = page.getByTestId('session-run-picker');
      await picker.waitFor({ timeout: WAIT_MS });
      const label = () => page.locator('h1.run-label').textContent();
      expect(await picker.locator('option').allTextContents()).toEqual([
        expect.stringMatching(/^1 of 2: .*512/),
        expect.stringMatching(/^2 of 2: .*1024/),
      ]);
      expect(await label()).toMatch(/1024/);
      // Its result table comes back with it: the rows and the fit the form showed as the sweep ended.
      const recorded = page.getByTestId('session-sweep');
      expect(await recorded.locator('summary').textContent()).toBe('Sweep result: 2 context sizes');
      const recordedRows = await recorded
        .getByTestId('sweep-row')
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((c) => c.textContent)));
      const liveRows = await page
        .getByTestId('sweep')
        .getByTestId('sweep-row')
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((c) => c.textContent)));
      expect(recordedRows).toEqual(liveRows);
      expect(await recorded.getByTestId('sweep-measured').textContent()).toBe(measured);
      await saveScreenshot(page, 'session-sweep.png');
      await picker.selectOption('0');
      await page.waitForFunction(() => /512/.test(document.querySelector('h1.run-label')?.textContent ?? ''));
      // A reload shows the point the tab showed.
      await page.reload();
      await picker.waitFor({ timeout: WAIT_MS });
      expect(await picker.inputValue()).toBe('0');
      expect(await label()).toMatch(/512/);
      await page.getByTestId('viewing-session').getByRole('button', { name: 'Close' }).click();
      await picker.waitFor({ state: 'detached' });
      expect(await recorded.count()).toBe(0);
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'runs a server with two prompts from a file, one turn each, and stops it',
    async () => {
      await page.getByTestId('field-sweep').fill('');
      await page.getByTestId('engine-kind-command').click();
      await page.getByTestId('field-command').fill(openaiServerCommand({ ctx: 1024 }));
      await page.getByTestId('field-serverMode').check();
      await page.getByTestId('server-mode-fields').waitFor();
      // A long second prompt: the server's prompt count for turn 2 shows it was sent.
      await page.getByTestId('prompts-file-input').setInputFiles({
        name: 'prompts.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(`Once upon a time\n${storyPrompt(10)}\n`),
      });
      await waitForText(page, '[data-testid=prompts-count]', /^2 prompts$/, WAIT_MS);
      await fillRunForm(page, { serverTokens: '16', turns: '1' });
      await page.getByTestId('field-ignoreEos').check();
      await page.getByTestId('start-run').click();
      expect(await text('error-turns')).toBe('2 prompts need at least 2 turns (or leave empty: one per prompt)');
      for (const error of await page.locator('.run-form .field-error').allTextContents())
        expect(error).not.toContain('--');
      await page.getByTestId('field-turns').fill('');
      await page.getByTestId('start-run').click();

      await waitForPhase(page, ['done'], WAIT_MS);
      await waitForText(page, '[data-testid=event-list]', /server conversation done/, WAIT_MS);
      const events = await page.getByTestId('event-list').locator('li').allTextContents();
      expect(events.filter((e) => /server: turn \d: 16 tokens in \d+ ms/.test(e))).toHaveLength(2);
      // The server's own timing lines: two requests, the second evaluating the long prompt.
      const output = await text('engine-output');
      const promptTokens = [...output.matchAll(/prompt eval time = +[\d.]+ ms \/ +(\d+) tokens/g)].map((m) =>
        Number(m[1]),
      );
      expect(promptTokens).toHaveLength(2);
      expect(promptTokens[1]).toBeGreaterThan(150);
      // The streamed tokens were counted live, 2 × 16: the header's count is the client's, not the
      // server's last request's (its timing lines say 16 eval runs, which would read 17).
      expect(await text('run-progress')).toMatch(/^32 tokens · [\d,]+ memory samples?$/);
      await saveScreenshot(page, 'run-form-server.png');
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'switches collectors off and sets their intervals, as profile --no-<id> and --<id>-interval-ms do',
    async () => {
      await page.getByTestId('field-serverMode').uncheck();
      await page.getByTestId('engine-kind-demo').click();
      await fillRunForm(page, { tokens: '120', tps: '40' });
      const collectors = page.getByTestId('collectors');
      expect(await collectors.locator('summary').textContent()).toBe('Collectors all on, default intervals');
      await collectors.locator('summary').click();
      await form().getByRole('checkbox', { name: 'pressure', exact: true }).uncheck();
      const pmapEvery = form().getByRole('textbox', { name: 'pmap every', exact: true });
      await pmapEvery.fill('100');
      // Folded again: an error on one of its fields opens it, the message on the field.
      await collectors.locator('summary').click();
      await page.getByTestId('start-run').click();
      expect(await text('error-collector-pmap')).toBe('a whole number from 1,000 to 300,000 ms');
      expect(await pmapEvery.isVisible()).toBe(true);
      expect(await pmapEvery.getAttribute('aria-invalid')).toBe('true');
      await pmapEvery.fill('2000');
      // Mending it clears the error; the section stays open under the user's hands.
      expect(await page.getByTestId('error-collector-pmap').count()).toBe(0);
      expect(await pmapEvery.isVisible()).toBe(true);
      await page.getByTestId('start-run').click();
      await waitForPhase(page, ['done'], WAIT_MS);

      // The run asked for what the form said; the session records it and no pressure readings.
      const newest = readdirSync(join(app.home, 'sessions'))
        .filter((f) => f.endsWith('.kvscope'))
        .map((f) => join(app.home, 'sessions', f))
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
      const run = defined(readSession(defined(newest)).runs[0]);
      expect(run.request.collectors).toEqual({ pressure: { enabled: false }, pmap: { intervalMs: 2000 } });
      expect(run.samples.some((s) => s.source === 'pressure')).toBe(false);
      expect(run.samples.some((s) => s.source === 'procfs')).toBe(true);

      // The settings outlive a reload of the tab, as the rest of the form does.
      await page.reload();
      await page.getByTestId('collectors').waitFor();
      expect(await page.getByTestId('collectors').locator('summary').textContent()).toBe(
        'Collectors pressure off · pmap every 2000 ms',
      );
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );
});
