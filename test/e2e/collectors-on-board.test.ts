// The run form's Collectors section for a probed board, in real Chromium against the real `kvscope
// web` and a REAL OpenSSH sshd on loopback whose login has only the shim `vcgencmd` of a Raspberry
// Pi first on PATH (test/fixtures/shims/bin, replaying real captures) and no `tegrastats`: once the
// board is probed, tegrastats is marked "not on this board" (its switch stays, its name exact) and
// vcgencmd is not; a board never probed ("This computer" here) has no marks. Needs `npm run build`.
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/cli';
import { openAppWithSshBoard, type SshBoardApp } from '../helpers/ssh-board-app';

/** Generous: the machine has 2 cores shared with other suites; these are not speed checks. */
const WAIT_MS = 40_000;
const TEST_MS = 120_000;

let board: SshBoardApp;
/** The board's own tools: vcgencmd only, as on a Raspberry Pi. */
const piBin = mkdtempSync(join(tmpdir(), 'kvscope-pi-bin-'));

beforeAll(async () => {
  symlinkSync(join(projectRoot, 'test/fixtures/shims/bin/vcgencmd'), join(piBin, 'vcgencmd'));
  board = await openAppWithSshBoard('kvscope-e2e-collectors-board-', `PATH=${piBin}:/usr/local/bin:/usr/bin:/bin`);
}, TEST_MS);

afterAll(async () => {
  await board?.close();
  rmSync(piBin, { recursive: true, force: true });
});

describe('the Collectors section and the selected board', () => {
  it(
    'marks what the probe did not find on the board, keeps its switch, and marks nothing unprobed',
    async () => {
      const { app } = board;
      const { page } = app;
      const collectors = page.getByTestId('collectors');
      const note = (id: string) => page.getByTestId(`collector-${id}`).locator('.collector-missing-note');
      // This computer, not probed: nothing is known, nothing is marked.
      expect(await collectors.locator('summary').textContent()).toBe('Collectors all on, default intervals');

      await board.addBoardAndProbe('Pi board');
      await page.getByTestId('device-card').waitFor({ timeout: WAIT_MS });
      await page.getByTestId('engine-kind-demo').click();
      await collectors.locator('summary').click();

      expect(await note('tegrastats').textContent()).toMatch(/^not on this board: \S/);
      expect(await page.getByTestId('collector-tegrastats').getAttribute('data-available')).toBe('no');
      expect(await note('vcgencmd').count()).toBe(0);
      expect(await collectors.locator('summary').textContent()).toMatch(/tegrastats(, [a-z]+)* not on this board$/);
      // The switch is there, still on (the tool may have been installed since), its name the collector's alone.
      const tegrastats = page.getByRole('checkbox', { name: 'tegrastats', exact: true });
      expect(await tegrastats.isChecked()).toBe(true);
      expect(await tegrastats.getAttribute('aria-describedby')).toContain('missing');

      // Back on the unprobed This computer: no marks.
      await page.getByTestId('board-local').click();
      expect(await note('tegrastats').count()).toBe(0);
      expect(await page.locator('.collector-missing-note').count()).toBe(0);
      expect(app.problems).toEqual([]);
    },
    TEST_MS,
  );
});
