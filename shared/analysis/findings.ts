// What a run's analysis means for the person who ran it: which findings apply, how severe each
// is, and the numbers behind it (suggested contexts, costs of other KV types). Pure functions of
// the analysis and a few facts of the run; the words are the report's job
// (shared/report/finding-text.ts), so the app and every export can say them their own way.
import type { RunAnalysis, RunEvent } from '../api/schemas';
import { MAX_KEPT_DIAGNOSTICS } from '../collectors/collector';
import { KV_TYPE_LAYOUT, rowError } from '../kv/kv-theory';
import { KV_FULL_REASON } from '../parsers/llama-log-errors';
import type { GgufModelSummary } from '../kv/model-config';
import {
  CTX_STEP,
  FIT_R2_LOW,
  HORIZON_CAP_FRACTION,
  OVERHEAD_HIGH,
  OVERHEAD_LOW,
  OVERHEAD_MATCH,
  RESERVED_SPARE,
  RESERVED_USED_LOW,
} from './thresholds';

export type Severity = 'critical' | 'warning' | 'info' | 'ok';
const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, warning: 1, info: 2, ok: 3 };

/** Sort order: worst first. */
export function compareSeverity(a: { severity: Severity }, b: { severity: Severity }): number {
  return SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity];
}

/** Which engine ran: decides how a suggestion is put (llama.cpp flags, demo flags) and the context step. */
export type EngineKind = 'demo' | 'llama' | 'other';

export interface FindingInput {
  analysis: RunAnalysis;
  events: readonly RunEvent[];
  /** Memory samples stored, and samples the board's spool dropped. */
  samples: number;
  lostSamples: number;
  /** Context cells the engine ran with, when known. */
  ctx: number | null;
  /** The KV cache type (f16, q8_0 …) when the request or the engine's log says it. */
  kvType: string | null;
  engine: EngineKind;
  /** Prompt tokens (llama.cpp's timings or the demo's request), for how much of a reserved context was used. */
  promptTokens: number | null;
  /** The recording stopped before the run ended: the numbers were recomputed from stored samples. */
  recovered: boolean;
  /** The run failed with this error; null when it did not. */
  failure: string | null;
  /** The GGUF's facts, when the run read its header. */
  model?: GgufModelSummary | null;
}

/**
 * Whether llama.cpp takes `type` for the model's K and V rows: a quantized type's blocks must
 * divide the head dimension (stories260K's 8 takes no 32-value block). Unknown without the model's
 * facts, or for MLA (its rows are not head_dim wide): then it is not ruled out.
 */
export function kvTypeFitsModel(type: 'q8_0' | 'q4_0', model: GgufModelSummary | null | undefined): boolean {
  if (!model || model.mla) return true;
  const dims = [model.headDimK, model.headDimV];
  if (!dims.every((d) => typeof d === 'number' && Number.isInteger(d) && d > 0)) return true;
  return dims.every((d) => rowError(d, type) === null);
}

