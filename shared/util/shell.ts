// POSIX shell quoting. Everything that reaches a shell on a target and did not come from the
// user's own engine command line goes through shellQuote: single quotes, with ' written as '\''.
// Works in sh, dash, bash, busybox ash and zsh; byte-for-byte for any string without NUL.

export function shellQuote(arg: string): string {
  if (arg.includes('\0')) throw new Error('shell arguments cannot contain NUL bytes');
  if (arg !== '' && /^[\w/.,:=+@%-]+$/.test(arg)) return arg;
  return "'" + arg.replace(/'/g, "'\\''") + "'";
}

/** Quote an argv into one command line. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

/** `NAME=value` prefixes for env, names validated, values quoted. */
export function shellEnv(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .map(([k, v]) => {
      if (!/^[a-z_]\w*$/i.test(k)) throw new Error(`invalid environment variable name: ${k}`);
      return `${k}=${shellQuote(v)}`;
    })
    .join(' ');
}

/**
 * The part of a path under the home directory when it starts with `~/` ('' for `~` alone), its
 * leading slashes dropped (`~//x` is `~/x`, as the shell reads it); null for any other path,
 * `~user/…` included. The one rule for "a path on a target may start with ~/" (readFile, writeFile).
 */
export function pathUnderHome(path: string): string | null {
  if (path === '~') return '';
  return path.startsWith('~/') ? path.slice(2).replace(/^\/+/, '') : null;
}

/**
 * A path on a target as one shell word: under the home (`~/models/x.gguf`, pathUnderHome) it is
 * "$HOME" expanded by the shell with the rest quoted, `"$HOME"/'models/x.gguf'`; any other path is
 * shellQuote'd as it is (so `~user/x` stays literal). Nothing typed reaches the shell unquoted.
 */
export function shellPath(path: string): string {
  const rest = pathUnderHome(path);
  if (rest === null) return shellQuote(path);
  return rest === '' ? '"$HOME"' : `"$HOME"/${shellQuote(rest)}`;
}
