// The analysis of one run: from samples (memory, tokens, engine start) to the numbers docs/DESIGN.md
// asks for — measured KV bytes/token and overhead, residency mode, baseline, OOM horizon, max safe
// context, throughput — plus a leak verdict. Pure and cheap enough to run live on every update.
//
// Inputs it reads from the samples (any other keys are ignored):
//   memory  (source 'procfs' preferred; any source with these keys otherwise):
//           rssBytes, rssAnonBytes, and optionally tokens (generated so far at that tick);
//   engine  (source 'engine'): {started: 1} once, when the engine process starts;
//           {tokens: n} at token arrivals, n cumulative.
// tMs counts from the run start; without a `started` sample the engine is taken to start at 0.
//
// Method, and why:
// - Memory is the anonymous RSS when sampled: the KV cache is anonymous memory, while mmap'd
//   weights show up as file-backed RSS as pages fault in and would pollute the slope. Total RSS is
//   the fallback, and total RSS is what the budget is compared with.
// - Each memory sample gets the token count at its time (its own `tokens`, else the engine's count
//   at that moment); decode = samples after the first token.
// - Slope = Theil–Sen of memory against tokens (robust to allocator steps and sampling jitter).
// - Mode: window when the first part of the decode grows (≥ 50% of theory) and the last part
//   grows at most half as fast (flat, or only a leak's slope); reserved when a pre-token jump of ≈ ctx × theory was seen and the engine is
//   declared reserved or the decode slope is under half the theory, or when the decode slope is
//   ≈ 0 (< 25% of theory); growth otherwise.
// - Reserved: the jump is the largest climb in memory before the first token (closest to
//   ctx × theory when that is known, so a separate weights load is not mistaken for it); baseline
//   = memory before it; measured bytes/token = theory × jump ÷ expected reservation (= jump ÷ ctx
//   for a model without sliding windows).
// - Budget, first of: `--budget` (flag: the user's word wins), `--memory-limit` (the cgroup the
//   run made; the limit as the kernel holds it, else as asked), the limit of the engine's memory
//   cgroup (cgroup collector, shared/collectors/cgroup-collector.ts), MemAvailable at the first
//   sample plus what the engine was charged then (memavailable). `budgetSource` says which.
// - OOM horizon: tokens at which the charge the kernel acts on reaches the budget, at the charge's
//   own slope against tokens (null when the slope is ≤ 0, in reserved mode, or once a window is
//   full). The charge is not RSS: a memory cgroup charges anonymous memory, kernel memory (page
//   tables, slab) and page cache, and reclaims the page cache it can drop before it kills (a
//   horizon from total RSS came 11–17 % short of real kills, from the charge within ~1 %). So:
//   with a cgroup budget, the group's anon + kernel + page cache it cannot drop (+ NvMap);
//   otherwise the engine's own anonymous RSS (+ NvMap, the Jetson's GPU buffers in unified
//   memory). `kv.horizonBasis` says what each part weighed at the point projected from.
//   Max safe context = (budget − baseline − file-backed RSS) ÷ bytes/token (measured, else theory).
import type { BudgetSource, HorizonBasis, KvMode, RunAnalysis, Sample } from '../api/schemas';
import { robustFit, theilSen } from './fit';
import { detectLeak, type LeakPoint } from './leak';
import {
  decodeTokensPerSecond,
  engineGeneratedTokens,
  engineStartMs,
  firstTokenMs,
  phaseTokensPerSecond,
  prefillTokensPerSecond,
  reconcileTokenEvents,
  tokenEventsFromSamples,
  tokensAt,
  type TimingRecord,
} from './throughput';

export type { TimingRecord };

