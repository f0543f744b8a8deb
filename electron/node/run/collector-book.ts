// What a run knows of its collectors (shared/collectors/registry.ts): the ones it started, each
// with its parser and what that produced so far, and the ones the probe facts ruled out. The run
// controller (run-controller.ts) hands it each collector line and gets back the samples; the
// record's `outcome.collectors` (`profile --json` `collectors.<id>`) comes from `statuses()`.
import type { CollectorStatus } from '../../../shared/api/schemas';
import { MAX_KEPT_DIAGNOSTICS, type CollectorParser, type CollectorRecord } from '../../../shared/collectors/collector';
import { collectorById } from '../../../shared/collectors/registry';
import { formatMs } from '../../../shared/format/units';

/** One started collector: its parser and what it has produced so far. */
interface CollectorRun {
  parser: CollectorParser;
  samples: number;
  diagnostics: number;
  /** Any line its parser read (a header counts): the collector is alive. */
  heard: boolean;
  said: { status: 'absent' | 'denied'; reason: string } | null;
  /** What its header said to show next to `ok` (shared/collectors/collector.ts CollectorRecord). */
  note?: string;
  /** Its planned interval, when the run knows it (a replayed run's manifest does not). */
  intervalMs: number | null;
  /** Its script ended while the engine still ran (the launcher's collector-stopped event): its exit status. */
  stoppedCode: number | null;
  /** Target uptime of its first and latest sample: its real pace against intervalMs. */
  firstSampleMs: number | null;
  lastSampleMs: number | null;
  /** Its first unreadable line: what a run whose collector read nothing quotes. */
  firstDiagnostic: { reason: string; text: string } | null;
}

/** The engine's life as the run saw it: from the launcher's `engine` event to its `exit` (null while it runs). */
export interface EngineLife {
  ranMs: number | null;
}

/** How much of an unreadable line a status reason quotes. */
const QUOTED_LINE_CHARS = 120;

export interface UnavailableCollector {
  id: string;
  status: 'absent' | 'denied';
  reason: string;
}

/** What one collector line gave: a sample (uptime and values), a diagnostic, or nothing to show. */
export type CollectorLineResult =
  /** `unread`: a part of the line the parser could not read, counted like a diagnostic (`keep` as below). */
  | {
      kind: 'sample';
      uptimeMs: number;
      values: Record<string, number | null>;
      unread?: { reason: string; text: string; keep: boolean };
    }
  /** `keep`: one of the collector's first MAX_KEPT_DIAGNOSTICS, to be kept with its line; all are counted. */
  | { kind: 'diagnostic'; reason: string; text: string; keep: boolean }
  /** Its script ended while the engine ran (and it had not said it cannot run here): what the run says. */
  | { kind: 'stopped'; uptimeMs: number; reason: string }
  | { kind: 'none' };

export class CollectorBook {
  private readonly started = new Map<string, CollectorRun>();
  /** Lines of collectors the run did not start, per id (a spool of another version). */
  private readonly unknownLines = new Map<string, number>();
  readonly unavailable: UnavailableCollector[] = [];

  /** A collector the run started (unknown ids are ignored: their lines become diagnostics). */
  start(id: string, intervalMs: number | null = null): void {
    const def = collectorById(id);
    if (!def) return;
    const parser = def.createParser();
    this.started.set(id, {
      parser,
      samples: 0,
      diagnostics: 0,
      heard: false,
      said: null,
      intervalMs,
      stoppedCode: null,
      firstSampleMs: null,
      lastSampleMs: null,
      firstDiagnostic: null,
    });
  }

  get startedIds(): string[] {
    return [...this.started.keys()];
  }

  line(id: string, text: string): CollectorLineResult {
    const collector = this.started.get(id);
    if (!collector) {
      const seen = (this.unknownLines.get(id) ?? 0) + 1;
      this.unknownLines.set(id, seen);
      return {
        kind: 'diagnostic',
        reason: 'a line of a collector this run did not start',
        text,
        keep: seen <= MAX_KEPT_DIAGNOSTICS,
      };
    }
    return this.take(collector, collector.parser.push(text));
  }

  /** The run ended: what each collector's parser still held (perf's last interval), per collector. */
  end(): Array<{ id: string; result: CollectorLineResult }> {
    const out: Array<{ id: string; result: CollectorLineResult }> = [];
    for (const [id, collector] of this.started)
      for (const record of collector.parser.end()) out.push({ id, result: this.take(collector, record) });
    return out;
  }

