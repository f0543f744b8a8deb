// The app's services as browser mode runs them (createAppServices, shell 'web'), with an app data
// folder of the test's own: runs recorded as sessions land there, never in the user's ~/.config.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppServices } from '../../electron/node/api/create-app-services';
import type { TargetFactory } from '../../electron/node/run/run-service';

/**
 * The services and their app data folder `home` (the caller removes it); `targetFactory` replaces
 * how runs reach their target (default: the app's connector).
 */
export function appServicesInTempHome(
  prefix: string,
  targetFactory?: TargetFactory,
): {
  services: ReturnType<typeof createAppServices>;
  home: string;
} {
  const home = mkdtempSync(join(tmpdir(), prefix));
  const services = createAppServices({
    shell: 'web',
    sessionsDir: join(home, 'sessions'),
    env: { ...process.env, KVSCOPE_HOME: home },
    targetFactory,
  });
  return { services, home };
}
