// tegrastats (NVIDIA Jetson) → `kind: "tegrastats"` records, one per output line.
//
// Format reference: NVIDIA's "tegrastats Utility / Reported Statistics" tables (L4T 32.x Development
// Guide, DRIVE OS 6 SDK): `RAM X/Y (lfb NxZ)`, `SWAP X/Y (cached Z)`, `IRAM X/Y (lfb Z)`,
// `CPU [X%,Y%]@Z` or `CPU [X%@Z,…]` (`off` for an offline core), `EMC_FREQ X%@Y`, `GR3D_FREQ X%@[Y,…]`,
// `<engine> X%@Y` or `<engine> Y`, `name@XC` temperatures, `<rail> X/Y` power (current/average mW).
// Checked against real lines from: TX1 (L4T 24, oldest: lowercase `cpu [..]@F`, `EMC`/`GR3D` without
// `_FREQ`, `EDP limit`), TX2 (L4T 28 with unitless rails, L4T 32 non-root), TX2 NX (JetPack 4.6,
// `off` cores, no rails), Nano (JetPack 4.6, IRAM, POM_5V_* rails), Xavier NX (JetPack 4.x and 5.1.2
// with timestamp and mW rails), AGX Xavier (JetPack 4.2: rail names `GPU`/`CPU` equal to temperature
// names), Orin Nano (JetPack 6, non-root), AGX Orin (JetPack 5/6: `GR3D_FREQ 0%@[0,0]`, `-256C`
// sensors, duplicate `NC` rails, `NVENC 79%@166`), and JetPack 7 (Thor) shapes written from the
// format: `@[F,F,F]`, `EMC_FREQ @F` without load, `cpu@52.9C/53.1C`, rails `cur/avg/max`.
//
// The line is read by tegrastats-fields.ts (its tokens found in one pass over its characters,
// then one reader per field, like jetson-stats' tegra_parse.py); a token nobody knows is kept in
// `unknown` instead of derailing the rest. This file adds what needs more than one line: re-joining a record a terminal wrapped.

import { capLines, type LineCapOptions } from './line-cap';
import {
  diagnostic,
  isBlankLine,
  isCommentLine,
  type Diagnostic,
  type LineParser,
  type TegrastatsRecord,
} from './records';
import { RECORD_START_RE, readLine, type LineParse } from './tegrastats-fields';

export { MAX_UNKNOWN_TOKENS, SENSOR_OFF_AT_OR_BELOW_C } from './tegrastats-fields';

/** A record split by terminal wrapping is re-joined over at most this many physical lines. */
export const MAX_WRAPPED_LINES = 4;

/** What a reading of `text` gives: its record, or a diagnostic when nothing in it is readable. */
function output(parsed: LineParse, text: string, line: number): TegrastatsRecord | Diagnostic {
  return parsed.fields === 0 ? diagnostic(line, 'not a tegrastats line', text) : parsed.record;
}

/** Parse one line on its own (no re-joining of wrapped lines): a record, or a diagnostic when nothing in it is readable. */
export function parseTegrastatsLine(text: string, line: number): TegrastatsRecord | Diagnostic {
  return output(readLine(text, line), text, line);
}

/**
 * Streaming parser. A record-start line that stops where a value is still expected (`… CPU ` at the
 * end, an unclosed `[`) is held: if the next line does not start a record it is the rest of the
 * wrapped record and both are read as one. At most MAX_WRAPPED_LINES are joined.
 */
export function createTegrastatsParser(options: LineCapOptions = {}): LineParser<TegrastatsRecord | Diagnostic> {
  let lineNo = 0;
  /** A record start that may go on on the next line, with its reading so far (not read twice). */
  let held: { text: string; line: number; parts: number; parsed: LineParse } | null = null;

  const flushHeld = (): Array<TegrastatsRecord | Diagnostic> => {
    if (!held) return [];
    const { parsed, text, line } = held;
    held = null;
    return [output(parsed, text, line)];
  };

  return capLines(
    {
      push(text: string) {
        lineNo++;
        if (isBlankLine(text) || isCommentLine(text)) return flushHeld();
        const startsRecord = RECORD_START_RE.test(text);
        let out: Array<TegrastatsRecord | Diagnostic>;
        let candidate: { text: string; line: number; parts: number };
        if (held && !startsRecord) {
          // Continuation of a wrapped record. A terminal wrap keeps every character, so the space of a
          // cut between tokens is on one side; a paste may have trimmed it, and a cut inside a token has
          // none. Without a space at the cut, take whichever reading leaves fewer unknown tokens.
          let joined = held.text + text;
          if (!/\s$/.test(held.text) && !/^\s/.test(text)) {
            const spaced = held.text + ' ' + text;
            if (readLine(spaced, held.line).record.unknownCount <= readLine(joined, held.line).record.unknownCount)
              joined = spaced;
          }
          candidate = { text: joined, line: held.line, parts: held.parts + 1 };
          held = null;
          out = [];
        } else {
          out = flushHeld();
          candidate = { text, line: lineNo, parts: 1 };
        }
        const parsed = readLine(candidate.text, candidate.line);
        // A joined candidate starts with the held record start, so it starts a record too.
        const candidateStartsRecord = candidate.parts > 1 || startsRecord;
        if (parsed.mayContinue && candidateStartsRecord && candidate.parts < MAX_WRAPPED_LINES) {
          held = { ...candidate, parsed };
          return out;
        }
        out.push(output(parsed, candidate.text, candidate.line));
        return out;
      },
      end() {
        return flushHeld();
      },
    },
    options.maxLineChars,
  );
}
