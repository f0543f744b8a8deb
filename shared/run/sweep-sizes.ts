// Context sizes as a person types them (`8192`, `4k` = 4096), alone or as a sweep's list
// (`512,2048,8k`): read once, here, for the CLI (`profile --sweep`, electron/node/run/sweep.ts),
// the run form (renderer/src/state/run-form.ts) and the KV calculator
// (renderer/src/ui/kv-calculator/kv-calculation.ts), which each say what is wrong in their own words.

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

/** One context size in tokens (`4096`, `4k`: k = 1024), or null when the text is not one. */
export function readContextSize(text: string): number | null {
  const m = /^(\d+)(k)?$/i.exec(text.trim());
  const n = m ? Number(m[1]) * (m[2] ? 1024 : 1) : NaN;
  return Number.isInteger(n) && n >= 1 ? n : null;
}

/** Comma- or space-separated sizes into ascending distinct sizes. */
export function readSweepSizes(text: string): SweepSizesReading {
  const parts = text
    .split(/[,\s]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const sizes: number[] = [];
  for (const part of parts) {
    const n = readContextSize(part);
    if (n === null) return { ok: false, problem: 'not-a-size', part };
    if (n > MAX_SWEEP_CTX) return { ok: false, problem: 'too-large', part };
    sizes.push(n);
  }
  const distinct = [...new Set(sizes)].sort((a, b) => a - b);
  if (distinct.length < 2) return { ok: false, problem: 'too-few' };
  if (distinct.length > MAX_SWEEP_SIZES) return { ok: false, problem: 'too-many' };
  return { ok: true, sizes: distinct };
}
