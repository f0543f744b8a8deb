// The report as ONE self-contained HTML file: inline CSS, inline SVG charts, no script, no
// external resources (a Content-Security-Policy forbids them even if something slipped through),
// every string from the session escaped. Chromium prints the same file to PDF (electron/node/session/pdf.ts).
import type { BeforeAfter } from './before-after';
import type { CompareModel, CompareRow } from './compare-model';
import { escapeHtml as e } from './escape';
import { formatTimestamp } from '../format/text';
import {
  runList,
  type ReportModel,
  type RunReport,
  type Section,
  type Finding,
  type Row,
  type RecommendationText,
} from './report-model';
import { renderSvgChart } from './svg-chart';

const SEVERITY_LABEL: Record<Finding['severity'], string> = {
  critical: 'Critical',
  warning: 'Warning',
  info: 'Advice',
  ok: 'OK',
};

export const REPORT_CSS = `
@page { size: A4; margin: 14mm 12mm; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #24292f; margin: 0; background: #f6f8fa; }
main { max-width: 980px; margin: 0 auto; padding: 24px 28px 40px; background: #fff; }
header { border-bottom: 3px solid #1f6feb; padding-bottom: 10px; margin-bottom: 18px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 30px 0 8px; padding-top: 8px; border-top: 1px solid #d0d7de; }
h3 { font-size: 15px; margin: 18px 0 6px; color: #424a53; break-after: avoid; }
.muted { color: #57606a; font-size: 12px; }
table { border-collapse: collapse; width: 100%; margin: 4px 0 10px; font-size: 13px; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eaeef2; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.kv td:first-child { color: #57606a; width: 46%; }
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 4px 24px; }
.grid > div { break-inside: avoid; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
code.cmd { display: block; white-space: pre-wrap; word-break: break-all; background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 8px; }
pre { white-space: pre-wrap; word-break: break-all; background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 8px; }
ul.findings { list-style: none; padding: 0; margin: 6px 0 12px; }
ul.findings li { border-left: 4px solid #8c959f; background: #f6f8fa; padding: 6px 10px; margin: 6px 0; border-radius: 0 6px 6px 0; break-inside: avoid; }
ul.findings li.critical { border-color: #cf222e; background: #fff1f0; }
ul.findings li.warning { border-color: #bf8700; background: #fff8e5; }
ul.findings li.info { border-color: #1f6feb; background: #f0f6ff; }
ul.findings li.ok { border-color: #1a7f37; background: #effaf1; }
.tag { display: inline-block; font-size: 11px; font-weight: 600; text-transform: uppercase; letter-spacing: .03em; margin-right: 6px; }
li.critical .tag { color: #cf222e; } li.warning .tag { color: #9a6700; } li.info .tag { color: #0550ae; } li.ok .tag { color: #1a7f37; }
code.fix { display: block; white-space: pre-wrap; word-break: break-all; margin-top: 4px; color: #24292f; }
.detail { display: block; color: #424a53; font-size: 13px; margin-top: 2px; }
ol.recommendations li { margin: 6px 0 10px; break-inside: avoid; } .effect { font-weight: 600; color: #1a7f37; }
.run-label { font-weight: 600; color: #424a53; }
figure { margin: 10px 0 16px; break-inside: avoid; }
figcaption { font-weight: 600; font-size: 13px; margin-bottom: 4px; }
svg.chart { max-width: 100%; height: auto; }
.banner { border: 1px solid #bf8700; background: #fff8e5; padding: 8px 12px; border-radius: 6px; margin: 8px 0; }
footer { margin-top: 30px; border-top: 1px solid #d0d7de; padding-top: 8px; }
@media print { body { background: #fff; } main { padding: 0; max-width: none; } h2 { break-before: auto; } }
`;

/** The page skeleton shared by reports and comparisons. */
export function htmlPage(title: string, body: string, extraCss = ''): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    // No scripts, no network: styles and data: images only.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="KVScope">',
    `<title>${e(title)}</title>`,
    `<style>${REPORT_CSS}${extraCss}</style>`,
    '</head>',
    '<body><main>',
    body,
    '</main></body>',
    '</html>',
    '',
  ].join('\n');
}

export function htmlRows(rows: readonly Row[], className = 'kv'): string {
  return `<table class="${className}"><tbody>${rows.map((r) => `<tr><td>${e(r.label)}</td><td>${e(r.value)}</td></tr>`).join('')}</tbody></table>`;
}

