// The shim board of test/integration/collectors/board-over-ssh.test.ts, seen from the user's side
// (issue 8 acceptance 1's UI panels, issue 9's "every panel fills"): a REAL OpenSSH sshd on
// loopback whose login has shim `tegrastats` and `vcgencmd` (test/fixtures/shims, replaying real
// captures) first on PATH and the RK3588 sysfs tree (test/fixtures/board-root/rk3588-orange-pi-5)
// as KVSCOPE_SYSFS_ROOT; real Chromium against the real `kvscope web`. The board is added and
// probed in the UI, a demo run on it fills every panel, and the legends and the readouts carry the
// capture's values, written here by hand from its lines (test/fixtures/shims/SOURCE). The
// temperatures are read by this test from the replayed captures' raw text (a regex on `GPU@44.5C`
// and `temp=80.8'C`, not the parsers under test) and checked in the session the app wrote, in its
// CSV export (`kvscope report --format csv`) and in the Thermal panel's legend and readout.
// Needs `npm run build` (the demo engine bundle).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { saveScreenshot, waitForPhase, type BrowserApp } from '../helpers/browser-app';
import { readSession } from '../../electron/node/session/session-store';
import type { Sample } from '../../shared/api/schemas';
import { projectRoot, runCli } from '../helpers/cli';
import { csvColumns } from '../helpers/csv-columns';
import { openAppWithSshBoard, type SshBoardApp } from '../helpers/ssh-board-app';

const SHIMS = join(projectRoot, 'test/fixtures/shims/bin');
const RK3588 = join(projectRoot, 'test/fixtures/board-root/rk3588-orange-pi-5');
const CAPTURES = join(projectRoot, 'test/fixtures/shims/captures');

