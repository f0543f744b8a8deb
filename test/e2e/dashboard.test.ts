// The dashboard from the user's side, in real Chromium against the real `kvscope web`: a local
// demo run fills Memory, Throughput and Events; hovering one panel reads every panel at the same
// instant; the M key adds a marker that lands in the run's events (it survives a reload, which
// rebuilds the page from getRun); Ctrl+. stops the run; a budget crossed at 80 % raises an alert.
//
// This VM has no /sys/class/thermal zones and no cpufreq policies (test/helpers note in the
// report), so Thermal and clocks and Power and counters are fed with a recorded session: the
// first four lines of a real Jetson Xavier NX tegrastats capture
// (test/fixtures/tegrastats/xavier-nx-and-nano-jp4.6), parsed by the real parser and pushed to
// the page as `runSamples` of the live run through the WebSocket it already has (the only part
// that is not the real server: the board itself cannot exist here).
import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { defined } from '../helpers/defined';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import type { Sample } from '../../shared/api/schemas';
import { parseTegrastatsLine } from '../../shared/parsers/tegrastats-parser';
import { launchChromium, openWatchedPage } from '../helpers/chromium';
import { fillRunForm, startDemoRun, type RunFormValues } from '../helpers/run-form-page';
import { startWebMode, type WebMode } from '../helpers/web-mode';

const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url);
const WAIT_MS = 90_000;
const TEST_MS = 180_000;
const FIXTURE = new URL(
  '../fixtures/tegrastats/xavier-nx-and-nano-jp4.6/nano_tx2nx_xaviernx_aiblox_stresstest.txt',
  import.meta.url,
);
/** The recorded board's lines are 1 s apart (tegrastats' default interval). */
const RECORDED_INTERVAL_MS = 1000;

let web: WebMode;
let browser: Browser;

beforeAll(async () => {
  web = await startWebMode();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await web?.stop();
});

/** The Xavier NX lines of the capture (same board: the first four records) as samples. */
function recordedSamples(): Sample[] {
  const lines = readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('RAM '))
    .slice(0, 4);
  return lines.map((text, i) => {
    const record = parseTegrastatsLine(text, i + 1);
    if (record.kind !== 'tegrastats') throw new Error(`fixture line ${i + 1} did not parse`);
    const values: Record<string, number | null> = {};
    for (const [zone, c] of Object.entries(record.tempsC)) values[`temp.${zone}.C`] = c;
    for (const [rail, r] of Object.entries(record.railsMw)) values[`rail.${rail}.mW`] = r.cur;
    values['cpufreq.cpu0.MHz'] = record.cpus[0]?.freqMHz ?? null;
    values.gpuLoadPct = record.gpuLoadPct;
    return { tMs: 1000 + i * RECORDED_INTERVAL_MS, source: 'tegrastats', values };
  });
}

const phaseOf = (page: Page) => page.getByTestId('run-phase').getAttribute('data-phase');

async function waitPhase(page: Page, phases: string[]) {
  await page.waitForFunction(
    (wanted) => wanted.includes(document.querySelector('[data-testid=run-phase]')?.getAttribute('data-phase') ?? ''),
    phases,
    { timeout: WAIT_MS },
  );
}

/**
 * A test that fails mid-run leaves its run going, and every later test then finds the board busy
 * (This computer disabled): one failure became four on CI. Stop it the user's way, if the page
 * still answers.
 */
async function stopLeftRun(page: Page) {
  if (page.isClosed()) return;
  const phase = await phaseOf(page).catch(() => null);
  if (phase !== 'starting' && phase !== 'running' && phase !== 'stopping') return;
  if (phase !== 'stopping') await page.keyboard.press('Control+.').catch(() => {});
  await page
    .waitForFunction(
      () =>
        ['done', 'failed'].includes(
          document.querySelector('[data-testid=run-phase]')?.getAttribute('data-phase') ?? '',
        ),
      null,
      { timeout: 30_000 },
    )
    .catch(() => {});
}

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const legend = (page: Page, name: string) => region(page, name).getByTestId('legend-entry').allTextContents();