export interface AnalyzeRunInput {
  samples: readonly Sample[];
  /** KV bytes per token from theory (GGUF or shape), null when unknown. */
  theoryBytesPerToken: number | null;
  /** The mode the engine is expected to use (demo --mode, llama.cpp = reserved); a hint, the data decides when clear. */
  theoryMode?: KvMode;
  /** Context the engine reserves (reserved mode), in cells: for llama.cpp n_ctx padded to 256 (kvBytesDetailed(...).globalCells). */
  ctx?: number | null;
  /**
   * What the reservation should weigh, when it is not simply ctx × theory: SWA models (only global
   * layers reserve ctx cells), llama.cpp's padding — pass kvBytes(shape, 0, {mode: 'reserved', ctx}).
   */
  theoryReservedBytes?: number | null;
  /** `--budget`: wins over every other budget. */
  budgetBytes?: number | null;
  /**
   * The KV cache size the engine itself logged at context creation (llama.cpp's
   * `llama_kv_cache … size = …`): it allocated the whole cache up front, so the mode is reserved
   * whatever the decode's memory does (a node or python host growing its heap is not the cache).
   */
  engineKvBytes?: number | null;
  /** `--memory-limit`: the run made a memory cgroup of this size for the engine. */
  memoryLimitBytes?: number | null;
  /** llama.cpp timing records from the engine's output (prompt eval → prefill tokens/s). */
  timings?: readonly TimingRecord[];
  /**
   * The model's weights as the engine logged them (llama.cpp's `print_info: file size = …`,
   * run-summary.ts engineModelBytes): what decoding one token of a dense model reads, for the
   * roofline (shared/analysis/roofline.ts).
   */
  modelBytes?: number | null;
  /**
   * The live token count is exact and the engine's timing lines do not total it: server mode,
   * where the client counted every streamed token and a server logs its timings per request.
   * The live count is then kept as it is, not scaled to the engine's.
   */
  liveTokensExact?: boolean;
  /** Growth mode: overhead factor normal for this engine, for the leak check (default 1). */
  expectedOverhead?: number;
}

/**
 * Weight bytes one decoded token reads (the roofline's): the model's size when the engine logged
 * it; else the memory resident before the cache — the baseline plus the file-backed pages, where
 * the fit was made on anonymous memory: llama.cpp mmaps its weights, so they are file-backed and
 * an anonymous baseline alone leaves them out (a ceiling many times too high). An upper bound then:
 * the baseline also holds the runtime and compute buffers.
 */
export function weightBytesPerToken(
  modelBytes: number | null,
  baseline: number | null,
  fileBacked: number,
): number | null {
  if (modelBytes !== null && Number.isFinite(modelBytes) && modelBytes > 0) return modelBytes;
  if (baseline === null || !Number.isFinite(baseline)) return null;
  const resident = baseline + fileBacked;
  return resident > 0 ? resident : null;
}

// Thresholds, each with its reason.
/** Decode slope below this fraction of theory = the cache is not growing (reserved / full window); leaks and jitter stay below it. */
export const FLAT_FRACTION = 0.25;
/** A segment growing at ≥ half the theory is the cache filling (paged allocators and sampling delay stay above). */
export const GROWING_FRACTION = 0.5;
/** A pre-token jump within this factor of ctx × theory is the reservation. */
export const RESERVATION_MATCH_FACTOR = 2;
/** Fewer decode tokens than this give no slope: RSS moves in 4 KiB pages and 64 KiB+ allocator steps. */
export const MIN_FIT_TOKENS = 16;
/** Without theory: below this slope the cache is taken as flat (no real model's KV is under 1 KiB/token except toy ones). */
export const FLAT_BYTES_PER_TOKEN_WITHOUT_THEORY = 1024;
/** Share of decode points (by token order) forming the "first" and "last" segments of the window test. */
const SEGMENT_SHARE = 0.3;

type Metric = 'rssAnonBytes' | 'rssBytes';

interface MemPoint {
  tMs: number;
  tokens: number | null;
  mem: number;
  rss: number | null;
  anon: number | null;
}

