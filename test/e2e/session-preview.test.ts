// A long recorded session opened in real Chromium against the real `kvscope web --open`: the page
// asks for its preview first (each series' extremes per slice of time, shared/api/packed-preview.ts;
// this run was never finished, so the server reduces it on the spot), draws it with a note saying
// so, then asks for every sample and draws them in its place: the note goes, every memory sample
// is counted, and the dashboard's time panels are drawn.
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
  return Array.from({ length: SECONDS }, (_, i): Sample[] => [
    { tMs: i * 1000, source: 'engine', values: { tokens: i * 10 } },
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

describe('a long recorded session', () => {
  it(
    'is drawn from its preview first, then from every sample in its place',
    async () => {
      const { browser, web } = served!;
      const problems: string[] = [];
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await watchPage(page, problems);
      const asked: Array<{ previewBuckets?: number }> = [];
      page.on('websocket', (ws) =>
        ws.on('framesent', ({ payload }) => {
          if (typeof payload === 'string' && payload.includes('"openSession"'))
            asked.push((JSON.parse(payload) as { input: { previewBuckets?: number } }).input);
        }),
      );
      // Whether the preview's note was ever on the page (it may go before a poll would see it).
      await page.addInitScript(() => {
        new MutationObserver(() => {
          if (document.querySelector('[data-testid=session-preview]'))
            (window as unknown as { previewSeen: boolean }).previewSeen = true;
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(web.url);
      await page.getByTestId('viewing-session').waitFor({ timeout: WAIT_MS });
      await page.waitForFunction(
        (n) => document.querySelector('[data-testid=run-progress]')?.textContent?.includes(`${n} memory samples`),
        SECONDS.toLocaleString('en-US'),
        { timeout: WAIT_MS },
      );
      expect(await page.getByTestId('session-preview').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { previewSeen?: boolean }).previewSeen)).toBe(true);
      expect(asked.map((input) => input.previewBuckets)).toEqual([STORED_PREVIEW_BUCKETS, undefined]);
      for (const key of ['rssBytes', 'temp.cpu.C'])
        expect(Number(await page.getByTestId(`series-${key}`).first().getAttribute('data-points'))).toBeGreaterThan(0);
      expect(problems).toEqual([]);
      await page.close();
    },
    TEST_MS,
  );
});
