// The report as Markdown (GitHub-flavoured tables): the same model as the HTML report, without
// the charts. Every string from the session is escaped (escapeMarkdown) or put in a code span.
import { escapeMarkdown as m, markdownBlock, markdownCode } from './escape';
import { formatTimestamp } from '../format/text';
import type { CompareModel, CompareRow } from './compare-model';
import {
  runList,
  type Finding,
  type ReportModel,
  type Row,
  type RecommendationText,
  type RunReport,
} from './report-model';

const SEVERITY_LABEL: Record<Finding['severity'], string> = {
  critical: '**Critical**',
  warning: '**Warning**',
  info: 'Advice',
  ok: 'OK',
};

export function markdownRows(rows: readonly Row[], header: [string, string] = ['', '']): string {
  return [
    `| ${m(header[0])} | ${m(header[1])} |`,
    '| --- | --- |',
    ...rows.map((r) => `| ${m(r.label)} | ${m(r.value)} |`),
  ].join('\n');
}

export function markdownTable(
  columns: readonly string[],
  rows: readonly (readonly string[])[],
  numericFrom = 1,
): string {
  const align = columns.map((_, i) => (i >= numericFrom ? '---:' : '---'));
  return [
    `| ${columns.map(m).join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(m).join(' | ')} |`),
  ].join('\n');
}

function findingLine(f: Finding, runLabel?: string): string {
  return `- ${SEVERITY_LABEL[f.severity]}: ${runLabel ? `${m(runLabel)}: ` : ''}${m(f.title)}${f.detail ? `  \n  ${m(f.detail)}` : ''}${f.fix ? `  \n  Fix: ${markdownCode(f.fix)}` : ''}`;
}

function recommendationLine(r: RecommendationText, rank: number): string {
  const change = `${r.change.label}: ${r.change.before} → ${r.change.after} (${r.effect})`;
  return `${rank}. ${m(r.title)}  \n   ${m(change)}  \n   ${m(r.evidence)}${r.fix ? `  \n   Change: ${markdownCode(r.fix)}` : ''}`;
}

/** A heading or paragraph, then its body, each block followed by a blank line. */
function section(heading: string, ...body: string[]): string[] {
  return [heading, '', ...body.flatMap((b) => [b, ''])];
}

const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`;

function runMarkdown(run: RunReport, many: boolean): string {
  const out: string[] = [];
  out.push(...section(`## ${many ? `Run ${run.seq}: ` : 'Run: '}${m(run.label)}`));
  out.push(`Engine: ${markdownCode(run.engineCommand)}`, '');
  if (run.findings.length) out.push('### Findings', '', ...run.findings.map((f) => findingLine(f)), '');
  if (run.recommendations.length)
    out.push(
      ...section('### Recommendations', 'Ranked by effect: what prevents an OOM kill first, then the largest gain.'),
      ...run.recommendations.map((r, i) => recommendationLine(r, i + 1)),
      '',
    );
  for (const s of run.sections) out.push(...section(`### ${m(s.title)}`, markdownRows(s.rows, ['', 'Value'])));
  if (run.events.length) {
    const events = run.events.map((e) => [e.time, e.kind, e.message]);
    out.push(...section('### Events', markdownTable(['Time', 'Event', 'Message'], events, 9)));
  }
  if (run.stderrTail.length)
    out.push(...section("### The engine's last output", markdownBlock(run.stderrTail.join('\n'))));
  out.push(
    `Run id ${markdownCode(run.id)}, analysis ${run.analysisSource === 'stored' ? 'as stored at the end of the run' : 'recomputed from the stored samples'}.`,
    '',
  );
  return out.join('\n');
}

export function renderReportMarkdown(model: ReportModel): string {
  const out: string[] = [];
  out.push(
    ...section(
      `# ${m(model.title)}`,
      `Session created ${m(formatTimestamp(model.createdAt))} · KVScope ${m(model.appVersion)} · ${runs(model.runs.length)}`,
    ),
  );
  if (model.highlights.length) {
    const many = model.runs.length > 1;
    out.push(
      '## Summary',
      '',
      ...model.highlights.map((f) => findingLine(f, many ? runList(f.runs, model.runs.length) : undefined)),
      '',
    );
  }
  if (model.target.length) out.push(...section('## Target', markdownRows(model.target, ['Fact', 'Value'])));
  if (model.board.length) out.push('### Board check', '', ...model.board.map((f) => findingLine(f)), '');
  if (model.overview) out.push(...section('## Runs', markdownTable(model.overview.columns, model.overview.rows, 2)));
  if (model.sweep)
    out.push(
      ...section(
        '## Context sweep',
        markdownRows(model.sweep.rows, ['', 'Value']),
        markdownTable(model.sweep.table.columns, model.sweep.table.rows),
      ),
    );
  for (const run of model.runs) out.push(runMarkdown(run, model.runs.length > 1));
  if (model.runs.length === 0) out.push('This session holds no runs.', '');
  out.push(
    ...section(
      '---',
      "Every number in this report comes from KVScope's analysis of the samples stored in the session file. Charts are in the HTML report (`kvscope report <session> --format html`).",
    ),
  );
  return out.join('\n');
}

const VERDICT_MD: Record<'better' | 'worse' | 'same', string> = { better: ' (better)', worse: ' (worse)', same: '' };

/** A compare row's cells: label, A, B, the change with its verdict. */
const compareCells = (r: CompareRow): string[] => [
  r.label,
  r.a,
  r.b,
  `${r.delta}${r.verdict ? VERDICT_MD[r.verdict] : ''}`,
];

/** `kvscope compare` as Markdown. */
export function renderCompareMarkdown(model: CompareModel): string {
  const out: string[] = [];
  out.push(...section(`# ${m(model.title)}`));
  for (const [letter, side] of [
    ['A', model.a],
    ['B', model.b],
  ] as const)
    out.push(
      `- ${letter}: ${markdownCode(side.name)} (${runs(side.report.runs.length)}, created ${m(formatTimestamp(side.report.createdAt))})`,
    );
  out.push('');
  for (const note of model.notes) out.push(`> ${m(note)}`, '');
  for (const pair of model.pairs) {
    out.push(...section(`## ${m(pair.title)}`));
    if (pair.headline.length) out.push(...pair.headline.map((h) => `- ${m(h)}`), '');
    out.push(markdownTable(['', 'A', 'B', 'Change'], pair.rows.map(compareCells)), '');
    const ba = pair.beforeAfter;
    out.push(
      '### Before → after',
      '',
      ba.changed.length
        ? markdownTable(
            ['What changed', 'A', 'B'],
            ba.changed.map((r) => [r.label, r.a, r.b]),
          )
        : '_Nothing changed in the setup: the same run, twice._',
      '',
      markdownTable(['What it bought', 'A', 'B', 'Change'], ba.bought.map(compareCells)),
      '',
    );
  }
  if (model.target.length) {
    const targets = model.target.map((r) => [r.label, r.a, r.b]);
    out.push(...section('## Targets', markdownTable(['', 'A', 'B'], targets)));
  }
  out.push(
    ...section(
      '---',
      "Change = (B − A) ÷ A. Every number comes from KVScope's analysis of the samples stored in each session.",
    ),
  );
  return out.join('\n');
}
