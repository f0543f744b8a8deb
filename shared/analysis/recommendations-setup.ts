// Recommendations about how the engine and the board were set up (./recommendations.ts ranks them
// with the rest): the sliding window, parallel sequences, compute buffers (llama.cpp's batch and
// ubatch), transparent huge pages, swap/zram and the CPU governor. Each is computed from the run:
// the engine's own log lines (shared/parsers/llama-log-parser.ts records), the target's probe
// facts (shared/probe/probe-schema.ts) and the samples; none applies when its facts are missing.
import type { Sample } from '../api/schemas';
import { LLAMA_CPP_CTX_PAD, LLAMA_CPP_DEFAULT_UBATCH } from '../kv/kv-theory';
import type { GgufModelSummary } from '../kv/model-config';
import { bytesOf } from '../parsers/llama-log-model';
import type { KvRecord, ModelRecord } from '../parsers/records';
import type { EngineLog } from '../run/run-record';
import type { TargetFacts } from '../run/target-facts';
import type { EngineKind } from './findings';
import { zonePassiveTripC } from './throttle';
import { CLOCK_AT_MAX_SHARE, FREED_SHARE_WORTH_SAYING, SUGGESTED_UBATCH } from './thresholds';

/** The setup recommendations' own fields (recommendations.ts adds effectFraction and prevents). */
export type SetupRecommendation =
  | {
      kind: 'swa';
      /** The window (tokens) and the cells the SWA sub-cache held, and would hold windowed. */
      windowTokens: number;
      swaCellsBefore: number;
      swaCellsAfter: number;
      /** The whole KV cache (every sub-cache) at the run's context, before → after. */
      kvBytesBefore: number;
      kvBytesAfter: number;
      ofBytes: number;
    }
  | {
      kind: 'parallel';
      seqs: number;
      /** Context cells each sequence gets (n_ctx_per_seq). */
      ctxPerSeq: number;
      kvBytesBefore: number;
      kvBytesAfter: number;
      ofBytes: number;
    }
  | {
      kind: 'compute-buffer';
      /** 'log': the engine's `compute buffer size` lines; 'estimate': see computeBufferRecommendation. */
      source: 'log' | 'estimate';
      /** The buffers as the log named them (CPU, CUDA_Host…), or the estimate's terms. */
      buffers: string[];
      ubatch: number;
      suggestedUbatch: number;
      bytesBefore: number;
      bytesAfter: number;
      ofBytes: number;
    }
  | { kind: 'thp'; enabled: string; hugePageBytes: number; pageBytes: number; ofBytes: number }
  | { kind: 'swap-setup'; memTotalBytes: number; zramBytes: number }
  | {
      kind: 'governor';
      governors: string[];
      /** Mean of current ÷ maximum clock over the run's samples. */
      meanClockShare: number;
      decodeTokensPerSecond: number | null;
    };

export type Ranked<T> = T & { effectFraction: number; prevents: 'oom' | null };

export interface SetupInput {
  engine: EngineKind;
  /** Context cells the engine ran with, when known. */
  ctx: number | null;
  series: readonly Sample[];
  budgetBytes: number | null;
  peakRssBytes: number | null;
  decodeTokensPerSecond: number | null;
  /** The run came near or past its budget (a horizon inside the context, over budget, an OOM kill). */
  memoryTight: boolean;
  engineLog?: EngineLog | null;
  model?: GgufModelSummary | null;
  target?: TargetFacts | null;
}

/** What a share of memory is measured against: the budget, else the peak RSS. */
function ofBytesOf(input: SetupInput): number | null {
  const of = input.budgetBytes ?? input.peakRssBytes;
  return of !== null && of > 0 ? of : null;
}

/** The engine's model and context lines, merged in order (the parser emits one record per block). */
export function mergedModel(log: EngineLog | null | undefined): Partial<ModelRecord> {
  const out: Partial<ModelRecord> = {};
  for (const r of log?.model ?? []) {
    const extra = { ...out.extra, ...r.extra };
    Object.assign(out, r);
    out.extra = extra;
  }
  return out;
}

const totals = (log: EngineLog | null | undefined): KvRecord[] =>
  (log?.kv ?? []).filter((r) => r.scope === 'total' && r.sizeBytes !== null && r.sizeBytes > 0);
const sumBytes = (records: readonly KvRecord[]) => records.reduce((a, r) => a + (r.sizeBytes ?? 0), 0);
const padUp = (n: number, pad: number) => Math.ceil(n / pad) * pad;

/**
 * Sliding window: the iSWA cache's SWA half (llama.cpp's `llama_kv_cache_iswa`) held more cells than
 * the window needs — `--swa-full`, or an engine that keeps SWA layers whole. Windowed it holds
 * min(n_ctx_seq, n_swa × seqs + n_ubatch) cells padded to 256 (shared/kv/kv-theory.ts, the same rule);
 * its bytes scale with its cells.
 */
