// What a collector is: ONE definition that every room of KVScope reads (shared/collectors/registry.ts
// lists them). The launcher (electron/node/run/run-scripts.ts) uploads its script and starts it
// once per run, the run (electron/node/run/run-controller.ts) feeds its spool lines to its parser,
// the session stores its samples, and the UI and the reports find its series, with their units,
// here. Pure: the script is text, run on the target by the launcher.
//
// The script's contract (checked by test/integration/run/collectors.test.ts):
// - it is started as `sh <id>.sh <pid> <interval seconds> [scriptArgs…]` (a reader, one that only
//   reads files, in the script the run's readers share: reader-script.ts) with
//   stdout going to the spool and stderr to /dev/null; each line is prefixed `C <id> ` by the script itself where the
//   definition says `tagsOwnLines` (KVSCOPE_TAG in its environment), else by the launcher;
// - it stays alive, ONE long-lived awk reading files with getline per tick (no process per tick;
//   the costs are in shared/collectors/procfs-sampler-script.ts), ticks from TICKER_SH
//   (shared/collectors/collector-script.ts), and exits by itself once /proc/<pid> is gone;
// - it prints `! absent <reason>` or `! denied <reason>` and exits when its source is missing or
//   unreadable on this target; every other line is its parser's business;
// - when it ends while the engine still runs, the launcher adds `! stopped code=<exit status>
//   t=<uptime s>` after its lines (electron/node/run/run-scripts.ts).
import type { TargetFacts } from '../run/target-facts';

/** How a series' numbers are read. Units are part of the key's name (see SERIES_UNIT_SUFFIX). */
export type SeriesUnit = 'bytes' | 'pct' | 'C' | 'kHz' | 'MHz' | 'mW' | 'us' | 'count';
/**
 * gauge: a level sampled now; counter: grows monotonically (rates come from differences); event: a
 * marker; limit: a threshold the board acts at (a thermal trip point), read as it is set, never a
 * reading of the board's state: not ranked with the readings nor on their scale.
 */
export type SeriesKind = 'gauge' | 'counter' | 'event' | 'limit';

/**
 * The ending every sample key of a unit carries, so a CSV column name (render-csv.ts) or a chart
 * legend says its unit without a lookup. `count` keys (tokens, threads, load averages) have none.
 */
export const SERIES_UNIT_SUFFIX: Record<SeriesUnit, string> = {
  bytes: 'Bytes',
  pct: 'Pct',
  C: '.C',
  kHz: '.KHz',
  MHz: 'MHz',
  mW: 'mW',
  us: 'Us',
  count: '',
};

export interface SeriesDef {
  /**
   * Sample value key; `*` stands for a name (a thermal zone, a cpufreq policy, a rail), one or more
   * characters, dots included (a devfreq device is `ff9a0000.gpu`). A key several definitions
   * match belongs to the one with the most fixed text (shared/collectors/registry.ts `seriesOf`).
   */
  key: string;
  /**
   * What the series is, for people. For a pattern key: what each of its series is (`temperature
   * (tegrastats)`), one of them named `<label>: <its * part in words>` (./series-names.ts). Unique
   * in the registry and without a `:`, which keeps every name apart (test/unit/shared/collectors).
   */
  label: string;
  unit: SeriesUnit;
  kind: SeriesKind;
  /**
   * A pattern's `*` part in words where the part is not one plain name: psi's `memory.some`, a trip
   * point's `cpu-thermal.0`, a core's bare `0`. Absent: the part as written. Must keep two parts
   * the collector writes apart (different parts, different words).
   */
  partWords?: (part: string) => string;
  /**
   * The name in a dashboard legend, where the panel's title and the track say the rest, so it can
   * be short (`anon RSS`, for a pattern `VDD_IN avg` from the part). Absent: the full name.
   */
  legend?: string | ((part: string) => string);
}

export type CollectorStatusValue = 'ok' | 'absent' | 'denied' | 'failed';

