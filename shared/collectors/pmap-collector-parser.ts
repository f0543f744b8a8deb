// Parser of the pmap collector's lines (shared/collectors/pmap-collector.ts):
//
//   H v=1 source=smaps|pmap
//   t=<uptime s>
//   <a `pmap -x` table: header, one row per mapping, `total` footer>
//   t=<uptime s> same      (smaps only: the engine's memory has not changed since the last table)
//
// The table is read by the one pmap parser (shared/parsers/pmap-parser.ts); a sample is made at
// each table's footer, at the time of the `t=` line before it, and at each `same` line: the last
// table's reading again, at that line's time (what the table printed again would read). A `same`
// line with no table read since the last `t=` line (none yet, or one that could not be read) is a
// diagnostic. Pure and never throws.
import { createPmapParser } from '../parsers/pmap-parser';
import type { LineParser, PmapRecord, Diagnostic } from '../parsers/records';
import { collectorLineParser, type CollectorParser, type CollectorRecord } from './collector';

const KIB = 1024;

const TIME_RE = /^t=(\d+(?:\.\d+)?)$/;
const SAME_RE = /^t=(\d+(?:\.\d+)?) same$/;

export function createPmapCollectorParser(): CollectorParser {
  let table: LineParser<PmapRecord | Diagnostic> = createPmapParser();
  let uptimeMs: number | null = null;
  /** The reading of the last table, while no `t=` line has begun another: what a `same` line repeats. */
  let lastValues: Record<string, number | null> | null = null;
  /** The last line read: the text of the diagnostic of a table the stream ended in the middle of. */
  let lastLine = '';

  const fromRecord = (r: PmapRecord | Diagnostic, text: string): CollectorRecord | null => {
    if (r.kind === 'diagnostic') return { kind: 'diagnostic', reason: r.reason, text };
    if (uptimeMs === null) return { kind: 'diagnostic', reason: 'pmap table without a time', text };
    if (!r.complete) return { kind: 'diagnostic', reason: 'pmap table cut short', text };
    lastValues = {
      'pmap.largestAnonBytes': r.largestAnonKb === null ? null : r.largestAnonKb * KIB,
      'pmap.anonBytes': r.anonKb === null ? null : r.anonKb * KIB,
      'pmap.mappings': r.mappings,
    };
    return { kind: 'sample', uptimeMs, values: { ...lastValues } };
  };

  /** The table read so far ended (a new tick began, or the stream ended): a table left without its footer is a diagnostic. */
  const endTable = (text: string): CollectorRecord | null => {
    const cut = table.end();
    table = createPmapParser();
    const first = cut[0];
    return first ? fromRecord(first, text) : null;
  };

  return collectorLineParser(
    (line) => {
      lastLine = line;
      const t = TIME_RE.exec(line);
      if (t) {
        const cut = endTable(line);
        uptimeMs = Math.round(Number(t[1]) * 1000);
        lastValues = null;
        return cut;
      }
      const same = SAME_RE.exec(line);
      if (same) {
        // A table left open before it was cut short: the table it repeats could not be read.
        const cut = endTable(line);
        if (cut) lastValues = null;
        uptimeMs = Math.round(Number(same[1]) * 1000);
        if (cut) return cut;
        if (!lastValues)
          return { kind: 'diagnostic', reason: 'pmap "same" line without a table read before it', text: line };
        return { kind: 'sample', uptimeMs, values: { ...lastValues } };
      }
      let out: CollectorRecord | null = null;
      for (const r of table.push(line)) out ??= fromRecord(r, line);
      return out;
    },
    null,
    () => {
      const cut = endTable(lastLine);
      return cut ? [cut] : [];
    },
  );
}
