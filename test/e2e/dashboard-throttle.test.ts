// The Thermal and clocks panel of a recorded session, as a field engineer reads it: does the board
// throttle, when, against which trip point, and what it cost in tokens/s. The session was recorded
// on a board whose facts (stored in the session) hold a passive trip at 85 °C and an active (fan)
// trip at 60 °C; the app is opened on "This computer", whose own probe must not stand in for them.
// Real browser mode (the CLI's `kvscope web --open`), real Chromium, a real SQLite session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserApp } from '../helpers/browser-app';
import { openRecordedSession } from '../helpers/recorded-session-web';
import { HOT_BOARD, hotRunSamples } from '../helpers/throttle-fixtures';

const WAIT_MS = 60_000;
const TEST_MS = 120_000;

let app: BrowserApp;

beforeAll(async () => {
  app = await openRecordedSession({
    file: 'orangepi5.kvscope',
    id: 'recorded-throttle',
    label: 'RK3588 hot run',
    samples: hotRunSamples(),
    target: HOT_BOARD,
  });
});

afterAll(async () => {
  await app?.close();
});

describe('throttling in a recorded session', () => {
  it(
    "is judged against the recording board's passive trip, and the cursor on the interval shows it in every panel",
    async () => {
      // The page the app opened on the session (openBrowserApp waited for it to show).
      const { page, problems } = app;
      const thermal = page.getByRole('region', { name: 'Thermal and clocks' });
      // The session board's passive trip is the line drawn; the fan trip is not a throttle limit.
      await thermal
        .locator('[data-testid=ref-line][data-ref="trip 85 °C"]')
        .waitFor({ state: 'attached', timeout: WAIT_MS });
      expect(await thermal.locator('[data-testid=ref-line][data-ref="trip 60 °C"]').count()).toBe(0);

      // One interval: the 6, 7 and 8 s ticks are throttled, the 9 s tick ends it (3 s). By hand:
      // decode from the first token (100 ms, 2 tokens) to the last (12 s, 210 tokens); inside
      // [6 s, 9 s] 150 − 120 = 30 tokens in 3 s = 10 tok/s; outside 178 tokens in 8.9 s = 20 tok/s.
      const summary = page.getByTestId('throttle-summary');
      await summary.waitFor({ timeout: WAIT_MS });
      expect(await summary.textContent()).toBe('1 throttle interval · 10.0 tok/s lost while throttled');
      const band = page.locator('[data-testid=event-item][data-kind=throttle]');
      expect(await band.count()).toBe(1);
      expect(await band.locator('.dash-event-message').textContent()).toBe('throttled for 3.0 s');

      // Its time puts the cursor at the interval's start in every panel: 83 °C at 1200 MHz, and
      // the 2 s tokens/s window before it (4…6 s: 120 − 80 tokens) at 20 tok/s.
      await band.locator('button.dash-event-time').click();
      const readout = (panel: string) => page.getByTestId(`cursor-readout-${panel}`);
      await page.waitForFunction(
        () => document.querySelector('[data-testid=cursor-readout-thermal]')?.getAttribute('data-tms') === '6000',
        null,
        { timeout: WAIT_MS },
      );
      const thermalText = (await readout('thermal').textContent()) ?? '';
      expect(thermalText).toMatch(/^at 6\.0 s · /);
      expect(thermalText).toContain('83.0 °C');
      expect(thermalText).toContain('1200 MHz');
      const throughputText = (await readout('throughput').textContent()) ?? '';
      expect(throughputText).toMatch(/^at 6\.0 s · /);
      expect(throughputText).toContain('tokens/s (2 s window) 20.0 tokens/s');
      expect(await readout('memory').getAttribute('data-tms')).toBe('6000');

      // The roofline says what it lacks instead of leaving its place empty: first the board's
      // bandwidth; once a board is picked, the KV bytes per token (this run had no --gguf).
      const throughput = page.getByTestId('throughput-summary');
      expect(await throughput.textContent()).toContain('roofline: pick the board (its memory bandwidth is unknown)');
      await page.getByTestId('roofline-board').selectOption('rk3588-lpddr5');
      await page.waitForFunction(
        () =>
          document
            .querySelector('[data-testid=throughput-summary]')
            ?.textContent?.includes('roofline: needs the KV bytes per token') === true,
        null,
        { timeout: WAIT_MS },
      );
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );
});