export function swaRecommendation(input: SetupInput): Ranked<SetupRecommendation> | null {
  const records = totals(input.engineLog);
  const swa = records.find((r) => r.swa === true);
  const m = mergedModel(input.engineLog);
  const window = m.slidingWindow ?? input.model?.slidingWindow ?? null;
  const of = ofBytesOf(input);
  if (!swa?.cells || !window || window <= 0 || of === null) return null;
  const seqs = swa.seqs ?? m.nSeqMax ?? 1;
  const ubatch = m.nUbatch ?? LLAMA_CPP_DEFAULT_UBATCH;
  const after = Math.min(swa.cells, padUp(window * seqs + ubatch, LLAMA_CPP_CTX_PAD));
  if (after >= swa.cells) return null;
  const before = sumBytes(records);
  const freed = ((swa.sizeBytes ?? 0) * (swa.cells - after)) / swa.cells;
  if (freed / of < FREED_SHARE_WORTH_SAYING) return null;
  return {
    kind: 'swa',
    prevents: null,
    effectFraction: freed / of,
    windowTokens: window,
    swaCellsBefore: swa.cells,
    swaCellsAfter: after,
    kvBytesBefore: before,
    kvBytesAfter: before - freed,
    ofBytes: of,
  };
}

/**
 * Parallel sequences: llama.cpp splits n_ctx among n_seq_max sequences (-np), so the cache holds
 * seqs × n_ctx_per_seq cells; one sequence with the same context per conversation needs 1/seqs of it.
 */
export function parallelRecommendation(input: SetupInput): Ranked<SetupRecommendation> | null {
  const records = totals(input.engineLog);
  const m = mergedModel(input.engineLog);
  const seqs = m.nSeqMax ?? Math.max(0, ...records.map((r) => r.seqs ?? 0));
  const of = ofBytesOf(input);
  const before = sumBytes(records);
  if (!seqs || seqs <= 1 || before <= 0 || of === null) return null;
  const ctxPerSeq = m.nCtxPerSeq ?? (m.nCtx ?? input.ctx ?? 0) / seqs;
  const after = before / seqs;
  if ((before - after) / of < FREED_SHARE_WORTH_SAYING || ctxPerSeq <= 0) return null;
  return {
    kind: 'parallel',
    prevents: null,
    effectFraction: (before - after) / of,
    seqs,
    ctxPerSeq: Math.floor(ctxPerSeq),
    kvBytesBefore: before,
    kvBytesAfter: after,
    ofBytes: of,
  };
}

/** `CPU compute buffer size = 300.75 MiB` (llama_context / llama_new_context_with_model / sched_reserve lines). */
const COMPUTE_KEY = /^(.*\S)\s+compute buffer size$/;
/** llama.cpp graphs keep activations in f32. */
const F32_BYTES = 4;

/**
 * Compute buffers: llama.cpp reserves them for the largest graph, one ubatch of tokens; their size
 * scales with n_ubatch. From the engine's own lines when it printed them; otherwise estimated from
 * the two largest activations of one ubatch, the output logits (n_vocab) and, without flash
 * attention, the attention scores (n_head × n_ctx), in f32 — and said to be an estimate.
 */
export function computeBufferRecommendation(input: SetupInput): Ranked<SetupRecommendation> | null {
  if (input.engine !== 'llama') return null;
  const m = mergedModel(input.engineLog);
  const ubatch = m.nUbatch ?? LLAMA_CPP_DEFAULT_UBATCH;
  const of = ofBytesOf(input);
  if (ubatch <= SUGGESTED_UBATCH || of === null) return null;
  const logged: Array<{ name: string; bytes: number }> = [];
  for (const [key, value] of Object.entries(m.extra ?? {})) {
    const name = COMPUTE_KEY.exec(key)?.[1];
    const [num, unit] = value.trim().split(/\s+/);
    const bytes = bytesOf(num, unit);
    if (name && bytes !== null) logged.push({ name, bytes });
  }
  let source: 'log' | 'estimate' = 'log';
  let before = logged.reduce((a, b) => a + b.bytes, 0);
  let buffers = logged.map((b) => b.name);
  if (logged.length === 0) {
    const vocab = m.nVocab ?? input.model?.vocabSize ?? null;
    const heads = m.nHead ?? input.model?.nHead ?? null;
    const ctx = m.nCtx ?? input.ctx;
    if (!vocab || !heads || !ctx) return null;
    const flash = /^(?:1|on|enabled|true)$/i.test(m.flashAttn ?? '');
    source = 'estimate';
    buffers = flash ? ['logits'] : ['logits', 'attention scores'];
    before = F32_BYTES * ubatch * (vocab + (flash ? 0 : heads * ctx));
  }
  const after = (before * SUGGESTED_UBATCH) / ubatch;
  if ((before - after) / of < FREED_SHARE_WORTH_SAYING) return null;
  return {
    kind: 'compute-buffer',
    prevents: null,
    effectFraction: (before - after) / of,
    source,
    buffers,
    ubatch,
    suggestedUbatch: SUGGESTED_UBATCH,
    bytesBefore: before,
    bytesAfter: after,
    ofBytes: of,
  };
}

