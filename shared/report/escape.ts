// Escaping for reports. Everything a session holds may come from the board — engine commands,
// engine output, event messages, labels, target facts — and is treated as hostile text.
import { maxOf } from '../util/extremes';

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text for HTML/SVG element content and quoted attribute values. Control characters other than
 * tab and newline are dropped (they are invalid in XML, hence in inline SVG).
 */
export function escapeHtml(value: unknown): string {
  return withoutControls(plainText(value)).replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c);
}

/**
 * Control characters other than tab, newline and CR dropped (C1 included): invalid in XML, and a
 * terminal showing a Markdown report (`cat report.md`) would run the escape sequences an engine
 * printed (window title, clipboard, screen).
 */
function withoutControls(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is what this pattern is for
  return text.replace(/[\u0000-\u0008\v\f\u000e-\u001f\u007f-\u009f\ufffe\uffff]/g, '');
}

/** Any value as text: nothing as "", numbers and booleans as written, objects as JSON (never "[object Object]"). */
function plainText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * Text for Markdown prose and table cells: HTML-significant characters as entities (many viewers
 * render inline HTML), inline Markdown syntax backslash-escaped, line breaks as spaces.
 */
export function escapeMarkdown(value: unknown): string {
  // Every string lands after a list marker or inside a table cell, so only inline syntax matters:
  // emphasis, code spans, links, strikethrough, cell separators. Intra-word `_` (q8_0) is inert.
  // Of HTML's characters only & < > become entities: with `<` escaped no tag (hence no attribute)
  // can open, so quotes stay as they are (a viewer showing the text raw printed "mmap&#39;d").
  return withoutControls(plainText(value))
    .replace(/[&<>]/g, (c) => HTML_ENTITIES[c] ?? c)
    .replace(/\r\n|\r|\n/g, ' ')
    .replace(/[\\`*[\]~|]/g, '\\$&')
    .replace(/_/g, (u, i: number, all: string) =>
      /[a-z0-9]/i.test(all[i - 1] ?? '') && /[a-z0-9]/i.test(all[i + 1] ?? '') ? u : '\\_',
    );
}

/**
 * An inline code span holding `value` verbatim: fenced with more backticks than the longest run
 * inside it (CommonMark), on one line. Markdown does not interpret HTML inside code spans.
 */
export function markdownCode(value: unknown, inTableCell = false): string {
  const text = withoutControls(plainText(value)).replace(/\r\n|\r|\n/g, ' ');
  const longest = maxOf(
    (text.match(/`+/g) ?? []).map((m) => m.length),
    0,
  );
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || text.startsWith(' ') ? ' ' : '';
  // `|` inside a table cell would still split the cell in GFM, even within a code span.
  return `${fence}${pad}${inTableCell ? text.replace(/\|/g, '\\|') : text}${pad}${fence}`;
}

/** A fenced code block holding `value` verbatim (the fence is longer than any backtick run inside). */
export function markdownBlock(value: string): string {
  const text = withoutControls(value).replace(/\r\n|\r/g, '\n');
  const longest = maxOf(
    (text.match(/`+/g) ?? []).map((m) => m.length),
    2,
  );
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}
