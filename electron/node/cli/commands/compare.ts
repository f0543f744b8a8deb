// `kvscope compare <sessionA> <sessionB> -o <file>` (docs/DESIGN.md): two sessions side by side —
// KV per token, overhead, throughput, peak RSS and the change from A to B in percent ("before/after
// q8_0", two boards). The output is Markdown or HTML (or PDF) by the file's extension or by
// `--format` (added to the contract for `-o -`, stdout, which has no extension; cli-output.ts).
import { basename } from 'node:path';
import {
  COMPARE_FORMATS,
  compareFormatFromFileName,
  comparisonContent,
  isCompareFormat,
  type CompareFormat,
} from '../../session/report-files';
import { CliError, type CliIo, parseCliArgs } from '../cli-io';
import { checkOutput, outputName, STDOUT_OUTPUT, writeOutput } from '../cli-output';
import { loadSession } from './report';

const options = {
  output: { type: 'string', short: 'o' },
  format: { type: 'string', short: 'f' },
} as const;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(args, options);
  const [pathA, pathB] = positionals;
  if (positionals.length !== 2 || pathA === undefined || pathB === undefined)
    throw new CliError('expected two session files: kvscope compare <sessionA> <sessionB> -o <file.md|file.html>', 2);
  const out = values.output;
  if (!out) throw new CliError('-o <file.md|file.html> is required', 2);
  const format = compareFormat(values.format, out);
  checkOutput(out, format, io);
  const a = loadSession(pathA);
  const b = loadSession(pathB);
  await writeOutput(out, io, () =>
    comparisonContent(a, b, { a: basename(pathA), b: basename(pathB) }, format, io.signal),
  );
  io.err(`kvscope compare: ${a.runs.length} run(s) against ${b.runs.length} written to ${outputName(out)}\n`);
  return 0;
}

/** --format when given, else the extension of -o's file. */
function compareFormat(given: string | undefined, out: string): CompareFormat {
  if (given !== undefined) {
    if (!isCompareFormat(given))
      throw new CliError(`unknown format "${given}" (expected one of ${COMPARE_FORMATS.join(', ')})`, 2);
    return given;
  }
  if (out === STDOUT_OUTPUT)
    throw new CliError(
      `--format is required (${COMPARE_FORMATS.join('|')}): -o - (stdout) has no file name to say which`,
      2,
    );
  const format = compareFormatFromFileName(out);
  if (!format)
    throw new CliError(`-o ${out}: the comparison is written as Markdown (.md), HTML (.html) or PDF (.pdf)`, 2);
  return format;
}
