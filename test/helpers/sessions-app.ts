// The app in browser mode (test/helpers/browser-app.ts) with small real sessions in its sessions
// folder (test/helpers/hostile-session.ts writeSmallSession), open on the Sessions view with every
// row listed: where the session-list e2e tests start.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowserApp, type BrowserApp } from './browser-app';
import { writeSmallSession } from './hostile-session';

/** `ids` become <home>/sessions/<id>.kvscope; resolves once the row of each is shown. */
export async function openAppWithSessions(homePrefix: string, ids: readonly string[]): Promise<BrowserApp> {
  const app = await openBrowserApp({
    homePrefix,
    prepareHome: (home) => {
      mkdirSync(join(home, 'sessions'));
      for (const id of ids) writeSmallSession(join(home, 'sessions', `${id}.kvscope`));
    },
    firstClick: 'view-sessions',
  });
  for (const id of ids) await app.page.getByTestId(`session-${id}`).waitFor();
  return app;
}
