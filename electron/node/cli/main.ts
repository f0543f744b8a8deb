// `kvscope <command>`: the stable command line of docs/DESIGN.md. Each command lives in
// commands/<name>.ts and exports `run(args, io)`; this file dispatches, answers --help from the
// one usage table (cli-help.ts), handles the global --quiet, and is the one place that turns a
// failure into the one line on stderr that every non-zero exit prints:
//
//   kvscope <command>: <reason>
//
// Nothing else reaches stderr on a failure (no usage dump, no stack) unless KVSCOPE_DEBUG=1.
import { CliError, type CliIo, defaultIo, terminalText } from './cli-io';
import { redact } from '../util/redact';
import { commandHelp, type CommandName, isCommandName, type OptionGroup, overviewHelp } from './cli-help';

export interface CommandModule {
  run(args: string[], io: CliIo): Promise<number>;
  /** Option groups known only at run time (profile's collector switches), appended to --help. */
  helpOptions?: () => OptionGroup[];
}

/** Every command of the contract. */
const COMMANDS: Record<CommandName, () => Promise<CommandModule>> = {
  probe: () => import('./commands/probe'),
  profile: () => import('./commands/profile'),
  kv: () => import('./commands/kv'),
  parse: () => import('./commands/parse'),
  report: () => import('./commands/report'),
  compare: () => import('./commands/compare'),
  'demo-engine': () => import('./commands/demo-engine'),
  web: () => import('./commands/web'),
  import: () => import('./commands/import'),
  recover: () => import('./commands/recover'),
};

const HELP_FLAGS = new Set(['--help', '-h']);
const QUIET_FLAGS = new Set(['--quiet', '-q']);

/** Tokens before `--` (after it everything is an operand, even `--help`). */
function optionTokens(args: readonly string[]): readonly string[] {
  const end = args.indexOf('--');
  return end < 0 ? args : args.slice(0, end);
}

/**
 * The global flags, taken out of the arguments. A bare `--quiet` token can never be the value of
 * another option: node:util parseArgs (strict) refuses a dash-led value unless written `--opt=…`.
 */
export function globalFlags(argv: readonly string[]): { args: string[]; quiet: boolean; help: boolean } {
  const before = optionTokens(argv);
  const quiet = before.some((a) => QUIET_FLAGS.has(a));
  const help = before.some((a) => HELP_FLAGS.has(a));
  const args = quiet ? [...before.filter((a) => !QUIET_FLAGS.has(a)), ...argv.slice(before.length)] : [...argv];
  return { args, quiet, help };
}

export function debugEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.KVSCOPE_DEBUG !== undefined && env.KVSCOPE_DEBUG !== '' && env.KVSCOPE_DEBUG !== '0';
}

/**
 * `reason` with the line breaks of every argument it quotes written `\n` / `\r`: a failure is one
 * line (firstLine cuts the rest, a usage text after the reason), and a path the user gave with a
 * newline in it (`--out $'a\nb'`) must not be cut in the middle.
 */
export function withArgumentBreaksEscaped(reason: string, argv: readonly string[]): string {
  let out = reason;
  const values = argv.flatMap((a) => (a.startsWith('-') && a.includes('=') ? [a, a.slice(a.indexOf('=') + 1)] : [a]));
  for (const value of values.filter((v) => /[\r\n]/.test(v)).sort((a, b) => b.length - a.length))
    out = out.split(value).join(value.replace(/\r/g, '\\r').replace(/\n/g, '\\n'));
  return out;
}

/** The first non-empty line of a message (a failure is one line). */
export function firstLine(message: string): string {
  return (
    message
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? ''
  );
}

export async function main(argv: string[], ttyIo: CliIo = defaultIo()): Promise<number> {
  // stderr is text for people: every registered secret (a password, a key in the engine's command)
  // masked in it, and no terminal control sequence a board or an engine wrote (cli-io.ts
  // terminalText). stdout carries documents (`--json`, NDJSON): their writers mask the strings in
  // them (util/redact.ts redactJson), as masking their text would break numbers.
  const io: CliIo = { ...ttyIo, err: (text) => ttyIo.err(terminalText(redact(text))) };
  const { args, quiet, help } = globalFlags(argv);
  const [name, ...rest] = args;
  const fail = (reason: string, code: number, error?: unknown): number => {
    const line = firstLine(withArgumentBreaksEscaped(reason, argv)) || 'failed';
    io.err(`kvscope${name && isCommandName(name) ? ` ${name}` : ''}: ${line}\n`);
    if (debugEnabled() && error !== undefined) io.err(describe(error) + '\n');
    return code;
  };

  if (name === undefined || name.startsWith('-')) {
    if (help || name === undefined) {
      if (name === undefined && !help) return fail('missing command (kvscope --help lists them)', 2);
      io.out(overviewHelp() + '\n');
      return 0;
    }
    return fail(`unknown option ${name} before the command (kvscope --help lists the commands)`, 2);
  }
  if (name === 'help') {
    const topic = rest.find((a) => !a.startsWith('-'));
    if (topic === undefined) {
      io.out(overviewHelp() + '\n');
      return 0;
    }
    if (!isCommandName(topic)) return fail(`no command "${topic}" (kvscope --help lists them)`, 2);
    io.out((await helpText(topic)) + '\n');
    return 0;
  }
  if (!isCommandName(name)) return fail(`unknown command "${name}" (kvscope --help lists them)`, 2);
  if (help) {
    io.out((await helpText(name)) + '\n');
    return 0;
  }
  const load = COMMANDS[name];

  const commandIo: CliIo = quiet ? { ...io, err: () => {} } : io;
  try {
    const mod = await load();
    const code = await mod.run(rest, commandIo);
    // A command that returns a failure status without saying why still gets its line.
    if (code !== 0) return fail(`failed (exit status ${code})`, code);
    return 0;
  } catch (error) {
    if (error instanceof CliError) return fail(error.message, error.exitCode, debugEnabled() ? error : undefined);
    const message = error instanceof Error ? error.message : String(error);
    return fail(message, 1, error);
  }
}

/** The whole error for KVSCOPE_DEBUG: its stack (which starts with the message), or what was thrown. */
function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.message;
  try {
    return typeof error === 'string' ? error : JSON.stringify(error);
  } catch {
    return typeof error;
  }
}

/** The command's usage, with the option groups its module adds (a module that fails to load adds none). */
async function helpText(name: CommandName): Promise<string> {
  let extra: OptionGroup[] = [];
  try {
    extra = (await COMMANDS[name]()).helpOptions?.() ?? [];
  } catch {
    // The static usage is still right; the failure shows when the command is run.
  }
  return commandHelp(name, extra);
}

/**
 * For bin/kvscope.mjs only (tests call main() in-process): a crash that escapes main — an error
 * thrown from a callback, a rejected promise nobody awaited — is one line too, and a reader that
 * closed our stdout (`kvscope parse … | head`) ends the command quietly, as SIGPIPE would.
 */
export function installProcessGuards(write: (text: string) => void = (t) => void process.stderr.write(t)): void {
  // As main's stderr (io.err there): secrets masked, no terminal control sequence.
  const err = (text: string) => write(terminalText(redact(text)));
  const crash = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    err(`kvscope: ${firstLine(message) || 'internal error'}\n`);
    if (debugEnabled()) err(describe(error) + '\n');
    process.exit(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    crash(error);
  });
}