/** One finding: its category (`id`), what exactly (`kind`), how bad, and the numbers to word it. */
export type RunFinding = { severity: Severity } & (
  | { id: 'recovered'; kind: 'recovered'; samples: number }
  | { id: 'failed'; kind: 'failed'; error: string }
  | { id: 'events'; kind: 'oom'; tMs: number; message: string | null; peakRssBytes: number | null }
  | { id: 'events'; kind: 'disconnects'; disconnects: number; reconnects: number }
  | { id: 'events'; kind: 'lost-samples'; lostSamples: number }
  | { id: 'events'; kind: 'throttles'; throttles: number; messages: string[] }
  | { id: 'events'; kind: 'watchdog'; message: string | null }
  /** llama.cpp found no free KV cells for a batch `times` times (of its log lines kept as events: `atLeast` when capped). */
  | { id: 'events'; kind: 'kv-full'; times: number; atLeast: boolean }
  | { id: 'budget'; kind: 'no-budget' }
  | {
      id: 'budget';
      kind: 'over-budget';
      peakRssBytes: number;
      budgetBytes: number;
      perTokenBytes: number | null;
      maxSafeContextTokens: number | null;
    }
  | {
      id: 'budget';
      kind: 'reserved-too-large';
      ctx: number;
      budgetBytes: number;
      maxSafeContextTokens: number;
      suggestedCtx: number;
    }
  | { id: 'budget'; kind: 'reserved-fits'; ctx: number; budgetBytes: number; maxSafeContextTokens: number }
  | {
      id: 'budget';
      kind: 'horizon';
      slopeBytesPerToken: number | null;
      budgetBytes: number;
      horizonTokens: number;
      /** The context to cap at, rounded down to `ctxStep`. */
      capTokens: number;
      ctxStep: number;
      /** The configured context is larger than the horizon: a long conversation is OOM-killed first. */
      ctxTooLarge: boolean;
      ctx: number | null;
    }
  | { id: 'budget'; kind: 'window-caps'; windowTokens: number; budgetBytes: number }
  | {
      id: 'budget';
      kind: 'budget-holds';
      budgetBytes: number;
      maxSafeContextTokens: number;
      perTokenBytes: number | null;
    }
  | {
      id: 'reserved';
      kind: 'reserved';
      reservedJumpBytes: number | null;
      ctx: number | null;
      perTokenBytes: number | null;
      /** Set when the run used less than RESERVED_USED_LOW of its context: what it used and what to use. */
      underused: { usedTokens: number; suggestedCtx: number; freedBytes: number | null } | null;
    }
  | {
      id: 'kv-type';
      kind: 'kv-type';
      kvType: string;
      perTokenBytes: number;
      /** Smaller types to try, the first one recommended, with what a token would cost in each. */
      options: Array<{ kvType: 'q8_0' | 'q4_0'; bytesPerToken: number }>;
    }
  | {
      id: 'overhead';
      kind: 'overhead-match' | 'overhead-high' | 'overhead-low';
      factor: number;
      measuredBytesPerToken: number;
      theoryBytesPerToken: number;
    }
  | { id: 'overhead'; kind: 'fit-noisy'; r2: number }
  | { id: 'overhead'; kind: 'leak'; bytesPerToken: number | null; confidence: number; reason: string }
);

function bytesPerValue(type: string): number | null {
  const layout = (KV_TYPE_LAYOUT as Readonly<Record<string, { blockValues: number; blockBytes: number } | undefined>>)[
    type
  ];
  return layout ? layout.blockBytes / layout.blockValues : null;
}

/** n rounded down to a multiple of step, when there is room for at least two steps. */
export function roundDownTo(n: number, step: number): number {
  return n >= step * 2 ? Math.floor(n / step) * step : Math.floor(n);
}

export function roundUpTo(n: number, step: number): number {
  return Math.ceil(n / step) * step;
}

const ctxStepOf = (engine: EngineKind) => (engine === 'llama' ? CTX_STEP : 1);

/** The smaller KV types worth trying, and what a token would cost in each. */
export function kvTypeFinding(input: FindingInput): RunFinding | null {
  const a = input.analysis;
  const perToken = a.kv.theoryBytesPerToken ?? a.kv.measuredBytesPerToken;
  const kvType = input.kvType;
  if (!kvType || perToken === null) return null;
  const from = bytesPerValue(kvType);
  if (from === null) return null;
  const cost = (t: 'q8_0' | 'q4_0') => ({ kvType: t, bytesPerToken: (perToken * (bytesPerValue(t) ?? from)) / from });
  // From a float type both quantized ones are smaller; from q8_0 only q4_0; from q4_0 and the rest
  // nothing; and only those the model's head dimension takes.
  const smaller: Array<'q8_0' | 'q4_0'> = (
    kvType === 'f32' || kvType === 'f16' || kvType === 'bf16'
      ? (['q8_0', 'q4_0'] as const)
      : kvType === 'q8_0'
        ? (['q4_0'] as const)
        : []
  ).filter((t) => kvTypeFitsModel(t, input.model));
  if (smaller.length === 0) return null;
  return {
    id: 'kv-type',
    kind: 'kv-type',
    severity: 'info',
    kvType,
    perTokenBytes: perToken,
    options: smaller.map(cost),
  };
}

