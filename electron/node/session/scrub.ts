// Secret scrubbing for what goes into a session file. Run requests never carry passwords (the
// CLI takes `--password-env <NAME>`, the name of a variable, never its value), but a request is
// open-ended JSON that future fields or engines may extend: any field whose name says it holds a
// secret is replaced before it is stored, whatever its value. On top of that every string that
// goes into the file passes through redact() (electron/node/util/redact.ts), which masks the
// secrets registered at run time (SSH passwords, key passphrases) wherever they appear.

export const SCRUBBED = '[scrubbed]';

/** Last words of a field name that mean "this holds a secret". */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'credential',
  'credentials',
  'cookie',
]);
/** Two-word endings that do (`privateKey`, `api_key`, `access_key`). */
const SECRET_PAIRS = new Set(['private key', 'api key', 'access key', 'secret key', 'auth key', 'session key']);

/** camelCase, snake_case, kebab-case and dotted names → lower-case words. */
function words(name: string): string[] {
  return (
    name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      // An acronym before a word (APIKey → API Key): the acronym's last capital starts the word.
      .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ')
      .split(/[^a-z0-9]+/i)
      .filter(Boolean)
      .map((w) => w.toLowerCase())
  );
}

/**
 * True for field names that hold a secret: `password`, `sshPassword`, `key_passphrase`,
 * `clientSecret`, `authToken`, `api-key`, `privateKey`. Not for counts and rates that merely
 * mention tokens (`tokens`, `promptTokens`, `bytesPerToken`, `tokenRegex`) nor for the *name*
 * of a variable holding one (`passwordEnv`).
 */
export function isSecretFieldName(name: string): boolean {
  const w = words(name);
  if (w.length === 0) return false;
  const last = w.at(-1) ?? '';
  const before = w.at(-2) ?? '';
  if (before === 'per') return false; // bytesPerToken: a rate
  if (SECRET_WORDS.has(last)) return true;
  return SECRET_PAIRS.has(`${before} ${last}`);
}

/** A deep copy of `value` with every secret-named field replaced by SCRUBBED. */
export function scrubSecrets<T>(value: T): T {
  return scrub(value, 0) as T;
}

function scrub(value: unknown, depth: number): unknown {
  // Requests are shallow; a deeper structure is not ours to store.
  if (depth > 32) return SCRUBBED;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecretFieldName(k) && v !== null && v !== undefined ? SCRUBBED : scrub(v, depth + 1);
  }
  return out;
}