/**
 * Diagnostics kept with their line as run events, per collector of a live run and per imported
 * file: enough to see what went wrong, bounded for a source that prints nothing but garbage
 * (every one is counted all the same: `collectors.<id>.diagnostics`).
 */
export const MAX_KEPT_DIAGNOSTICS = 50;
/**
 * For a source whose diagnostics have reasons (an engine's log, an imported file): counts each one
 * and says whether it is among the first MAX_KEPT_DIAGNOSTICS of its reason, so a flood of one
 * reason does not hide another.
 */
export function keepsPerReason(): (reason: string) => boolean {
  const seen = new Map<string, number>();
  return (reason) => {
    const n = (seen.get(reason) ?? 0) + 1;
    seen.set(reason, n);
    return n <= MAX_KEPT_DIAGNOSTICS;
  };
}

/** A kept diagnostic's line, cut: enough to recognise it (the spool caps lines far longer). */
export const KEPT_DIAGNOSTIC_TEXT_CHARS = 240;

/** What a collector's parser makes of one line. Never thrown: a bad line is a diagnostic. */
export type CollectorRecord =
  /**
   * `unread`: a part of the line that could not be read (a sysfs file gone mid-run, a read that
   * failed) while the rest is the sample: counted and kept as a diagnostic, the readings kept too.
   */
  | {
      kind: 'sample';
      uptimeMs: number;
      values: Record<string, number | null>;
      unread?: { reason: string; text: string };
    }
  /** `note`: what the run says next to an `ok` status (e.g. the perf events this board does not count). */
  | { kind: 'header'; note?: string }
  | { kind: 'gone'; uptimeMs: number }
  | { kind: 'status'; status: 'absent' | 'denied'; reason: string }
  /** The script ended while the engine still ran (`code`: its exit status, 128 + N for signal N). */
  | { kind: 'stopped'; code: number; uptimeMs: number }
  | { kind: 'diagnostic'; reason: string; text: string };

export interface CollectorParser {
  push(line: string): CollectorRecord | null;
  /**
   * The stream ended (the run ended, or an imported file was read to its end): what the parser
   * still holds — perf's last interval, a pmap table without its footer — as records. Without it
   * the last reading of a collector that groups lines would be lost in silence.
   */
  end(): CollectorRecord[];
}

export interface IntervalRange {
  defaultMs: number;
  minMs: number;
  maxMs: number;
}

/** Anything that puts series into a run's samples: the engine's output, and every collector. */
export interface SeriesSource {
  /** Lower-case letters and digits: the Sample source; for a collector also its spool tag and the CLI's `--no-<id>`. */
  id: string;
  title: string;
  series: readonly SeriesDef[];
}

/**
 * A reader's part of a reader script (shared/collectors/reader-script.ts).
 *
 * `setupSh` is the body of the sh function `<id>_setup`, run once before the awk with the member's
 * args as $1…; `$P` is the engine's pid. It finds its files, exports what its awk needs as
 * `KV_<ID>_…` variables, says its header (`say`), and returns non-zero when it cannot run here,
 * having said why (`say "! absent …"`). It may set TICK_ARGS, the ticker's arguments (procfs: the
 * /proc listing at rescan ticks, TICKER_SH), counted in the script's ticks (a member at N times the
 * script's interval then gets its listings N times as often as it asked: more work, none missed).
 *
 * `awk` defines `<id>_begin()` (once) and `<id>_tick()` (at each of its ticks: every N-th tick of
 * a shared script whose interval is 1/N of its own), each returning 1 while the member goes on
 * and 0 once it has ended (having said why). It may use `rd(f)` (a file's first
 * line), `rdTick(f)` (the same, read once a tick for all readers: /proc/uptime, the engine's stat),
 * `rdFresh(f)` (read now, and left for the tick's later rdTick),
 * `emit(s)`, the global `pid`, and the ticker's latest /proc listing (`kvProcs`, a new one each
 * time `kvListed` grows). It may start a tool (`cmd | getline`) only where no file has the
 * reading (pmap -x on a kernel without smaps): a fork of the awk costs ~3–5 ms on the 2-core x86
 * VM, ten ticks' worth of files; one that does so every tick keeps a shell to fork for it, which
 * writes the tick's line itself (`print … | cmd`, `emitTagged`: the vcgencmd reader). Its state
 * kept across ticks is in globals named `<id>_…`; its temporaries are locals (extra parameters), so members never share a variable.
 */
