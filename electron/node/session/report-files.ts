// Writing a report of a session to a file, in any of the formats of `kvscope report` — shared by
// `kvscope report`, `kvscope profile --report` and `kvscope compare`.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { buildCompareModel } from '../../../shared/report/compare-model';
import { buildReportModel } from '../../../shared/report/report-model';
import { renderCompareHtml, renderReportHtml } from '../../../shared/report/render-html';
import { renderCompareMarkdown, renderReportMarkdown } from '../../../shared/report/render-markdown';
import { renderSamplesCsv, type CsvLayout } from '../../../shared/report/render-csv';
import { renderSummaryJson } from '../../../shared/report/render-json';
import { renderPerfettoJson } from '../../../shared/report/render-perfetto';
import { renderPrometheus } from '../../../shared/report/render-prometheus';
import type { SessionData } from '../../../shared/report/session-data';
import { htmlToPdfBytes } from './pdf';
import { isSessionFile, SessionError } from './session-store';

export const REPORT_FORMATS = ['html', 'md', 'csv', 'json', 'pdf', 'perfetto', 'prometheus'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function isReportFormat(text: string): text is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(text);
}

/** The format a file name asks for: .html/.htm, .md/.markdown, .csv, .pdf, .json; .trace.json / .perfetto.json = perfetto. */
export function formatFromFileName(file: string): ReportFormat | null {
  const lower = file.toLowerCase();
  if (lower.endsWith('.trace.json') || lower.endsWith('.perfetto.json') || lower.endsWith('.perfetto'))
    return 'perfetto';
  const ext = extname(lower);
  const map: Record<string, ReportFormat> = {
    '.html': 'html',
    '.htm': 'html',
    '.md': 'md',
    '.markdown': 'md',
    '.csv': 'csv',
    '.json': 'json',
    '.pdf': 'pdf',
    '.prom': 'prometheus',
  };
  return map[ext] ?? null;
}

/** `signal` stops a PDF's printing (Ctrl-C on `kvscope report`); the text formats are written at once. */
type ReportOptions = { csvLayout?: CsvLayout; signal?: AbortSignal };

/** The renderer of each format written as text (every format but PDF). */
const TEXT_RENDERERS: Record<Exclude<ReportFormat, 'pdf'>, (session: SessionData, options: ReportOptions) => string> = {
  html: (session) => renderReportHtml(buildReportModel(session)),
  md: (session) => renderReportMarkdown(buildReportModel(session)),
  csv: (session, options) => renderSamplesCsv(session, options.csvLayout),
  json: (session) => renderSummaryJson(session),
  perfetto: (session) => renderPerfettoJson(session),
  prometheus: (session) => renderPrometheus(session),
};

/** The report as text (every format but PDF). */
export function renderReport(
  session: SessionData,
  format: Exclude<ReportFormat, 'pdf'>,
  options: ReportOptions = {},
): string {
  return TEXT_RENDERERS[format](session, options);
}

/**
 * A report or comparison never replaces a session: `-o` naming one — the input itself, or a
 * neighbour reached by tab completion — destroyed the recording with no way back.
 */
export function refuseSessionOverwrite(outPath: string): void {
  if (isSessionFile(outPath)) throw new SessionError(`${outPath} is a KVScope session: not writing a report over it`);
}

/** The report in any format: text, or a PDF's bytes (printed by the system Chromium, pdf.ts). */
export async function reportContent(
  session: SessionData,
  format: ReportFormat,
  options: ReportOptions = {},
): Promise<string | Buffer> {
  if (format === 'pdf') return htmlToPdfBytes(renderReportHtml(buildReportModel(session)), { signal: options.signal });
  return renderReport(session, format, options);
}

/**
 * Why a report cannot be written at `outPath`, found before any work (`profile --report` learnt it
 * only after the whole run), or null: a session there, a directory, a folder that does not exist.
 */
export function reportPathProblem(outPath: string): string | null {
  if (existsSync(outPath)) {
    if (statSync(outPath).isDirectory()) return 'is a directory';
    if (isSessionFile(outPath)) return 'is a KVScope session: not writing a report over it';
    return null;
  }
  return existsSync(dirname(resolve(outPath))) ? null : 'its folder does not exist';
}

export async function writeReport(
  session: SessionData,
  format: ReportFormat,
  outPath: string,
  options: ReportOptions = {},
): Promise<void> {
  refuseSessionOverwrite(outPath);
  writeFileSync(outPath, await reportContent(session, format, options));
}

export const COMPARE_FORMATS = ['md', 'html', 'pdf'] as const satisfies readonly ReportFormat[];
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

export function isCompareFormat(text: string): text is CompareFormat {
  return (COMPARE_FORMATS as readonly string[]).includes(text);
}

export function compareFormatFromFileName(file: string): CompareFormat | null {
  const f = formatFromFileName(file);
  return f !== null && isCompareFormat(f) ? f : null;
}

/** The comparison of two sessions: Markdown or HTML text, or a PDF's bytes. */
export async function comparisonContent(
  a: SessionData,
  b: SessionData,
  names: { a: string; b: string },
  format: CompareFormat,
  signal?: AbortSignal,
): Promise<string | Buffer> {
  const model = buildCompareModel(a, b, names);
  if (format === 'md') return renderCompareMarkdown(model);
  if (format === 'html') return renderCompareHtml(model);
  return htmlToPdfBytes(renderCompareHtml(model), { signal });
}
