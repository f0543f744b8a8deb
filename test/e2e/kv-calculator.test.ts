// The KV calculator in real Chromium with the real tiny GGUF (../shared/models/stories260K.gguf):
// its header read on This computer through the API, and the numbers checked against hand
// arithmetic from that header (5 layers, 4 KV heads, head dim 8 — see its README), never against
// the code under test. Needs `npm run build`.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, saveScreenshot, type BrowserApp } from '../helpers/browser-app';

const STORIES_GGUF = fileURLToPath(new URL('../../../shared/models/stories260K.gguf', import.meta.url));
const TEST_MS = 120_000;

let app: BrowserApp;
let page: Page;
let problems: string[];

beforeAll(async () => {
  app = await openBrowserApp({ homePrefix: 'kvscope-e2e-kv-', firstClick: 'view-kv' });
  ({ page, problems } = app);
}, 60_000);

afterAll(() => app?.close());

const text = (testId: string) => page.getByTestId(testId).textContent();
/** The calculator's own fields (the run form beside it has a "KV type" and "Layers" too). */
const kv = () => page.getByTestId('kv-view');

describe('the KV calculator', () => {
  it('reads the GGUF header on this computer and computes from it', { timeout: TEST_MS }, async () => {
    await page.getByTestId('kv-source-gguf').click();
    await page.getByTestId('kv-needs-model').waitFor();
    await kv().getByLabel('Where', { exact: true }).selectOption('local');
    await kv().getByLabel('GGUF path', { exact: true }).fill(STORIES_GGUF);
    await page.getByRole('button', { name: 'Read header', exact: true }).click();
    await page.getByTestId('kv-model-facts').waitFor();
    expect(await text('kv-model-arch')).toBe('llama');
    expect(await text('kv-model-layers')).toBe('5');
    expect(await text('kv-model-kv-heads')).toBe('4');
    expect(await text('kv-model-head-dim')).toBe('8 / 8');

    await kv().getByLabel('KV type', { exact: true }).selectOption('f16');
    await kv().getByLabel('Context', { exact: true }).fill('4096');
    await kv().getByLabel('Parallel sequences', { exact: true }).fill('1');
    await kv().getByLabel('Budget', { exact: true }).fill('2 MiB');
    // By hand: 5 layers × 4 KV heads × (8 + 8) values × 2 bytes = 640 B per token.
    expect(await page.getByTestId('kv-bytes-per-token').getAttribute('data-bytes')).toBe('640');
    expect(await text('kv-bytes-per-token')).toBe('640 B/token');
    // 640 B × 4,096 tokens = 2,621,440 B = 2.50 MiB (llama.cpp reports 1.25 MiB at 2,048 cells).
    expect(await page.getByTestId('kv-total').getAttribute('data-bytes')).toBe('2621440');
    expect(await text('kv-total')).toBe('2.50 MiB');
    // The weights come off the budget first: `stat -c %s` gives the file's 1,185,376 B, so
    // 2 MiB = 2,097,152 B leaves 911,776 B for the cache; / 640 = 1,424.6 → 1,424 tokens fit.
    expect(statSync(STORIES_GGUF).size).toBe(1185376);
    expect(await page.getByTestId('kv-max-context').getAttribute('data-tokens')).toBe('1424');
    expect(await text('kv-max-context')).toBe('1,424 tokens');
    // The model's context_length is 2,048 (its README): 4,096 is computed, and said to be past it.
    expect(await text('kv-context-note')).toMatch(
      /^The context of 4,096 tokens exceeds the model's trained context \(n_ctx_train\) of 2,048 tokens: .*RoPE scaling/,
    );
    expect(await page.getByTestId('kv-max-context-note').count()).toBe(0);
    expect(await text('kv-weights-note')).toBe(
      "The model file's 1.13 MiB of weights come off the budget first: 890 KiB is left for the cache.",
    );

    // Two parallel sequences hold twice the cache: 5,242,880 B = 5.00 MiB; each fits half: 712 tokens.
    await kv().getByLabel('Parallel sequences', { exact: true }).fill('2');
    expect(await page.getByTestId('kv-total').getAttribute('data-bytes')).toBe('5242880');
    expect(await page.getByTestId('kv-max-context').getAttribute('data-tokens')).toBe('712');
    await kv().getByLabel('Parallel sequences', { exact: true }).fill('1');

    // A budget smaller than the model file: no context fits (it read 1,638 tokens for 1 MiB).
    await kv().getByLabel('Budget', { exact: true }).fill('1 MiB');
    expect(await text('kv-max-context')).toBe('none');
    expect(await page.getByTestId('kv-max-context').getAttribute('data-tokens')).toBe('0');
    expect(await text('kv-weights-note')).toBe(
      'The model file alone (1.13 MiB) is larger than the budget (1.00 MiB): nothing is left for the cache.',
    );
    await kv().getByLabel('Budget', { exact: true }).fill('2 MiB');

    // f32: 4 bytes per value → 1,280 B per token.
    await kv().getByLabel('KV type', { exact: true }).selectOption('f32');
    expect(await page.getByTestId('kv-bytes-per-token').getAttribute('data-bytes')).toBe('1280');

    // A window of 1,024 tokens caps the cache at 1,024 × 640 B = 655,360 B (f16), under the budget.
    await kv().getByLabel('KV type', { exact: true }).selectOption('f16');
    await kv().getByLabel('Window', { exact: true }).fill('1024');
    expect(await page.getByTestId('kv-total').getAttribute('data-bytes')).toBe('655360');
    // Unlimited by memory, not by the model: marked and explained.
    expect(await text('kv-max-context')).toBe('unlimited (window), beyond the trained 2,048');
    expect(await text('kv-max-context-note')).toMatch(/^The budget holds more context than the model was trained on/);
    await kv().getByLabel('Window', { exact: true }).fill('');

    // Head dim 8 is not a multiple of the quantized types' 32-value blocks: only f32, f16, bf16 are drawn.
    expect(await page.getByTestId('kv-chart').getAttribute('data-curves')).toBe('f32,f16,bf16');
    expect(await text('kv-impossible')).toMatch(/q8_0/);
    const legend = await page.locator('[data-testid=kv-chart] .recharts-legend-item-text').allTextContents();
    expect(legend.sort()).toEqual(['bf16 (640 B/token)', 'f16 (640 B/token)', 'f32 (1.25 KiB/token)']);
    expect(await page.locator('[data-testid=kv-chart] path.recharts-line-curve').count()).toBe(3);
    // Each type its own hue; bf16 lies on f16 (the same bytes) and is dashed so both show (QA: two
    // light blues, one hidden under the other).
    const curves = await page
      .locator('[data-testid=kv-chart] path.recharts-line-curve')
      .evaluateAll((paths) => paths.map((p) => [p.getAttribute('stroke'), p.getAttribute('stroke-dasharray')]));
    expect(new Set(curves.map(([stroke]) => stroke)).size).toBe(3);
    expect(curves.filter(([, dash]) => dash === '6 5')).toHaveLength(1);

    await saveScreenshot(page, 'kv-calculator.png');
    expect(problems).toEqual([]);
  });

  it(
    'says what went wrong with a path that is not a model, and computes a typed shape',
    { timeout: TEST_MS },
    async () => {
      await kv().getByLabel('GGUF path', { exact: true }).fill(join(app.home, 'no-such.gguf'));
      // Another path typed, not read yet: the stories model's facts and numbers leave with its path
      // (they stood beside the new path, and a reload showed none: the tab keeps a header with its path).
      await page.getByTestId('kv-needs-model').waitFor();
      expect(await page.getByTestId('kv-model-facts').count()).toBe(0);
      expect(await page.getByTestId('kv-total').count()).toBe(0);
      await page.getByRole('button', { name: 'Read header', exact: true }).click();
      expect(await page.getByTestId('kv-header-error').textContent()).toMatch(/no-such\.gguf/);

      await page.getByTestId('kv-source-manual').click();
      await kv().getByLabel('Layers', { exact: true }).fill('16');
      await kv().getByLabel('KV heads', { exact: true }).fill('8');
      await kv().getByLabel('Head dim (K)', { exact: true }).fill('64');
      await kv().getByLabel('Head dim (V)', { exact: true }).fill('');
      await kv().getByLabel('KV type', { exact: true }).selectOption('q8_0');
      // By hand: q8_0 rows of 64 values are 2 blocks × 34 B = 68 B; 16 × 8 × (68 + 68) = 17,408 B.
      expect(await page.getByTestId('kv-bytes-per-token').getAttribute('data-bytes')).toBe('17408');
      await kv().getByLabel('Board', { exact: true }).selectOption('jetson-orin-nano-8gb');
      // 8 GiB = 8,589,934,592 B; / 17,408 = 493,447.9 → 493,447 tokens.
      expect(await page.getByTestId('kv-max-context').getAttribute('data-tokens')).toBe('493447');
      await kv().getByLabel('Layers', { exact: true }).fill('0');
      expect(await page.getByTestId('kv-error-layers').textContent()).toBe('a whole number above 0');
      expect(problems).toEqual([]);
    },
  );
});
