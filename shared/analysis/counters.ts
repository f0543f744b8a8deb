// What the perf collector's counters mean for inference (shared/collectors/perf-collector.ts):
// instructions per cycle (low IPC while decoding = the cores wait on memory, the usual state of
// a model streaming its weights) and counts per generated token (cache misses per token grow when
// the KV cache no longer fits the caches). Pure: from a run's samples.
//
// A perf sample at tMs holds the counts of the interval that ended at tMs (perf stat -I). So the
// counts of every sample after the first cover exactly (first.tMs, last.tMs], the window in which
// the engine's token samples say how many tokens were generated.
import type { Sample } from '../api/schemas';
import { tokenEventsFromSamples, tokensAt } from './throughput';

export const PERF_SOURCE = 'perf';

/** A perf counter key's PMU and event: `perf.cycles` → ('', cycles), `perf.cpu_core.cycles` → (cpu_core, cycles). */
export function perfKeyParts(key: string): { pmu: string; event: string } | null {
  const m = /^perf\.(?:([\w-]+)\.)?([\w-]+)$/.exec(key);
  return m ? { pmu: m[1] ?? '', event: m[2] ?? '' } : null;
}

/** The PMU a counter key of `event` belongs to ('' for a CPU with one), or null for another event's key. */
function pmuOf(key: string, event: string): string | null {
  const parts = perfKeyParts(key);
  return parts && parts.event === event ? parts.pmu : null;
}

export interface IpcPoint {
  tMs: number;
  /** '' for a CPU with one PMU; the PMU's name on a hybrid one (`cpu_core`, `armv8_cortex_a53`). */
  pmu: string;
  ipc: number;
}

function perfSamples(samples: readonly Sample[]): Sample[] {
  return samples.filter((s) => s.source === PERF_SOURCE).sort((a, b) => a.tMs - b.tMs);
}

/** Instructions / cycles of each interval, per PMU (hybrid cores never mixed). */
export function ipcOverTime(samples: readonly Sample[]): IpcPoint[] {
  const out: IpcPoint[] = [];
  for (const s of perfSamples(samples)) {
    for (const [key, cycles] of Object.entries(s.values)) {
      const pmu = pmuOf(key, 'cycles');
      if (pmu === null || typeof cycles !== 'number' || cycles <= 0) continue;
      const instructions = s.values[pmu === '' ? 'perf.instructions' : `perf.${pmu}.instructions`];
      if (typeof instructions === 'number') out.push({ tMs: s.tMs, pmu, ipc: instructions / cycles });
    }
  }
  return out;
}

export interface CounterSummary {
  /** Overall IPC per PMU: all instructions / all cycles of the run. */
  ipc: Record<string, number>;
  /** Tokens generated in the counted window (first.tMs, last.tMs]. */
  tokens: number;
  /** Each count counter's total over that window divided by those tokens (null with no token). */
  perToken: Record<string, number | null>;
  /** Each counter's total over that window. */
  totals: Record<string, number>;
}

/** IPC and counts per generated token of a run, or null with fewer than two perf samples. */
export function counterSummary(samples: readonly Sample[]): CounterSummary | null {
  const perf = perfSamples(samples);
  const first = perf[0];
  const last = perf[perf.length - 1];
  if (!first || !last || perf.length < 2) return null;
  const totals: Record<string, number> = {};
  for (const s of perf.slice(1)) {
    for (const [key, v] of Object.entries(s.values)) if (typeof v === 'number') totals[key] = (totals[key] ?? 0) + v;
  }
  const events = tokenEventsFromSamples(samples);
  const tokens = tokensAt(events, last.tMs) - tokensAt(events, first.tMs);
  const ipc: Record<string, number> = {};
  const perToken: Record<string, number | null> = {};
  for (const [key, total] of Object.entries(totals)) {
    const pmu = pmuOf(key, 'cycles');
    const instructions =
      pmu === null ? undefined : totals[pmu === '' ? 'perf.instructions' : `perf.${pmu}.instructions`];
    if (pmu !== null && instructions !== undefined && total > 0) ipc[pmu] = instructions / total;
    // CPU time keys (…Us) are not counts: per token they would be a latency, which token timing already gives.
    if (!key.endsWith('Us')) perToken[key] = tokens > 0 ? total / tokens : null;
  }
  return { ipc, tokens, perToken, totals };
}
