// A log captured on a board without a link to KVScope → a session holding one run (one per program
// run of a llama.cpp log several programs appended to), which the dashboard opens and `kvscope
// report` reports like a recorded one. Run by `kvscope import` (electron/node/cli/commands/import.ts)
// and by the app's Sessions view (importSessionLog).
//
// Each kind is read by the reader the live run uses, so an imported run has the same series keys:
// tegrastats by shared/parsers/tegrastats-parser.ts + tegrastatsValues (the tegrastats collector's
// record → values mapping), perf and pmap by their collectors' parsers (shared/collectors/; a pmap
// loop's date(1) lines time its tables, log-stamps.ts), a
// vcgencmd loop's readings by the vcgencmd collector's parser (import-vcgencmd.ts), and a
// llama.cpp log by shared/parsers/llama-log-parser.ts into the run's engine log. The file is streamed,
// gunzipped when it is gzip's (electron/node/util/log-file-stream.ts), and LineSplitter caps every
// line; a line no reader understands is a counted diagnostic, the first MAX_KEPT_DIAGNOSTICS of each
// reason kept as the run's events.
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { RunRequestSchema, type RunEvent, type Sample } from '../../../shared/api/schemas';
import { IMPORT_KINDS, type ImportKind } from '../../../shared/api/session-schemas';
import { engineKvBytes, recomputeAnalysis } from '../../../shared/analysis/run-summary';
import {
  KEPT_DIAGNOSTIC_TEXT_CHARS,
  keepsPerReason,
  MAX_KEPT_DIAGNOSTICS,
  type CollectorParser,
  type CollectorRecord,
} from '../../../shared/collectors/collector';
import {
  createPerfParser,
  NO_INTERVAL_REASON,
  parsePerfHeader,
  perfReading,
} from '../../../shared/collectors/perf-parser';
import { createPerfStatParser } from '../../../shared/parsers/perf-stat-parser';
import { createPmapCollectorParser } from '../../../shared/collectors/pmap-collector-parser';
import { tegrastatsValues } from '../../../shared/collectors/tegrastats-collector-parser';
import { cutReason } from '../../../shared/parsers/line-cap';
import { LineSplitter } from '../../../shared/parsers/line-splitter';
import { createLlamaLogParser, stripLogPrefixes, type LlamaLogRecord } from '../../../shared/parsers/llama-log-parser';
import { createTegrastatsParser } from '../../../shared/parsers/tegrastats-parser';
import { isCommentLine } from '../../../shared/parsers/records';
import { formatMs } from '../../../shared/format/units';
import type { EngineLog, RunOutcome } from '../../../shared/run/run-record';
import { commandLineSecrets } from '../session/scrub';
import { ShapedValues } from '../../../shared/util/shaped-values';
import { createSession } from '../session/session-store';
import { redact, registerSecret } from '../util/redact';
import { appVersion } from '../session/app-version';
import { describeFileError } from '../util/describe-error';
import { isGzipDataError, openLogFile, type LogFileStream } from '../util/log-file-stream';
import type { LogReader, Read } from './import-reads';
import { vcgencmdReader } from './import-vcgencmd';
import { readStamp, stampClock, type Stamp } from './log-stamps';

export { IMPORT_KINDS, type ImportKind };

/** tegrastats' own default period (`--interval 1000`), used when the log has no times of its own. */
export const DEFAULT_IMPORT_INTERVAL_MS = 1000;

export interface ImportResult {
  session: string;
  kind: ImportKind;
  /** Runs in the session: one, or one per program run of a llama.cpp log several runs appended to. */
  runs: number;
  samples: number;
  /** Lines that could not be read, each kept as a diagnostic (the first MAX_KEPT_DIAGNOSTICS of each reason as events). */
  diagnostics: number;
  /**
   * Lines that were read but hold only readings KVScope keeps no series of (a Raspberry Pi's other
   * clocks and voltages): kept as diagnostics with their reason, not counted as unreadable.
   */
  readingsNotKept: number;
  durationMs: number;
  engineLog: { timings: number; kv: number; model: number };
  /** Where the session that was at `session` was moved (session-backup.ts); absent when there was none. */
  previousSessionKeptAs?: string;
}

/** `1s`, `500ms`, `2` (seconds) → ms, or null. */
export function parseIntervalMs(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  if (!m) return null;
  const ms = m[2] === 'ms' ? Number(m[1]) : Number(m[1]) * 1000;
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : null;
}

