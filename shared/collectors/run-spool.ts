// Lines of a run's spool (electron/node/run/run-scripts.ts): tagged, timestamped on the
// target's clock. Pure; a line that is not of the spool's grammar becomes a diagnostic.
//
//   X <uptime> <event> [k=v…]   launcher events
//   O <uptime> <text>           engine stdout line;  E <uptime> <text>  engine stderr line
//   P <uptime> <text>           engine stdout text that arrived without its newline yet (the
//                               launcher's chunk reader): later P/O records continue its line
//   C <id> <text>               a line of collector <id> (shared/collectors/registry.ts), its own
//                               time inside <text>, read by that collector's parser
//   H …/S …                     the procfs sampler's lines as launchers before the collector
//                               seam wrote them (a spool left on a board by an older version)

export type SpoolLine =
  | { tag: 'X'; uptimeMs: number; event: string; fields: Record<string, string> }
  | { tag: 'O' | 'P' | 'E'; uptimeMs: number; text: string }
  | { tag: 'H' | 'S'; text: string }
  | { tag: 'C'; collector: string; text: string }
  | { tag: 'diagnostic'; reason: string; text: string };

/** Keys whose value is the rest of the line (free text from the kernel or a tool). */
const REST_OF_LINE_KEYS = new Set(['kernel', 'reason']);

function uptimeMs(text: string | undefined): number | null {
  if (!text || !/^\d+(?:\.\d+)?$/.test(text)) return null;
  return Math.round(Number(text) * 1000);
}

export function parseSpoolLine(line: string): SpoolLine {
  const tag = line.charAt(0);
  if ((tag === 'H' || tag === 'S') && line.charAt(1) === ' ') return { tag, text: line };
  if (tag === 'C' && line.charAt(1) === ' ') {
    const sp = line.indexOf(' ', 2);
    const collector = sp < 0 ? line.slice(2) : line.slice(2, sp);
    if (!/^[a-z][a-z0-9]*$/.test(collector))
      return { tag: 'diagnostic', reason: 'collector line without a collector id', text: line };
    return { tag: 'C', collector, text: sp < 0 ? '' : line.slice(sp + 1) };
  }
  if ((tag === 'O' || tag === 'P' || tag === 'E') && line.charAt(1) === ' ') {
    const sp = line.indexOf(' ', 2);
    const t = uptimeMs(sp < 0 ? line.slice(2) : line.slice(2, sp));
    if (t === null) return { tag: 'diagnostic', reason: 'engine line without a time', text: line };
    return { tag, uptimeMs: t, text: sp < 0 ? '' : line.slice(sp + 1) };
  }
  if (tag === 'X' && line.charAt(1) === ' ') {
    const parts = line.split(' ');
    const [, time, event] = parts;
    const t = uptimeMs(time);
    if (t === null || !event) return { tag: 'diagnostic', reason: 'launcher event without a time or name', text: line };
    const fields: Record<string, string> = {};
    for (const [i, part] of parts.entries()) {
      if (i < 3) continue;
      const eq = part.indexOf('=');
      if (eq <= 0) continue;
      const key = part.slice(0, eq);
      if (REST_OF_LINE_KEYS.has(key)) {
        fields[key] = [part.slice(eq + 1), ...parts.slice(i + 1)].join(' ');
        break;
      }
      fields[key] = part.slice(eq + 1);
    }
    return { tag: 'X', uptimeMs: t, event, fields };
  }
  return { tag: 'diagnostic', reason: 'not a spool line', text: line };
}
