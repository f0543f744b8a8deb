// `kvscope import vcgencmd <log>`: a Raspberry Pi's firmware readings logged by a shell loop on a
// board without a link to KVScope, e.g.
//
//   while true; do date; vcgencmd measure_temp; vcgencmd measure_clock arm; vcgencmd get_throttled; sleep 1; done
//   while true; do echo "$(date +%T) $(vcgencmd measure_temp) $(vcgencmd get_throttled)"; sleep 1; done
//
// Readings are vcgencmd's own lines (`temp=48.3'C`, `throttled=0x50005`, `frequency(48)=1500345728`,
// also labelled `arm: frequency(45)=…`), one or several on a line. They are grouped into ticks as
// the loop made them: a tick ends where a stamp starts a new one or where a kind of reading comes a
// second time. Each tick goes to the vcgencmd collector's parser (a tick line as the collector
// writes it), so an imported run has the live run's series (rpi.soc.C, rpi.armFreqMHz, the
// get_throttled bits).
//
// Time: a stamp where the loop printed one (date(1) in its usual forms, log-stamps.ts), alone on its
// line or in front of the readings; else one interval after the tick before.
import { createVcgencmdCollectorParser } from '../../../shared/collectors/vcgencmd-collector-parser';
import { readFirmwareLine } from '../../../shared/parsers/firmware-lines';
import { isCommentLine } from '../../../shared/parsers/records';
import type { LogReader, Read } from './import-reads';
import { readStamp, stampClock, type Stamp } from './log-stamps';

/**
 * The ids `measure_clock arm` prints: 45 (Pi 1–3), 48 (Pi 4); a Pi 5 prints 0 for every block, so an
 * unlabelled 0 is taken for the ARM's, the clock a logging loop asks for. Any other id is another
 * block's (1 core, 43 v3d, 28 h264…).
 */
const ARM_CLOCK_IDS = new Set([45, 48, 0]);

/** What a vcgencmd word is to the import: a part of the tick (by kind), or why it is none. */
type Word = { part: string; kind: 'temp' | 'throttled' | 'clock' } | { reason: string; notKept?: true } | null;

function readWord(word: string, label: string | null, lineNo: number): Word {
  const found = readFirmwareLine(word, word, lineNo, word);
  if (found === null) return null;
  if ('unreadable' in found) return { reason: found.unreadable.reason };
  const r = found.readings[0];
  if (r?.kind === 'vc-temp') return { part: word, kind: 'temp' };
  if (r?.kind === 'throttled') return { part: word, kind: 'throttled' };
  if (r?.kind === 'vc-clock') {
    // measure_clock of another block (core, v3d, emmc…): the collector's series is the ARM clock.
    if (label !== null && label.toLowerCase() !== 'arm')
      return { reason: `the ${label} clock (KVScope keeps the ARM clock's)`, notKept: true };
    if (label === null && !ARM_CLOCK_IDS.has(r.clockId))
      return { reason: `the clock of block ${r.clockId}, not the ARM's (45, 48; 0 on a Pi 5)`, notKept: true };
    // A stopped block reads 0 Hz (a Pi 1's pwm, vec, dpi); the ARM runs while it answers. On a Pi 5
    // every block's id is 0, so an unlabelled 0 Hz is another block's, not the ARM stopped.
    if (r.freqHz === 0) return { reason: `a clock at 0 Hz (a stopped block), not the ARM's`, notKept: true };
    return { part: word, kind: 'clock' };
  }
  return {
    reason: 'a vcgencmd reading KVScope keeps no series of (measure_volts, get_mem, pmic_read_adc)',
    notKept: true,
  };
}

export function vcgencmdReader(intervalMs: number): LogReader {
  const parser = createVcgencmdCollectorParser();
  /** The tick being gathered: its parts by kind, its stamp, its first line. */
  let tick: { parts: Map<string, string>; stamp: Stamp | null; line: number } | null = null;
  let pendingStamp: { stamp: Stamp; line: number } | null = null;
  let lastTMs: number | null = null;
  const clock = stampClock(intervalMs);

  const flush = (out: Read[]) => {
    if (tick === null) return;
    const { parts, stamp, line } = tick;
    tick = null;
    const tMs = clock.timeOf(stamp, lastTMs, line, out);
    const record = parser.push(`t=${(tMs / 1000).toFixed(3)}|${[...parts.values()].join('|')}`);
    if (record?.kind === 'sample') {
      out.push({ kind: 'sample', tMs, values: record.values });
      lastTMs = tMs;
    } else if (record?.kind === 'diagnostic') out.push({ kind: 'diagnostic', line, reason: record.reason, text: '' });
  };

  const push = (text: string, dropped: number, lineNo: number): Read[] => {
    const out: Read[] = [];
    const t = text.trim();
    if (t === '' || isCommentLine(text)) return out;
    const atMs = lastTMs ?? undefined;
    const stamp = readStamp(t);
    if (stamp) {
      flush(out);
      pendingStamp = { stamp, line: lineNo };
    }
    const words = (stamp ? stamp.rest : t).split(/\s+/).filter((w) => w !== '');
    const problems: string[] = [];
    /** Whether a problem of the line is a word that could not be read (not one read and not kept). */
    let unreadable = false;
    let label: string | null = null;
    for (const word of words) {
      if (/^[\w.-]+:$/.test(word)) {
        label = word.slice(0, -1);
        continue;
      }
      const read = readWord(word, label, lineNo);
      label = null;
      if (read === null) {
        problems.push('not a vcgencmd reading');
        unreadable = true;
        continue;
      }
      if ('reason' in read) {
        problems.push(read.reason);
        unreadable ||= read.notKept !== true;
        continue;
      }
      if (tick?.parts.has(read.kind)) flush(out);
      if (tick === null) {
        tick = { parts: new Map(), stamp: pendingStamp?.stamp ?? null, line: pendingStamp?.line ?? lineNo };
        pendingStamp = null;
      }
      tick.parts.set(read.kind, read.part);
    }
    if (dropped > 0) {
      problems.unshift(`line cut: ${dropped} characters dropped`);
      unreadable = true;
    }
    // A line that is only a stamp is read; one with words that are no reading is kept and counted,
    // apart (notKept) when all it holds is readings KVScope keeps no series of.
    if (problems.length > 0) {
      const reason = [...new Set(problems)].join('; ');
      out.push({
        kind: 'diagnostic',
        line: lineNo,
        reason,
        text,
        ...(atMs !== undefined ? { tMs: atMs } : {}),
        ...(unreadable ? {} : { notKept: true as const }),
      });
    }
    return out;
  };

  return {
    push,
    end: () => {
      const out: Read[] = [];
      flush(out);
      return out;
    },
    clockStartMs: clock.clockStartMs,
  };
}
