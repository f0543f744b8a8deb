// `kvscope import <tegrastats|perf|pmap|vcgencmd|llama-log> <file> --out <session> [--interval 1s] [--json]`:
// the command's words around the import itself (electron/node/import/import-log.ts), which the
// app's Sessions view runs too.
import {
  DEFAULT_IMPORT_INTERVAL_MS,
  IMPORT_KINDS,
  ImportError,
  importLog,
  intervalRangeError,
  isImportKind,
  parseIntervalMs,
  type ImportResult,
} from '../../import/import-log';
import { CliError, type CliIo, parseCliArgs } from '../cli-io';

const options = {
  out: { type: 'string', short: 'o' },
  interval: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(args, options);
  const [kind, file, ...extra] = positionals;
  const kinds = IMPORT_KINDS.join('|');
  if (kind === undefined || file === undefined)
    throw new CliError(`expected a kind and a file: kvscope import <${kinds}> <file> --out <session>`, 2);
  if (extra.length > 0) throw new CliError(`unexpected argument "${extra[0]}"`, 2);
  if (!isImportKind(kind)) throw new CliError(`unknown kind "${kind}" (expected one of ${IMPORT_KINDS.join(', ')})`, 2);
  // `parse` reads stdin for `-`; an import needs a file: a log without dates is placed by its mtime.
  if (file === '-')
    throw new CliError(
      'import reads a file, not stdin ("-"): save the log first (e.g. ssh board tegrastats > board.log) and give its path',
      2,
    );
  if (!values.out) throw new CliError('--out <session> is required', 2);
  let intervalMs = DEFAULT_IMPORT_INTERVAL_MS;
  if (values.interval !== undefined) {
    const ms = parseIntervalMs(values.interval);
    if (ms === null)
      throw new CliError(`--interval: expected a duration like 1s or 500ms, got "${values.interval}"`, 2);
    const rangeError = intervalRangeError(ms, `"${values.interval}"`);
    if (rangeError !== null) throw new CliError(`--interval: ${rangeError}`, 2);
    intervalMs = ms;
  }
  let result: ImportResult;
  try {
    result = await importLog(kind, file, values.out, { intervalMs, signal: io.signal });
  } catch (error) {
    throw error instanceof ImportError ? new CliError(error.message, error.exitCode) : error;
  }
  if (values.json) io.out(JSON.stringify(result) + '\n');
  if (result.previousSessionKeptAs !== undefined)
    io.err(`kvscope import: the session that was at ${result.session} is kept as ${result.previousSessionKeptAs}\n`);
  const runs = result.runs > 1 ? ` in ${result.runs} runs (one per program run in the log)` : '';
  io.err(
    `kvscope import: ${importedText(result)}, ${notKeptText(result)}${result.diagnostics} unreadable line(s) from ${file} → ${result.session}${runs}\n`,
  );
  return 0;
}

/** Lines read but not kept (readings KVScope keeps no series of), when there are any: said apart from the unreadable. */
function notKeptText(result: Pick<ImportResult, 'readingsNotKept'>): string {
  const n = result.readingsNotKept;
  return n > 0 ? `${n} line(s) of readings KVScope keeps no series of (other clocks, volts), ` : '';
}

/**
 * What the session holds: its samples, and the engine's own records where a log has them (a
 * llama.cpp log gives timings, KV and model lines, no samples: "0 sample(s)" read as nothing kept).
 */
export function importedText(result: Pick<ImportResult, 'samples' | 'engineLog'>): string {
  const { timings, kv, model } = result.engineLog;
  const engine = [
    timings > 0 ? `${timings} timing record(s)` : null,
    kv > 0 ? `${kv} KV record(s)` : null,
    model > 0 ? `${model} model record(s)` : null,
  ].filter((part): part is string => part !== null);
  return [`${result.samples} sample(s)`, ...engine].join(', ');
}