  private take(collector: CollectorRun, record: CollectorRecord | null): CollectorLineResult {
    if (!record) return { kind: 'none' };
    if (record.kind === 'diagnostic') {
      collector.diagnostics += 1;
      collector.firstDiagnostic ??= { reason: record.reason, text: record.text };
      const keep = collector.diagnostics <= MAX_KEPT_DIAGNOSTICS;
      return { kind: 'diagnostic', reason: record.reason, text: record.text, keep };
    }
    collector.heard = true;
    if (record.kind === 'status') collector.said = { status: record.status, reason: record.reason };
    if (record.kind === 'header' && record.note) collector.note = record.note;
    // Ending after `! absent|denied` is what such a script should do: nothing more to say then.
    if (record.kind === 'stopped' && !collector.said) {
      collector.stoppedCode = record.code;
      return { kind: 'stopped', uptimeMs: record.uptimeMs, reason: stoppedReason(collector) };
    }
    if (record.kind !== 'sample') return { kind: 'none' };
    collector.samples += 1;
    collector.firstSampleMs ??= record.uptimeMs;
    collector.lastSampleMs = record.uptimeMs;
    if (!record.unread) return { kind: 'sample', uptimeMs: record.uptimeMs, values: record.values };
    collector.diagnostics += 1;
    const unread = { ...record.unread, keep: collector.diagnostics <= MAX_KEPT_DIAGNOSTICS };
    return { kind: 'sample', uptimeMs: record.uptimeMs, values: record.values, unread };
  }

  /**
   * How each collector fared so far; `launched` false: the launcher never ran, so only the ruled-out
   * ones. Once the engine has ended (`engine.ranMs`), a collector without a sample is not `ok` for
   * having printed its header: it failed (quoting what it printed instead), unless the engine
   * ended before its first interval was up, which is no fault of the collector's.
   */
  statuses(launched: boolean, engine: EngineLife = { ranMs: null }): Record<string, CollectorStatus> {
    const out: Record<string, CollectorStatus> = {};
    for (const u of this.unavailable) out[u.id] = { status: u.status, samples: 0, diagnostics: 0, reason: u.reason };
    if (!launched) return out;
    for (const [id, c] of this.started) {
      const base = { samples: c.samples, diagnostics: c.diagnostics };
      if (c.said) out[id] = { status: c.said.status, ...base, reason: c.said.reason };
      else if (c.stoppedCode !== null) out[id] = { status: 'failed', ...base, reason: stoppedReason(c) };
      else if (c.samples > 0 || (c.heard && engine.ranMs === null)) {
        const reason = [c.note, slowPace(c)].filter(Boolean).join('; ');
        out[id] = { status: 'ok', ...base, ...(reason ? { reason } : {}) };
      } else {
        const { status, reason } = withoutSample(c, engine.ranMs);
        out[id] = { status, ...base, reason };
      }
    }
    return out;
  }
}

/**
 * A collector whose samples came this many times slower than its interval, on average, is said to
 * (a tool that keeps its own pace, such as a tegrastats that ignores --interval, or a board too busy
 * to keep up): twice, so that ticks a loaded board delays now and then do not count.
 */
export const SLOW_PACE_FACTOR = 2;

function slowPace(c: CollectorRun): string | null {
  if (c.intervalMs === null || c.firstSampleMs === null || c.lastSampleMs === null || c.samples < 2) return null;
  const everyMs = (c.lastSampleMs - c.firstSampleMs) / (c.samples - 1);
  if (everyMs <= SLOW_PACE_FACTOR * c.intervalMs) return null;
  return `samples came every ${formatMs(everyMs)} on average, not every ${formatMs(c.intervalMs)} as asked: the tool keeps its own pace or the target is too busy; the chart has fewer points than asked for`;
}

/** What to do about a collector that stopped: the tool is the suspect, and its output so far is kept. */
export const COLLECTOR_STOPPED_HOW = 'run its tool by hand on the target to see why (and dmesg for a crash)';

function stoppedReason(c: CollectorRun): string {
  // sh reports a death by signal N as 128 + N.
  const code = c.stoppedCode ?? 0;
  const how = code > 128 ? `killed by signal ${code - 128}` : `its script exited with status ${code}`;
  const kept =
    c.samples === 0
      ? (unreadLines(c) ?? 'no sample before')
      : c.samples === 1
        ? 'the sample before is kept'
        : `the ${c.samples} samples before are kept`;
  return `it stopped while the engine still ran (${how}); ${kept}; ${COLLECTOR_STOPPED_HOW}`;
}

/** `no reading: its only line was "…" (why)`: what a collector printed instead of readings, or null. */
function unreadLines(c: CollectorRun): string | null {
  if (!c.firstDiagnostic) return null;
  const { reason, text } = c.firstDiagnostic;
  const quoted = text.length > QUOTED_LINE_CHARS ? `${text.slice(0, QUOTED_LINE_CHARS)}…` : text;
  const lines = c.diagnostics === 1 ? 'its only line' : `${c.diagnostics} lines; the first`;
  return `no reading: ${lines} was "${quoted}" (${reason})`;
}

/** The status of a collector that has no sample (the engine ended, or it never said a word). */
function withoutSample(c: CollectorRun, ranMs: number | null): { status: 'ok' | 'failed'; reason: string } {
  const unread = unreadLines(c);
  // The engine ended before the first interval was up: no fault of the collector's, whatever it
  // printed then (perf attaching to an engine already gone prints "No such process").
  if (ranMs !== null && c.intervalMs !== null && ranMs < c.intervalMs)
    return {
      status: 'ok',
      reason: `no sample: the engine ended ${Math.round(ranMs)} ms after it started, before the first ${c.intervalMs} ms interval${unread ? `; ${unread}` : ''}`,
    };
  if (unread) return { status: 'failed', reason: unread };
  return { status: 'failed', reason: c.heard ? 'it printed its header and no reading' : 'it printed nothing' };
}