/**
 * The interval range a session stores (the run request's `intervalMs`): an import outside it is
 * refused in one line before anything is read (the request's schema would throw a ZodError).
 */
const INTERVAL_RANGE_MS = RunRequestSchema.shape.intervalMs.unwrap();

/** The refusal of an interval the session cannot store (`<asTyped> is outside …`), or null when it can. */
export function intervalRangeError(intervalMs: number, asTyped = formatMs(intervalMs)): string | null {
  const { minValue, maxValue } = INTERVAL_RANGE_MS;
  if ((minValue === null || intervalMs >= minValue) && (maxValue === null || intervalMs <= maxValue)) return null;
  return `${asTyped} is outside ${formatMs(minValue)}..${formatMs(maxValue)}, the readings' spacing a session stores`;
}

/** A log that cannot be imported, said in one line; `exitCode` 2 for a wrong request, 1 for the file. */
export class ImportError extends Error {
  override name = 'ImportError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export function isImportKind(kind: string): kind is ImportKind {
  return (IMPORT_KINDS as readonly string[]).includes(kind);
}

/**
 * A forward jump in a tegrastats log's clock of this many intervals or more is noted on the run:
 * tegrastats stopped (a `--logfile` appended to by a later start) or the board's clock was set
 * forward. It stays a gap: both are real time on the axis, and the readings around it are kept.
 */
const CLOCK_JUMP_NOTE_INTERVALS = 10;

/**
 * tegrastats: the log's `MM-DD-YYYY HH:MM:SS` when a line has it, else one interval after the
 * previous line. The stamp counts whole seconds: the readings of one second (`--interval 100` prints
 * ten under one stamp) are spread evenly over it, not stacked at one time. A clock that steps back
 * (set by hand, or by NTP once a board without a battery clock reaches a network) cannot be the
 * time between two readings: the log's order is, so the reading goes one interval after the
 * previous one and the lines after it keep that offset.
 */
function tegrastatsReader(intervalMs: number): LogReader {
  const parser = createTegrastatsParser();
  let firstMs: number | null = null;
  let lastTMs: number | null = null;
  let lastClockMs: number | null = null;
  /** What the clock's steps back have added to the clock's time since the first reading. */
  let shiftMs = 0;
  /** The readings under the current stamp, held until the next stamp says how many share it. */
  let second: { clockMs: number; tMs: number; values: Array<Record<string, number | null>> } | null = null;

  const flush = (out: Read[]) => {
    if (second === null) return;
    const n = second.values.length;
    second.values.forEach((values, i) => {
      const tMs = (second?.tMs ?? 0) + Math.round((i * 1000) / n);
      out.push({ kind: 'sample', tMs, values });
      lastTMs = tMs;
    });
    second = null;
  };

  /** A stamped reading: into the current second, or the start of the next (after the notes its step deserves). */
  const stamped = (out: Read[], clockMs: number, line: number, iso: string, values: Record<string, number | null>) => {
    if (second?.clockMs === clockMs) {
      second.values.push(values);
      return;
    }
    flush(out);
    firstMs ??= clockMs - (lastTMs === null ? 0 : lastTMs + intervalMs);
    const stepMs = lastClockMs === null ? 0 : clockMs - lastClockMs;
    if (stepMs < 0 && lastTMs !== null) {
      shiftMs = lastTMs + intervalMs - (clockMs - firstMs);
      const message = `the log's clock went back ${formatMs(-stepMs)} (${iso}): read one interval after the line before`;
      out.push({ kind: 'note', tMs: lastTMs + intervalMs, line, message });
    } else if (lastTMs !== null && stepMs >= CLOCK_JUMP_NOTE_INTERVALS * intervalMs) {
      const message = `the log's clock jumped ${formatMs(stepMs)} forward (${iso}): no reading in between, or the clock was set`;
      out.push({ kind: 'note', tMs: clockMs - firstMs + shiftMs, line, message });
    }
    lastClockMs = clockMs;
    second = { clockMs, tMs: clockMs - firstMs + shiftMs, values: [values] };
  };

  // The readings' value objects, kept fast (shared/util/shaped-values.ts): 28,800 of them for 8 hours.
  const shape = new ShapedValues();
  const read = (records: ReturnType<typeof parser.push>): Read[] => {
    const out: Read[] = [];
    for (const r of records) {
      if (r.kind === 'diagnostic') {
        // The readings of the current stamp are still held: the line comes after them.
        const atMs = second?.tMs ?? lastTMs;
        out.push(atMs === null ? r : { ...r, tMs: atMs });
        continue;
      }
      const values = tegrastatsValues(r, shape);
      if (Object.keys(values).length === 0) {
        out.push({ kind: 'diagnostic', line: r.line, reason: 'tegrastats line without a reading', text: '' });
        continue;
      }
      const clockMs = r.localTimeIso === null ? NaN : Date.parse(`${r.localTimeIso}Z`);
      if (Number.isFinite(clockMs)) {
        stamped(out, clockMs, r.line, r.localTimeIso ?? '', values);
        continue;
      }
      flush(out);
      const tMs = lastTMs === null ? 0 : lastTMs + intervalMs;
      out.push({ kind: 'sample', tMs, values });
      lastTMs = tMs;
    }
    return out;
  };
  return {
    push: (text, dropped) => (isCommentLine(text) ? [] : read(parser.push(text, dropped))),
    end: () => {
      const out = read(parser.end());
      flush(out);
      return out;
    },
    clockStartMs: () => firstMs,
  };
}

