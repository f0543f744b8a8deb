// `kvscope parse <format> [file|-]`: read a capture with one of the shared/ parsers and print its
// records as NDJSON on stdout, one JSON object per record (docs/DESIGN.md, "parse NDJSON records").
//
// The input is read as a stream (a file, or stdin for `-`/no file) through the line splitter, so a
// multi-gigabyte log costs no more memory than its longest line. Lines that cannot be read are part
// of the output (`"kind":"diagnostic"`) and do not change the exit status; their count goes to
// stderr so that a script notices them without reading the stream.
//
//   kvscope parse <format> [file|-] [--page-size N] [--mappings]
//     --page-size N   statm: bytes per page on the target (`getconf PAGESIZE`); without it statm
//                     records carry pages only — 4096 is never assumed
//     --mappings      pmap: include every mapping in the record
import { createReadStream } from 'node:fs';
import { createParser, formatNames, LineSplitter, type ParseRecord } from '../../../../shared/parsers/index';
import { describeFileError } from '../../util/describe-error';
import { CliError, type CliIo, parseCliArgs, parseIntArg } from '../cli-io';

const USAGE = `usage: kvscope parse <${formatNames().join('|')}> [file|-] [--page-size N] [--mappings]`;

/** Output is written in pieces of about this size (one write per line would cost a syscall each). */
const OUT_CHUNK_CHARS = 64 * 1024;

function readError(file: string, error: unknown): CliError {
  return new CliError(`cannot read "${file}": ${describeFileError(error)}`, 1);
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(args, {
    'page-size': { type: 'string' },
    mappings: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(USAGE + '\n');
    return 0;
  }
  const [format, file, ...extra] = positionals;
  if (!format) throw new CliError(`missing format (one of ${formatNames().join(', ')})\n${USAGE}`, 2);
  if (extra.length > 0) throw new CliError(`unexpected argument "${extra[0]}"\n${USAGE}`, 2);
  const pageSizeBytes = parseIntArg(values['page-size'], '--page-size', 1);
  const parser = createParser(format, { pageSizeBytes, listMappings: values.mappings === true });
  if (!parser) throw new CliError(`unknown format "${format}" (formats: ${formatNames().join(', ')})`, 2);

  const fromStdin = file === undefined || file === '-';
  // Typed at a prompt with no file, parse waited for a terminal's input without a word.
  if (fromStdin && io.stdinIsTty)
    io.err(`kvscope parse: reading ${format} lines from the terminal (Ctrl-D ends); give a file, or pipe a log in\n`);
  const input: NodeJS.ReadableStream = fromStdin ? io.stdin : createReadStream(file);
  const splitter = new LineSplitter();
  let diagnostics = 0;
  let readings = 0;
  let pending = '';

  const emit = (records: ParseRecord[]) => {
    for (const r of records) {
      if (r.kind === 'diagnostic') diagnostics++;
      else readings++;
      pending += JSON.stringify(r) + '\n';
    }
    if (pending.length >= OUT_CHUNK_CHARS) {
      io.out(pending);
      pending = '';
    }
  };

  try {
    for await (const chunk of input as AsyncIterable<string | Uint8Array>) {
      if (io.signal.aborted) break;
      for (const l of splitter.pushLines(chunk)) emit(parser.push(l.text, l.droppedChars));
    }
  } catch (error) {
    if (fromStdin) throw new CliError(`cannot read stdin: ${(error as Error)?.message ?? String(error)}`, 1);
    throw readError(file, error);
  } finally {
    if (!fromStdin) (input as ReturnType<typeof createReadStream>).destroy();
  }
  for (const l of splitter.endLines()) emit(parser.push(l.text, l.droppedChars));
  emit(parser.end());
  if (pending) io.out(pending);
  if (diagnostics > 0) {
    io.err(
      `kvscope parse: ${diagnostics} line${diagnostics === 1 ? '' : 's'} could not be read (kept in the output as "kind":"diagnostic")\n`,
    );
    // Nothing read at all: most likely another tool's output (a pmap capture given as tegrastats).
    if (readings === 0) io.err(`kvscope parse: not one ${format} reading in it: is it ${format} output?\n`);
  }
  return 0;
}
