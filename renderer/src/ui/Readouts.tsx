import {
  formatBytes,
  formatBytesPerToken,
  formatFactor,
  formatCount,
  formatMs,
  formatTokens,
  formatTokensPerSecond,
  MISSING,
} from '../../../shared/format/units';
import type { RunAnalysis } from '../../../shared/api/schemas';
import { useAppStore } from './store-context';

interface Readout {
  key: string;
  label: string;
  value: string;
  note: string;
  tone?: 'warn' | 'bad';
}

/**
 * What the measured KV cost is, by the cache's mode (shared/analysis/run-analysis.ts): a cache
 * reserved at start is measured by the jump it made, per context token, not by a slope (the
 * memory does not grow with tokens), and so has no OOM horizon in tokens.
 */
export function kvNotes(kv: RunAnalysis['kv'] | undefined): {
  measured: string;
  horizon: string | null;
  maxSafe: string;
} {
  const anon = kv?.rssMetric === 'rssAnonBytes';
  const rss = anon ? 'anon RSS' : 'RSS';
  // On anon RSS, the engine's file-backed pages (mmap'd weights) are counted in the budget too
  // (shared/analysis/run-analysis.ts): a context that keeps them in memory. The OOM horizon does
  // not count them (the kernel drops them before it kills), so it comes later: said, not hidden.
  const maxSafe = anon
    ? '(budget − baseline − file pages) ÷ measured: weights stay in memory'
    : '(budget − baseline) ÷ measured';
  // Only with a measurement: an engine that failed before its cache has a mode and nothing else.
  if (kv?.mode === 'reserved' && kv.measuredBytesPerToken !== null)
    return {
      measured: `${rss} reserved at start, per context token`,
      horizon: 'none: the cache was reserved at start, memory does not grow with tokens',
      maxSafe,
    };
  return { measured: `slope of ${rss} against tokens`, horizon: null, maxSafe };
}

export function Readouts() {
  const analysis = useAppStore((s) => s.run.analysis);
  const theoryFallback = useAppStore((s) => s.run.theory?.bytesPerToken ?? null);
  const trainedCtx = useAppStore((s) => s.run.theory?.trainedCtx ?? null);
  const budgetBytes = useAppStore((s) => s.run.analysis?.budgetBytes ?? s.run.budgetBytes);
  const started = useAppStore((s) => s.run.phase !== 'idle');
  const kv = analysis?.kv;
  const throughput = analysis?.throughput;
  const overhead = kv?.overheadFactor ?? null;
  const notes = kvNotes(kv);
  // Only once a run exists: before that the form's budget has not been sent anywhere.
  const noBudget = started && budgetBytes === null ? 'no memory budget was set' : null;

  const readouts: Readout[] = [
    {
      key: 'measured-bytes-per-token',
      label: 'Measured KV',
      value: formatBytesPerToken(kv?.measuredBytesPerToken),
      note: notes.measured,
    },
    {
      key: 'theory-bytes-per-token',
      label: 'Theory KV',
      value: formatBytesPerToken(kv?.theoryBytesPerToken ?? theoryFallback),
      note: 'layers × KV heads × row bytes',
    },
    {
      key: 'overhead-factor',
      label: 'Overhead',
      value: formatFactor(overhead),
      note: 'measured ÷ theory',
      tone: overhead !== null && overhead > 1.5 ? 'warn' : undefined,
    },
    {
      key: 'oom-horizon',
      label: 'OOM horizon',
      value: formatTokens(analysis?.oomHorizonTokens),
      // The charge the kernel kills on (shared/analysis/run-analysis.ts), not RSS: file-backed
      // weights it can drop may take RSS past the budget first.
      note:
        noBudget ??
        notes.horizon ??
        'tokens until what the OOM killer counts (anon, not page cache) reaches the budget',
    },
    {
      key: 'max-safe-context',
      label: 'Max safe context',
      value: formatTokens(analysis?.maxSafeContextTokens),
      // What memory allows, which past the model's training context is not what the model is made
      // for (the KV calculator says it the same way).
      note:
        noBudget ??
        (trainedCtx !== null && (analysis?.maxSafeContextTokens ?? 0) > trainedCtx
          ? `${notes.maxSafe}; beyond the model's trained ${formatTokens(trainedCtx)}`
          : notes.maxSafe),
    },
    {
      key: 'peak-rss',
      label: 'Peak RSS',
      value: formatBytes(analysis?.peakRssBytes),
      note: budgetBytes !== null ? `budget ${formatBytes(budgetBytes)}` : 'largest RSS sampled',
    },
    {
      key: 'decode-tps',
      label: 'Decode',
      value: formatTokensPerSecond(throughput?.decodeTokensPerSecond),
      note: throughput ? `${formatCount(throughput.tokens)} tokens generated` : 'tokens per second',
    },
    {
      key: 'ttft',
      label: 'Time to first token',
      value: formatMs(throughput?.ttftMs),
      note: 'prompt processing included',
    },
  ];

  return (
    <section className="readouts" aria-label="Run analysis">
      {readouts.map((r) => (
        <div
          key={r.key}
          className={`readout${r.value === MISSING ? ' readout-missing' : ''}${r.tone ? ` readout-${r.tone}` : ''}`}
        >
          <div className="readout-label">{r.label}</div>
          <div className="readout-value" data-testid={`readout-${r.key}`}>
            {r.value}
          </div>
          <div className="readout-note">{r.note}</div>
        </div>
      ))}
    </section>
  );
}