/**
 * A collector's parser fed a file: over-long lines are diagnostics here (the collector parsers take
 * text only). Its clock only goes forward within one capture (perf's seconds since it started, the
 * collector's stamps): a time at or before the last is a capture appended to another (`perf stat
 * -I … -o log --append`, two files concatenated), read one interval after the reading before it.
 */
function collectorReader(
  parser: CollectorParser,
  prelude: (text: string, lineNo: number) => string[],
  toTMs: (uptimeMs: number) => number,
  intervalMs: number,
): LogReader {
  /** What the restarts have added to the capture's clock. */
  let shiftMs = 0;
  let lastTMs: number | null = null;
  const read = (record: CollectorRecord | null, lineNo: number): Read[] => {
    if (record === null) return [];
    if (record.kind === 'sample') {
      const tMs = toTMs(record.uptimeMs) + shiftMs;
      if (lastTMs === null || tMs > lastTMs) {
        lastTMs = tMs;
        return [{ kind: 'sample', tMs, values: record.values }];
      }
      const message = `the log's clock starts again at ${formatMs(tMs - shiftMs)} (a capture appended to another): read one interval after the reading before`;
      lastTMs += intervalMs;
      shiftMs += lastTMs - tMs;
      return [
        { kind: 'note', tMs: lastTMs, message },
        { kind: 'sample', tMs: lastTMs, values: record.values },
      ];
    }
    if (record.kind === 'diagnostic')
      return [{ kind: 'diagnostic', line: lineNo, reason: record.reason, text: record.text }];
    if (record.kind === 'status') return [{ kind: 'diagnostic', line: lineNo, reason: record.reason, text: '' }];
    return [];
  };
  let lastLineNo = 0;
  return {
    push(text, dropped, lineNo) {
      lastLineNo = lineNo;
      if (dropped > 0) return [{ kind: 'diagnostic', line: lineNo, reason: cutReason(dropped), text }];
      return [...prelude(text, lineNo), text].flatMap((l) => read(parser.push(l), lineNo));
    },
    // perf's last interval, a pmap table without its footer: held by the parser until the file ends.
    end: () => parser.end().flatMap((r) => read(r, lastLineNo)),
  };
}

/**
 * The counters of `perf stat` run without `-I`: one block per run, its counters' totals up to its
 * `seconds time elapsed` (or up to the next run's header, or the file's end).
 */
function perfSummaryBlocks() {
  const stat = createPerfStatParser();
  const blocks: Array<{ values: Record<string, number | null>; elapsedMs: number | null; line: number }> = [];
  let open: (typeof blocks)[number] | null = null;
  /** The lines a block took (a `<not supported>` counter is taken and left out, as in interval mode). */
  const taken = new Set<number>();
  const close = () => {
    if (open && Object.keys(open.values).length > 0) blocks.push(open);
    open = null;
  };
  return {
    push(text: string) {
      for (const r of stat.push(text)) {
        if (r.kind === 'perf-header') close();
        else if (r.kind === 'perf-elapsed' && r.clock === 'elapsed' && open) {
          open.elapsedMs = Math.round(r.seconds * 1000);
          close();
        } else if (r.kind === 'perf' && r.tSec === null) {
          const reading = perfReading(r);
          if (reading === null) continue;
          taken.add(r.line);
          if (r.status === 'not-supported') continue;
          open ??= { values: {}, elapsedMs: null, line: r.line };
          // Rows per CPU, core or thread (-A, --per-core, --per-thread) count parts of the whole: summed.
          const before = open.values[reading.key];
          open.values[reading.key] =
            r.aggr !== null && typeof before === 'number' && reading.value !== null
              ? before + reading.value
              : reading.value;
        }
      }
    },
    end() {
      stat.end();
      close();
      return { blocks, taken };
    },
  };
}

