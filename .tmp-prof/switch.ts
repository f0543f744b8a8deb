import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../test/helpers/chromium';
import { startWebMode } from '../test/helpers/web-mode';
process.env.KVSCOPE_HOME = mkdtempSync(join(tmpdir(), 'prof-'));
const web = await startWebMode();
const browser = await launchChromium();
const out: number[] = [];
for (let r = 0; r < 6; r++) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1400 } });
  await page.goto(web.url);
  await page.getByTestId('view-sessions').click();
  await page.waitForTimeout(500);
  const t = await page.evaluate(() => new Promise<number>((resolve) => {
    const b = document.querySelector('[data-testid=view-run]') as HTMLElement;
    const t0 = performance.now();
    b.click();
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
  }));
  out.push(t);
  await page.close();
}
console.log('switch to empty Run view (ms):', out.map((x) => x.toFixed(0)).join(','));
await browser.close(); await web.stop(); process.exit(0);
