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
