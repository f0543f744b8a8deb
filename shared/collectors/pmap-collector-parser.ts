// Parser of the pmap collector's lines (shared/collectors/pmap-collector.ts):
//
//   H v=1 source=smaps|pmap
//   t=<uptime s>
//   <a `pmap -x` table: header, one row per mapping, `total` footer>   (repeated every tick)
//
// The table is read by the one pmap parser (shared/parsers/pmap-parser.ts); a sample is made at
// each table's footer, at the time of the `t=` line before it. Pure and never throws.
import { createPmapParser } from '../parsers/pmap-parser';
import type { LineParser, PmapRecord, Diagnostic } from '../parsers/records';
import { collectorLineParser, type CollectorParser, type CollectorRecord } from './collector';

const KIB = 1024;

export function createPmapCollectorParser(): CollectorParser {
  let table: LineParser<PmapRecord | Diagnostic> = createPmapParser();
  let uptimeMs: number | null = null;
  /** The last line read: the text of the diagnostic of a table the stream ended in the middle of. */
  let lastLine = '';

  const fromRecord = (r: PmapRecord | Diagnostic, text: string): CollectorRecord | null => {
    if (r.kind === 'diagnostic') return { kind: 'diagnostic', reason: r.reason, text };
    if (uptimeMs === null) return { kind: 'diagnostic', reason: 'pmap table without a time', text };
    if (!r.complete) return { kind: 'diagnostic', reason: 'pmap table cut short', text };
    return {
      kind: 'sample',
      uptimeMs,
      values: {
        'pmap.largestAnonBytes': r.largestAnonKb === null ? null : r.largestAnonKb * KIB,
        'pmap.anonBytes': r.anonKb === null ? null : r.anonKb * KIB,
        'pmap.mappings': r.mappings,
      },
    };
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
      const t = /^t=(\d+(?:\.\d+)?)$/.exec(line);
      if (t) {
        const cut = endTable(line);
        uptimeMs = Math.round(Number(t[1]) * 1000);
        return cut;
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
