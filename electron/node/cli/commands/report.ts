// `kvscope report <session> --format html|md|csv|json|pdf|perfetto|prometheus -o <file>` (docs/DESIGN.md): a
// report of a stored session. The format may be left out when the file name says it (.html, .md,
// .csv, .json, .pdf, .trace.json, .prom). CSV: `--layout wide` (default, one row per sample) or `long`.
// `-o -` writes the report to stdout (cli-output.ts), with --format.
import { SessionFileRejected } from '../../session/session-file-guard';
import { readSession, SessionError } from '../../session/session-store';
import {
  formatFromFileName,
  isReportFormat,
  REPORT_FORMATS,
  reportContent,
  type ReportFormat,
} from '../../session/report-files';
import { CliError, type CliIo, parseCliArgs } from '../cli-io';
import { checkOutput, outputName, STDOUT_OUTPUT, writeOutput } from '../cli-output';

const options = {
  format: { type: 'string', short: 'f' },
  output: { type: 'string', short: 'o' },
  layout: { type: 'string' },
} as const;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(args, options);
  const [sessionPath] = positionals;
  if (positionals.length !== 1 || sessionPath === undefined)
    throw new CliError(
      `expected exactly one session file: kvscope report <session> --format ${REPORT_FORMATS.join('|')} -o <file>`,
      2,
    );
  const out = values.output;
  if (!out) throw new CliError('-o <file> is required', 2);
  let format: ReportFormat;
  if (values.format !== undefined) {
    if (!isReportFormat(values.format))
      throw new CliError(`unknown format "${values.format}" (expected one of ${REPORT_FORMATS.join(', ')})`, 2);
    format = values.format;
  } else {
    const guessed = out === STDOUT_OUTPUT ? null : formatFromFileName(out);
    if (!guessed)
      throw new CliError(
        `--format is required (${REPORT_FORMATS.join('|')}): ${out === STDOUT_OUTPUT ? '-o - (stdout) has no file name to say' : `the file name "${out}" does not say`} which`,
        2,
      );
    format = guessed;
  }
  const layout = values.layout ?? 'wide';
  if (layout !== 'wide' && layout !== 'long') throw new CliError(`--layout: expected wide or long, got "${layout}"`, 2);
  if (values.layout !== undefined && format !== 'csv') throw new CliError('--layout applies to --format csv only', 2);

  checkOutput(out, format, io);

  const session = loadSession(sessionPath);
  await writeOutput(out, io, () => reportContent(session, format, { csvLayout: layout, signal: io.signal }));
  const recovered = session.runs.filter((r) => r.analysisSource === 'recomputed').length;
  io.err(
    `kvscope report: ${format} report of ${session.runs.length} run(s) written to ${outputName(out)}${recovered ? ` (${recovered} run(s) recovered from an interrupted recording)` : ''}\n`,
  );
  return 0;
}

/** readSession with its errors as one CLI line. */
export function loadSession(path: string) {
  try {
    return readSession(path);
  } catch (error) {
    if (error instanceof SessionError || error instanceof SessionFileRejected) throw new CliError(error.message);
    throw new CliError(`${path}: ${(error as Error).message}`);
  }
}