describe('the dashboard', () => {
  it(
    'fills every panel, reads them at one instant, takes a marker, raises the budget alert and stops',
    async () => {
      const problems: string[] = [];
      let socket: WebSocketRoute | null = null;
      const page = await browser.newPage({ viewport: { width: 1440, height: 1400 } });
      onTestFailed(() => stopLeftRun(page));
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      await page.routeWebSocket(/\/api/, (ws) => {
        ws.connectToServer();
        socket = ws;
      });
      await page.goto(web.url);
      await page.getByTestId('board-local').click();

      // Before any run: every panel says what to do next.
      expect(await region(page, 'Memory').getByTestId('chart-empty').textContent()).toContain('press Start');
      expect(await page.getByTestId('empty-throughput').textContent()).toContain('first generated token');
      expect(await page.getByTestId('empty-thermal').textContent()).toContain('no /sys/class/thermal zones');
      expect(await page.getByTestId('empty-power').textContent()).toContain('No power rails');
      expect(await page.getByTestId('empty-events').textContent()).toContain('press M');
      for (const name of ['Memory', 'Throughput', 'Thermal and clocks', 'Power and counters', 'Events'])
        expect(await region(page, name).count()).toBe(1);

      await page.getByTestId('engine-kind-demo').click();
      await page.getByTestId('field-tokens').fill('100000');
      await page.getByTestId('field-tps').fill('200');
      await page.getByTestId('field-intervalMs').fill('100');
      // The demo's RSS starts near 74 MiB and grows 32 KiB/token × 200 tokens/s: 80 % of 100 MiB
      // (80 MiB) is crossed within seconds.
      await page.getByTestId('field-budget').fill('100 MiB');
      await page.locator('body').click({ position: { x: 1200, y: 20 } });
      await page.keyboard.press('Control+Enter'); // the Start shortcut
      await waitPhase(page, ['running']);

      await page.waitForFunction(
        () =>
          Number(document.querySelector('[data-testid=series-rssBytes]')?.getAttribute('data-points')) >= 10 &&
          Number(document.querySelector('[data-testid=series-tokensPerSecond]')?.getAttribute('data-points')) >= 2,
        null,
        { timeout: WAIT_MS },
      );

      // The recorded board session joins the live run.
      const runId = (await page.locator('.run-title .mono').textContent())?.trim() ?? '';
      expect(runId).toMatch(/^\d{14}-[0-9a-f]{8}$/);
      const recorded = recordedSamples();
      expect(socket).not.toBeNull();
      socket!.send(JSON.stringify({ event: 'runSamples', payload: { runId, samples: recorded } }));
      await page.waitForFunction(
        () => Number(document.querySelector('[data-testid="series-temp.GPU.C"]')?.getAttribute('data-points')) === 4,
        null,
        { timeout: WAIT_MS },
      );

      // Legends: what each panel draws.
      expect(await legend(page, 'Memory')).toEqual(expect.arrayContaining(['RSS', 'anon RSS', 'file-backed RSS']));
      expect(await legend(page, 'Throughput')).toContain('tokens/s (2 s window)');
      expect(await legend(page, 'Thermal and clocks')).toEqual(
        expect.arrayContaining(['AO', 'GPU', 'PMIC', 'AUX', 'CPU', 'thermal', 'cpu0', 'gpu Load']),
      );
      expect(await legend(page, 'Power and counters')).toEqual(['VDD_CPU_GPU_CV', 'VDD_IN', 'VDD_SOC']);
      // The budget line is drawn in the engine-memory track (its canvas reports the lines inside its range).
      expect(
        await region(page, 'Memory').locator('[data-testid=ref-line][data-drawn=true]').allTextContents(),
      ).toContain('budget');
      // Every track spans its panel's content box exactly: not past its border, not short of it.
      const overhang = await page.locator('[data-testid=track-canvas]').evaluateAll((canvases) =>
        canvases.map((c) => {
          const panel = c.closest('.dash-panel') as HTMLElement;
          const style = getComputedStyle(panel);
          const inner =
            panel.getBoundingClientRect().right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
          return Math.round(c.getBoundingClientRect().right - inner);
        }),
      );
      expect(overhang.length).toBeGreaterThan(3);
      expect(new Set(overhang)).toEqual(new Set([0]));
      // Tokens/s against depth spans the panel as its tracks do (QA: 360 px with one y label beside
      // full-width tracks), with round labels on each axis.
      const depth = region(page, 'Throughput').getByTestId('depth-chart');
      await depth.waitFor({ timeout: WAIT_MS });
      const depthWidth = defined((await depth.boundingBox()) ?? undefined, 'depth chart box').width;
      const trackWidth = defined(
        (await region(page, 'Throughput').getByTestId('track-canvas').first().boundingBox()) ?? undefined,
        'throughput track box',
      ).width;
      expect(Math.abs(depthWidth - trackWidth)).toBeLessThanOrEqual(2);
      expect(await depth.locator('.depth-y text').count()).toBeGreaterThanOrEqual(2);
      expect(await depth.locator('text.depth-x').count()).toBeGreaterThanOrEqual(2);
      // Each track is a canvas named for readers after what it plots.
      expect(
        await region(page, 'Memory')
          .getByRole('img', { name: /^Engine memory: .*\bRSS\b/ })
          .count(),
      ).toBe(1);

      // The alert: RSS crossed 80 % of the budget (the run's rule, in the strip).
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll<HTMLElement>('[data-testid=event-item][data-kind=alert]')).some((e) =>
            /of the 100\.0 MiB memory budget \(alert at 80 %\)/.test(e.textContent ?? ''),
          ),
        null,
        { timeout: WAIT_MS },
      );

      // Drag-select the first half of the run on the Memory track: every panel zooms with it.
      await page.getByTestId('add-marker').waitFor();
      const memoryTrack = region(page, 'Memory').getByTestId('track-process-memory');
      // Scrolled to by the page itself: Playwright's scroll waits for the element to hold still over two
      // frames, which a loaded CI machine repainting the live run did not give it within the test's time.
      await memoryTrack.evaluate((e) => e.scrollIntoView({ block: 'nearest' }));
      const box = (await memoryTrack.boundingBox())!;
      await page.mouse.move(box.x + 64 + 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      await page.getByTestId('zoomed').waitFor();

      // Hover the middle of the Memory track: the Thermal panel reads the same instant.
      await page.mouse.move(box.x + 64 + (box.width - 76) * 0.5, box.y + box.height / 2);
      const memTms = await region(page, 'Memory').getByTestId('cursor-readout-memory').getAttribute('data-tms');
      const thermalReadout = region(page, 'Thermal and clocks').getByTestId('cursor-readout-thermal');
      expect(await thermalReadout.getAttribute('data-tms')).toBe(memTms);
      const tMs = Number(memTms);
      const memText = (await region(page, 'Memory').getByTestId('cursor-readout-memory').textContent()) ?? '';
      const thermalText = (await thermalReadout.textContent()) ?? '';
      const at = `at ${(tMs / 1000).toFixed(1)} s`;
      expect(memText.startsWith(at)).toBe(true);
      expect(thermalText.startsWith(at)).toBe(true);
      expect(memText).toMatch(/RSS \d+(\.\d+)? MiB/);
      // The recorded GPU temperature at that instant: the last recorded line at or before it
      // (lines at 1, 2, 3, 4 s: 44.5, 45, 45, 44.5 °C in the capture).
      const gpuByLine = [44.5, 45, 45, 44.5];
      const line = Math.min(3, Math.floor((tMs - 1000) / 1000));
      if (tMs >= 1000) expect(thermalText).toContain(`GPU ${(gpuByLine[line] ?? Number.NaN).toFixed(1)} °C`);
      else expect(thermalText).toContain('GPU –');

      // A marker with the M key (focus on the page, not a field).
      await page.mouse.move(0, 0);
      await page.locator('body').click({ position: { x: 1400, y: 20 } });
      await page.keyboard.press('m');
      await region(page, 'Events')
        .locator('[data-testid=event-item][data-kind=marker]')
        .first()
        .waitFor({ timeout: WAIT_MS });

      // Stop with Ctrl+. ; the run ends as stopped.
      await page.keyboard.press('Control+.');
      await waitPhase(page, ['done', 'failed']);
      expect(await phaseOf(page)).toBe('done');
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid=event-item][data-kind=stop]').length === 1,
        null,
        { timeout: WAIT_MS },
      );

      // The screenshots once the run has stopped: a live panel grows and moves at every sample, and
      // Playwright waits for an element to hold still (a loaded CI machine timed out waiting).
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.dblclick('[data-testid=track-process-memory]'); // back to the whole run
      for (const [name, file] of [
        ['Memory', 'dashboard-memory.png'],
        ['Throughput', 'dashboard-throughput.png'],
        ['Thermal and clocks', 'dashboard-thermal.png'],
        ['Power and counters', 'dashboard-power.png'],
        ['Events', 'dashboard-events.png'],
      ] as const)
        await region(page, name).screenshot({ path: new URL(file, ARTIFACTS).pathname });

      // The marker is in the run's own events: a reload rebuilds the page from getRun.
      await page.reload();
      await region(page, 'Events')
        .locator('[data-testid=event-item][data-kind=marker]')
        .first()
        .waitFor({ timeout: WAIT_MS });
      expect(problems).toEqual([]);
      await page.close();
    },
    TEST_MS,
  );

  /** A demo run that goes on until stopped (100,000 tokens at 200 tokens/s) started from the form on This computer. */
  async function startLongDemo(page: Page, fields: RunFormValues = {}) {
    await page.getByTestId('board-local').click();
    await startDemoRun(page, { tokens: '100000', tps: '200', intervalMs: '100', ...fields });
  }

  /** A page of its own on the app, with what it reports as problems. */
  async function watchedPage() {
    const problems: string[] = [];
    return { page: await openWatchedPage(browser, web.url, problems), problems };
  }

  /** A test on a page of its own, which ends with no page error, console error or CSP violation. */
  function pageTest(name: string, body: (page: Page, problems: string[]) => Promise<void>) {
    it(
      name,
      async () => {
        const { page, problems } = await watchedPage();
        onTestFailed(() => stopLeftRun(page));
        await body(page, problems);
        expect(problems).toEqual([]);
        await page.close();
      },
      TEST_MS,
    );
  }

  pageTest(
    'keeps every marker of a burst of presses, numbered (the API test has them at one time), and takes none once the run ended',
    async (page) => {
      await startLongDemo(page, { intervalMs: '1000' });
      await waitPhase(page, ['running']);
      await page.locator('body').click({ position: { x: 1400, y: 20 } });
      for (let i = 0; i < 4; i++) await page.keyboard.press('m');
      await page.getByTestId('add-marker').click();
      const markers = region(page, 'Events').locator('[data-testid=event-item][data-kind=marker]');
      const texts = async () => (await markers.locator('.dash-event-message').allTextContents()).sort();
      const pressed = ['marker 1', 'marker 2', 'marker 3', 'marker 4', 'marker 5'];
      // Until the five are shown (each comes twice: the call's answer and the runEvent event, one
      // kept), then the list as it stands: a list that never settles on them fails with its diff.
      // CI twice read [2, 3, 4, 5, 5] within 4 s of the presses, after a waitForFunction on the page
      // (its failure caught) that had ended that soon: not reproduced here, even under load. Read
      // from the test's side now, each read judged as it was taken, with every event row said on
      // failure.
      let shown = await texts();
      for (
        const until = Date.now() + 30_000;
        JSON.stringify(shown) !== JSON.stringify(pressed) && Date.now() < until;
      ) {
        await page.waitForTimeout(100);
        shown = await texts();
      }
      const runEvents = await page.evaluate(() =>
        Array.from(document.querySelectorAll('[data-testid=event-item]'), (e) => e.textContent).join(' | '),
      );
      expect(shown, `the events list: ${runEvents}`).toEqual(pressed);

      await page.keyboard.press('Control+.');
      await waitPhase(page, ['done', 'failed']);
      expect(await page.getByTestId('add-marker').isDisabled()).toBe(true);
      await page.keyboard.press('m');
      expect(await page.getByTestId('marker-error').textContent()).toBe(
        'This run has ended: a marker marks a moment of a running run.',
      );
      await page.reload();
      await markers.first().waitFor({ timeout: WAIT_MS });
      expect(await texts()).toEqual(pressed);
    },
  );

  pageTest(
    'takes Start and Stop from the run form on every view; Ctrl+Enter in a field of another view is not Start',
    async (page) => {
      await page.getByTestId('board-local').click();
      await page.getByTestId('engine-kind-demo').click();
      await fillRunForm(page, { tokens: '100000', tps: '200', intervalMs: '100' });
      // Typing in the calculator's path, Ctrl+Enter is that field's, not a run's.
      await page.getByTestId('view-kv').click();
      await page.getByTestId('kv-source-gguf').click();
      await page.getByTestId('kv-ggufPath').press('Control+Enter');
      expect(await page.getByTestId('start-run').isEnabled()).toBe(true);
      // The run form is in the sidebar on this view too: its shortcut starts the run from there
      // (the shortcuts lived with the dashboard, and did nothing off the Run view).
      await page.getByTestId('field-tokens').press('Control+Enter');
      await page.getByTestId('stop-run').waitFor({ state: 'visible' });
      await page.waitForFunction(
        () => document.querySelector<HTMLButtonElement>('[data-testid=stop-run]')?.disabled === false,
        null,
        { timeout: WAIT_MS },
      );
      expect(await page.getByTestId('start-run').isDisabled()).toBe(true);
      // And Stop, from wherever the focus is.
      await page.getByTestId('view-sessions').click();
      await page.keyboard.press('Control+.');
      await page.waitForFunction(
        () => document.querySelector<HTMLButtonElement>('[data-testid=start-run]')?.disabled === false,
        null,
        { timeout: WAIT_MS },
      );
      await page.getByTestId('view-run').click();
      await waitPhase(page, ['done', 'failed']);
    },
  );

  pageTest(
    'shows the budget alert at the threshold the user set, not the run’s own at the default 80 %',
    async (page) => {
      await page.getByTestId('alert-settings-toggle').click();
      await page.getByTestId('threshold-rss-budget').fill('95');
      await page.keyboard.press('Escape');
      // The demo's RSS starts near 110 MiB here (+ 32 KiB/token at 200 tokens/s): past 80 % of
      // 150 MiB within about 2 s, past 95 % about 4 s later.
      await startLongDemo(page, { budget: '150 MiB' });
      const budgetAlerts = () =>
        region(page, 'Events')
          .locator('[data-testid=event-item][data-kind=alert]')
          .filter({ hasText: 'memory budget' })
          .locator('.dash-event-message')
          .allTextContents();
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll('[data-testid=event-item][data-kind=alert]')).some((e) =>
            /alert at 95 %/.test(e.textContent ?? ''),
          ),
        null,
        { timeout: WAIT_MS },
      );
      await page.keyboard.press('Control+.');
      await waitPhase(page, ['done', 'failed']);
      const texts = await budgetAlerts();
      expect(texts).toHaveLength(1);
      expect(texts[0]).toMatch(/^RSS \d+\.\d MiB is 9\d % of the 150\.0 MiB memory budget \(alert at 95 %\)$/);
    },
  );

  pageTest(
    'keeps the zoomed window of the run across a reload of the tab; another tab opens on the whole run',
    async (page, problems) => {
      await startLongDemo(page);
      await waitPhase(page, ['running']);
      const track = region(page, 'Memory').getByTestId('track-process-memory');
      await page.waitForFunction(
        () => Number(document.querySelector('[data-testid=track-process-memory]')?.getAttribute('data-t1')) > 3000,
        null,
        { timeout: WAIT_MS },
      );
      await track.scrollIntoViewIfNeeded();
      const box = (await track.boundingBox())!;
      await page.mouse.move(box.x + 80, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      await page.getByTestId('zoomed').waitFor();
      const shownWindow = async () => [await track.getAttribute('data-t0'), await track.getAttribute('data-t1')];
      const zoomed = await shownWindow();

      await page.reload();
      await page.getByTestId('zoomed').waitFor({ timeout: WAIT_MS });
      await track.waitFor();
      expect(await shownWindow()).toEqual(zoomed);
      expect(await phaseOf(page)).toBe('running');

      const other = await watchedPage();
      await waitPhase(other.page, ['running']);
      await region(other.page, 'Memory').getByTestId('track-process-memory').waitFor({ timeout: WAIT_MS });
      expect(await other.page.getByTestId('zoomed').count()).toBe(0);
      expect(await region(other.page, 'Memory').getByTestId('track-process-memory').getAttribute('data-t0')).not.toBe(
        zoomed[0],
      );

      await page.keyboard.press('Control+.');
      await waitPhase(page, ['done', 'failed']);
      problems.push(...other.problems);
      await other.page.close();
    },
  );

  pageTest(
    'takes a threshold typed over the old one, marks one out of range, and keeps it across a reload',
    async (page) => {
      await page.getByTestId('alert-settings-toggle').click();
      const horizon = page.getByTestId('threshold-oom-horizon');
      const budget = page.getByTestId('threshold-rss-budget');
      // Emptied, then retyped: the field holds what is typed (it used to refuse the empty field
      // and append, 1024 → 10242048).
      await horizon.fill('');
      await horizon.pressSequentially('2048');
      expect(await horizon.inputValue()).toBe('2048');
      // A token count is whole: 10.5 is marked and what the field takes said (it applied 10.5).
      await horizon.fill('10.5');
      expect(await horizon.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#alert-oom-horizon-unit').textContent()).toBe(
        'tokens · allowed: a whole number from 0 to 100,000,000 tokens; 2048 applies',
      );
      await horizon.fill('2048');
      // 150 % of the budget is out of range: marked, what the field allows and the applied 80 %
      // said beside it, and on leaving the field it shows 80 again (it used to jump back silently).
      await budget.fill('150');
      expect(await budget.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#alert-rss-budget-unit').textContent()).toBe(
        '% of budget · allowed: a number from 5 to 100 %; 80 applies',
      );
      await horizon.focus();
      expect(await budget.inputValue()).toBe('80');
      // A fraction of a percent applies as typed and reads back so (it read 86 while 85.5 applied).
      await budget.fill('85.5');
      await horizon.focus();
      expect(await budget.inputValue()).toBe('85.5');
      await budget.fill('90');
      expect(await budget.getAttribute('aria-invalid')).toBe('false');

      await page.reload();
      await page.getByTestId('alert-settings-toggle').click();
      expect(await page.getByTestId('threshold-oom-horizon').inputValue()).toBe('2048');
      expect(await page.getByTestId('threshold-rss-budget').inputValue()).toBe('90');
      await page.getByRole('button', { name: 'Reset to defaults', exact: true }).click();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Alert thresholds' }).waitFor({ state: 'detached' });
      // A click outside it leaves it too; a click inside does not.
      await page.getByTestId('alert-settings-toggle').click();
      await page.getByTestId('threshold-oom-horizon').click();
      expect(await page.getByRole('dialog', { name: 'Alert thresholds' }).count()).toBe(1);
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.getByRole('dialog', { name: 'Alert thresholds' }).waitFor({ state: 'detached' });
    },
  );

  pageTest('remembers collapsed panels, their order and the theme across a reload', async (page) => {
    await page.getByTestId('toggle-power').waitFor();
    await page.getByTestId('toggle-power').click();
    expect(await page.getByTestId('toggle-power').getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: 'Move Events up', exact: true }).click();
    // "system" follows prefers-color-scheme, live.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.getByTestId('theme-toggle').click(); // system → light, whatever the system says
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.screenshot({ path: new URL('dashboard-light.png', ARTIFACTS).pathname });

    await page.reload();
    await page.getByTestId('toggle-power').waitFor();
    expect(await page.getByTestId('toggle-power').getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByTestId('panel-power').locator('.dash-panel-body').count()).toBe(0);
    const names = await page
      .locator('section.dash-panel')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(names).toEqual(['Memory', 'Throughput', 'Thermal and clocks', 'Events', 'Power and counters']);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    // Light really is lighter than the dark default (rgb(13, 17, 23)).
    expect(bg).toBe('rgb(245, 247, 250)');

    // Back to "system" (light → dark → system): it follows the system on every view, not only
    // while the dashboard is shown.
    await page.getByTestId('theme-toggle').click();
    await page.getByTestId('theme-toggle').click();
    expect(await page.getByTestId('theme-toggle').textContent()).toBe('Theme: system');
    await page.getByTestId('view-sessions').click();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await page.getByTestId('view-run').click();
  });
});