/** The replayed lines of a capture, in the order the shim replays them (first line first, cycling). */
const captureLines = (name: string) =>
  readFileSync(join(CAPTURES, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
/** tegrastats' `<zone>@<°C>C` fields of each replayed line: `GPU@44.5C` → { GPU: 44.5 }. */
const TEGRA_TEMPS_C = captureLines('tegrastats-xavier-nx-jp4.6.txt').map((l) =>
  Object.fromEntries(
    l
      .split(' ')
      .map((field) => /^(\w+)@(-?\d+(?:\.\d+)?)C$/.exec(field))
      .filter((m) => m !== null)
      .map((m) => [m[1] ?? '', Number(m[2])]),
  ),
);
/** vcgencmd measure_temp's `temp=80.8'C` of each replayed line. */
const VC_TEMPS_C = captureLines('vcgencmd-measure_temp.txt').map((l) =>
  Number(/^temp=(\d+(?:\.\d+)?)'C$/.exec(l)?.[1]),
);
const TEGRA_ZONES = Object.keys(TEGRA_TEMPS_C[0] ?? {});
/** The i-th replayed value of a cycling capture. */
const cycled = <T>(values: readonly T[], i: number): T => values[i % values.length] as T;
/** Generous: the machine has 2 cores shared with other suites; these are not speed checks. */
const WAIT_MS = 40_000;
const TEST_MS = 120_000;

let board: SshBoardApp;
let app: BrowserApp;
const sshTmp = mkdtempSync(join(tmpdir(), 'kvscope-shim-board-ssh-'));

beforeAll(async () => {
  board = await openAppWithSshBoard(
    'kvscope-shim-board-',
    `PATH=${SHIMS}:/usr/local/bin:/usr/bin:/bin KVSCOPE_SYSFS_ROOT=${RK3588} TMPDIR=${sshTmp}`,
  );
  ({ app } = board);
  await app.page.setViewportSize({ width: 1440, height: 1800 });
}, TEST_MS);

afterAll(async () => {
  await board?.close();
  rmSync(sshTmp, { recursive: true, force: true });
});

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const legend = (page: Page, name: string) => region(page, name).getByTestId('legend-entry').allTextContents();
const pointsOf = (page: Page, key: string) =>
  page.evaluate(
    (k) => Number(document.querySelector(`[data-testid="series-${k}"]`)?.getAttribute('data-points') ?? 0),
    key,
  );

describe('a demo run on the shim board over SSH, in the app', () => {
  it(
    'fills every panel with the replayed tegrastats, NPU and vcgencmd values',
    async () => {
      const { page } = app;
      await board.addBoardAndProbe('Shim board');
      await page.getByTestId('device-card').waitFor({ timeout: WAIT_MS });

      await page.getByTestId('engine-kind-demo').click();
      await page.getByTestId('field-tokens').fill('6000');
      await page.getByTestId('field-tps').fill('300');
      await page.getByTestId('field-weightsMb').fill('4');
      await page.getByTestId('field-intervalMs').fill('200');
      await page.getByTestId('start-run').click();
      await waitForPhase(page, ['running'], WAIT_MS);

      // Three tegrastats lines and an NPU reading have arrived, and the first tokens/s point (the demo
      // engine's token timing, which under load can come after them).
      await page.waitForFunction(
        () =>
          Number(document.querySelector('[data-testid="series-tegra.gpu.loadPct"]')?.getAttribute('data-points')) >=
            3 &&
          Number(document.querySelector('[data-testid="series-npu.core0.loadPct"]')?.getAttribute('data-points')) >=
            1 &&
          document.querySelector(
            '[data-testid="panel-throughput"] :is([data-testid^="empty-"], [data-testid="chart-empty"])',
          ) === null,
        null,
        { timeout: WAIT_MS },
      );
      await saveScreenshot(page, 'shim-board-running.png');
      // A marker with the M key (focus on the page, not a field), in the Events strip.
      await page.locator('body').click({ position: { x: 1400, y: 20 } });
      await page.keyboard.press('m');
      await markerIn(page);
      await page.getByTestId('stop-run').click();
      await waitForPhase(page, ['done', 'stopped', 'failed'], WAIT_MS);
      await page.waitForTimeout(500); // one more 4 Hz paint after the last samples

      for (const name of ['Memory', 'Throughput', 'Thermal and clocks', 'Power and counters', 'Events'])
        expect(
          await region(page, name).locator('[data-testid^="empty-"], [data-testid=chart-empty]').count(),
          name,
        ).toBe(0);
      expect(await pointsOf(page, 'rssBytes')).toBeGreaterThan(0);
      for (const key of ['tegra.gpu.loadPct', 'tegra.rail.VDD_IN.curmW', 'npu.core0.loadPct', 'devfreq.dmc.curFreqMHz'])
        expect(await pointsOf(page, key), key).toBeGreaterThan(0);
      expect(await legend(page, 'Thermal and clocks')).toEqual(expect.arrayContaining(['GPU load', 'NPU core0 load']));
      expect(await legend(page, 'Power and counters')).toEqual(expect.arrayContaining(['VDD_IN', 'VDD_IN avg']));

      // The latest readouts are the last replayed line: the capture's 3 lines cycle (GR3D_FREQ 99 %
      // in each; VDD_IN 14703, 14703, 14664 mW), and the run drew one point per line.
      const lines = await pointsOf(page, 'tegra.rail.VDD_IN.curmW');
      const vddInMw = [14703, 14703, 14664][(lines - 1) % 3];
      const thermal =
        (await region(page, 'Thermal and clocks').getByTestId('cursor-readout-thermal').textContent()) ?? '';
      const power = (await region(page, 'Power and counters').getByTestId('cursor-readout-power').textContent()) ?? '';
      expect(thermal).toContain('GPU load 99.0 %');
      expect(power).toContain(`VDD_IN ${vddInMw} mW`);
      // The energy per token, from the input rail's mean over the decode (14,664–14,703 mW).
      expect(await region(page, 'Power and counters').getByTestId('power-summary').textContent()).toMatch(
        /^[\d.,]+ J\/token \(VDD_IN, 14,(?:66[4-9]|6[7-9]\d|70[0-3]) mW mean\) over the decode$/,
      );
      await expectTemperatures(page);
      await expectHoverReadsOneInstant(page);
      await saveScreenshot(page, 'shim-board-done.png');
      expect(app.problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'reopens the stored run with every panel and its marker, and compares it with a second run on the board',
    async () => {
      const { page } = app;
      await page.getByTestId('view-sessions').click();
      const rows = page.locator('[data-testid^=session-][data-state]');
      await rows.first().waitFor({ timeout: WAIT_MS });
      await rows
        .first()
        .getByRole('button', { name: /^Open session / })
        .click();
      await page.getByTestId('viewing-session').waitFor({ timeout: WAIT_MS });
      await page.waitForFunction(
        () =>
          Number(document.querySelector('[data-testid="series-tegra.gpu.loadPct"]')?.getAttribute('data-points')) >= 3,
        null,
        { timeout: WAIT_MS },
      );
      for (const key of ['rssBytes', 'tegra.rail.VDD_IN.curmW', 'npu.core0.loadPct', 'tegra.temp.GPU.C'])
        expect(await pointsOf(page, key), key).toBeGreaterThan(0);
      await markerIn(page);
      await expectHoverReadsOneInstant(page);
      await saveScreenshot(page, 'shim-board-reopened.png');

      // A second, shorter run on the same board; then the two side by side.
      await page.getByTestId('view-run').click();
      await page.getByTestId('field-tokens').fill('1500');
      await page.getByTestId('start-run').click();
      await page.getByTestId('viewing-session').waitFor({ state: 'detached', timeout: WAIT_MS });
      await page.getByTestId('view-sessions').click();
      // Both runs kept, neither still recording (the list refreshes on request).
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const states = await rows.evaluateAll((r) => r.map((e) => e.getAttribute('data-state')));
        if (states.length === 2 && !states.includes('recording')) {
          expect(states.sort()).toEqual(['done', 'stopped']);
          break;
        }
        if (Date.now() > deadline) throw new Error(`sessions ${JSON.stringify(states)}`);
        await page.getByRole('button', { name: 'Refresh', exact: true }).last().click();
        await page.waitForTimeout(400);
      }
      const picks = page.locator('[data-testid^=compare-pick-]');
      await picks.nth(0).check();
      await picks.nth(1).check();
      await page.getByTestId('compare-picked').click();
      const chart = page.getByTestId('compare-chart');
      await chart.waitFor({ timeout: WAIT_MS });
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid=compare-chart] .recharts-legend-item').length === 2,
        null,
        { timeout: WAIT_MS },
      );
      expect(await chart.locator('path.recharts-line-curve').count()).toBe(2);
      const points = (await chart.getAttribute('data-points'))?.split(',').map(Number) ?? [];
      expect(points).toHaveLength(2);
      expect(points.every((n) => n >= 2)).toBe(true);
      await saveScreenshot(page, 'shim-board-compare.png');
      expect(app.problems).toEqual([]);
    },
    TEST_MS,
  );
});

/** Until the Events strip shows a user marker. */
async function markerIn(page: Page): Promise<void> {
  await region(page, 'Events')
    .locator('[data-testid=event-item][data-kind=marker]')
    .first()
    .waitFor({ timeout: WAIT_MS });
}

/**
 * Hovering the middle of the Memory track: the Thermal and the Power panels read the same instant
 * (one cursor), and each readout says that instant.
 */
async function expectHoverReadsOneInstant(page: Page): Promise<void> {
  const track = region(page, 'Memory').getByTestId('track-process-memory');
  await track.scrollIntoViewIfNeeded();
  const box = await track.boundingBox();
  if (!box) throw new Error('the Memory track is not on screen');
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  const memory = region(page, 'Memory').getByTestId('cursor-readout-memory');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=cursor-readout-memory]')?.getAttribute('data-tms') !== null,
    null,
    { timeout: WAIT_MS },
  );
  const tMs = await memory.getAttribute('data-tms');
  expect(tMs).not.toBeNull();
  const at = `at ${(Number(tMs) / 1000).toFixed(1)} s`;
  for (const [name, id] of [
    ['Thermal and clocks', 'cursor-readout-thermal'],
    ['Power and counters', 'cursor-readout-power'],
  ] as const) {
    const readout = region(page, name).getByTestId(id);
    expect(await readout.getAttribute('data-tms'), name).toBe(tMs);
    expect((await readout.textContent()) ?? '', name).toMatch(new RegExp(`^${at.replace('.', '\\.')}`));
  }
  expect((await memory.textContent()) ?? '').toMatch(/RSS \d+(\.\d+)? MiB/);
  await page.mouse.move(0, 0);
}

