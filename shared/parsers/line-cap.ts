// The longest line a parser reads, and what happens to a longer one.
//
// No real line of the tools read here comes near this: a tegrastats line of a 14-core Thor with
// every engine and rail is about 1 KiB, a perf/pmap/sysfs line under 300 bytes, a llama.cpp log
// line under 4 KiB (print_info per-layer lists of a 128-layer model, ~1 KiB). A longer line is
// damage (a binary stream, a missing newline) or hostile, and without a cap it costs memory and
// parse time in proportion to whatever a board or a file sends. Every parser is linear in its
// input (test/unit/shared/parsers/linear-time.test.ts), so the cap bounds the cost of one line.
//
// What is cut: the line's first MAX_LINE_CHARS characters are kept, the rest is dropped (the line
// splitter drops it while streaming, never buffering it). The line becomes a diagnostic that keeps
// the cut text and says how many characters were dropped; the parser itself sees an empty line in
// its place (so its line count stays right and a record being gathered ends there, as it would at
// a blank line). Known casualty: llama-server's verbose log of a whole completion response over
// 64 KiB (a long generation) loses its `timings` — as a diagnostic, not silently.

import { diagnostic, type Diagnostic, type LineParser } from './records';

/** Characters (UTF-16 code units) of one line kept for parsing. 64 KiB: see the comment above. */
export const MAX_LINE_CHARS = 64 * 1024;

/** Every parser factory takes this: tests raise the cap to time a parser on lines of megabytes. */
export interface LineCapOptions {
  /** Default MAX_LINE_CHARS. */
  maxLineChars?: number;
}

/** The diagnostic reason of a cut line (its kept text is the diagnostic's `text`). */
export function cutReason(droppedChars: number, maxChars: number = MAX_LINE_CHARS): string {
  return `line longer than ${maxChars} characters: ${droppedChars} characters dropped`;
}

/**
 * The first `maxChars` characters of `text` (one less when the cut would split a surrogate pair)
 * and how many were dropped.
 */
export function capText(text: string, maxChars: number = MAX_LINE_CHARS): { kept: string; droppedChars: number } {
  if (text.length <= maxChars) return { kept: text, droppedChars: 0 };
  let end = maxChars;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return { kept: text.slice(0, end), droppedChars: text.length - end };
}

/**
 * A parser that enforces the cap before `inner` sees a line: a line over MAX_LINE_CHARS (or one the
 * line splitter already cut, `droppedChars` > 0) becomes a diagnostic and `inner` gets an empty line.
 * Every parser factory in this folder returns its parser wrapped in this (or capNumberedLines), so
 * callers that push lines directly (a live engine's stderr) are capped too.
 */
export function capLines<R extends { kind: string; line: number }>(
  inner: LineParser<R>,
  maxChars: number = MAX_LINE_CHARS,
): LineParser<R | Diagnostic> {
  return capNumberedLines(
    (text) => inner.push(text),
    () => inner.end(),
    maxChars,
  );
}

/**
 * capLines for a parser written as two functions: `push` gets each line with its 1-based number
 * (the one a cut line's diagnostic carries), so the parser keeps no line counter of its own.
 */
export function capNumberedLines<R extends { kind: string; line: number }>(
  push: (text: string, line: number) => R[],
  end: () => R[],
  maxChars: number = MAX_LINE_CHARS,
): LineParser<R | Diagnostic> {
  let lineNo = 0;
  return {
    push(line: string, droppedChars = 0) {
      lineNo++;
      const { kept, droppedChars: more } = capText(line, maxChars);
      const dropped = droppedChars + more;
      if (dropped === 0) return push(line, lineNo);
      return [...push('', lineNo), diagnostic(lineNo, cutReason(dropped, maxChars), kept)];
    },
    end,
  };
}
