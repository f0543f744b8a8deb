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
for (let r = 0; r < 1; r++) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1400 } });
  await page.addInitScript({ content: `
    window.__commits = [];
    window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = { supportsFiber: true, renderers: new Map(), inject() { return 1; }, onScheduleFiberRoot() {}, onCommitFiberRoot(id, root) {
      const names = {};
      const walk = (f) => { while (f) { if ((f.flags & 1) && typeof f.type === 'function') { const n = f.type.displayName || f.type.name || 'anon'; names[n] = (names[n] || 0) + 1; } if (f.child) walk(f.child); f = f.sibling; } };
      walk(root.current.child);
      window.__commits.push([performance.now(), Object.entries(names).map(([k, v]) => k + (v > 1 ? 'x' + v : '')).join(' ')]); }, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, checkDCE() {} };
  `});
  await page.goto(web.url);
  await page.getByTestId('view-sessions').click();
  const open = page.locator('[data-testid^="open-"]').first();
  await open.waitFor();
  await page.waitForTimeout(500);
  const t0 = await page.evaluate(() => { (window as any).__commits = []; return performance.now(); });
  await open.click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="series-rail.VDD_IN.mW"]')?.getAttribute('data-points')) > 0, null, { timeout: 10000 });
  await page.waitForTimeout(300);
  const commits = await page.evaluate(() => (window as any).__commits as number[]);
  for (const c of commits as any) console.log(((c[0] as number) - t0).toFixed(0), (c[1] as string).slice(0, 600));
  console.log('---');
  await page.close();
}
await browser.close(); await web.stop(); process.exit(0);
