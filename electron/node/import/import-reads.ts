// What the log readers of an import give (import-log.ts runs them; one reader per log kind).

/**
 * One line's result, whatever reader made it: a sample at a time, a diagnostic (an unreadable line),
 * or a note on a line that was read (its clock stepped back or jumped), kept as an event at `tMs`.
 */
export type Read =
  | { kind: 'sample'; tMs: number; values: Record<string, number | null> }
  /**
   * `tMs`: the time of the reading before it, when the reader knows it better than the last sample out.
   * `notKept`: the line was read, and every reading on it is one KVScope keeps no series of (another
   * block's clock, a voltage): kept with its reason like any diagnostic, not counted as unreadable.
   */
  | { kind: 'diagnostic'; line: number; reason: string; text: string; tMs?: number; notKept?: true }
  /** `line`: where the note's reading is, when the reader knows it (perf's is known only at its interval's end). */
  | { kind: 'note'; tMs: number; line?: number; message: string };

/** A reader of one kind of log: lines in, samples and diagnostics out (engine-log records kept in `log`). */
export interface LogReader {
  push(text: string, droppedChars: number, lineNo: number): Read[];
  end(): Read[];
  /** The clock time (ms since the epoch) of tMs 0, when the log prints times of day. */
  clockStartMs?(): number | null;
  /**
   * The lines where another program run starts in the log (a llama.cpp log appended to by several
   * runs): each is imported as a run of its own. Empty or absent: the log is one run.
   */
  runStarts?(): number[];
}
