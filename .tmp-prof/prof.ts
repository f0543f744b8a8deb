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
for (let r = 0; r < 3; r++) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1400 } });
  await page.goto(web.url);
  await page.getByTestId('view-sessions').click();
  const open = page.locator('[data-testid^="open-"]').first();
  await open.waitFor();
  await page.waitForTimeout(500);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await open.click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="series-rail.VDD_IN.mW"]')?.getAttribute('data-points')) > 0, null, { timeout: 10000 }).catch(() => {});
  await page.waitForTimeout(300);
  const { profile } = await cdp.send('Profiler.stop');
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = profile.timeDeltas ?? [];
  const samples = profile.samples ?? [];
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const INCL = ['onMessage', 'flush', 'receiveRecordedRun', 'showRecordedRun', 'feedPackedSamples', 'flushDashboard', 'flushChart', 'evaluate', 'buildChartSeries', 'parse', 'viewSession', 'performWorkUntilDeadline', 'paint', 'seriesPoints', 'MemoryChart', 'Dashboard'];
  for (let i = 0; i < samples.length; i++) {
    const seen = new Set<string>();
    let idw: number | undefined = samples[i]!;
    while (idw !== undefined) { const nm = byId.get(idw)!.callFrame.functionName; if ((INCL.includes(nm) || /^[A-Z][a-zA-Z]+$/.test(nm)) && !seen.has(nm)) { seen.add(nm); agg.set('INCL ' + nm, (agg.get('INCL ' + nm) ?? 0) + (dt[i] ?? 0) / 1000); } idw = parent.get(idw); }
    {
      // the component rendered: the frame just above Nh (renderWithHooks)
      let idc: number | undefined = samples[i]!; let child: number | undefined;
      while (idc !== undefined) { const f = byId.get(idc)!.callFrame; if ((f.functionName === 'Nh' || f.functionName === 'renderWithHooks') && child !== undefined) { const cf = byId.get(child)!.callFrame; const k = 'COMP ' + (cf.functionName || 'anon') + ':' + cf.lineNumber; agg.set(k, (agg.get(k) ?? 0) + (dt[i] ?? 0) / 1000); break; } child = idc; idc = parent.get(idc); }
    }
    const n0 = byId.get(samples[i]!)!;
    if (['getBoundingClientRect', 'draw', '(garbage collector)'].includes(n0.callFrame.functionName)) {
      let chain = n0.callFrame.functionName; let id = parent.get(n0.id); let k = 0;
      while (id !== undefined && k < 6) { const f = byId.get(id)!.callFrame; chain += ' < ' + (f.functionName || 'anon') + ':' + f.lineNumber; id = parent.get(id); k++; }
      agg.set('STACK ' + chain, (agg.get('STACK ' + chain) ?? 0) + (dt[i] ?? 0) / 1000);
    }
    const n = n0;
    const f = n.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
    agg.set(key, (agg.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  }
  await page.close();
}
const rows = [...agg].sort((a, b) => b[1] - a[1]).slice(0, 45);
for (const [k, v] of rows) console.log((v / 3).toFixed(1).padStart(7), k);
await browser.close();
await web.stop();
process.exit(0);
