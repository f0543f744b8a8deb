// A recorded session opened in the app in browser mode (test/helpers/browser-app.ts): written by
// the real session store into the app's data folder (one finished run of the given samples, on
// the given board), then `kvscope web --open <file>` shows it in the dashboard at start-up.
import { join } from 'node:path';
import { RunRequestSchema, type Sample } from '../../shared/api/schemas';
import type { TargetFacts } from '../../shared/run/target-facts';
import { createSession } from '../../electron/node/session/session-store';
import { openBrowserApp, type BrowserApp } from './browser-app';

export interface RecordedRun {
  /** The session's file name in the app data folder. */
  file: string;
  id: string;
  label: string;
  samples: Sample[];
  /** The board's facts the session keeps (its trip points, clock maxima…). */
  target?: TargetFacts;
}

export function openRecordedSession(run: RecordedRun): Promise<BrowserApp> {
  return openBrowserApp({
    homePrefix: 'kvscope-recorded-session-',
    prepareHome: (home) => {
      const store = createSession(join(home, run.file), {
        appVersion: 'test',
        ...(run.target ? { target: run.target } : {}),
      });
      const request = RunRequestSchema.parse({ target: { kind: 'local' }, engine: { kind: 'demo', demo: {} } });
      store.appendSamples(store.addRun({ id: run.id, label: run.label, request, state: 'done' }), run.samples);
      store.close();
    },
    webArgs: (home) => ['--open', join(home, run.file)],
    readyTestId: 'viewing-session',
  });
}
