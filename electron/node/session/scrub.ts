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

/**
 * Short options that take a secret though their name does not say so: llama.cpp's `-hft` is
 * `--hf-token` (a Hugging Face access token).
 */
const SECRET_SHORT_OPTIONS = new Set(['-hft']);

/** Authentication schemes between `Authorization:` and the credential (`Authorization: Bearer <token>`). */
const AUTH_SCHEMES = new Set(['bearer', 'basic', 'token', 'digest']);

/**
 * Shorter values are not registered: masking two letters everywhere would garble every message
 * holding them, and such a value protects nothing.
 */
const MIN_SECRET_CHARS = 3;

/** Words of a shell command line with their quotes removed (`A="x y"` → `A=x y`); enough to find options and values. */
function shellWords(command: string): string[] {
  return (command.match(/(?:[^\s'"\\]|\\.|'[^']*'|"(?:[^"\\]|\\.)*")+/g) ?? []).map((word) =>
    word.replace(
      /'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)/g,
      (_m, single?: string, double?: string, escaped?: string) =>
        single ?? escaped ?? (double ?? '').replace(/\\(.)/g, '$1'),
    ),
  );
}

/** `--api-key`, `--hf-token`, `-hft`, `x-api-key:` (a header name): what follows is a secret. */
function takesSecret(word: string): boolean {
  if (SECRET_SHORT_OPTIONS.has(word)) return true;
  const option = /^--?([a-z][\w.-]*)$/i.exec(word)?.[1] ?? /^([a-z][\w.-]*):$/i.exec(word)?.[1];
  return option !== undefined && isSecretFieldName(option);
}

/** The password of `scheme://user:password@host…`, or undefined. */
function urlPassword(piece: string): string | undefined {
  const scheme = piece.indexOf('://');
  if (scheme < 0) return undefined;
  const authority = piece.slice(scheme + 3).split(/[/?#]/, 1)[0] ?? '';
  const at = authority.lastIndexOf('@');
  const colon = authority.indexOf(':');
  return at > 0 && colon >= 0 && colon < at ? authority.slice(colon + 1, at) : undefined;
}

/**
 * The secrets an engine command line carries, to be registered with redact() (util/redact.ts)
 * before the run is logged, stored or printed: the value after a secret-named option
 * (`--api-key sk-…`, `--password=…`, `-hft hf_…`), of a secret-named variable or key
 * (`HF_TOKEN=…`, `password=…` in a connection string or a URL's query), of a secret-named header
 * or credential scheme (`-H "x-api-key: …"`, `Authorization: Bearer …`), and a URL's password
 * (`https://user:…@host`). The command itself runs as typed: only what is shown and kept is masked.
 */
export function commandLineSecrets(command: string): string[] {
  const found = new Set<string>();
  const add = (value: string | undefined) => {
    if (value !== undefined && value.length >= MIN_SECRET_CHARS) found.add(value);
  };
  // A quoted word (a header, a connection string) is read as the words inside it too.
  const pieces = shellWords(command).flatMap((word) => [word, ...(/\s/.test(word) ? word.split(/\s+/) : [])]);
  pieces.forEach((piece, i) => {
    const next = pieces[i + 1];
    if (next !== undefined && !next.startsWith('-') && takesSecret(piece)) add(next);
    if (/^(?:proxy-)?authorization:$/i.test(piece) && next !== undefined)
      add(AUTH_SCHEMES.has(next.toLowerCase()) ? pieces[i + 2] : next);
    // The whole word (`KEY="two words"`, `--password=…`), then each pair inside it (`host=db password=…`, `?token=…&`).
    const assigned = /^-{0,2}([a-z][\w.-]*)=/i.exec(piece);
    if (assigned?.[1] !== undefined && isSecretFieldName(assigned[1])) add(piece.slice(assigned[0].length));
    for (const pair of piece.split(/[\s&;,?]+/)) {
      const eq = pair.indexOf('=');
      if (eq > 0 && isSecretFieldName(pair.slice(0, eq))) add(pair.slice(eq + 1));
    }
    add(urlPassword(piece));
  });
  return [...found];
}

/**
 * Shortest value of a secret-named environment variable taken for a secret. Shorter ones are flags
 * (`USE_AUTH_TOKEN=true`, `HF_HUB_DISABLE_TOKEN=1`): masking "true" or "1" in every message and
 * stored string would garble them, and no token or API key is that short.
 */
const MIN_ENV_SECRET_CHARS = 6;

/**
 * The values of the secret-named variables of an environment (`HF_TOKEN`, `OPENAI_API_KEY`,
 * `DB_PASSWORD`) and the passwords of the URLs in any variable (`HTTPS_PROXY=http://me:…@proxy`,
 * `DATABASE_URL=postgres://me:…@db/x`), to be registered with redact() before a run: an engine
 * started on this computer inherits them, and one that prints them (an auth error, its proxy
 * settings, a wrapper's `env` or `set -x`) would otherwise put them in the session, its reports
 * and stderr.
 */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (value.length >= MIN_ENV_SECRET_CHARS && isSecretFieldName(name)) found.add(value);
    for (const word of value.includes('://') ? value.split(/[\s,;]+/) : []) {
      const password = urlPassword(word);
      if (password !== undefined && password.length >= MIN_SECRET_CHARS) found.add(password);
    }
  }
  return [...found];
}
