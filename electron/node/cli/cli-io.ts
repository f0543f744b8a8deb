// Where a CLI command writes. `--json` output goes to out() and nothing else does; progress
// and errors go to err(). Tests pass their own CliIo to capture both.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { bytesOfSizeText, isSizeMissingItsUnit } from '../../../shared/format/byte-size';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Standard input, for `parse … -`. */
  stdin: NodeJS.ReadableStream;
  /** stdin is a terminal: nothing is piped in, and a command reading it says so (parse). */
  stdinIsTty?: boolean;
  /** Aborted on SIGINT/SIGTERM so long commands can stop cleanly. */
  signal: AbortSignal;
  /** stderr is a terminal: progress may redraw one live line (electron/node/cli/cli-progress.ts). */
  errIsTty?: boolean;
  /** stdout is a terminal: binary output (a PDF for `-o -`) is refused there (cli-output.ts). */
  outIsTty?: boolean;
  /** Bytes to stdout (a PDF for `-o -`); absent where stdout takes text only. */
  outBytes?(bytes: Uint8Array): void;
}

export function defaultIo(): CliIo {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    out: (t) => void process.stdout.write(t),
    err: (t) => void process.stderr.write(t),
    stdin: process.stdin,
    stdinIsTty: process.stdin.isTTY === true,
    signal: controller.signal,
    errIsTty: process.stderr.isTTY === true,
    outIsTty: process.stdout.isTTY === true,
    outBytes: (bytes) => void process.stdout.write(bytes),
  };
}

/**
 * Text for the user's terminal. What the CLI prints quotes boards and engines (the engine's last
 * output in a failure line, alert messages, error texts), and a terminal runs the control
 * sequences in such text: OSC 0 sets the window title, OSC 52 writes the clipboard, CSI 2J clears
 * the screen, in 7-bit (ESC …) and in C1 form (U+009B). Every control character goes but tab and
 * newline, and the one sequence the CLI draws itself: the progress line's redraw, CR then
 * "erase line" (cli-progress.ts).
 */
export function terminalText(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this pattern removes
  return text.replace(/\r(?!\x1b\[K)|\x1b(?!\[K)|[\u0000-\u0008\v\f\u000e-\u001a\u001c-\u001f\u007f-\u009f]/g, '');
}

/** An expected failure: printed as one line, exit status non-zero. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/**
 * node:util parseArgs with our error style: a usage error is one short line (exit 2) that names the
 * option and, for a misspelt one, the closest option the command has.
 */
/** Options that each take a value (`--name <value>`), as parseArgs wants them: one name per option. */
export function valueOptions<const K extends string>(...names: K[]): { [P in K]: { type: 'string' } } {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }])) as { [P in K]: { type: 'string' } };
}

export function parseCliArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
  allowPositionals = true,
) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new CliError(parseArgsMessage(error, Object.keys(options)), 2);
  }
}

/** Node's parseArgs messages run over three lines and suggest `--`; say the same in one. */
export function parseArgsMessage(error: unknown, optionNames: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as NodeJS.ErrnoException)?.code;
  // "Option '-o, --output <value>' argument missing" names both spellings: keep the one typed last.
  const flag = /'(-[^' ,]+)(?:, (--[^' ]+))?/.exec(message)?.slice(1).filter(Boolean).pop();
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) {
    const near = closestOption(flag.replace(/^-+/, '').split('=')[0] ?? '', optionNames);
    return `unknown option ${flag}${near ? ` (did you mean --${near}?)` : ''}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag) {
    if (message.includes('argument missing')) return `${flag} needs a value`;
    if (message.includes('ambiguous'))
      return `${flag} needs a value (a value that starts with a dash is written ${flag}=-value)`;
    if (message.includes('does not take an argument')) return `${flag} takes no value`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const arg = /'([^']*)'/.exec(message)?.[1];
    return `unexpected argument "${arg ?? ''}" (this command takes none)`;
  }
  return message.split('\n')[0] ?? message;
}

/** Typos up to this many edits away get a suggestion; more would suggest unrelated options. */
const SUGGEST_MAX_EDITS = 2;

function closestOption(name: string, optionNames: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = SUGGEST_MAX_EDITS + 1;
  for (const candidate of optionNames) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance (option names are short: the quadratic table is a few hundred cells). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** "2GiB", "1.5 GB", "512MiB", "1000000" → bytes. */
export function parseBytes(text: string, what = 'size'): number {
  // The shared grammar (also the run form's); unlike the form, the CLI lets 0 through as a size.
  const bytes = bytesOfSizeText(text);
  if (bytes === undefined) throw new CliError(`${what}: cannot read "${text}" (e.g. 2GiB, 512MiB, 4000000000)`, 2);
  if (isSizeMissingItsUnit(text, bytes)) {
    const n = text.trim();
    throw new CliError(`${what} ${n}: a number without a unit is bytes; give the unit, e.g. ${n}GiB or ${n}MiB`, 2);
  }
  return bytes;
}

/** "60s", "2m", "1500ms", "90" (seconds) → milliseconds. */
export function parseDurationMs(text: string, what = 'duration'): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|[smh])?$/.exec(text.trim());
  if (!m) throw new CliError(`${what}: cannot read "${text}" (e.g. 60s, 2m, 1500ms)`, 2);
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's'] as number;
  return Math.round(Number(m[1]) * factor);
}

export function parseIntArg(text: string | undefined, what: string, min = 1): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || Number(text) < min)
    throw new CliError(`${what}: expected a whole number ≥ ${min}, got "${text}"`, 2);
  // Past 2^53 a number is no longer itself (99999999999999999999 reads as 100000000000000000000):
  // `kv --ctx` answered with totals of that.
  if (!Number.isSafeInteger(Number(text)))
    throw new CliError(`${what}: ${text.trim()} is too large (at most ${Number.MAX_SAFE_INTEGER})`, 2);
  return Number(text);
}

/** What the CLI reads of a schema (zod) issue. */
export interface SchemaIssue {
  code: string;
  message: string;
  minimum?: unknown;
  maximum?: unknown;
  inclusive?: boolean;
  expected?: unknown;
  values?: unknown;
}

/**
 * A schema issue about one option in the CLI's words: `--tps: at least 0.1`, `--duration: more
 * than 0`, `--layers: expected a whole number, got "2.5"`, not zod's ("demo option tps: Too
 * small: expected number to be >=0.1"; "--duration: at least 0" for an exclusive minimum of 0).
 */
export function issueInCliWords(issue: SchemaIssue, option: string, typed?: string): string {
  const got = typed === undefined ? '' : `, got "${typed}"`;
  const { minimum, maximum } = issue;
  if (issue.code === 'too_small' && (typeof minimum === 'number' || typeof minimum === 'bigint'))
    return `${option}: ${issue.inclusive === false ? 'more than' : 'at least'} ${minimum}${got}`;
  if (issue.code === 'too_big' && (typeof maximum === 'number' || typeof maximum === 'bigint'))
    return `${option}: ${issue.inclusive === false ? 'less than' : 'at most'} ${maximum}${got}`;
  if (issue.code === 'invalid_type' && issue.expected === 'int') return `${option}: expected a whole number${got}`;
  if (issue.code === 'invalid_type' && issue.expected === 'number') return `${option}: expected a number${got}`;
  if (issue.code === 'invalid_value' && Array.isArray(issue.values))
    return `${option}: expected one of ${issue.values.map(String).join(', ')}${got}`;
  return `${option}: ${issue.message}${got}`;
}
