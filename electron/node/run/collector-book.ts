// What a run knows of its collectors (shared/collectors/registry.ts): the ones it started, each
// with its parser and what that produced so far, and the ones the probe facts ruled out. The run
// controller (run-controller.ts) hands it each collector line and gets back the samples; the
// record's `outcome.collectors` (`profile --json` `collectors.<id>`) comes from `statuses()`.
import type { CollectorStatus } from '../../../shared/api/schemas';
import { MAX_KEPT_DIAGNOSTICS, type CollectorParser, type CollectorRecord } from '../../../shared/collectors/collector';
import { collectorById } from '../../../shared/collectors/registry';

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
}

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
  | { kind: 'none' };

export class CollectorBook {
  private readonly started = new Map<string, CollectorRun>();
  /** Lines of collectors the run did not start, per id (a spool of another version). */
  private readonly unknownLines = new Map<string, number>();
  readonly unavailable: UnavailableCollector[] = [];

  /** A collector the run started (unknown ids are ignored: their lines become diagnostics). */
  start(id: string): void {
    const def = collectorById(id);
    if (def) this.started.set(id, { parser: def.createParser(), samples: 0, diagnostics: 0, heard: false, said: null });
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
      const keep = collector.diagnostics <= MAX_KEPT_DIAGNOSTICS;
      return { kind: 'diagnostic', reason: record.reason, text: record.text, keep };
    }
    collector.heard = true;
    if (record.kind === 'status') collector.said = { status: record.status, reason: record.reason };
    if (record.kind === 'header' && record.note) collector.note = record.note;
    if (record.kind !== 'sample') return { kind: 'none' };
    collector.samples += 1;
    if (!record.unread) return { kind: 'sample', uptimeMs: record.uptimeMs, values: record.values };
    collector.diagnostics += 1;
    const unread = { ...record.unread, keep: collector.diagnostics <= MAX_KEPT_DIAGNOSTICS };
    return { kind: 'sample', uptimeMs: record.uptimeMs, values: record.values, unread };
  }

  /** How each collector fared so far; `launched` false: the launcher never ran, so only the ruled-out ones. */
  statuses(launched: boolean): Record<string, CollectorStatus> {
    const out: Record<string, CollectorStatus> = {};
    for (const u of this.unavailable) out[u.id] = { status: u.status, samples: 0, diagnostics: 0, reason: u.reason };
    if (!launched) return out;
    for (const [id, c] of this.started) {
      const base = { samples: c.samples, diagnostics: c.diagnostics };
      if (c.said) out[id] = { status: c.said.status, ...base, reason: c.said.reason };
      else if (c.heard) out[id] = { status: 'ok', ...base, ...(c.note ? { reason: c.note } : {}) };
      else
        out[id] = {
          status: 'failed',
          ...base,
          reason: c.diagnostics > 0 ? `${c.diagnostics} unreadable lines and no sample` : 'it printed nothing',
        };
    }
    return out;
  }
}