/**
 * perf stat -I -x, (or the perf collector's own output): perf's time column is seconds since perf
 * started; a raw capture gets the collector's header with t0 = 0 so that column is the run's clock.
 * A capture of `perf stat` without `-I` (counters over the whole run, `perf stat -p <pid> -- sleep
 * 60`) has no interval: each run's summary is one reading at its elapsed time, one after the other
 * (its lines are diagnostics, as summary rows after intervals are, only when the log has intervals).
 */
function perfReader(intervalMs: number): LogReader {
  let t0Ms: number | null = null;
  const intervals = collectorReader(
    createPerfParser(),
    (text) => {
      if (t0Ms !== null || text.trim() === '' || isCommentLine(text)) return [];
      const header = text.startsWith('H ') ? parsePerfHeader(text) : null;
      t0Ms = header?.t0Ms ?? 0;
      return header ? [] : ['H v=1 t0=0 events= dropped='];
    },
    (uptimeMs) => uptimeMs - (t0Ms ?? 0),
    intervalMs,
  );
  const summaries = perfSummaryBlocks();
  let sawInterval = false;
  /** Counter lines without an interval time, held until the log shows whether it has intervals. */
  const held: Read[] = [];
  const pass = (reads: Read[]): Read[] => {
    const out: Read[] = [];
    for (const r of reads) {
      if (r.kind === 'sample' && !sawInterval) {
        sawInterval = true;
        out.push(...held.splice(0));
      }
      if (r.kind === 'diagnostic' && r.reason === NO_INTERVAL_REASON && !sawInterval) held.push(r);
      else out.push(r);
    }
    return out;
  };
  return {
    push: (text, dropped, lineNo) => {
      // Every line, a cut one as an empty one, so the summary parser's line numbers are the file's.
      if (!sawInterval) summaries.push(dropped === 0 ? text : '');
      return pass(intervals.push(text, dropped, lineNo));
    },
    end: () => {
      const out = pass(intervals.end());
      const { blocks, taken } = summaries.end();
      if (sawInterval || blocks.length === 0) return [...out, ...held.splice(0)];
      // A counter line no block took (a name that cannot be a series) stays a diagnostic.
      out.push(...held.filter((d) => d.kind !== 'diagnostic' || !taken.has(d.line)));
      let tMs = 0;
      for (const b of blocks) {
        const spanMs = b.elapsedMs ?? intervalMs;
        tMs += spanMs;
        const over = b.elapsedMs === null ? `no elapsed time printed: read as ${formatMs(spanMs)}` : formatMs(spanMs);
        const message = `perf stat without -I: its counters over the whole run (${over}) are one reading`;
        out.push({ kind: 'note', tMs, line: b.line, message }, { kind: 'sample', tMs, values: b.values });
      }
      return out;
    },
  };
}

/**
 * `pmap -x` tables (one per tick): each `<pid>:` title line starts a table. pmap prints no time: a
 * logging loop's stamp line before the table gives it (`while true; do date; pmap -x $PID; sleep 5;
 * done`, any form of log-stamps.ts), else the table is one interval after the one before.
 */