export function htmlTable(columns: readonly string[], rows: readonly (readonly string[])[], numericFrom = 1): string {
  const cls = (i: number) => (i >= numericFrom ? ' class="num"' : '');
  return `<table><thead><tr>${columns.map((c, i) => `<th${cls(i)}>${e(c)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${e(c)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

function findingItem(f: Finding, runLabel?: string): string {
  return `<li class="${e(f.severity)}"><span class="tag">${e(SEVERITY_LABEL[f.severity])}</span>${runLabel ? `<span class="run-label">${e(runLabel)}: </span>` : ''}${e(f.title)}${f.detail ? `<span class="detail">${e(f.detail)}</span>` : ''}${f.fix ? `<code class="fix">${e(f.fix)}</code>` : ''}</li>`;
}

function recommendationItem(r: RecommendationText): string {
  return `<li><strong>${e(r.title)}</strong><span class="detail">${e(r.change.label)}: ${e(r.change.before)} → ${e(r.change.after)} <span class="effect">(${e(r.effect)})</span></span><span class="detail">${e(r.evidence)}</span>${r.fix ? `<code class="fix">${e(r.fix)}</code>` : ''}</li>`;
}

function sectionHtml(s: Section): string {
  return `<div><h3>${e(s.title)}</h3>${htmlRows(s.rows)}</div>`;
}

function runHtml(run: RunReport, many: boolean): string {
  const parts: string[] = [];
  parts.push(`<section class="run" id="run-${run.seq}">`);
  parts.push(`<h2>${many ? `Run ${run.seq}: ` : 'Run: '}${e(run.label)}</h2>`);
  parts.push(`<code class="cmd">${e(run.engineCommand)}</code>`);
  if (run.findings.length)
    parts.push(`<h3>Findings</h3><ul class="findings">${run.findings.map((f) => findingItem(f)).join('')}</ul>`);
  if (run.recommendations.length)
    parts.push(
      `<h3>Recommendations</h3><p class="muted">Ranked by effect: what prevents an OOM kill first, then the largest gain.</p><ol class="recommendations">${run.recommendations.map(recommendationItem).join('')}</ol>`,
    );
  for (const chart of run.charts) {
    parts.push(
      `<figure><figcaption>${e(chart.title)}</figcaption>${renderSvgChart(chart)}${chart.notes.map((n) => `<p class="muted">${e(n)}</p>`).join('')}</figure>`,
    );
  }
  parts.push(`<div class="grid">${run.sections.map(sectionHtml).join('')}</div>`);
  if (run.events.length) {
    parts.push(
      `<h3>Events</h3>${htmlTable(
        ['Time', 'Event', 'Message'],
        run.events.map((ev) => [ev.time, ev.kind, ev.message]),
        9,
      )}`,
    );
  }
  if (run.stderrTail.length) parts.push(`<h3>The engine's last output</h3><pre>${e(run.stderrTail.join('\n'))}</pre>`);
  parts.push(
    `<p class="muted">Run id ${e(run.id)}, state ${e(run.state)}, analysis ${run.analysisSource === 'stored' ? 'as stored at the end of the run' : 'recomputed from the stored samples'}.</p>`,
  );
  parts.push('</section>');
  return parts.join('\n');
}

export function renderReportHtml(model: ReportModel): string {
  const body: string[] = [];
  body.push(
    `<header><h1>${e(model.title)}</h1><div class="muted">Session created ${e(formatTimestamp(model.createdAt))} · KVScope ${e(model.appVersion)} · ${model.runs.length} run${model.runs.length === 1 ? '' : 's'}</div></header>`,
  );
  if (model.highlights.length) {
    const many = model.runs.length > 1;
    body.push(
      `<h2>Summary</h2><ul class="findings">${model.highlights.map((f) => findingItem(f, many ? runList(f.runs, model.runs.length) : undefined)).join('')}</ul>`,
    );
  }
  if (model.target.length) body.push(`<h2>Target</h2>${htmlRows(model.target)}`);
  if (model.board.length)
    body.push(`<h3>Board check</h3><ul class="findings">${model.board.map((f) => findingItem(f)).join('')}</ul>`);
  if (model.overview) body.push(`<h2>Runs</h2>${htmlTable(model.overview.columns, model.overview.rows, 2)}`);
  if (model.sweep) {
    body.push(
      `<h2>Context sweep</h2><figure><figcaption>${e(model.sweep.chart.title)}</figcaption>${renderSvgChart(model.sweep.chart)}</figure>`,
    );
    body.push(
      `<div class="grid"><div>${htmlRows(model.sweep.rows)}</div><div>${htmlTable(model.sweep.table.columns, model.sweep.table.rows)}</div></div>`,
    );
  }
  for (const run of model.runs) body.push(runHtml(run, model.runs.length > 1));
  if (model.runs.length === 0) body.push('<p>This session holds no runs.</p>');
  body.push(
    `<footer class="muted">Every number in this report comes from KVScope's analysis of the samples stored in the session file. Memory sizes in binary units (1 KiB = 1,024 bytes).</footer>`,
  );
  return htmlPage(model.title, body.join('\n'));
}

const VERDICT_CLASS: Record<'better' | 'worse' | 'same', string> = { better: 'better', worse: 'worse', same: 'same' };
const COMPARE_CSS = `td.better { color: #1a7f37; font-weight: 600; } td.worse { color: #cf222e; font-weight: 600; } td.same { color: #57606a; }
table.compare td:nth-child(2), table.compare td:nth-child(3) { word-break: break-word; }`;

/** One row of a compare table: label, A, B (the engine's command as code) and the change with its verdict. */
function compareRowHtml(r: CompareRow): string {
  const cell = (v: string) => (r.label === 'Engine' ? `<code>${e(v)}</code>` : e(v));
  const verdict = r.verdict === 'better' || r.verdict === 'worse' ? ` (${r.verdict})` : '';
  return `<tr><td>${e(r.label)}</td><td>${cell(r.a)}</td><td>${cell(r.b)}</td><td class="num${r.verdict ? ` ${VERDICT_CLASS[r.verdict]}` : ''}">${e(r.delta)}${verdict}</td></tr>`;
}

/** The before/after tables of one compared pair (shared/report/before-after.ts). */
function beforeAfterHtml(ba: BeforeAfter): string {
  const changed = ba.changed.length
    ? htmlTable(
        ['What changed', 'A', 'B'],
        ba.changed.map((r) => [r.label, r.a, r.b]),
        9,
      )
    : '<p class="muted">Nothing changed in the setup: the same run, twice.</p>';
  const bought = `<table class="compare before-after"><thead><tr><th>What it bought</th><th>A</th><th>B</th><th class="num">Change</th></tr></thead><tbody>${ba.bought.map(compareRowHtml).join('')}</tbody></table>`;
  return `<h3>Before → after</h3>${changed}${bought}`;
}

/** `kvscope compare` as one self-contained HTML file. */
export function renderCompareHtml(model: CompareModel): string {
  const body: string[] = [];
  body.push(`<header><h1>${e(model.title)}</h1><div class="muted">Change = (B − A) ÷ A</div></header>`);
  body.push(
    htmlRows([
      {
        label: 'A',
        value: `${model.a.name} — ${model.a.report.runs.length} run(s), created ${formatTimestamp(model.a.report.createdAt)}`,
      },
      {
        label: 'B',
        value: `${model.b.name} — ${model.b.report.runs.length} run(s), created ${formatTimestamp(model.b.report.createdAt)}`,
      },
    ]),
  );
  for (const note of model.notes) body.push(`<p class="banner">${e(note)}</p>`);
  for (const pair of model.pairs) {
    body.push(`<h2>${e(pair.title)}</h2>`);
    if (pair.headline.length) body.push(`<ul>${pair.headline.map((h) => `<li>${e(h)}</li>`).join('')}</ul>`);
    body.push(
      `<table class="compare"><thead><tr><th></th><th>A</th><th>B</th><th class="num">Change</th></tr></thead><tbody>${pair.rows.map(compareRowHtml).join('')}</tbody></table>`,
    );
    body.push(beforeAfterHtml(pair.beforeAfter));
  }
  if (model.target.length)
    body.push(
      `<h2>Targets</h2>${htmlTable(
        ['', 'A', 'B'],
        model.target.map((r) => [r.label, r.a, r.b]),
        9,
      )}`,
    );
  body.push(
    `<footer class="muted">Every number comes from KVScope's analysis of the samples stored in each session.</footer>`,
  );
  return htmlPage(model.title, body.join('\n'), COMPARE_CSS);
}
