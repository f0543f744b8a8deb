// What the CLI can do, the run form does, in real Chromium against the real `kvscope web`: a
// context sweep of the demo (`profile --demo --sweep`) followed run by run to its result table,
// and server mode (`profile --server-url`) with two prompts loaded from a file, against the real
// OpenAI-compatible llama.cpp server of the tests (test/engines/llama/openai-server.mjs on
// stories260K.gguf). Problems are said on the field, in the form's words. Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, saveScreenshot, waitForPhase, type BrowserApp } from '../helpers/browser-app';
import { assertLlamaEngineInstalled, openaiServerCommand, storyPrompt } from '../helpers/llama-engine';

const WAIT_MS = 90_000;
const TEST_MS = 180_000;

let app: BrowserApp;
let page: Page;
let problems: string[];

beforeAll(async () => {
  assertLlamaEngineInstalled();
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-modes-' });
  ({ page, problems } = app);
  await page.setViewportSize({ width: 1440, height: 1600 });
}, 60_000);

afterAll(() => app?.close());

const text = async (testId: string) => (await page.getByTestId(testId).textContent()) ?? '';

/** Until the element `selector` finds (a test id by default) says something matching `pattern`. */
async function waitForText(testIdOrSelector: string, pattern: RegExp) {
  const selector = /^[\w-]+$/.test(testIdOrSelector) ? `[data-testid=${testIdOrSelector}]` : testIdOrSelector;
  await page.waitForFunction(
    ([sel, source]) => new RegExp(source).test(document.querySelector(sel)?.textContent ?? ''),
    [selector, pattern.source] as const,
    { timeout: WAIT_MS },
  );
}

describe('the run form, beyond one run', () => {
  it(
    'runs a two-size sweep of the demo, follows each run and shows the result table',
    async () => {
      await page.getByTestId('board-local').click();
      await page.getByTestId('engine-kind-demo').click();
      await page.getByTestId('field-mode').selectOption('reserved');
      await page.getByTestId('field-tokens').fill('100');
      await page.getByTestId('field-tps').fill('800');
      await page.getByTestId('field-weightsMb').fill('8');
      await page.getByTestId('field-intervalMs').fill('50');
      // Said on the field, in the form's words.
      await page.getByTestId('field-sweep').fill('512, lots');
      await page.getByTestId('start-run').click();
      expect(await text('error-sweep')).toBe('"lots" is not a context size: list sizes like 512, 2048, 8k');
      await page.getByTestId('field-sweep').fill('1024, 512');
      await page.getByTestId('start-run').click();

      // The second point runs in the live view: the run header names its context.
      await waitForText('sweep-progress', /^Sweep point 2 of 2, ctx 1024$/);
      await waitForText('.run-label', /ctx 1024$/);
      expect(await text('run-target-name')).toBe('on This computer');
      expect(await page.getByTestId('sweep-row').count()).toBe(1);
      expect(await page.getByTestId('start-run').isDisabled()).toBe(true);

      await waitForText('sweep-progress', /^Sweep done: 2 of 2 points ok$/);
      const rows = await page
        .getByTestId('sweep-row')
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).slice(0, 2).map((c) => c.textContent)));
      expect(rows).toEqual([
        ['512', 'ok'],
        ['1,024', 'ok'],
      ]);
      // 2 × 16 layers × 8 KV heads × 64 × 2 B = 32 KiB per context token, measured by the fit.
      expect(await text('sweep-measured')).toMatch(/^3\d(\.\d+)? KiB\/token$/);
      await waitForPhase(page, ['done'], WAIT_MS);
      expect(await page.getByTestId('start-run').isDisabled()).toBe(false);
      await saveScreenshot(page, 'run-form-sweep.png');
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
      await waitForText('prompts-count', /^2 prompts$/);
      await page.getByTestId('field-serverTokens').fill('16');
      await page.getByTestId('field-ignoreEos').check();
      await page.getByTestId('field-turns').fill('1');
      await page.getByTestId('start-run').click();
      expect(await text('error-turns')).toBe('2 prompts need at least 2 turns (or leave empty: one per prompt)');
      for (const error of await page.locator('.run-form .field-error').allTextContents())
        expect(error).not.toContain('--');
      await page.getByTestId('field-turns').fill('');
      await page.getByTestId('start-run').click();

      await waitForPhase(page, ['done'], WAIT_MS);
      await waitForText('event-list', /server conversation done/);
      const events = await page.getByTestId('event-list').locator('li').allTextContents();
      expect(events.filter((e) => /server: turn \d: 16 tokens in \d+ ms/.test(e))).toHaveLength(2);
      // The server's own timing lines: two requests, the second evaluating the long prompt.
      const output = await text('engine-output');
      const promptTokens = [...output.matchAll(/prompt eval time = +[\d.]+ ms \/ +(\d+) tokens/g)].map((m) =>
        Number(m[1]),
      );
      expect(promptTokens).toHaveLength(2);
      expect(promptTokens[1]).toBeGreaterThan(150);
      await saveScreenshot(page, 'run-form-server.png');
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );
});
