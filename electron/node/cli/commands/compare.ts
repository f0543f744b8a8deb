// `kvscope compare <sessionA> <sessionB> -o <file>` (docs/DESIGN.md): two sessions side by side —
// KV per token, overhead, throughput, peak RSS and the change from A to B in percent ("before/after
// q8_0", two boards). The output is Markdown or HTML (or PDF) by the file's extension.
import { basename } from 'node:path';
import { compareFormatFromFileName, writeComparison } from '../../session/report-files';
import { PdfError } from '../../session/pdf';
import { describeWriteError } from '../../util/describe-error';
import { CliError, type CliIo, parseCliArgs } from '../cli-io';
import { loadSession } from './report';

const options = {
  output: { type: 'string', short: 'o' },
} as const;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(args, options);
  const [pathA, pathB] = positionals;
  if (positionals.length !== 2 || pathA === undefined || pathB === undefined)
    throw new CliError('expected two session files: kvscope compare <sessionA> <sessionB> -o <file.md|file.html>', 2);
  const out = values.output;
  if (!out) throw new CliError('-o <file.md|file.html> is required', 2);
  const format = compareFormatFromFileName(out);
  if (!format)
    throw new CliError(`-o ${out}: the comparison is written as Markdown (.md), HTML (.html) or PDF (.pdf)`, 2);
  const a = loadSession(pathA);
  const b = loadSession(pathB);
  try {
    await writeComparison(a, b, { a: basename(pathA), b: basename(pathB) }, format, out);
  } catch (error) {
    if (error instanceof PdfError) throw new CliError(error.message);
    throw new CliError(`cannot write ${out}: ${describeWriteError(error)}`);
  }
  io.err(`kvscope compare: ${a.runs.length} run(s) against ${b.runs.length} written to ${out}\n`);
  return 0;
}
