import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../test/helpers/chromium';
import { startWebMode } from '../test/helpers/web-mode';
import { sessionsDir } from '../electron/node/session/session-library';
import { writeSessionForProfile } from './writer';
const dir = mkdtempSync(join(tmpdir(), 'prof-'));
const home = join(dir, 'home');
writeSessionForProfile(sessionsDir({ KVSCOPE_HOME: home }));
process.env.KVSCOPE_HOME = home;
const web = await startWebMode();
const browser = await launchChromium();
const agg = new Map<string, number>();
const R = 3;
for (let r = 0; r < R; r++) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1400 } });
  await page.goto(web.url);
  await page.getByTestId('view-sessions').click();
  const open = page.locator('[data-testid^="open-"]').first();
  await open.waitFor();
  await page.waitForTimeout(500);
  const cdp = await page.context().newCDPSession(page);
  const events: any[] = [];
  cdp.on('Tracing.dataCollected', (e: any) => events.push(...e.value));
  const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8,v8.execute,blink,disabled-by-default-v8.compile', transferMode: 'ReportEvents' } as any);
  await open.click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="series-rail.VDD_IN.mW"]')?.getAttribute('data-points')) > 0, null, { timeout: 10000 }).catch(() => {});
  await page.waitForTimeout(200);
  await cdp.send('Tracing.end');
  await done;
  // main thread of renderer: find thread named CrRendererMain
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const tid = main?.tid; const pid = main?.pid;
  for (const e of events) {
    if (e.tid !== tid || e.pid !== pid || e.ph !== 'X' || !e.dur) continue;
    const key = e.name;
    agg.set(key, (agg.get(key) ?? 0) + e.dur / 1000);
  }
  await page.close();
}
for (const [k, v] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((v / R).toFixed(1).padStart(8), k);
await browser.close(); await web.stop(); process.exit(0);
