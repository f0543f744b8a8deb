// The context sizes of a sweep as a person types them (`512,2048,8192`, `4k` = 4096): read once,
// here, for the CLI (`profile --sweep`, electron/node/run/sweep.ts) and the run form
// (renderer/src/state/run-form.ts), which each say what is wrong in their own words.

/** At most this many sizes: each is a full run one after the other; 32 already takes an afternoon. */
export const MAX_SWEEP_SIZES = 32;
/** The largest context size a run accepts (RunRequestSchema's ctx). */
export const MAX_SWEEP_CTX = 10_000_000;

export type SweepSizesReading =
  | { ok: true; sizes: number[] }
  | { ok: false; problem: 'not-a-size'; part: string }
  | { ok: false; problem: 'too-few' }
  | { ok: false; problem: 'too-many' }
  | { ok: false; problem: 'too-large'; part: string };

/** Comma- or space-separated sizes into ascending distinct sizes. */
export function readSweepSizes(text: string): SweepSizesReading {
  const parts = text
    .split(/[,\s]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const sizes: number[] = [];
  for (const part of parts) {
    const m = /^(\d{1,9})(k)?$/i.exec(part);
    const n = m ? Number(m[1]) * (m[2] ? 1024 : 1) : NaN;
    if (!Number.isInteger(n) || n < 1) return { ok: false, problem: 'not-a-size', part };
    if (n > MAX_SWEEP_CTX) return { ok: false, problem: 'too-large', part };
    sizes.push(n);
  }
  const distinct = [...new Set(sizes)].sort((a, b) => a - b);
  if (distinct.length < 2) return { ok: false, problem: 'too-few' };
  if (distinct.length > MAX_SWEEP_SIZES) return { ok: false, problem: 'too-many' };
  return { ok: true, sizes: distinct };
}
