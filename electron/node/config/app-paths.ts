// Where KVScope keeps its own files (known-hosts store, sessions, settings).
// Order: an explicit override (Electron passes app.getPath('userData') at start-up),
// then $KVSCOPE_HOME (tests point it at a temp dir), then $XDG_CONFIG_HOME/kvscope,
// then ~/.config/kvscope.
import { homedir } from 'node:os';
import { join } from 'node:path';

let overrideDir: string | undefined;

/** Electron main calls this with app.getPath('userData'); pass undefined to clear. */
export function setAppDataDir(dir: string | undefined): void {
  overrideDir = dir;
}

export function appDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (overrideDir) return overrideDir;
  if (env.KVSCOPE_HOME) return env.KVSCOPE_HOME;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'kvscope');
  return join(homedir(), '.config', 'kvscope');
}

/** The app's own known_hosts store: the only known-hosts file KVScope ever writes. */
export function appKnownHostsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(appDataDir(env), 'known_hosts');
}
