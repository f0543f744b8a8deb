import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../test/helpers/chromium';
import { readPackedSessionData } from '../electron/node/session/session-read';
import { benchUiWriter } from './writer2';
const { path } = benchUiWriter(mkdtempSync(join(tmpdir(), 'ov-')));
const db = new Database(path, { readonly: true });
const data = readPackedSessionData(db, path, 2);
const text = JSON.stringify({ id: 1, ok: true, output: { data } });
const s0: any = data.runs[0]!.samples; const cells: any[] = ('text' in s0 ? JSON.parse(s0.text) : s0).cells;
const f64 = new Float64Array(cells.length);
for (let i = 0; i < cells.length; i++) f64[i] = cells[i] ?? NaN;
const head = JSON.stringify({ id: 1, ok: true, output: { data: { ...data, runs: [{ ...data.runs[0], samples: { shapes: [], cells: { $binary: 0 } } }] } } });
console.log('text MB', text.length / 1e6, 'binary MB', f64.byteLength / 1e6, 'head', head.length);
const http = createServer((req, res) => { res.setHeader('content-type', 'text/html'); res.end('<html><body>x</body></html>'); });
const wss = new WebSocketServer({ server: http });
wss.on('connection', (ws) => ws.on('message', (m) => {
  const mode = String(m);
  if (mode === 'text') ws.send(text);
  else { ws.send(head); ws.send(Buffer.from(f64.buffer)); }
}));
await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
const port = (http.address() as any).port;
const browser = await launchChromium();
const page = await browser.newPage();
await page.goto(`http://127.0.0.1:${port}/`);
const bcdp = await browser.newBrowserCDPSession();
const cpu = async () => ((await bcdp.send('SystemInfo.getProcessInfo')) as any).processInfo.filter((p: any) => p.type === 'renderer').reduce((s: number, p: any) => s + p.cpuTime, 0);
for (let r = 0; r < 3; r++) for (const mode of ['text', 'binary']) {
  const c0 = await cpu();
  let wall = 0;
  for (let k = 0; k < 10; k++) {
  const ms = await page.evaluate(`new Promise((resolve) => {
    const ws = new WebSocket('ws://127.0.0.1:${port}/'); ws.binaryType = 'arraybuffer';
    let t0; let head = null;
    ws.onopen = () => { t0 = performance.now(); ws.send('${mode}'); };
    ws.onmessage = (e) => {
      if (typeof e.data === 'string') { const m = JSON.parse(e.data); if ('${mode}' === 'text') { const c = m.output.data.runs[0].samples.cells; let s = 0; for (let i = 0; i < c.length; i++) { const v = c[i]; if (typeof v === 'number' && Number.isFinite(v)) s += v; } window.keep = c; resolve([performance.now() - t0, s]); ws.close(); } else head = m; }
      else { const c = new Float64Array(e.data); let s = 0; for (let i = 0; i < c.length; i++) { const v = c[i]; if (v === v) s += v; } window.keep = c; resolve([performance.now() - t0, s]); ws.close(); }
    };
  })`);
  wall += (ms as any)[0];
  }
  console.log(mode, 'wall/iter', (wall / 10).toFixed(1), 'cpu/iter ms', (((await cpu()) - c0) * 100).toFixed(1));
}
await browser.close(); http.close(); process.exit(0);