/** The run against its memory budget: over it, the OOM horizon and the context to cap at. */
export function budgetFindings(input: FindingInput): RunFinding[] {
  const a = input.analysis;
  const budget = a.budgetBytes;
  const perToken =
    a.kv.measuredBytesPerToken !== null && a.kv.measuredBytesPerToken > 0
      ? a.kv.measuredBytesPerToken
      : a.kv.theoryBytesPerToken;
  // "Profile again with --budget" is advice for a run with memory samples: without them (an
  // imported tegrastats, perf or llama.cpp log) a budget gives no OOM horizon either.
  if (budget === null) return input.samples > 0 ? [{ id: 'budget', kind: 'no-budget', severity: 'info' }] : [];
  const out: RunFinding[] = [];
  const peak = a.peakRssBytes;
  const overBudget = peak !== null && peak >= budget;
  if (overBudget)
    out.push({
      id: 'budget',
      kind: 'over-budget',
      severity: 'critical',
      peakRssBytes: peak,
      budgetBytes: budget,
      perTokenBytes: perToken,
      maxSafeContextTokens: a.maxSafeContextTokens,
    });
  const maxSafe = a.maxSafeContextTokens;
  const ctx = input.ctx;
  if (a.kv.mode === 'reserved') {
    if (maxSafe !== null && ctx !== null)
      out.push(
        ctx > maxSafe
          ? {
              id: 'budget',
              kind: 'reserved-too-large',
              severity: 'critical',
              ctx,
              budgetBytes: budget,
              maxSafeContextTokens: maxSafe,
              suggestedCtx: roundDownTo(maxSafe, ctxStepOf(input.engine)),
            }
          : {
              id: 'budget',
              kind: 'reserved-fits',
              severity: 'ok',
              ctx,
              budgetBytes: budget,
              maxSafeContextTokens: maxSafe,
            },
      );
    return out;
  }
  const horizon = a.oomHorizonTokens;
  if (horizon !== null && !overBudget) {
    const cap = maxSafe !== null && maxSafe < horizon ? maxSafe : Math.floor(horizon * HORIZON_CAP_FRACTION);
    const ctxTooLarge = ctx !== null && horizon < ctx;
    const step = ctxStepOf(input.engine);
    out.push({
      id: 'budget',
      kind: 'horizon',
      severity: ctxTooLarge ? 'warning' : 'info',
      slopeBytesPerToken: a.kv.decodeSlopeBytesPerToken ?? perToken,
      budgetBytes: budget,
      horizonTokens: horizon,
      capTokens: roundDownTo(cap, step),
      ctxStep: step,
      ctxTooLarge,
      ctx,
    });
  } else if (horizon === null && maxSafe !== null && a.kv.mode === 'window' && typeof a.kv.windowTokens === 'number') {
    out.push({
      id: 'budget',
      kind: 'window-caps',
      severity: 'ok',
      windowTokens: a.kv.windowTokens,
      budgetBytes: budget,
    });
  } else if (maxSafe !== null && horizon === null) {
    out.push({
      id: 'budget',
      kind: 'budget-holds',
      severity: 'info',
      budgetBytes: budget,
      maxSafeContextTokens: maxSafe,
      perTokenBytes: perToken,
    });
  }
  return out;
}

/** A reserved-mode engine holds the whole context from the start: how much, and whether it was needed. */
export function reservedFinding(input: FindingInput): RunFinding | null {
  const a = input.analysis;
  if (a.kv.mode !== 'reserved') return null;
  const perToken = a.kv.measuredBytesPerToken ?? a.kv.theoryBytesPerToken;
  const used = a.throughput.tokens + (input.promptTokens ?? 0);
  const ctx = input.ctx;
  let underused: { usedTokens: number; suggestedCtx: number; freedBytes: number | null } | null = null;
  const suggestedCtx = roundUpTo(used * RESERVED_SPARE, CTX_STEP);
  // Rounded up to a step with its spare, the suggestion can come back to the context itself (200
  // tokens used of 512): then there is nothing to free and nothing to suggest.
  if (ctx !== null && used > 0 && used < ctx * RESERVED_USED_LOW && suggestedCtx < ctx) {
    underused = {
      usedTokens: used,
      suggestedCtx,
      freedBytes: perToken !== null ? (ctx - suggestedCtx) * perToken : null,
    };
  }
  return {
    id: 'reserved',
    kind: 'reserved',
    severity: underused ? 'warning' : 'info',
    reservedJumpBytes: a.kv.reservedJumpBytes ?? null,
    ctx,
    perTokenBytes: perToken,
    underused,
  };
}