function fin(v: number | null | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function value(s: Sample, key: string): number | null {
  return fin(s.values[key]);
}

/**
 * Sample steps a reservation may span. Clearing the cache is one memset, but a slow board (a Pi
 * clearing gigabytes) or a busy one (the engine descheduled between pages) spreads it over
 * several samples, with flat steps among them: at 50 ms a loaded 2-core VM took 6+ samples for
 * 128 MiB, and a climb cut at 4 read 47–82 % of it. The cap bounds the search over a long
 * pre-token phase (a server waiting for its first prompt) at ~n × 200 steps.
 */
const MAX_JUMP_STEPS = 200;

/**
 * The climb in `mem` that is the reservation: of every stretch where memory does not fall (up to
 * MAX_JUMP_STEPS, ending on a rise), the one closest to `target` when that is within
 * RESERVATION_MATCH_FACTOR (so a weights load just before it is not counted in), else the largest.
 */
function findJump(
  points: readonly MemPoint[],
  target: number | null,
): { before: number; after: number; bytes: number } | null {
  const memAt = (i: number) => points.at(i)?.mem ?? NaN;
  let largest: { before: number; after: number; bytes: number } | null = null;
  let closest: { before: number; after: number; bytes: number } | null = null;
  let closestErr = Infinity;
  for (let a = 0; a < points.length - 1; a++) {
    for (let b = a + 1; b < points.length && b - a <= MAX_JUMP_STEPS; b++) {
      const step = memAt(b) - memAt(b - 1);
      if (!(step >= 0)) break;
      if (step === 0) continue;
      const bytes = memAt(b) - memAt(a);
      if (!largest || bytes > largest.bytes) largest = { before: a, after: b, bytes };
      if (target !== null && target > 0) {
        const err = Math.abs(Math.log(bytes / target));
        if (err < closestErr) {
          closest = { before: a, after: b, bytes };
          closestErr = err;
        }
      }
    }
  }
  if (closest && closestErr <= Math.log(RESERVATION_MATCH_FACTOR)) return closest;
  return largest;
}

/** Sample source of the cgroup collector (shared/collectors/cgroup-collector.ts). */
const CGROUP_SOURCE = 'cgroup';

/** One point of the charge the kernel acts on, with its parts. */
interface ChargePoint {
  tMs: number;
  tokens: number | null;
  charge: number;
  basis: HorizonBasis;
}

/** The NvMap reading (procfs sampler) nearest before `tMs`, or null where there is none. */
function nvmapAt(nvmap: ReadonlyArray<{ tMs: number; bytes: number }>, tMs: number): number | null {
  let found: number | null = null;
  for (const p of nvmap) {
    if (p.tMs > tMs) break;
    found = p.bytes;
  }
  return found ?? nvmap.at(0)?.bytes ?? null;
}

/** The group's charge that reclaim cannot lower: anon + kernel + page cache it cannot drop (+ NvMap). */
function cgroupCharge(s: Sample, nvmapBytes: number | null): ChargePoint | null {
  const anon = value(s, 'cgroupAnonBytes');
  if (anon === null) return null;
  const basis: HorizonBasis = {
    source: 'cgroup',
    anonBytes: anon,
    kernelBytes: value(s, 'cgroupKernelBytes'),
    unreclaimableFileBytes: value(s, 'cgroupUnreclaimableFileBytes'),
    nvmapBytes,
  };
  const charge = anon + (basis.kernelBytes ?? 0) + (basis.unreclaimableFileBytes ?? 0) + (nvmapBytes ?? 0);
  return { tMs: s.tMs, tokens: null, charge, basis };
}

/** The engine's own charge, from its process: anonymous RSS (total RSS without it) + NvMap. */
function processCharge(p: MemPoint, nvmapBytes: number | null): ChargePoint {
  const own = p.anon ?? p.rss ?? p.mem;
  return {
    tMs: p.tMs,
    tokens: p.tokens,
    charge: own + (nvmapBytes ?? 0),
    basis: { source: 'process', anonBytes: own, kernelBytes: null, unreclaimableFileBytes: null, nvmapBytes },
  };
}

/** The cgroup limit the samples last saw (null: no cgroup samples, or no limit). */
function cgroupLimit(samples: readonly Sample[]): number | null {
  let limit: number | null = null;
  for (const s of samples) if (s.source === CGROUP_SOURCE) limit = value(s, 'cgroupLimitBytes') ?? limit;
  return limit;
}

/** The budget and where it came from, in the order the header above gives. */
function chooseBudget(
  input: AnalyzeRunInput,
  samples: readonly Sample[],
  firstProcessCharge: ChargePoint | null,
  memAvailableAtStart: number | null,
): { bytes: number | null; source: BudgetSource | null } {
  const positive = (v: number | null | undefined) => (fin(v) !== null && (v as number) > 0 ? (v as number) : null);
  const flag = positive(input.budgetBytes);
  if (flag !== null) return { bytes: flag, source: 'flag' };
  const seen = cgroupLimit(samples);
  const asked = positive(input.memoryLimitBytes);
  if (asked !== null) return { bytes: seen ?? asked, source: 'memory-limit' };
  if (seen !== null) return { bytes: seen, source: 'cgroup' };
  if (memAvailableAtStart !== null && firstProcessCharge !== null)
    return { bytes: memAvailableAtStart + firstProcessCharge.charge, source: 'memavailable' };
  return { bytes: null, source: null };
}

/**
 * The points of the decode phase, in token order: at least one token, from the first token to the
 * last (samples after it see the engine print its timings, free and exit: RSS falls while the
 * token count stands still, which would bend the fit and read as a window that stopped growing).
 */
/**
 * Where a charge already past the budget first reached it: 0 when it had before the first token
 * (the weights and buffers alone do not fit), else the first decode point at or over it. The
 * kernel kills at the first crossing, not at the run's largest charge (a 64 MiB budget under a
 * 77 MiB baseline read "OOM horizon 388 tokens" at the end of a 400-token run).
 */
function tokensOverBudget(
  charges: readonly ChargePoint[],
  decode: ReadonlyArray<ChargePoint & { tokens: number }>,
  budget: number,
  firstTokMs: number | null,
): number | null {
  if (firstTokMs !== null && charges.some((c) => c.tMs < firstTokMs && c.charge >= budget)) return 0;
  return decode.find((c) => c.charge >= budget)?.tokens ?? null;
}

function decodePhase<P extends { tokens: number | null; tMs: number }>(
  points: readonly P[],
  firstTokMs: number | null,
  lastTokMs: number | null,
): Array<P & { tokens: number }> {
  return points
    .filter(
      (p): p is P & { tokens: number } =>
        p.tokens !== null &&
        p.tokens >= 1 &&
        (firstTokMs === null || p.tMs >= firstTokMs) &&
        (lastTokMs === null || p.tMs <= lastTokMs),
    )
    .sort((a, b) => a.tokens - b.tokens || a.tMs - b.tMs);
}

export function analyzeRun(input: AnalyzeRunInput): RunAnalysis {
  const theory =
    fin(input.theoryBytesPerToken) !== null && (input.theoryBytesPerToken as number) > 0
      ? (input.theoryBytesPerToken as number)
      : null;
  const ctx = fin(input.ctx) !== null && (input.ctx as number) > 0 ? (input.ctx as number) : null;
  const samples = input.samples;

  // Memory samples.
  const hasMem = (s: Sample) => value(s, 'rssBytes') !== null || value(s, 'rssAnonBytes') !== null;
  let memSamples = samples.filter((s) => s.source === 'procfs' && hasMem(s) && Number.isFinite(s.tMs));
  if (memSamples.length === 0) memSamples = samples.filter((s) => hasMem(s) && Number.isFinite(s.tMs));
  memSamples = [...memSamples].sort((a, b) => a.tMs - b.tMs);
  const anonCount = memSamples.filter((s) => value(s, 'rssAnonBytes') !== null).length;
  const metric: Metric | null =
    memSamples.length === 0 ? null : anonCount >= Math.max(1, memSamples.length / 2) ? 'rssAnonBytes' : 'rssBytes';

  // The engine's own final count wins over the live one (shared/analysis/throughput.ts), unless
  // the live one is exact (liveTokensExact).
  const liveEvents = tokenEventsFromSamples(samples);
  const events = input.liveTokensExact
    ? liveEvents
    : reconcileTokenEvents(liveEvents, engineGeneratedTokens(input.timings));
  const reconciled = events.at(-1)?.tokens !== liveEvents.at(-1)?.tokens;
  const firstTok = firstTokenMs(events);
  const start = engineStartMs(samples) ?? (samples.length ? 0 : null);

  const mem: MemPoint[] = [];
  for (const s of memSamples) {
    const m = metric ? value(s, metric) : null;
    if (m === null) continue;
    // A sample's own count is the live one: after reconciliation, the engine's count at its time.
    const own = reconciled ? null : value(s, 'tokens');
    const tokens = own ?? (events.length ? tokensAt(events, s.tMs) : null);
    mem.push({ tMs: s.tMs, tokens, mem: m, rss: value(s, 'rssBytes'), anon: value(s, 'rssAnonBytes') });
  }

  // The budget, and the charge the kernel acts on (see the header).
  const nvmap: Array<{ tMs: number; bytes: number }> = [];
  let memAvailableAtStart: number | null = null;
  for (const s of memSamples) {
    const nv = value(s, 'nvmapBytes');
    if (nv !== null) nvmap.push({ tMs: s.tMs, bytes: nv });
    memAvailableAtStart ??= value(s, 'memAvailableBytes');
  }
  const processCharges = mem.map((p) => processCharge(p, nvmapAt(nvmap, p.tMs)));
  const { bytes: budget, source: budgetSource } = chooseBudget(
    input,
    samples,
    processCharges.at(0) ?? null,
    memAvailableAtStart,
  );
  const cgroupCharges =
    budgetSource === 'memory-limit' || budgetSource === 'cgroup'
      ? samples
          .filter((s) => s.source === CGROUP_SOURCE && Number.isFinite(s.tMs))
          .sort((a, b) => a.tMs - b.tMs)
          .map((s) => cgroupCharge(s, nvmapAt(nvmap, s.tMs)))
          .filter((c): c is ChargePoint => c !== null)
          .map((c) => ({ ...c, tokens: events.length ? tokensAt(events, c.tMs) : null }))
      : [];
  const charges = cgroupCharges.length > 0 ? cgroupCharges : processCharges;

  let lastRss: number | null = null;
  let peakRss: number | null = null;
  for (const s of memSamples) {
    const r = value(s, 'rssBytes');
    if (r === null) continue;
    lastRss = r;
    peakRss = peakRss === null ? r : Math.max(peakRss, r);
  }

  // Decode points, in token order (decodePhase: up to the last token).
  const lastTok = events.at(-1)?.tMs ?? null;
  const decode = decodePhase(mem, firstTok, lastTok);
  const dTokens = decode.map((p) => p.tokens);
  const dMem = decode.map((p) => p.mem);
  const firstDecodeTokens = dTokens.at(0) ?? 0;
  const lastDecodeTokens = dTokens.at(-1) ?? 0;
  const tokenSpan = lastDecodeTokens - firstDecodeTokens;
  const canFit = decode.length >= 3 && tokenSpan >= MIN_FIT_TOKENS;
  const fitAll = canFit ? robustFit(dTokens, dMem) : null;

  // First and last segments of the decode, for the window test.
  let first: ReturnType<typeof theilSen> = null;
  let lastSeg: ReturnType<typeof theilSen> = null;
  if (canFit && decode.length >= 8) {
    const k = Math.max(3, Math.floor(decode.length * SEGMENT_SHARE));
    first = theilSen(dTokens.slice(0, k), dMem.slice(0, k));
    lastSeg = theilSen(dTokens.slice(-k), dMem.slice(-k));
  }

  // Pre-token memory (context creation, weights load).
  const pre = mem.filter((p) => firstTok === null || p.tMs < firstTok);
  const givenReserved =
    fin(input.theoryReservedBytes) !== null && (input.theoryReservedBytes as number) > 0
      ? (input.theoryReservedBytes as number)
      : null;
  const theoryReserved = givenReserved ?? (theory !== null && ctx !== null ? theory * ctx : null);
  const jump = findJump(pre, theoryReserved);
  const jumpMatches =
    jump !== null &&
    theoryReserved !== null &&
    Math.abs(Math.log(jump.bytes / theoryReserved)) <= Math.log(RESERVATION_MATCH_FACTOR);

  // Mode.
  const slopeAll = fitAll ? fitAll.slope : null;
  let mode: KvMode = input.theoryMode ?? 'growth';
  let windowTokens: number | null = null;
  if (slopeAll === null && jumpMatches) mode = 'reserved';
  if (slopeAll !== null) {
    const flatLimit = theory !== null ? FLAT_FRACTION * theory : FLAT_BYTES_PER_TOKEN_WITHOUT_THEORY;
    const growLimit = theory !== null ? GROWING_FRACTION * theory : 4 * FLAT_BYTES_PER_TOKEN_WITHOUT_THEORY;
    // A knee: the first part grows like a cache, the last part at most half as fast (a leak may keep it rising).
    const windowShape =
      first !== null && lastSeg !== null && first.slope >= growLimit && lastSeg.slope < GROWING_FRACTION * first.slope;
    // Growth that stops during decode is a window: a reserved cache never grows while decoding,
    // so this test comes before the reservation evidence (a weights load can resemble a reservation).
    if (windowShape && first && lastSeg) {
      mode = 'window';
      // The knee: where the growth line of the first segment meets the line of the last one.
      const knee = (lastSeg.intercept - first.intercept) / (first.slope - lastSeg.slope);
      windowTokens = Number.isFinite(knee)
        ? Math.round(Math.min(Math.max(knee, firstDecodeTokens), lastDecodeTokens))
        : null;
    } else if (jumpMatches && (input.theoryMode === 'reserved' || slopeAll < GROWING_FRACTION * (theory as number)))
      mode = 'reserved';
    else if (Math.abs(slopeAll) < flatLimit) mode = 'reserved';
    else mode = input.theoryMode === 'window' ? 'window' : 'growth';
  }
  if (fin(input.engineKvBytes) !== null && (input.engineKvBytes as number) > 0) {
    mode = 'reserved';
    windowTokens = null;
  }

  // Measured bytes/token and baseline.
  let measured: number | null = null;
  let baseline: number | null = null;
  let fitR2: number | null = null;
  // The pre-token memory holds a reservation only once the engine got past it: it generated a
  // token or reported its cache. Else its largest climb is its own start-up (an engine that
  // failed to load its model grew ~20 MB and read as 80 KB/token, with a max safe context).
  const pastReservation = firstTok !== null || (fin(input.engineKvBytes) ?? 0) > 0;
  if (mode === 'reserved' && pastReservation) {
    // The reservation measured against what it should weigh, expressed per token of theory.
    if (jump && theory !== null && theoryReserved !== null) measured = (theory * jump.bytes) / theoryReserved;
    else if (jump && ctx !== null) measured = jump.bytes / ctx;
    if (jump) baseline = pre.at(jump.before)?.mem ?? null;
  } else if (mode === 'window' && windowTokens !== null && first) {
    measured = first.slope;
    baseline = first.intercept;
  } else if (fitAll) {
    measured = fitAll.slope;
    baseline = fitAll.intercept;
    fitR2 = fitAll.r2;
  }

  // Budget questions.
  const lastMem = mem.at(-1) ?? null;
  const fileBacked =
    metric === 'rssAnonBytes' && lastMem && lastMem.rss !== null && lastMem.anon !== null
      ? Math.max(0, lastMem.rss - lastMem.anon)
      : 0;
  const perToken = measured !== null && measured > 0 ? measured : theory;
  let maxSafe: number | null = null;
  if (budget !== null && baseline !== null && perToken !== null && perToken > 0) {
    maxSafe = Math.max(0, Math.floor((budget - baseline - fileBacked) / perToken));
  }
  // The charge during decode (as the memory points above), fitted against tokens.
  const chargeDecode = decodePhase(charges, firstTok, lastTok);
  const cTokens = chargeDecode.map((c) => c.tokens);
  const chargeFit =
    chargeDecode.length >= 3 && (cTokens.at(-1) ?? 0) - (cTokens.at(0) ?? 0) >= MIN_FIT_TOKENS
      ? theilSen(
          cTokens,
          chargeDecode.map((c) => c.charge),
        )
      : null;
  // Extrapolate from the decode point with the most charge, not the last one: a sample taken
  // while the engine exits sees its memory being unmapped and would push the horizon out (seen).
  let top: ChargePoint | null = null;
  for (const c of chargeDecode) if (top === null || c.charge > top.charge) top = c;
  let oomHorizon: number | null = null;
  if (budget !== null && top !== null && chargeFit !== null && slopeAll !== null && mode !== 'reserved') {
    const windowFull = mode === 'window' && windowTokens !== null;
    const fromTokens = top.tokens as number;
    if (top.charge >= budget) oomHorizon = tokensOverBudget(charges, chargeDecode, budget, firstTok) ?? fromTokens;
    else if (!windowFull && chargeFit.slope > 0)
      oomHorizon = Math.floor(fromTokens + (budget - top.charge) / chargeFit.slope);
  }

  // Throughput.
  const ttft = firstTok !== null && start !== null && firstTok >= start ? firstTok - start : null;
  // Decode speed by the engine's own clock when it printed one (llama.cpp's eval timing: the
  // decode compute alone, exact); else the fit over arrivals. Arrivals also include sampling and
  // printing: that is the delivered rate.
  const deliveredTps = decodeTokensPerSecond(events);
  const decodeTps = phaseTokensPerSecond(input.timings, 'eval') ?? deliveredTps;
  // Without a live count (a llama.cpp log imported on its own: `kvscope import llama-log`), the
  // engine's own count is the run's: "0 tokens" beside its decode rate was read as none generated.
  const tokens = events.at(-1)?.tokens ?? lastMem?.tokens ?? engineGeneratedTokens(input.timings) ?? 0;

  const leakPoints: LeakPoint[] = decode.map((p) => ({ tokens: p.tokens, bytes: p.mem }));
  const leak = detectLeak({
    points: leakPoints,
    mode,
    theoryBytesPerToken: theory,
    windowTokens,
    expectedOverhead: input.expectedOverhead,
  });

  return {
    kv: {
      theoryBytesPerToken: theory,
      measuredBytesPerToken: fin(measured),
      overheadFactor: measured !== null && theory !== null ? fin(measured / theory) : null,
      mode,
      baselineBytes: fin(baseline),
      reservedJumpBytes: mode === 'reserved' && pastReservation && jump ? jump.bytes : null,
      theoryReservedBytes: fin(theoryReserved),
      decodeSlopeBytesPerToken: fin(slopeAll),
      rssMetric: metric,
      fitR2: fin(fitR2),
      windowTokens,
      horizonBasis: top?.basis ?? null,
    },
    budgetBytes: budget,
    budgetSource,
    oomHorizonTokens: fin(oomHorizon),
    maxSafeContextTokens: fin(maxSafe),
    throughput: {
      ttftMs: fin(ttft),
      prefillTokensPerSecond: fin(prefillTokensPerSecond(input.timings)),
      decodeTokensPerSecond: fin(decodeTps),
      deliveredTokensPerSecond: fin(deliveredTps),
      tokens: fin(tokens) ?? 0,
      weightBytes: weightBytesPerToken(input.modelBytes ?? null, baseline, fileBacked),
    },
    lastRssBytes: lastRss,
    peakRssBytes: peakRss,
    leak: {
      ...leak,
      bytesPerToken: fin(leak.bytesPerToken),
      thresholdBytesPerToken: fin(leak.thresholdBytesPerToken),
    },
  };
}
