// Reports as a customer opens them: the HTML report of a hostile engine in real Chromium (nothing
// runs, nothing loads), and the PDF printed by the system Chromium, its first page rendered with
// pdftoppm (poppler-utils). Screenshots land in test-artifacts/ for a human look.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSession } from '../../../electron/node/session/session-store';
import { launchChromium } from '../../helpers/chromium';
import { FAST_DEMO_ARGS, runCli, profileArgs } from '../../helpers/cli';
import { defined } from '../../helpers/defined';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-pdf-'));
const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => join(dir, name);

// A real engine command that is hostile in its command line and in what it prints, then fails.
const HOSTILE_ENGINE = `echo '<script>alert(1)</script>' >&2; echo '"><img src=x onerror=alert(2)>' >&2; sleep 1.5; exit 3`;

describe('HTML report in real Chromium', () => {
  beforeAll(async () => {
    const r = await runCli(
      profileArgs('local', HOSTILE_ENGINE, '--interval-ms', '50', '--out', at('hostile.kvscope'), '--json'),
    );
    // The engine failed (exit 3) after running long enough to be sampled: exit 1, the run summarised.
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).engine.exitCode).toBe(3);
    const made = await runCli(['report', at('hostile.kvscope'), '--format', 'html', '-o', at('hostile.html')]);
    expect(made.code).toBe(0);
  });

  it('shows the hostile command and output as text: no script runs, no element is injected, nothing loads', async () => {
    const session = readSession(at('hostile.kvscope'));
    expect(defined(session.runs[0], 'run 0').state).toBe('failed');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
      const dialogs: string[] = [];
      const requests: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      page.on('request', (req) => requests.push(req.url()));
      const url = pathToFileURL(at('hostile.html')).href;
      await page.goto(url);
      const facts = await page.evaluate(() => ({
        scripts: document.querySelectorAll('script').length,
        images: document.querySelectorAll('img').length,
        charts: document.querySelectorAll('svg.chart').length,
        command: document.querySelector('code.cmd')?.textContent ?? '',
        text: document.body.innerText,
      }));
      expect(dialogs).toEqual([]);
      expect(requests).toEqual([url]);
      expect(facts.scripts).toBe(0);
      expect(facts.images).toBe(0);
      expect(facts.command).toBe(HOSTILE_ENGINE);
      expect(facts.text).toContain('<script>alert(1)</script>');
      expect(facts.text).toContain('"><img src=x onerror=alert(2)>');
      expect(facts.text).toContain('The run failed');
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'report-hostile.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });
});

describe('PDF through the system Chromium', () => {
  beforeAll(async () => {
    // A demo run whose profile writes its PDF report as it ends.
    const demo = ['--demo', '--tokens', '1500', ...FAST_DEMO_ARGS, '--budget', '200MiB'];
    const r = await runCli([
      'profile',
      'local',
      ...demo,
      '--out',
      at('demo.kvscope'),
      '--report',
      at('profile-report.pdf'),
    ]);
    if (r.code !== 0) throw new Error(r.stderr);
  });

  it('profile --report r.pdf and report --format pdf write real PDFs; the first page renders', async () => {
    expect(readFileSync(at('profile-report.pdf')).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const r = await runCli(['report', at('demo.kvscope'), '--format', 'pdf', '-o', at('report.pdf')]);
    expect(r.code).toBe(0);
    const pdf = readFileSync(at('report.pdf'));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // More than one page object: findings, charts and tables do not fit on one A4 page.
    expect((pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length).toBeGreaterThan(1);
    // pdftoppm (poppler-utils) renders page 1 to PNG.
    execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', '-singlefile', at('report.pdf'), at('page1')]);
    const png = readFileSync(at('page1.png'));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    mkdirSync(ARTIFACTS, { recursive: true });
    copyFileSync(at('page1.png'), join(ARTIFACTS, 'report-pdf-page1.png'));
    copyFileSync(at('report.pdf'), join(ARTIFACTS, 'report.pdf'));
  });

  it('without Chromium: one line naming it, no file, and profile --report x.pdf fails before running', async () => {
    const r = await runCli(['report', at('demo.kvscope'), '--format', 'pdf', '-o', at('none.pdf')], {
      env: { KVSCOPE_CHROMIUM: '/nonexistent/chromium' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'kvscope report: PDF needs Chromium: KVSCOPE_CHROMIUM=/nonexistent/chromium is not an executable file\n',
    );
    expect(existsSync(at('none.pdf'))).toBe(false);
    const p = await runCli(['profile', 'local', '--demo', '--out', at('never.kvscope'), '--report', at('never.pdf')], {
      env: { KVSCOPE_CHROMIUM: '/nonexistent/chromium' },
    });
    expect(p.code).toBe(1);
    expect(p.stderr).toBe(
      'kvscope profile: PDF needs Chromium: KVSCOPE_CHROMIUM=/nonexistent/chromium is not an executable file\n',
    );
    expect(existsSync(at('never.kvscope'))).toBe(false);
  });
});