/** The app's session of the run, once the recorder has closed it. */
async function finishedSession(): Promise<string> {
  const dir = join(app.home, 'sessions');
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const file = readdirSync(dir).find((f) => f.endsWith('.kvscope'));
    if (file) {
      const path = join(dir, file);
      try {
        if (readSession(path).runs[0]?.outcome) return path;
      } catch {
        // still being written
      }
    }
    if (Date.now() > deadline) throw new Error(`no finished session in ${dir}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/**
 * The replayed temperatures, read from the captures' text above: every tegrastats zone and the
 * vcgencmd SoC temperature, sample by sample in the session and the CSV, and the latest in the
 * Thermal panel.
 */
async function expectTemperatures(page: Page): Promise<void> {
  expect(TEGRA_ZONES).toEqual(['AO', 'GPU', 'PMIC', 'AUX', 'CPU', 'thermal']);
  expect(VC_TEMPS_C).toEqual([80.8, 62.3, 39.2, 38.6]);
  const session = await finishedSession();
  const run = readSession(session).runs[0];
  const of = (id: string): Sample[] => run?.samples.filter((x) => x.source === id) ?? [];
  const tegra = of('tegrastats');
  const vc = of('vcgencmd');
  expect(tegra.length).toBeGreaterThanOrEqual(3);
  expect(vc.length).toBeGreaterThanOrEqual(1);
  tegra.forEach((x, i) => {
    for (const zone of TEGRA_ZONES)
      expect(x.values[`tegra.temp.${zone}.C`], `${zone} #${i}`).toBe(cycled(TEGRA_TEMPS_C, i)[zone]);
  });
  expect(vc.map((x) => x.values['rpi.soc.C'])).toEqual(vc.map((_, i) => cycled(VC_TEMPS_C, i)));

  // The CSV export of that session: a column per temperature, the same numbers in the same order.
  const csvPath = join(app.home, 'shim-board.csv');
  const csv = await runCli(['report', session, '--format', 'csv', '-o', csvPath]);
  expect(csv.code, csv.stderr).toBe(0);
  const column = csvColumns(csvPath);
  for (const zone of TEGRA_ZONES)
    expect(column(`tegra.temp.${zone}.C`), zone).toEqual(tegra.map((_, i) => String(cycled(TEGRA_TEMPS_C, i)[zone])));
  expect(column('rpi.soc.C')).toEqual(vc.map((_, i) => String(cycled(VC_TEMPS_C, i))));

  // The Thermal panel: a legend entry per zone (`tegra.temp.GPU.C` is drawn as `GPU temp`,
  // `rpi.soc.C` as `SoC temp`) and the latest value of each in its readout (°C, one decimal).
  const thermalLegend = await legend(page, 'Thermal and clocks');
  const thermal = (await region(page, 'Thermal and clocks').getByTestId('cursor-readout-thermal').textContent()) ?? '';
  const lastTegra = cycled(TEGRA_TEMPS_C, (await pointsOf(page, 'tegra.temp.GPU.C')) - 1);
  const lastVc = cycled(VC_TEMPS_C, (await pointsOf(page, 'rpi.soc.C')) - 1);
  for (const zone of TEGRA_ZONES) {
    expect(thermalLegend).toContain(`${zone} temp`);
    // PMIC@100C is the PMIC's die alarm, not a temperature (shared/analysis/alarm-sensors.ts): its
    // readout says so, with the number read.
    const reading = `${(lastTegra[zone] ?? NaN).toFixed(1)} °C`;
    expect(thermal).toContain(`${zone} temp ${zone === 'PMIC' ? `no alarm, reads ${reading}` : reading}`);
  }
  expect(thermalLegend).toContain('SoC temp');
  expect(thermal).toContain(`SoC temp ${lastVc.toFixed(1)} °C`);
}
