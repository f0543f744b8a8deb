// A recorded session opened into the dashboard (`kvscope web --open <file>`) in real Chromium:
// its series fill the time panels (not only the RSS-against-tokens chart), and the mouse wheel
// over one panel zooms every panel to the same window without scrolling the page.
//
// The session is written with the real session store from the Xavier NX lines of a real
// tegrastats capture (test/fixtures/tegrastats/xavier-nx-and-nano-jp4.6), mapped to sample keys
// by the real collector (shared/collectors/tegrastats-collector-parser.ts), plus the engine's
// process memory and token count over the same seconds, which a board run records beside it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Sample } from '../../shared/api/schemas';
import { tegrastatsValues } from '../../shared/collectors/tegrastats-collector-parser';
import { parseTegrastatsLine } from '../../shared/parsers/tegrastats-parser';
import { openWatchedPage } from '../helpers/chromium';
import type { BrowserApp } from '../helpers/browser-app';
import { openRecordedSession } from '../helpers/recorded-session-web';
import type { WebMode } from '../helpers/web-mode';

const WAIT_MS = 60_000;
const TEST_MS = 120_000;
const FIXTURE = new URL(
  '../fixtures/tegrastats/xavier-nx-and-nano-jp4.6/nano_tx2nx_xaviernx_aiblox_stresstest.txt',
  import.meta.url,
);
/** tegrastats' default interval: the capture's lines are 1 s apart. */
const INTERVAL_MS = 1000;
/** The tracks the session fills, one per panel with a time axis. */
const TRACKS = ['track-process-memory', 'track-temperature', 'track-power'];

let served: BrowserApp | undefined;
let web: WebMode;
let browser: Browser;

/** The capture's Xavier NX lines (the first four records, one board) and the engine beside them. */
function recordedSamples(): Sample[] {
  const lines = readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('RAM '))
    .slice(0, 4);
  return lines.flatMap((text, i): Sample[] => {
    const record = parseTegrastatsLine(text, i + 1);
    if (record.kind !== 'tegrastats') throw new Error(`fixture line ${i + 1} did not parse`);
    const tMs = i * INTERVAL_MS;
    return [
      { tMs, source: 'tegrastats', values: tegrastatsValues(record) },
      { tMs, source: 'procfs', values: { rssBytes: 600e6 + i * 4e6, rssAnonBytes: 500e6 + i * 4e6 } },
      { tMs, source: 'engine', values: { tokens: i * 20 } },
    ];
  });
}

beforeAll(async () => {
  served = await openRecordedSession({
    file: 'xavier-nx.kvscope',
    id: 'recorded-xavier',
    label: 'Xavier NX stress',
    samples: recordedSamples(),
  });
  ({ web, browser } = served);
});

afterAll(async () => {
  await served?.close();
});

const MAIN_SCROLL_TOP = 'document.querySelector("main.main").scrollTop';
const SCROLLABLE =
  'document.querySelector("main.main").scrollHeight > document.querySelector("main.main").clientHeight';

/** [t0, t1] of a track's x axis, as the track states it. */
async function domainOf(page: Page, testId: string): Promise<[number, number]> {
  const track = page.getByTestId(testId);
  return [Number(await track.getAttribute('data-t0')), Number(await track.getAttribute('data-t1'))];
}

describe('a recorded session in the dashboard', () => {
  it(
    'fills the time panels, and the wheel over one panel zooms every panel without scrolling the page',
    async () => {
      const problems: string[] = [];
      const page = await openWatchedPage(browser, web.url, problems);
      await page.getByTestId('viewing-session').waitFor({ timeout: WAIT_MS });
      // Every time panel draws the session's series (4 points each: the whole capture is visible).
      for (const key of ['rssBytes', 'tegra.temp.GPU.C', 'tegra.rail.VDD_IN.curmW'])
        await page.waitForFunction(
          (k) => Number(document.querySelector(`[data-testid="series-${k}"]`)?.getAttribute('data-points')) === 4,
          key,
          { timeout: WAIT_MS },
        );
      // The whole run: 0 to 3 s on every track.
      for (const id of TRACKS) expect(await domainOf(page, id)).toEqual([0, 3 * INTERVAL_MS]);

      // The dashboard is taller than the window: its column (main.main) scrolls, and a wheel the
      // charts did not cancel would scroll it (or the window) and move the chart under the pointer.
      // (The column's scrollTop itself may shift by the toolbar's new line: Chrome's scroll
      // anchoring keeps what is on screen in place, which is what this checks.)
      const temperature = page.getByTestId('track-temperature');
      await temperature.scrollIntoViewIfNeeded();
      expect(await page.evaluate(SCROLLABLE)).toBe(true);
      expect(await page.evaluate<number>(MAIN_SCROLL_TOP)).toBeGreaterThan(0);
      const box = (await temperature.boundingBox())!;
      const onScreen = async () => ({
        windowScrollY: await page.evaluate<number>('window.scrollY'),
        trackTopPx: Math.round((await temperature.boundingBox())!.y),
      });
      const before = await onScreen();
      expect(before.windowScrollY).toBe(0);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, -300); // wheel up: zoom in around the pointer
      await page.getByTestId('zoomed').waitFor({ timeout: WAIT_MS });
      await page.waitForFunction(
        () => document.querySelector('[data-testid=track-temperature]')?.getAttribute('data-t0') !== '0',
        null,
        { timeout: WAIT_MS },
      );

      const [t0, t1] = await domainOf(page, 'track-temperature');
      expect(t0).toBeGreaterThan(0);
      expect(t1).toBeLessThan(3 * INTERVAL_MS);
      // One time axis: the other panels show the same window.
      for (const id of TRACKS) expect(await domainOf(page, id)).toEqual([t0, t1]);
      expect(await onScreen()).toEqual(before);

      // Wheel down zooms back out past the zoomed window (still without scrolling).
      await page.mouse.wheel(0, 600);
      await page.waitForFunction(
        (was) =>
          Number(document.querySelector('[data-testid=track-power]')?.getAttribute('data-t1')) -
            Number(document.querySelector('[data-testid=track-power]')?.getAttribute('data-t0')) >
          was,
        t1 - t0,
        { timeout: WAIT_MS },
      );
      expect(await onScreen()).toEqual(before);
      expect(problems).toEqual([]);
      await page.close();
    },
    TEST_MS,
  );

  it(
    'draws no warm-up chart when the session shown at start-up drew its own (ChartWarmup.tsx)',
    async () => {
      const page = await browser.newPage();
      await page.addInitScript(() => {
        const w = window as unknown as { warmupSeen: number };
        w.warmupSeen = 0;
        new MutationObserver(() => {
          if (document.querySelector('[data-testid="chart-warmup"]')) w.warmupSeen += 1;
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(web.url);
      await page.getByTestId('viewing-session').waitFor({ timeout: WAIT_MS });
      await page.locator('[data-testid="memory-chart"] path.recharts-line-curve').first().waitFor({ timeout: WAIT_MS });
      // Idle comes within a second here; the warm-up would draw at its latest 3 s after start-up.
      await page.waitForTimeout(3500);
      expect(await page.evaluate(() => (window as unknown as { warmupSeen: number }).warmupSeen)).toBe(0);
      await page.close();
    },
    TEST_MS,
  );
});