/** Measured KV cost against the theory, the quality of the fit, and memory growing beyond the cache. */
export function overheadFindings(input: FindingInput): RunFinding[] {
  const a = input.analysis;
  const out: RunFinding[] = [];
  const f = a.kv.overheadFactor;
  const measured = a.kv.measuredBytesPerToken;
  const theory = a.kv.theoryBytesPerToken;
  if (f !== null && measured !== null && theory !== null) {
    const numbers = { factor: f, measuredBytesPerToken: measured, theoryBytesPerToken: theory };
    if (Math.abs(f - 1) <= OVERHEAD_MATCH)
      out.push({ id: 'overhead', kind: 'overhead-match', severity: 'ok', ...numbers });
    else if (f >= OVERHEAD_HIGH) out.push({ id: 'overhead', kind: 'overhead-high', severity: 'warning', ...numbers });
    else if (f <= OVERHEAD_LOW && a.kv.mode === 'growth')
      out.push({ id: 'overhead', kind: 'overhead-low', severity: 'info', ...numbers });
  }
  if (a.kv.fitR2 !== null && a.kv.fitR2 !== undefined && a.kv.fitR2 < FIT_R2_LOW)
    out.push({ id: 'overhead', kind: 'fit-noisy', severity: 'info', r2: a.kv.fitR2 });
  if (a.leak?.leaking)
    out.push({
      id: 'overhead',
      kind: 'leak',
      severity: 'warning',
      bytesPerToken: a.leak.bytesPerToken,
      confidence: a.leak.confidence,
      reason: a.leak.reason,
    });
  return out;
}

/** What happened during the run: OOM kills, dropped links, lost samples, throttling, a full KV cache, the watchdog. */
export function eventFindings(input: FindingInput): RunFinding[] {
  const out: RunFinding[] = [];
  const ofKind = (kind: RunEvent['kind']) => input.events.filter((e) => e.kind === kind);
  for (const e of ofKind('oom'))
    out.push({
      id: 'events',
      kind: 'oom',
      severity: 'critical',
      tMs: e.tMs,
      message: e.message ?? null,
      peakRssBytes: input.analysis.peakRssBytes,
    });
  const disconnects = ofKind('disconnect').length;
  if (disconnects > 0)
    out.push({
      id: 'events',
      kind: 'disconnects',
      severity: 'warning',
      disconnects,
      reconnects: ofKind('reconnect').length,
    });
  if (input.lostSamples > 0)
    out.push({ id: 'events', kind: 'lost-samples', severity: 'warning', lostSamples: input.lostSamples });
  const throttles = ofKind('throttle');
  if (throttles.length > 0)
    out.push({
      id: 'events',
      kind: 'throttles',
      severity: 'warning',
      throttles: throttles.length,
      messages: throttles.map((t) => t.message ?? '').filter(Boolean),
    });
  // The engine's log lines kept as events with their reason (the first MAX_KEPT_DIAGNOSTICS of it).
  const kvFull = input.events.filter((e) => e.data?.reason === KV_FULL_REASON).length;
  if (kvFull > 0)
    out.push({
      id: 'events',
      kind: 'kv-full',
      severity: 'warning',
      times: kvFull,
      atLeast: kvFull >= MAX_KEPT_DIAGNOSTICS,
    });
  const watchdog = input.events.find((e) => e.kind === 'alert' && /watchdog/.test(e.message ?? ''));
  if (watchdog) out.push({ id: 'events', kind: 'watchdog', severity: 'warning', message: watchdog.message ?? null });
  return out;
}

/** Every finding of a run, worst first (a stable sort: within a severity, in the order above). */
export function runFindings(input: FindingInput): RunFinding[] {
  const out: RunFinding[] = [];
  if (input.recovered) out.push({ id: 'recovered', kind: 'recovered', severity: 'warning', samples: input.samples });
  if (input.failure !== null) out.push({ id: 'failed', kind: 'failed', severity: 'critical', error: input.failure });
  out.push(...eventFindings(input), ...budgetFindings(input));
  const reserved = reservedFinding(input);
  if (reserved) out.push(reserved);
  const kvType = kvTypeFinding(input);
  if (kvType) out.push(kvType);
  out.push(...overheadFindings(input));
  return out.sort(compareSeverity);
}
