// Ctrl-C while `kvscope report` / `kvscope compare` print a PDF: the CLI catches SIGINT (to stop
// runs cleanly, cli-io.ts), and these commands never looked, so the first Ctrl-C did nothing while
// Chromium printed a large session (up to PDF_TIMEOUT_MS, 2 minutes). Now Chromium is killed, one
// line says "interrupted", exit 1, and no file is written.
//
// The Chromium here is a stand-in that never finishes (KVSCOPE_CHROMIUM, the override pdf.ts
// reads): a real one prints this small session in a second or two, before any Ctrl-C could land.
// It writes its pid first, so the test sends SIGINT while "printing" and checks it was killed.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { startCli } from '../../helpers/cli';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-interrupt-report-'));
const pidFile = join(dir, 'chromium.pid');
const slowChromium = join(dir, 'chromium');
writeFileSync(slowChromium, `#!/bin/sh\necho $$ > ${JSON.stringify(pidFile)}\nexec sleep 600\n`);
chmodSync(slowChromium, 0o755);
const SESSION = 'test/fixtures/sessions/v2/demo.kvscope';

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('SIGINT while a PDF prints', () => {
  it.each([
    ['report', [SESSION, '--format', 'pdf', '-o']],
    ['compare', [SESSION, SESSION, '-o']],
  ])(
    '%s: Chromium killed, one line "interrupted", exit 1, no file written',
    async (command, args) => {
      rmSync(pidFile, { force: true });
      const out = join(dir, `${command}.pdf`);
      const child = startCli([command, ...args, out], { KVSCOPE_CHROMIUM: slowChromium });
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout?.resume();
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const until = Date.now() + 20_000;
      while (!existsSync(pidFile) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      const chromiumPid = Number(readFileSync(pidFile, 'utf8'));
      // Not left sleeping when the CLI does not kill it (the defect).
      onTestFinished(() => {
        if (alive(chromiumPid)) process.kill(chromiumPid, 'SIGKILL');
      });
      child.kill('SIGINT');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timeout);
      expect(code).toBe(1);
      expect(stderr.trimEnd().split('\n').pop()).toBe(`kvscope ${command}: interrupted`);
      expect(existsSync(out)).toBe(false);
      expect(alive(chromiumPid)).toBe(false);
    },
    40_000,
  );
});
