// Stop pressed while a run on an SSH board is still "Starting…", in real Chromium against the real
// `kvscope web` and a REAL OpenSSH sshd on loopback: the window's Stop reaches the start at once
// (cancelStart, shared/api/contract.ts) instead of after startRun answers. A board that accepts the
// connection and never speaks SSH is given up (it used to wait for the 20 s connect timeout and
// end "failed"), and so is a sweep waiting on it for its first run (no size is run); on a board
// that answers, the run ends stopped and no process of it is left on the target. Needs `npm run build`.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowserApp, waitForPhase, type BrowserApp } from '../helpers/browser-app';
import { processesMatching } from '../helpers/cli';
import { fillRunForm, startDemoRun } from '../helpers/run-form-page';
import { keyUserLogin, startSshd, waitFor, type Sshd } from '../helpers/sshd';

/** Generous: the machine has 2 cores shared with other suites; these are not speed checks. */
const WAIT_MS = 45_000;
const TEST_MS = 90_000;
/** Long enough that only Stop ends it: 100,000 tokens at 50 tokens/s. */
const LONG_DEMO = { tokens: '100000', tps: '50', weightsMb: '4', intervalMs: '100' };

let sshd: Sshd;
/** The target's TMPDIR: every run directory (and so every launcher and engine) of this file is under it. */
const targetTmp = mkdtempSync(join(tmpdir(), 'kvscope-stop-starting-target-'));
/** A "board" that accepts connections and never sends its SSH banner. */
let mute: Server;
const muteSockets: Socket[] = [];
let app: BrowserApp;
let page: Page;

beforeAll(async () => {
  chmodSync(targetTmp, 0o777); // the plain login user writes its run directories there
  sshd = await startSshd({ extraConfig: [`SetEnv TMPDIR=${targetTmp}`] });
  const { user, knownHosts } = await keyUserLogin(sshd);
  mute = createServer((socket) => muteSockets.push(socket));
  await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
  const mutePort = (mute.address() as { port: number }).port;
  const board = (id: string, label: string, spec: object) => ({
    id,
    label,
    spec: { kind: 'ssh', host: '127.0.0.1', user, ...spec },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  app = await openBrowserApp({
    homePrefix: 'kvscope-e2e-stop-starting-',
    prepareHome: (home) =>
      writeFileSync(
        join(home, 'boards.json'),
        JSON.stringify({
          version: 2,
          boards: [
            board('mute', 'Mute board', { port: mutePort }),
            board('lab', 'Lab board', {
              port: sshd.port,
              identityFile: sshd.clientKey.privatePath,
              knownHostsFile: knownHosts,
            }),
          ],
        }),
      ),
    readyTestId: 'board-lab',
  });
  ({ page } = app);
}, 60_000);

afterAll(async () => {
  // The app dropped its connection to the mute board at the Stop; whatever is left goes first.
  for (const socket of muteSockets) socket.destroy();
  mute?.close();
  await app?.close();
  await sshd?.stop();
  rmSync(targetTmp, { recursive: true, force: true });
});

const phase = () => page.getByTestId('run-phase');

describe('Stop while a run is starting', () => {
  it(
    'gives up a board that never answers: stopped, not failed at the connect timeout',
    { timeout: TEST_MS },
    async () => {
      await page.getByTestId('board-mute').click();
      await startDemoRun(page, LONG_DEMO);
      // The connection is open and the start waits for the board's banner.
      while (muteSockets.length === 0) await new Promise((r) => setTimeout(r, 20));
      expect(await phase().getAttribute('data-phase')).toBe('starting');
      await page.getByTestId('stop-run').click();
      await waitForPhase(page, ['done', 'failed'], WAIT_MS);
      expect(await phase().getAttribute('data-outcome')).toBe('stopped');
      expect(await page.getByTestId('run-error').count()).toBe(0);
      expect(app.problems).toEqual([]);
    },
  );

  it(
    'gives up a sweep whose first run waits on a board that never answers: stopped, no size run',
    { timeout: TEST_MS },
    async () => {
      await page.getByTestId('board-mute').click();
      await page.getByTestId('engine-kind-demo').click();
      await fillRunForm(page, { ...LONG_DEMO, mode: 'reserved' });
      await page.getByTestId('field-sweep').fill('512, 1024');
      const before = muteSockets.length;
      await page.getByTestId('start-run').click();
      while (muteSockets.length === before) await new Promise((r) => setTimeout(r, 20));
      expect(await phase().getAttribute('data-phase')).toBe('starting');
      const stoppedAt = Date.now();
      await page.getByTestId('stop-run').click();
      await waitForPhase(page, ['done', 'failed'], WAIT_MS);
      // At the Stop, not at the board's 20 s connect timeout (generous: a loaded 2-core machine).
      expect(Date.now() - stoppedAt).toBeLessThan(10_000);
      expect(await phase().getAttribute('data-outcome')).toBe('stopped');
      expect(await page.getByTestId('run-error').count()).toBe(0);
      // The next size never tried the board.
      expect(muteSockets.length).toBe(before + 1);
      await page.getByTestId('field-sweep').fill('');
      expect(app.problems).toEqual([]);
    },
  );

  it('ends a run on a board that answers, leaving no process of it there', { timeout: TEST_MS }, async () => {
    await page.getByTestId('board-lab').click();
    await startDemoRun(page, LONG_DEMO);
    expect(await phase().getAttribute('data-phase')).toBe('starting');
    await page.getByTestId('stop-run').click();
    await waitForPhase(page, ['done', 'failed'], WAIT_MS);
    expect(await phase().getAttribute('data-outcome')).toBe('stopped');
    // Whether the Stop came while connecting, uploading or after the launcher started the engine:
    // nothing of the run goes on on the target (its launcher and engine run from $TMPDIR/kvscope-<run>).
    // (A launcher that wrote its end may take a moment to exit; an engine left running would stay.)
    await waitFor(
      async () => (await processesMatching(targetTmp)).length === 0,
      'no process of the run on the target',
      WAIT_MS,
    );
    expect(app.problems).toEqual([]);
  });
});