export interface ReaderPart {
  setupSh: string;
  awk: string;
}

export interface CollectorDefinition extends SeriesSource {
  /**
   * The script run on the target, or null when the launcher itself writes this source's lines
   * (the engine's stdout/stderr, tags O and E).
   */
  script: string | null;
  /**
   * The sampling interval: its own range, or 'run' to follow the run's `intervalMs` (the procfs
   * sampler, whose ticks are the memory curve).
   */
  interval: IntervalRange | 'run';
  /**
   * The script writes its lines tagged `C <id> ` itself (`say`, `emit()`, `tag_lines`:
   * shared/collectors/collector-script.ts), so the launcher starts no tagging awk for it. Absent:
   * the launcher tags its stdout (perf's, which is perf's own output).
   */
  tagsOwnLines?: boolean;
  /** Arguments after `<pid> <interval seconds>`. */
  scriptArgs?(intervalMs: number): string[];
  /**
   * A collector that only reads files each tick: its part of a reader script (its own `script` is
   * built from it), which the launcher shares with the run's other readers (each at its own interval):
   * one ticker and one awk for them all (shared/collectors/reader-script.ts).
   */
  reader?: ReaderPart;
  /**
   * Why this collector cannot run on a target with these probe facts, or null when it can (or
   * the facts do not say: then the script finds out on the target and says so itself).
   */
  unavailable?(facts: TargetFacts | null): { status: 'absent' | 'denied'; reason: string } | null;
  createParser(): CollectorParser;
}

/**
 * `! absent <reason>` / `! denied <reason>`: a script saying its source is not there; `! stopped
 * code=<n> t=<uptime s>`: the launcher saying the script ended while the engine ran.
 */
export function parseStatusLine(line: string): CollectorRecord | null {
  const stopped = /^! stopped code=(\d{1,3}) t=(\d+(?:\.\d+)?)$/.exec(line);
  if (stopped) return { kind: 'stopped', code: Number(stopped[1]), uptimeMs: Math.round(Number(stopped[2]) * 1000) };
  const m = /^! (absent|denied) ?(.*)$/.exec(line);
  const status = m?.[1] as 'absent' | 'denied' | undefined;
  if (!status) return null;
  return { kind: 'status', status, reason: m?.[2] || status };
}

/**
 * A collector's parser from the reader of its own lines. Every collector script's blank lines,
 * `! absent|denied <reason>` status lines and `H …` header lines are read here, once; `readHeader`
 * replaces the plain header record for a collector whose header carries facts; `end` gives what a
 * reader that groups lines still holds when the stream ends (none for a line-per-reading reader).
 */
export function collectorLineParser(
  readOwn: (line: string) => CollectorRecord | null,
  readHeader?: ((line: string) => CollectorRecord | null) | null,
  end: () => CollectorRecord[] = () => [],
): CollectorParser {
  return {
    push(line: string): CollectorRecord | null {
      if (line === '') return null;
      if (line.startsWith('!'))
        return parseStatusLine(line) ?? { kind: 'diagnostic', reason: 'bad status line', text: line };
      if (line.startsWith('H ')) return readHeader ? readHeader(line) : { kind: 'header' };
      return readOwn(line);
    },
    end,
  };
}

/** True when a sample key matches a series key (one `*` = any non-empty name, e.g. `temp.*.C`). */
export function seriesKeyMatches(pattern: string, key: string): boolean {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === key;
  const head = pattern.slice(0, star);
  const tail = pattern.slice(star + 1);
  return key.length > head.length + tail.length && key.startsWith(head) && key.endsWith(tail);
}