function pmapReader(intervalMs: number): LogReader {
  let collectorOutput = false;
  /** The stamp line since the last table, for the next one. */
  let stamp: Stamp | null = null;
  let lastTMs: number | null = null;
  const clock = stampClock(intervalMs);
  /** A step back of the stamps' clock, said at the table it moved. */
  const notes: Read[] = [];
  const tables = collectorReader(
    createPmapCollectorParser(),
    (text, lineNo) => {
      if (lineNo === 1 && text.startsWith('H ')) collectorOutput = true;
      if (collectorOutput || !/^\d+:\s/.test(text)) return [];
      const tMs = clock.timeOf(stamp, lastTMs, lineNo, notes);
      stamp = null;
      lastTMs = tMs;
      return [`t=${(tMs / 1000).toFixed(3)}`];
    },
    (uptimeMs) => uptimeMs,
    intervalMs,
  );
  return {
    push(text, dropped, lineNo) {
      const alone = collectorOutput || dropped > 0 ? null : readStamp(text.trim());
      if (alone?.rest === '') {
        stamp = alone;
        return [];
      }
      const out = tables.push(text, dropped, lineNo);
      return notes.length > 0 ? [...notes.splice(0), ...out] : out;
    },
    end: () => tables.end(),
    clockStartMs: clock.clockStartMs,
  };
}

/**
 * The line every llama.cpp program prints first: `main: build = 916 (b5472ea)` (2023's examples),
 * `build: 4453 (6c5bc06) with cc … for aarch64-linux-gnu` (common_init since 2024), and the 2023–24
 * server's JSON `"msg":"build info"`. Another one after a run's records starts the next run.
 */
