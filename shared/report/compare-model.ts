// Two sessions side by side ("before/after q8_0", two boards): for each pair of runs (by position
// in their sessions) the KV numbers, overhead, throughput and peak RSS of A and B and the change
// from A to B in percent, with whether that change is for the better. Pure.
import {
  deltaFraction,
  formatBytes,
  formatCount,
  formatDeltaPercent,
  formatFactor,
  formatMs,
  formatTokens,
  formatTokensPerSecond,
  MISSING,
} from '../format/units';
import { buildReportModel, type ReportModel, type RunNumbers, type RunReport } from './report-model';
import type { SessionData } from './session-data';
import { beforeAfter, type BeforeAfter, type CompareRow } from './before-after';

export type { CompareRow };

/** Changes smaller than this are noise between two runs of the same setup. */
export const COMPARE_NOISE = 0.02;

export interface ComparePair {
  title: string;
  a: RunReport;
  b: RunReport;
  rows: CompareRow[];
  headline: string[];
  /** What changed from A to B and what it bought (./before-after.ts). */
  beforeAfter: BeforeAfter;
}

export interface CompareModel {
  title: string;
  a: { name: string; report: ReportModel };
  b: { name: string; report: ReportModel };
  target: CompareRow[];
  pairs: ComparePair[];
  notes: string[];
}

type Better = 'lower' | 'higher' | null;

interface Metric {
  label: string;
  key: keyof RunNumbers;
  format: (v: number | null) => string;
  better: Better;
}

const METRICS: Metric[] = [
  { label: 'KV bytes/token, theory', key: 'theoryBytesPerToken', format: formatBytes, better: 'lower' },
  { label: 'KV bytes/token, measured', key: 'measuredBytesPerToken', format: formatBytes, better: 'lower' },
  { label: 'Overhead factor', key: 'overheadFactor', format: formatFactor, better: 'lower' },
  { label: 'Baseline', key: 'baselineBytes', format: formatBytes, better: 'lower' },
  { label: 'Peak RSS', key: 'peakRssBytes', format: formatBytes, better: 'lower' },
  { label: 'Budget', key: 'budgetBytes', format: formatBytes, better: null },
  { label: 'OOM horizon', key: 'oomHorizonTokens', format: formatTokens, better: 'higher' },
  { label: 'Max safe context', key: 'maxSafeContextTokens', format: formatTokens, better: 'higher' },
  { label: 'Time to first token', key: 'ttftMs', format: formatMs, better: 'lower' },
  { label: 'Prefill', key: 'prefillTokensPerSecond', format: formatTokensPerSecond, better: 'higher' },
  { label: 'Decode', key: 'decodeTokensPerSecond', format: formatTokensPerSecond, better: 'higher' },
  { label: 'Tokens generated', key: 'tokens', format: (v) => formatCount(v), better: null },
];

function verdict(a: number | null, b: number | null, better: Better): CompareRow['verdict'] {
  const d = deltaFraction(a, b);
  if (d === null || better === null) return null;
  if (Math.abs(d) < COMPARE_NOISE) return 'same';
  return d < 0 === (better === 'lower') ? 'better' : 'worse';
}

function text(label: string, a: string | null, b: string | null): CompareRow {
  return { label, a: a ?? MISSING, b: b ?? MISSING, delta: a === b ? '' : 'differs', verdict: null };
}

function pairRows(a: RunReport, b: RunReport): CompareRow[] {
  const rows: CompareRow[] = [
    text('Engine', a.engineCommand, b.engineCommand),
    text('KV cache type', a.numbers.kvType, b.numbers.kvType),
    text('Residency mode', a.numbers.mode, b.numbers.mode),
    text(
      'Context (cells)',
      a.numbers.ctx === null ? null : formatCount(a.numbers.ctx),
      b.numbers.ctx === null ? null : formatCount(b.numbers.ctx),
    ),
  ];
  for (const m of METRICS) {
    const va = a.numbers[m.key] as number | null;
    const vb = b.numbers[m.key] as number | null;
    rows.push({
      label: m.label,
      a: m.format(va),
      b: m.format(vb),
      delta: formatDeltaPercent(va, vb),
      verdict: verdict(va, vb, m.better),
    });
  }
  return rows;
}

function headline(a: RunReport, b: RunReport): string[] {
  const out: string[] = [];
  const say = (what: string, key: keyof RunNumbers, format: (v: number | null) => string, better: Better) => {
    const va = a.numbers[key] as number | null;
    const vb = b.numbers[key] as number | null;
    const v = verdict(va, vb, better);
    if (v === null || v === 'same') return;
    out.push(`${what}: ${format(va)} → ${format(vb)} (${formatDeltaPercent(va, vb)}, ${v})`);
  };
  say('KV per token', 'measuredBytesPerToken', formatBytes, 'lower');
  say('Peak RSS', 'peakRssBytes', formatBytes, 'lower');
  say('Max safe context', 'maxSafeContextTokens', formatTokens, 'higher');
  say('Decode', 'decodeTokensPerSecond', formatTokensPerSecond, 'higher');
  say('Time to first token', 'ttftMs', formatMs, 'lower');
  return out;
}

export function buildCompareModel(a: SessionData, b: SessionData, names: { a: string; b: string }): CompareModel {
  const ra = buildReportModel(a);
  const rb = buildReportModel(b);
  const n = Math.min(ra.runs.length, rb.runs.length);
  const pairs: ComparePair[] = [];
  for (let i = 0; i < n; i++) {
    const x = ra.runs[i];
    const y = rb.runs[i];
    const runA = a.runs[i];
    const runB = b.runs[i];
    if (!x || !y || !runA || !runB) continue;
    pairs.push({
      title: n > 1 ? `Run ${i + 1}: ${x.label} ↔ ${y.label}` : `${x.label} ↔ ${y.label}`,
      a: x,
      b: y,
      rows: pairRows(x, y),
      headline: headline(x, y),
      beforeAfter: beforeAfter(
        { run: runA, report: x, sessionTarget: a.meta.target },
        { run: runB, report: y, sessionTarget: b.meta.target },
        verdict,
      ),
    });
  }
  const notes: string[] = [];
  if (ra.runs.length !== rb.runs.length)
    notes.push(
      `A holds ${ra.runs.length} run(s), B ${rb.runs.length}: runs are paired by position; the ${Math.abs(ra.runs.length - rb.runs.length)} extra run(s) are not compared.`,
    );
  if (n === 0) notes.push('Nothing to compare: one of the sessions holds no runs.');
  const labels = new Set([...ra.target.map((r) => r.label), ...rb.target.map((r) => r.label)]);
  const target: CompareRow[] = [...labels].map((label) =>
    text(
      label,
      ra.target.find((r) => r.label === label)?.value ?? null,
      rb.target.find((r) => r.label === label)?.value ?? null,
    ),
  );
  return {
    title: 'KVScope comparison',
    a: { name: names.a, report: ra },
    b: { name: names.b, report: rb },
    target,
    pairs,
    notes,
  };
}
