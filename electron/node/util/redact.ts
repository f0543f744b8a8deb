// Secret redaction for everything KVScope logs or throws. Secrets (passwords, key passphrases)
// are registered the moment they are obtained; `redact` replaces every occurrence with `***`.
// SSH code passes every log line and every error message through here, so a password typed
// into a prompt or read from an environment variable never reaches a log, a session file, the
// UI or stderr — not even inside an ssh2 debug line or a server's echo of it.
import { describeError } from './describe-error';

const MASK = '***';
const secrets = new Set<string>();
/**
 * A secret shorter than this is masked only where it stands alone, not inside a longer word or
 * number: there it is chance, not the secret (a password "pw" masked every path that held those two
 * letters: `/tmp/kvscope-XaZmpw` became `/tmp/kvscope-XaZm***`). Longer ones are masked anywhere.
 */
const SHORT_SECRET_CHARS = 6;
/** The secrets longest first (redact's order), rebuilt after a change: redactValue calls redact per string. */
let ordered: { long: string[]; short: RegExp | null } | null = null;

function orderSecrets(): { long: string[]; short: RegExp | null } {
  const all = [...secrets].sort((a, b) => b.length - a.length);
  const short = all.filter((s) => [...s].length < SHORT_SECRET_CHARS);
  const escaped = short.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return {
    long: all.filter((s) => [...s].length >= SHORT_SECRET_CHARS),
    short: short.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'gu') : null,
  };
}

/** Register a secret so that `redact` hides it from now on. Empty strings are ignored. */
export function registerSecret(secret: string | Buffer | null | undefined): void {
  if (secret === null || secret === undefined) return;
  const text = typeof secret === 'string' ? secret : secret.toString('utf8');
  if (text.length === 0) return;
  for (const form of encodedForms(text)) secrets.add(form);
  ordered = null;
}

/** Forget a secret (e.g. after a connection closed). Redacting more than needed is harmless. */
export function unregisterSecret(secret: string): void {
  for (const form of encodedForms(secret)) secrets.delete(form);
  ordered = null;
}

/** Number of registered forms (for tests). */
export function registeredSecretCount(): number {
  return secrets.size;
}

// The forms a secret takes in text we print: raw, inside a JSON string, URL-encoded.
function encodedForms(text: string): string[] {
  const forms = new Set<string>([text]);
  forms.add(JSON.stringify(text).slice(1, -1));
  try {
    forms.add(encodeURIComponent(text));
  } catch {
    // lone surrogates cannot be URL-encoded; the raw form is still registered
  }
  return [...forms].filter((f) => f.length > 0);
}

/**
 * Tokens whose shape says what they are, masked even when KVScope never saw them: an engine or a
 * wrapper can print a token it read from a file or a credential helper (a failed download's
 * `Authorization` echo, `set -x`, `env`). Each issuer's documented prefix and length: Hugging Face
 * `hf_` + 34, OpenAI `sk-` / `sk-proj-`, Anthropic `sk-ant-`, GitHub `ghp_`/`gho_`/`ghu_`/`ghs_`/
 * `ghr_` + 36 and `github_pat_`, GitLab `glpat-`, Slack `xox?-`, AWS access key ids `AKIA`/`ASIA`
 * + 16. The lengths keep ordinary words (`sk-learn`, `hf_hub`) out.
 */
const TOKEN_SHAPES =
  /\b(?:hf_[A-Za-z0-9]{30,}|sk-[\w-]{20,}|gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{40,}|glpat-[\w-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|A[KS]IA[0-9A-Z]{16})\b/g;

/** Replace every registered secret in `text` with `***`, longest first, then every token shaped like one (TOKEN_SHAPES). */
export function redact(text: string): string {
  if (text.length === 0) return text;
  let out = text;
  if (secrets.size > 0) {
    ordered ??= orderSecrets();
    for (const s of ordered.long) if (out.includes(s)) out = out.split(s).join(MASK);
    if (ordered.short) out = out.replace(ordered.short, MASK);
  }
  return out.replace(TOKEN_SHAPES, MASK);
}

/**
 * A copy of `value` with every string in it redacted, in arrays and plain objects at any depth;
 * `value` itself when no secret is registered or nothing changed. Class instances (stored JSON
 * text kept raw, typed arrays) are left as they are: they come from files already masked when
 * written. For what the app's API sends its window (create-app-services.ts).
 */
export function redactValue<T>(value: T): T {
  return secrets.size === 0 ? value : (redactIn(value) as T);
}

function redactIn(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v: unknown) => {
      const r = redactIn(v);
      if (r !== v) changed = true;
      return r;
    });
    return changed ? out : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const r = redactIn(v);
    if (r !== v) changed = true;
    out[k] = r;
  }
  return changed ? out : value;
}

/**
 * `JSON.stringify(value)` with every string value redacted. Masking the JSON text instead would
 * also hit its numbers and literals: a password such as "1234" or "true" turned `91234567` into
 * `9***567` and the stored document stopped being JSON. Object keys are field and series names
 * from the code or a board's tools, not places a secret is typed into: left as they are.
 */
export function redactJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? redact(v) : v), indent);
}

/**
 * An Error whose message (and stack) went through `redact`. Keeps `code`, `level` and other
 * own enumerable fields that are plain strings or numbers; never copies buffers or objects,
 * which could hold key material.
 */
export function redactError(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(redact(describeError(error)));
  const message = redact(error.message);
  if (message === error.message && (!error.stack || redact(error.stack) === error.stack)) return error;
  const copy = new Error(message) as Error & Record<string, unknown>;
  copy.name = error.name;
  for (const [k, v] of Object.entries(error)) {
    if (typeof v === 'string') copy[k] = redact(v);
    else if (typeof v === 'number' || typeof v === 'boolean') copy[k] = v;
  }
  copy.stack = error.stack ? redact(error.stack) : undefined;
  Object.setPrototypeOf(copy, Object.getPrototypeOf(error) as object | null);
  return copy;
}
