// Everything in a session may come from the board: engine commands, engine output, event messages,
// labels, target facts. The HTML and Markdown reports must show it as text, never run it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeMarkdown, markdownBlock, markdownCode } from '../../../../shared/report/escape';
import { buildReportModel } from '../../../../shared/report/report-model';
import { renderCompareHtml, renderReportHtml } from '../../../../shared/report/render-html';
import { renderCompareMarkdown, renderReportMarkdown } from '../../../../shared/report/render-markdown';
import { buildCompareModel } from '../../../../shared/report/compare-model';
import { finishedRun, HOSTILE_COMMAND, session } from '../../../helpers/session-fixtures';

const SCRIPT = '<script>alert(1)</script>';

/** Markdown with fenced blocks and code spans removed (CommonMark: their content is literal text). */
function withoutCode(md: string): string {
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of md.split('\n')) {
    if (fence !== null) {
      if (line.trimEnd() === fence) fence = null;
      continue;
    }
    const opening = /^`{3,}/.exec(line);
    if (opening) fence = opening[0];
    else kept.push(withoutCodeSpans(line));
  }
  return kept.join('\n');
}

/** A run of n backticks opens a code span that the next run of exactly n backticks closes. */
function withoutCodeSpans(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '`') {
      out += text[i];
      i++;
      continue;
    }
    let n = 0;
    while (text[i + n] === '`') n++;
    let close = -1;
    for (let j = i + n; j < text.length;) {
      if (text[j] !== '`') {
        j++;
        continue;
      }
      let m = 0;
      while (text[j + m] === '`') m++;
      if (m === n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close < 0) {
      out += '`'.repeat(n);
      i += n;
    } else i = close + n;
  }
  return out;
}

/** The inside of every tag: what lies between each '<' and the next '>'. */
function tagsOf(html: string): string[] {
  return html
    .split('<')
    .slice(1)
    .map((chunk) => chunk.split('>')[0] ?? '');
}
const IMG = '"><img src=x onerror=alert(2)>';

function hostileSession() {
  const base = finishedRun();
  const run = finishedRun({
    label: `run ${SCRIPT}`,
    engine: { ...base.engine!, command: HOSTILE_COMMAND },
    events: [...base.events, { tMs: 5000, kind: 'alert', message: `engine said ${IMG}` }],
    error: `failed ${SCRIPT}`,
    outcome: { ...base.outcome!, stderrTail: [`error: ${IMG}`, '</pre><script>alert(3)</script>'] },
  });
  return session([run], { kind: 'ssh', label: `board ${IMG}`, hostname: SCRIPT, arch: 'aarch64' });
}

describe('HTML report escaping', () => {
  const html = renderReportHtml(buildReportModel(hostileSession()));

  it('shows hostile strings as text', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(tagsOf(html).filter((t) => /onerror/i.test(t))).toEqual([]);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(html).toContain('&lt;/pre&gt;&lt;script&gt;alert(3)&lt;/script&gt;');
    // The engine command is shown whole, quotes included.
    expect(html).toContain(escapeHtml(HOSTILE_COMMAND));
  });

  it('is one self-contained file: no script, no external resource, a CSP that forbids both', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    );
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(tagsOf(html).filter((t) => /\b(?:src|href)\s*=/i.test(t))).toEqual([]);
    expect(html).toMatch(/<svg [^>]*class="chart"/);
  });

  it('the comparison escapes the same way', () => {
    const cmp = renderCompareHtml(
      buildCompareModel(hostileSession(), hostileSession(), { a: `a${SCRIPT}.kvscope`, b: 'b.kvscope' }),
    );
    expect(cmp).not.toMatch(/<script/i);
    expect(cmp).not.toMatch(/<img/i);
    expect(cmp).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('escapeHtml: any string round-trips through the five entities and has no markup left', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = escapeHtml(s);
        expect(out).not.toMatch(/[<>"']/);
        const back = out
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&amp;/g, '&');
        // eslint-disable-next-line no-control-regex -- the characters escapeHtml drops are control characters
        expect(back).toBe(s.replace(/[\u0000-\u0008\v\f\u000e-\u001f\u007f-\u009f\ufffe\uffff]/g, ''));
      }),
    );
  });
});

describe('Markdown report escaping', () => {
  const md = renderReportMarkdown(buildReportModel(hostileSession()));

  it('no raw HTML from the session outside code (code spans and blocks show text verbatim)', () => {
    const prose = withoutCode(md);
    expect(prose).not.toMatch(/<script/i);
    expect(prose).not.toMatch(/<img/i);
    expect(prose).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // The stderr tail is in a fenced block whose fence no backtick run inside can close.
    expect(md).toContain('```text\nerror: "><img src=x onerror=alert(2)>\n</pre><script>alert(3)</script>\n```');
  });

  it("no control character in code spans and blocks: `cat report.md` must not run an engine's escape sequences", () => {
    expect(markdownCode('a\u001b]0;x\u0007b\u009b2J')).toBe('`a]0;xb2J`');
    // A control character between backtick runs is dropped before the fence is chosen.
    expect(markdownBlock('``\u0001``')).toBe('`````text\n````\n`````');
    expect(markdownBlock('ok\u001b[2J\r\nnext')).toBe('```text\nok[2J\nnext\n```');
  });

  it('the engine command sits whole in a code span', () => {
    expect(md).toContain(`Engine: ${markdownCode(HOSTILE_COMMAND)}`);
    expect(markdownCode('a `b` c')).toBe('``a `b` c``');
    expect(markdownCode('x|y', true)).toBe('`x\\|y`');
  });

  it('table rows keep their columns whatever the cells hold', () => {
    const cells = (line: string) => line.replace(/\\\|/g, '').split('|').length;
    let header: number | null = null;
    for (const line of md.split('\n')) {
      if (!line.startsWith('|')) {
        header = null;
        continue;
      }
      header ??= cells(line);
      expect(cells(line)).toBe(header);
    }
  });

  it('escapeMarkdown leaves no inline syntax active', () => {
    expect(escapeMarkdown('*bold* _it_ `code` [a](b) ~~s~~ | x')).toBe(
      '\\*bold\\* \\_it\\_ \\`code\\` \\[a\\](b) \\~\\~s\\~\\~ \\| x',
    );
    expect(escapeMarkdown('q8_0 and f16')).toBe('q8_0 and f16');
    expect(escapeMarkdown('line1\nline2')).toBe('line1 line2');
    // Quotes are prose in Markdown: printed as they are (a raw viewer showed "mmap&#39;d"); tags stay inert.
    expect(escapeMarkdown(`mmap'd "weights" <b>x</b> &amp;quot;`)).toBe(
      `mmap'd "weights" &lt;b&gt;x&lt;/b&gt; &amp;amp;quot;`,
    );
    expect(
      withoutCode(
        renderCompareMarkdown(
          buildCompareModel(hostileSession(), hostileSession(), { a: 'a.kvscope', b: 'b.kvscope' }),
        ),
      ),
    ).not.toMatch(/<script/i);
  });
});
