// Where `kvscope report` and `kvscope compare` put what they made: the file `-o` names, or stdout
// for `-o -` (the Unix convention; `kvscope parse … -` reads stdin), so that
// `kvscope report run.kvscope --format md -o - | less` works and nothing else is on stdout (the
// status line goes to stderr). A PDF is bytes: on a terminal they are noise and may hold control
// sequences, so `-o -` with a PDF is refused while stdout is a terminal, before any work, and
// written when stdout is a pipe or a file (`… -o - | lpr`, `… -o - > r.pdf`), as gzip and curl do.
import { refuseSessionOverwrite } from '../session/report-files';
import { PdfError } from '../session/pdf';
import { describeWriteError } from '../util/describe-error';
import { writeFileSync } from 'node:fs';
import { CliError, type CliIo } from './cli-io';

/** `-o -`: stdout. */
export const STDOUT_OUTPUT = '-';

/** Formats written as bytes rather than text. */
const BINARY_FORMATS: ReadonlySet<string> = new Set(['pdf']);

/** How the status line names where the output went. */
export function outputName(out: string): string {
  return out === STDOUT_OUTPUT ? 'stdout' : out;
}

/**
 * Refuses an output before any work (a PDF takes Chromium seconds): `-o -` with a binary format
 * while stdout is a terminal, or where stdout takes text only (an in-process caller's CliIo).
 */
export function checkOutput(out: string, format: string, io: CliIo): void {
  if (out !== STDOUT_OUTPUT || !BINARY_FORMATS.has(format)) return;
  if (io.outIsTty === true)
    throw new CliError(
      `-o -: a ${format.toUpperCase()} is binary and stdout is a terminal; redirect it (-o - > report.${format}) or give -o <file.${format}>`,
      2,
    );
  if (!io.outBytes) throw new CliError(`-o -: this stdout takes text only; give -o <file.${format}>`, 2);
}

/**
 * Makes the output and writes it to `out` (checked by checkOutput). A file is never written over a
 * session (report-files.ts), checked before anything is made; a write that fails is one line in the
 * path's words.
 */
export async function writeOutput(out: string, io: CliIo, make: () => Promise<string | Buffer>): Promise<void> {
  try {
    if (out !== STDOUT_OUTPUT) {
      refuseSessionOverwrite(out);
      writeFileSync(out, await make());
      return;
    }
    const content = await make();
    if (typeof content === 'string') io.out(content);
    else io.outBytes?.(content);
  } catch (error) {
    if (error instanceof PdfError) throw new CliError(error.message);
    throw new CliError(`cannot write ${out}: ${describeWriteError(error, out)}`);
  }
}
