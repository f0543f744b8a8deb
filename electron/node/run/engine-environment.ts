// The environment an engine inherits holds secrets its command line does not show: a Hugging Face
// token or an API key exported in the login's profile (~/.bashrc, ~/.profile, /etc/environment,
// sshd's SetEnv), which llama.cpp, a server or a wrapper reads — and prints in an auth error, an
// `env` dump or `set -x`. The values of its secret-named variables (session/scrub.ts
// environmentSecrets) are registered for masking (util/redact.ts) before the engine starts, on
// this computer from our own environment and on a board from the environment its login shell
// gives a command, which is the launcher's and so the engine's (run-launch.ts starts it the same
// way). The values are kept in memory for masking only: never logged, stored or printed.
import { environmentSecrets } from '../session/scrub';
import type { Target } from '../transport/target';
import { registerSecret } from '../util/redact';

/** `env` on a board answers at once; a link too slow for this has the launch fail anyway. */
const ENV_READ_TIMEOUT_MS = 15_000;

/** `NAME=value` lines of `env` → a record (a value's continuation lines, when it has newlines, are left out). */
export function parseEnvListing(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0 && /^[a-z_]\w*$/i.test(line.slice(0, eq))) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

/** The environment an engine started on `target` inherits; empty when the board does not tell. */
async function engineEnvironment(target: Target): Promise<Readonly<Record<string, string | undefined>>> {
  if (target.kind === 'local') return process.env;
  try {
    const listed = await target.exec('env', { timeoutMs: ENV_READ_TIMEOUT_MS });
    return listed.code === 0 ? parseEnvListing(listed.stdout.toString('utf8')) : {};
  } catch {
    return {};
  }
}

/** Registers for masking the secrets of the environment an engine on `target` inherits. */
export async function registerEngineEnvironmentSecrets(target: Target): Promise<void> {
  for (const secret of environmentSecrets(await engineEnvironment(target))) registerSecret(secret);
}
