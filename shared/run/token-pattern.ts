// The token pattern (`--token-regex`, the run form's "Token pattern"): a regular expression that
// matches once per generated token in the engine's stdout. It runs over every line the engine
// prints, in the app's own process (electron/node/run/stdout-token-counter.ts), so a pattern that
// backtracks — `(a+)+$` on a line of 40 a's takes minutes — would stall the whole app: runs,
// sessions and the UI with it. A token pattern must therefore run in linear time:
// - back-references and lookarounds never can: refused here, in words, on every side (the run form
//   says it on the field, the request schema refuses it);
// - everything else is matched by V8's linear-time engine (the `l` flag; the app's process turns it
//   on: electron/node/util/linear-regexp.ts), which also refuses what it cannot run in linear time
//   (a count that repeats too much, `x{17}`), checked here wherever that engine is on.
// Pure: no Node, no DOM.

/** A construct of `source` that makes matching backtrack (its words for people), or null. */
function backtrackingConstruct(source: string): string | null {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return `a back-reference (\\${next})`;
      if (!inClass && next === 'k' && source[i + 2] === '<') return 'a back-reference (\\k<…>)';
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') inClass = true;
    else if (c === '(' && source[i + 1] === '?') {
      const kind = source.slice(i + 2, i + 4);
      if (kind.startsWith('=') || kind.startsWith('!')) return `a lookahead (${source.slice(i, i + 3)}…)`;
      if (kind === '<=' || kind === '<!') return `a lookbehind (${source.slice(i, i + 4)}…)`;
    }
  }
  return null;
}

/** Whether this process has V8's linear-time engine on (the `l` flag parses). */
function linearEngineOn(): boolean {
  try {
    // eslint-disable-next-line prefer-regex-literals, regexp/no-non-standard-flag -- V8's linear engine, probed
    new RegExp('', 'l');
    return true;
  } catch {
    return false;
  }
}

const WHY = 'a token pattern runs over every line the engine prints and must match in linear time';

/** Why `source` cannot be a token pattern, in words for the field; null when it can. */
export function tokenPatternProblem(source: string): string | null {
  try {
    new RegExp(source, 'g');
  } catch (error) {
    // V8 says "Invalid regular expression: /(/g: Unterminated group": the pattern again, with a
    // flag the user never typed. The field shows only what is wrong with it.
    const message = (error as Error).message.replace(/^Invalid regular expression: /, '');
    const quoted = `/${source}/g: `;
    const what = message.startsWith(quoted) ? message.slice(quoted.length) : message;
    return `not a valid pattern: ${what.charAt(0).toLowerCase()}${what.slice(1)}`;
  }
  const construct = backtrackingConstruct(source);
  if (construct !== null) return `${construct} cannot be used: ${WHY}`;
  if (linearEngineOn()) {
    try {
      // eslint-disable-next-line regexp/no-non-standard-flag -- V8's linear engine (see the top of the file)
      new RegExp(source, 'gl');
    } catch {
      return `it repeats too much to match in linear time (a count such as {17}): ${WHY}`;
    }
  }
  return null;
}

/**
 * The global RegExp of a token pattern: on V8's linear-time engine where it is on (the app's
 * process), else as a plain RegExp (the checks above still refused back-references and
 * lookarounds). Throws an Error in tokenPatternProblem's words for a pattern it refuses.
 */
export function compileTokenPattern(source: string): RegExp {
  const problem = tokenPatternProblem(source);
  if (problem !== null) throw new Error(`token pattern: ${problem}`);
  return new RegExp(source, linearEngineOn() ? 'gl' : 'g');
}