/**
 * THP `always`: anonymous memory (the KV cache, the engine's buffers) is backed by huge pages where
 * the kernel can, so RSS grows in huge-page steps and a region touched in one page holds a whole
 * huge page; `madvise` keeps them for programs that ask. The effect is one huge page against the budget.
 */
export function thpRecommendation(input: SetupInput): Ranked<SetupRecommendation> | null {
  const t = input.target;
  const enabled = t?.thp?.enabled ?? null;
  const hugeKb = t?.memory?.meminfoKb?.Hugepagesize ?? null;
  const pageBytes = t?.pageSizeBytes ?? null;
  const of = ofBytesOf(input);
  if (enabled !== 'always' || !hugeKb || !pageBytes || of === null) return null;
  const hugePageBytes = hugeKb * 1024;
  return {
    kind: 'thp',
    prevents: null,
    effectFraction: hugePageBytes / of,
    enabled,
    hugePageBytes,
    pageBytes,
    ofBytes: of,
  };
}

/** zram-generator's default device size: min(RAM / 2, 4 GiB) (zram-generator.conf(5), `zram-size`). */
function zramDefaultBytes(memTotalBytes: number): number {
  return Math.min(memTotalBytes / 2, 4 * 1024 ** 3);
}

/**
 * No swap and no zram on a run that came near its budget: the first allocation past RAM is an OOM
 * kill. Compressed swap in RAM turns it into a slowdown; the effect is the zram device's size
 * against RAM (an upper bound: what it holds depends on how well the pages compress).
 */
export function swapSetupRecommendation(input: SetupInput): Ranked<SetupRecommendation> | null {
  const t = input.target;
  const memTotal = t?.memory?.totalBytes ?? t?.memTotalBytes ?? null;
  if (!t?.swaps || !t.zram || !input.memoryTight || !memTotal) return null;
  const hasSwap = t.swaps.length > 0 || (t.memory?.swapTotalBytes ?? 0) > 0;
  if (hasSwap || t.zram.some((z) => (z.disksizeBytes ?? 0) > 0)) return null;
  const zramBytes = zramDefaultBytes(memTotal);
  return {
    kind: 'swap-setup',
    prevents: null,
    effectFraction: zramBytes / memTotal,
    memTotalBytes: memTotal,
    zramBytes,
  };
}

/** Mean of current ÷ maximum clock over every `<x>FreqKHz` with a `<x>MaxFreqKHz` in the samples (as throttle.ts pairs them). */
export function meanClockShare(series: readonly Sample[]): number | null {
  let sum = 0;
  let n = 0;
  for (const s of series)
    for (const [key, cur] of Object.entries(s.values)) {
      if (!key.endsWith('FreqKHz') || key.endsWith('MaxFreqKHz')) continue;
      const max = s.values[key.replace(/FreqKHz$/, 'MaxFreqKHz')];
      if (typeof cur === 'number' && typeof max === 'number' && max > 0 && cur > 0) {
        sum += Math.min(1, cur / max);
        n += 1;
      }
    }
  return n > 0 ? sum / n : null;
}

/**
 * The CPU governor while benchmarking: powersave/ondemand/conservative/schedutil let the clock sit
 * below its maximum, so tokens/s depends on the governor's mood. A CPU-bound decode scales at most
 * with the clock: the gain is bounded by max ÷ mean clock.
 */
export function governorRecommendation(input: SetupInput): Ranked<SetupRecommendation> | null {
  const policies = input.target?.cpu?.policies ?? [];
  const governors = [...new Set(policies.map((p) => p.governor).filter((g): g is string => !!g))];
  const canPerform = policies.some((p) => p.availableGovernors.includes('performance'));
  if (governors.length === 0 || governors.every((g) => g === 'performance') || !canPerform) return null;
  const share = meanClockShare(input.series);
  if (share === null || share >= CLOCK_AT_MAX_SHARE) return null;
  return {
    kind: 'governor',
    prevents: null,
    effectFraction: 1 / share - 1,
    governors: governors.filter((g) => g !== 'performance'),
    meanClockShare: share,
    decodeTokensPerSecond: input.decodeTokensPerSecond,
  };
}

/** Every setup recommendation that applies to the run (unranked). */
export function setupRecommendations(input: SetupInput): Array<Ranked<SetupRecommendation>> {
  return [
    swaRecommendation(input),
    parallelRecommendation(input),
    computeBufferRecommendation(input),
    thpRecommendation(input),
    swapSetupRecommendation(input),
    governorRecommendation(input),
  ].filter((r): r is Ranked<SetupRecommendation> => r !== null);
}

/**
 * The board's throttle trip point for shared/analysis/throttle.ts: the lowest `passive` trip of its
 * thermal zones (where the kernel starts clocking down), or null when the probe found none.
 */
export function passiveTripC(target: TargetFacts | null | undefined): number | null {
  let trip: number | null = null;
  for (const zone of target?.thermal ?? []) {
    const t = zonePassiveTripC(zone);
    if (t !== null) trip = trip === null ? t : Math.min(trip, t);
  }
  return trip;
}
