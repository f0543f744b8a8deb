// What the comparison view draws and tabulates, from sessions as openSession returned them:
// one RSS curve per session (its first run, the one the tables compare), aligned by tokens generated or by time since the
// run started, and the delta table — every value from shared/report/compare-model.ts, the model
// behind `kvscope compare`, so the view and the command never disagree.
import { lttb } from '../../../../shared/analysis/lttb';
import { buildCompareModel, type CompareRow } from '../../../../shared/report/compare-model';
import type { SessionData, SessionRun } from '../../../../shared/report/session-data';
import type { CompareAlign } from '../../state/compare-slice';

/** Points per curve after LTTB: a few per pixel of a chart column, however long the session. */
export const OVERLAY_POINTS_PER_CURVE = 600;

export interface OverlayCurve {
  id: string;
  name: string;
  /** x: tokens generated, or seconds since the run started; y: RSS bytes. */
  points: Array<{ x: number; y: number }>;
}

/** RSS samples of a run against tokens (the engine's count carried forward) or seconds. */
export function overlayPoints(run: SessionRun, align: CompareAlign): Array<{ x: number; y: number }> {
  const points: Array<{ x: number; y: number }> = [];
  let tokens = 0;
  for (const sample of run.samples) {
    const t = sample.values.tokens;
    if (typeof t === 'number' && t > tokens) tokens = t;
    const rss = sample.values.rssBytes;
    // 0 is the sampler's reading after the process has gone, not memory the run held.
    if (typeof rss !== 'number' || rss <= 0) continue;
    points.push({ x: align === 'tokens' ? tokens : sample.tMs / 1000, y: rss });
  }
  return lttb(
    points,
    OVERLAY_POINTS_PER_CURVE,
    (p) => p.x,
    (p) => p.y,
  );
}

/**
 * The sessions' names, in their order, with " (2)", " (3)"… after the second and later uses of one
 * name, counted in the order the sessions were recorded (their ids start with their time): a
 * session keeps its number whichever is picked first or made the reference.
 */
export function distinctNames(sessions: ReadonlyArray<{ id: string; name: string }>): string[] {
  const recorded = [...sessions].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const seen = new Map<string, number>();
  const nameOf = new Map<string, string>();
  for (const { id, name } of recorded) {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    nameOf.set(id, n === 1 ? name : `${name} (${n})`);
  }
  return sessions.map((s) => nameOf.get(s.id) ?? s.name);
}

/**
 * One curve per session: its first run, the one the delta table and the before/after table put
 * side by side (compare-model.ts pairs runs by position; the view shows the first pair). The
 * legend says so for a session of several runs (a sweep), and says when a session has no RSS
 * sample to draw, so no one looks for a line that is not there.
 */
export function overlayCurves(
  sessions: ReadonlyArray<{ id: string; name: string; data: SessionData }>,
  align: CompareAlign,
): OverlayCurve[] {
  return sessions.map(({ id, name, data }) => {
    const run = data.runs[0];
    const points = run ? overlayPoints(run, align) : [];
    const which = data.runs.length > 1 ? ` (run 1 of ${data.runs.length})` : '';
    const empty = points.length === 0 ? ' – no RSS samples' : '';
    return { id, name: `${name}${which}${empty}`, points };
  });
}

export interface DeltaTable {
  /** The reference session first, then each other one. */
  names: string[];
  rows: Array<{ label: string; reference: string; others: Array<Pick<CompareRow, 'b' | 'delta' | 'verdict'>> }>;
  notes: string[];
}

/** Each session against the first, row by row, as buildCompareModel words them (first pair of runs). */
export function deltaTable(sessions: ReadonlyArray<{ name: string; data: SessionData }>): DeltaTable | null {
  const [reference, ...others] = sessions;
  if (!reference || others.length === 0) return null;
  const models = others.map((o) => buildCompareModel(reference.data, o.data, { a: reference.name, b: o.name }));
  const first = models[0]?.pairs[0];
  const notes = [...new Set(models.flatMap((m) => m.notes))];
  if (!first) return { names: sessions.map((s) => s.name), rows: [], notes };
  const rows = first.rows.map((row, i) => ({
    label: row.label,
    reference: row.a,
    others: models.map((m) => {
      const r = m.pairs[0]?.rows[i];
      return r ? { b: r.b, delta: r.delta, verdict: r.verdict } : { b: '–', delta: '', verdict: null };
    }),
  }));
  return { names: sessions.map((s) => s.name), rows, notes };
}
