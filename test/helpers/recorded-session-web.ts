// A recorded session served in browser mode and a real Chromium to open it with: the session is
// written by the real session store (one finished run of the given samples, on the given board),
// then `kvscope web --open <file>` shows it in the dashboard at start-up. close() ends both and
// removes the session's directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { RunRequestSchema, type Sample } from '../../shared/api/schemas';
import type { TargetFacts } from '../../shared/run/target-facts';
import { createSession } from '../../electron/node/session/session-store';
import { launchChromium } from './chromium';
import { startWebMode, type WebMode } from './web-mode';

export interface RecordedSessionWeb {
  web: WebMode;
  browser: Browser;
  close(): Promise<void>;
}

export async function serveRecordedSession(run: {
  file: string;
  id: string;
  label: string;
  samples: Sample[];
  target?: TargetFacts;
}): Promise<RecordedSessionWeb> {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-recorded-session-'));
  const path = join(dir, run.file);
  const store = createSession(path, { appVersion: 'test', ...(run.target ? { target: run.target } : {}) });
  const request = RunRequestSchema.parse({ target: { kind: 'local' }, engine: { kind: 'demo', demo: {} } });
  const stored = store.addRun({ id: run.id, label: run.label, request, state: 'done' });
  store.appendSamples(stored, run.samples);
  store.close();
  const web = await startWebMode(['--open', path]);
  const browser = await launchChromium();
  return {
    web,
    browser,
    async close() {
      await browser.close();
      await web.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