const BUILD_LINE_RE = /^(?:\w+: build = \d+ \(|build: \d+ \(\w+\) with )|"(?:msg|message)":\s*"build info"/;

/** A llama.cpp log: no samples, its records go to the run's engine log; each program run in it is a run. */
function llamaLogReader(log: EngineLog): LogReader {
  const parser = createLlamaLogParser();
  const starts: number[] = [];
  let recordsSinceStart = 0;
  const read = (records: LlamaLogRecord[]): Read[] => {
    const out: Read[] = [];
    for (const r of records) {
      if (r.kind === 'diagnostic') {
        out.push(r);
        continue;
      }
      recordsSinceStart++;
      if (r.kind === 'timings') log.timings.push(r);
      else if (r.kind === 'kv') log.kv.push(r);
      else if (r.kind === 'model') log.model.push(r);
    }
    return out;
  };
  return {
    push: (text, dropped, lineNo) => {
      // The parser may still hold a block of the run before (model meta): it ends at this line.
      // The parser strips the line's prefixes itself: only a line that can be a build line is stripped here too.
      const isStart = text.includes('build') && BUILD_LINE_RE.test(stripLogPrefixes(text));
      const out = isStart ? read(parser.end()) : [];
      if (isStart && recordsSinceStart > 0) {
        starts.push(lineNo);
        recordsSinceStart = 0;
      }
      return [...out, ...read(parser.push(text, dropped))];
    },
    end: () => read(parser.end()),
    runStarts: () => starts,
  };
}

/** The reader of each log kind (a log without times gets one reading per `intervalMs`). */
const READERS: Record<ImportKind, (intervalMs: number, log: EngineLog) => LogReader> = {
  tegrastats: (intervalMs) => tegrastatsReader(intervalMs),
  perf: (intervalMs) => perfReader(intervalMs),
  pmap: (intervalMs) => pmapReader(intervalMs),
  vcgencmd: (intervalMs) => vcgencmdReader(intervalMs),
  'llama-log': (_intervalMs, log) => llamaLogReader(log),
};

/** Streams `file` into a new session at `out`; throws ImportError for a file that cannot be read or has nothing to import. */
export async function importLog(
  kind: ImportKind,
  file: string,
  out: string,
  opts: { intervalMs?: number; signal?: AbortSignal } = {},
): Promise<ImportResult> {
  const intervalMs = opts.intervalMs ?? DEFAULT_IMPORT_INTERVAL_MS;
  const rangeError = intervalRangeError(intervalMs);
  if (rangeError !== null) throw new ImportError(`interval: ${rangeError}`, 2);
  let mtimeMs: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new Error('not a regular file');
    mtimeMs = st.mtimeMs;
  } catch (error) {
    throw new ImportError(`cannot read ${file}: ${describeFileError(error)}`);
  }
  const log: EngineLog = { timings: [], kv: [], model: [] };
  const reader = READERS[kind](intervalMs, log);
  const samples: Sample[] = [];
  /**
   * The first MAX_KEPT_DIAGNOSTICS diagnostics of each reason as events, each with the program run it is in: a flood
   * of one reason (unreadable lines, a server's KV cache full at every request) does not hide another.
   */
  const kept: Array<{ part: number; event: RunEvent }> = [];
  const keeps = keepsPerReason();
  const notes: RunEvent[] = [];
  let diagnostics = 0;
  let readingsNotKept = 0;
  /** Diagnostics per program run of the log (reader.runStarts: a llama.cpp log appended to by several). */
  const diagnosticsPerPart: number[] = [0];
  const partNow = () => reader.runStarts?.().length ?? 0;
  let lineNo = 0;
  const source = kind === 'llama-log' ? null : kind;
  const request = RunRequestSchema.parse({
    target: { kind: 'local' },
    engine: { kind: 'command', command: `kvscope import ${kind} ${basename(file)}` },
    intervalMs,
  });

  const take = (reads: Read[]) => {
    for (const r of reads) {
      if (r.kind === 'sample' && source !== null) samples.push({ tMs: r.tMs, source, values: r.values });
      else if (r.kind === 'note') {
        if (notes.length < MAX_KEPT_DIAGNOSTICS)
          notes.push({
            tMs: r.tMs,
            kind: 'info',
            message: r.line === undefined ? r.message : `line ${r.line}: ${r.message}`,
          });
      } else if (r.kind === 'diagnostic') {
        const part = partNow();
        if (r.notKept) readingsNotKept++;
        else {
          diagnostics++;
          diagnosticsPerPart[part] = (diagnosticsPerPart[part] ?? 0) + 1;
        }
        if (!keeps(r.reason)) continue;
        // A kept line is stored cut to KEPT_DIAGNOSTIC_TEXT_CHARS, and a capture pasted from a
        // terminal holds the commands typed there (`HF_TOKEN=… tegrastats`, `llama-server --api-key
        // …`): their secrets are registered, so every string written is masked (util/redact.ts),
        // and the line is masked before it is cut, so no cut leaves a secret's head behind.
        for (const secret of commandLineSecrets(r.text)) registerSecret(secret);
        const text = redact(r.text).slice(0, KEPT_DIAGNOSTIC_TEXT_CHARS);
        // At the reading before it, where the dashboard's Events panel and the report place it
        // (a line before any reading: at the start, set once the start is known).
        const tMs = r.tMs ?? samples.at(-1)?.tMs ?? NaN;
        kept.push({
          part,
          event: { tMs, kind: 'info', message: `line ${r.line}: ${r.reason}`, data: { reason: r.reason, text } },
        });
      }
    }
  };

  const splitter = new LineSplitter();
  let input: LogFileStream;
  try {
    input = openLogFile(file);
  } catch (error) {
    throw new ImportError(`cannot read ${file}: ${describeFileError(error)}`);
  }
  /** A gzip file cut short (copied while it was written) or damaged: what was read of it is kept. */
  let gzipError: Error | null = null;
  try {
    try {
      for await (const chunk of input.stream as AsyncIterable<Uint8Array>) {
        if (opts.signal?.aborted) throw new ImportError('interrupted');
        for (const l of splitter.pushLines(chunk)) take(reader.push(l.text, l.droppedChars, ++lineNo));
      }
    } catch (error) {
      if (!(input.gzip && isGzipDataError(error))) throw error;
      gzipError = error;
    }
    for (const l of splitter.endLines()) take(reader.push(l.text, l.droppedChars, ++lineNo));
    take(reader.end());
    // Stopped while the last chunk was read: nothing is written from here on.
    if (opts.signal?.aborted) throw new ImportError('interrupted');
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(`cannot read ${file}: ${describeFileError(error)}`);
  } finally {
    input.stream.destroy();
  }
  if (gzipError !== null) {
    const reason = `the gzip data ends here (${gzipError.message}): the lines before it are read`;
    take([{ kind: 'diagnostic', line: lineNo, reason, text: '' }]);
  }

  const records = log.timings.length + log.kv.length + log.model.length;
  if (samples.length === 0 && records === 0) {
    if (gzipError !== null) throw new ImportError(`cannot read ${file}: damaged gzip data (${gzipError.message})`);
    const what = lineNo === 0 ? 'the file is empty' : `none of its ${lineNo} lines is a ${kind} reading`;
    throw new ImportError(`${file}: nothing to import (${what})`);
  }

  const startTMs = samples.reduce((m, x) => Math.min(m, x.tMs), samples[0]?.tMs ?? 0);
  const endTMs = samples.reduce((m, x) => Math.max(m, x.tMs), startTMs);
  const durationMs = endTMs - startTMs;
  // A log that prints times of day (tegrastats on JetPack 5+) dates the run; it prints the board's
  // local time without a zone, stored as if UTC. A log without times ended when the file was last written.
  const clockStart = reader.clockStartMs?.() ?? null;
  const startedMs = clockStart !== null ? clockStart + startTMs : mtimeMs - durationMs;
  const startedAt = new Date(startedMs).toISOString();
  const endedAt = new Date(startedMs + durationMs).toISOString();

  // The session is written once the whole file is read: a file with nothing to import leaves none.
  // A llama.cpp log that several program runs appended to is one run each, lines [from, to].
  const starts = reader.runStarts?.() ?? [];
  const parts = [1, ...starts].map((from, k) => ({ from, to: (starts[k] ?? lineNo + 1) - 1 }));
  // Written at once and closed: a bulk writer (session-store.ts CreateSessionOptions.bulk), whose file
  // lands at `out` only when whole.
  const store = createSession(out, { appVersion: appVersion(), bulk: true });
  try {
    for (const [k, part] of parts.entries()) {
      const within = <R extends { line: number }>(records: R[]) =>
        parts.length === 1 ? records : records.filter((r) => r.line >= part.from && r.line <= part.to);
      const runLog: EngineLog = { timings: within(log.timings), kv: within(log.kv), model: within(log.model) };
      const runSamples = k === 0 ? samples : [];
      const which = parts.length === 1 ? '' : `, run ${k + 1} of ${parts.length} (lines ${part.from}–${part.to})`;
      const label = `${kind}: ${basename(file)}${which}`;
      const seq = store.addRun({ id: `import-${k + 1}`, label, request, state: 'running', startedAt });
      store.appendSamples(seq, runSamples);
      for (const key of ['timings', 'kv', 'model'] as const)
        if (runLog[key].length) store.appendEngineLog(seq, key, runLog[key]);
      const ran =
        parts.length === 1
          ? ''
          : `; program run ${k + 1} of ${parts.length} in it, lines ${part.from}–${part.to} (each starts at llama.cpp's build line)`;
      // In time order: a diagnostic or a note sits at its reading's time (a stable sort keeps the log's order).
      const events: RunEvent[] = [
        {
          tMs: startTMs,
          kind: 'info',
          message: `imported from a ${kind} log: ${basename(file)} (${lineNo} lines)${ran}`,
        },
        ...kept.filter((d) => d.part === k).map(({ event: e }) => (Number.isNaN(e.tMs) ? { ...e, tMs: startTMs } : e)),
        ...(k === 0 ? notes : []),
      ];
      store.appendEvents(
        seq,
        events.sort((a, b) => a.tMs - b.tMs),
      );
      const analysisInputs = {
        theoryBytesPerToken: null,
        ctx: null,
        budgetBytes: null,
        engineKvBytes: engineKvBytes(runLog.kv),
      };
      store.updateRun(seq, { analysisInputs });
      const partDiagnostics = diagnosticsPerPart[k] ?? 0;
      const outcome: RunOutcome = {
        exitCode: null,
        signal: null,
        oomKilled: false,
        lostSamples: 0,
        diagnostics: partDiagnostics,
        durationMs,
        stderrTail: [],
        collectors:
          source === null
            ? {}
            : {
                [source]: {
                  status: runSamples.length > 0 ? 'ok' : 'failed',
                  samples: runSamples.length,
                  diagnostics: partDiagnostics,
                  ...(runSamples.length === 0 ? { reason: `${partDiagnostics} unreadable lines and no sample` } : {}),
                },
              },
      };
      store.finishRun(
        seq,
        {
          label,
          state: 'done',
          error: null,
          endedAt,
          outcome,
          analysis: recomputeAnalysis({
            samples: runSamples,
            engineLog: runLog,
            analysisInputs,
            engine: null,
            request,
          }),
        },
        runSamples,
      );
    }
    store.close();
  } catch (error) {
    store.discard();
    throw error;
  }
  return {
    session: out,
    kind,
    runs: parts.length,
    samples: samples.length,
    diagnostics,
    readingsNotKept,
    durationMs,
    engineLog: { timings: log.timings.length, kv: log.kv.length, model: log.model.length },
    ...(store.previousKeptAs !== null ? { previousSessionKeptAs: store.previousKeptAs } : {}),
  };
}
