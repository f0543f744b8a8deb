import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPackedSession } from '/work/main/electron/node/session/session-store';
import { verifySessionFile } from '/work/main/electron/node/session/session-file-guard';
import { benchUiWriter } from './writer';
const { path } = benchUiWriter(mkdtempSync(join(tmpdir(), 'ov-')));
for (let r = 0; r < 4; r++) {
  const t0 = performance.now();
  verifySessionFile(path);
  const t1 = performance.now();
  const d = readPackedSession(path);
  const t2 = performance.now();
  const s = JSON.stringify(d);
  const t3 = performance.now();
  console.log({ guard: t1 - t0, readPacked: t2 - t1, stringify: t3 - t2 });
}
