// A long recorded session opened in real Chromium against the real `kvscope web --open`: the page
// asks for its preview first (each series' extremes per slice of time, shared/api/packed-preview.ts;
// this run was never finished, so the server reduces it on the spot), draws it with a note saying
// so, then asks for every sample (held here until the preview's picture is taken) and draws them
// in its place. Every time panel's picture differs from the preview's in under 1 % of its pixels,
// the note goes and every memory sample is counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../../shared/api/schemas';
import { STORED_PREVIEW_BUCKETS } from '../../shared/api/packed-preview';
import { watchPage } from '../helpers/chromium';
import type { BrowserApp } from '../helpers/browser-app';
import { openRecordedSession } from '../helpers/recorded-session-web';

const WAIT_MS = 60_000;
const TEST_MS = 120_000;
/** Three hours at 1 Hz: 21,600 samples, more than 8 per slice of the preview's 1,024. */
const SECONDS = 3 * 3600;

function longRun(): Sample[] {
  let tokens = 0;
  return Array.from({ length: SECONDS }, (_, i): Sample[] => [
    // 5 to 17 tokens a second: the tokens/s line is not flat.
    { tMs: i * 1000, source: 'engine', values: { tokens: (tokens += 5 + (i % 13)) } },
    // perf stat -I 1000's counts of each second: an IPC of 0.5 over the run, summed from them all.
    {
      tMs: i * 1000,
      source: 'perf',
      values: { 'perf.cycles': 2e9 + (i % 5) * 1e8, 'perf.instructions': 1e9 + (i % 5) * 5e7 },
    },
    {
      tMs: i * 1000,
      source: 'procfs',
      values: {
        rssBytes: 700e6 + i * 20_000 + (i % 17) * 100_000,
        'temp.cpu.C': 55 + (i % 11) / 2,
      },
    },
  ]).flat();
}

let served: BrowserApp | undefined;

beforeAll(async () => {
  served = await openRecordedSession({
    file: 'long.kvscope',
    id: 'recorded-long',
    label: 'three hours',
    samples: longRun(),
  });
}, 120_000);

afterAll(async () => {
  await served?.close();
});

/** Each time panel's canvas as RGBA bytes, by its accessible name. */
const CANVAS_PIXELS = () =>
  Object.fromEntries(
    Array.from(document.querySelectorAll<HTMLCanvasElement>('canvas[data-testid=track-canvas]')).map((c) => [
      c.getAttribute('aria-label') ?? '',
      Array.from(c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data),
    ]),
  );

describe('a long recorded session', () => {
  it(
    'is drawn from its preview first, the same picture, then from every sample in its place',
    async () => {
      const { browser, web } = served!;
      const problems: string[] = [];
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await watchPage(page, problems);
      const asked: Array<{ previewBuckets?: number }> = [];
      // The request for every sample is held until the preview's picture is taken.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.routeWebSocket(/./, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage(async (message) => {
          if (typeof message === 'string' && message.includes('"openSession"')) {
            const { input } = JSON.parse(message) as { input: { previewBuckets?: number } };
            asked.push(input);
            if (input.previewBuckets === undefined) await released;
          }
          server.send(message);
        });
      });
      await page.goto(web.url);
      await page.getByTestId('session-preview').waitFor({ timeout: WAIT_MS });
      const drawn = () =>
        ['rssBytes', 'temp.cpu.C'].every(
          (key) => Number(document.querySelector(`[data-testid="series-${key}"]`)?.getAttribute('data-points')) > 0,
        );
      await page.waitForFunction(drawn, null, { timeout: WAIT_MS });
      await page.waitForTimeout(300); // a frame or two: nothing is left to paint
      const preview = await page.evaluate(CANVAS_PIXELS);
      // Sums over every sample wait for them.
      await expect(page.getByTestId('power-summary').textContent()).resolves.toBe(
        'IPC, misses and energy per token: reading every sample…',
      );
      expect(asked.map((input) => input.previewBuckets)).toEqual([STORED_PREVIEW_BUCKETS, undefined]);

      release();
      await page.waitForFunction(
        (n) => document.querySelector('[data-testid=run-progress]')?.textContent?.includes(`${n} memory samples`),
        SECONDS.toLocaleString('en-US'),
        { timeout: WAIT_MS },
      );
      expect(await page.getByTestId('session-preview').count()).toBe(0);
      await page.waitForFunction(drawn, null, { timeout: WAIT_MS });
      await page.waitForTimeout(300);
      const full = await page.evaluate(CANVAS_PIXELS);
      await expect(page.getByTestId('power-summary').textContent()).resolves.toMatch(/^IPC 0\.50\b.* over the decode/);
      // Every panel's picture: the preview's and the full samples' differ in few pixels (where a
      // slice of the preview straddles two pixel columns).
      expect(Object.keys(preview).sort()).toEqual(Object.keys(full).sort());
      expect(Object.keys(full).length).toBeGreaterThanOrEqual(3);
      for (const [name, pixels] of Object.entries(full)) {
        const before = preview[name]!;
        expect(before.length).toBe(pixels.length);
        let differ = 0;
        for (let k = 0; k < pixels.length; k += 4)
          if (pixels.slice(k, k + 4).some((v, c) => Math.abs(v - before[k + c]!) > 8)) differ++;
        expect(differ / (pixels.length / 4), `${name}: share of pixels that differ`).toBeLessThan(0.01);
      }
      expect(problems).toEqual([]);
      await page.close();
    },
    TEST_MS,
  );
});
