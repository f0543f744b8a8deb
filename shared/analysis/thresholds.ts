// The thresholds that turn a run's analysis into findings (./findings.ts), each with its reason.
// Chart sizes and layout limits are not here: they belong to the report (shared/report/report-charts.ts).

/** Measured within ±5 % of theory: the cache costs what the theory says. */
export const OVERHEAD_MATCH = 0.05;
/** 20 % above theory is more than allocator padding (usually < 10 %): worth a look. */
export const OVERHEAD_HIGH = 1.2;
/** Under 80 % of theory in growth mode: the cache is not all resident (lazy pages) or differs from the model. */
export const OVERHEAD_LOW = 0.8;
/** A fit with r² below this is noisy: say so next to the numbers it gave. */
export const FIT_R2_LOW = 0.9;
/** Reserved mode: a run that used less than this share of the reserved context wastes most of it. */
export const RESERVED_USED_LOW = 0.5;
/** A context suggested for a reserved run holds what the run used plus this margin (25 %). */
export const RESERVED_SPARE = 1.25;
/** Contexts are suggested in multiples of this for llama.cpp (it pads n_ctx to 256 cells). */
export const CTX_STEP = 256;
/**
 * Without a safe maximum below the OOM horizon, the suggested cap stays 5 % under the horizon:
 * the horizon is extrapolated from a fit, and the last tokens before it leave no room for noise.
 */
export const HORIZON_CAP_FRACTION = 0.95;
/**
 * Recommendations (./recommendations.ts) below these effects are noise, not advice:
 * file-backed RSS under 10 % of the peak is the binary and libraries, not mmap'd weights;
 */
export const MMAP_SHARE_WORTH_SAYING = 0.1;
/** any swapped-out engine page stalls decoding when touched, but under 1 % of RSS is idle startup pages; */
export const SWAP_SHARE_WORTH_SAYING = 0.01;
/** a tokens/s gain under 2 % is within run-to-run jitter on a board. */
export const THROTTLE_GAIN_WORTH_SAYING = 0.02;
/**
 * Engine and board recommendations (./recommendations-setup.ts): memory a change frees under 2 %
 * of the budget (or peak RSS) is within what allocators and the page cache move run to run;
 */
export const FREED_SHARE_WORTH_SAYING = 0.02;
/**
 * the n_ubatch suggested when compute buffers are worth shrinking: a quarter of llama.cpp's default
 * 512 (shared/kv/kv-theory.ts LLAMA_CPP_DEFAULT_UBATCH), so the buffers shrink to about a quarter
 * while prefill still runs in batches of many tokens (slower prompt processing is its cost, and the
 * recommendation says so);
 */
export const SUGGESTED_UBATCH = 128;
/**
 * a clock that averaged 97 % of its maximum or more ran at the maximum: ondemand/schedutil ramps
 * leave a few percent, not a governor worth changing.
 */
export const CLOCK_AT_MAX_SHARE = 0.97;
