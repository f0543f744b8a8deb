// Sizes typed by people ("2 GiB", "512MiB", "1.5 GB") → bytes, for the run form's budget field.
// The CLI's --budget reads sizes through bytesOfSizeText too (electron/node/cli/cli-io.ts parseBytes):
// SI for KB/MB/GB, binary for KiB/MiB/GiB, so a value pasted from one works in the other.

const SIZE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  kib: 1024,
  m: 1e6,
  mb: 1e6,
  mib: 1024 ** 2,
  g: 1e9,
  gb: 1e9,
  gib: 1024 ** 3,
  t: 1e12,
  tb: 1e12,
  tib: 1024 ** 4,
};

export type ParsedSize = { ok: true; bytes: number } | { ok: false; error: string };

/** "2 GiB" → 2147483648, "0" → 0; undefined for what is not a size. The one grammar of sizes. */
export function bytesOfSizeText(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const name = (m?.[2] ?? '').toLowerCase();
  // Typed text: "2 constructor" must not find Object.prototype's member as a unit (NaN bytes).
  const unit = m && Object.hasOwn(SIZE_UNITS, name) ? SIZE_UNITS[name] : undefined;
  return m && unit !== undefined ? Math.round(Number(m[1]) * unit) : undefined;
}

/**
 * A number typed without a unit is bytes; below this many it is a unit left out ("2" meant 2 GiB,
 * "512" 512 MiB): no memory budget or limit is under a MiB.
 */
export const MIN_BARE_SIZE_BYTES = 1024 * 1024;

/**
 * Whether `text` (read as `bytes` by bytesOfSizeText) is a bare number that cannot be a count of
 * bytes meant as a memory size: a fraction ("1.5" was read as 2 bytes, and the KV calculator's
 * budget held no token) or under MIN_BARE_SIZE_BYTES (`--budget 2` gave a 0-token OOM horizon,
 * `--memory-limit 2` an OOM-killed run). 0 is not (a size of nothing is said as such).
 */
export function isSizeMissingItsUnit(text: string, bytes: number): boolean {
  const t = text.trim();
  return /^[\d.]+$/.test(t) && bytes > 0 && (t.includes('.') || bytes < MIN_BARE_SIZE_BYTES);
}

/**
 * "2 GiB" → 2147483648, "1.5 GB" → 1500000000, "4000000000" → 4000000000; 0 and text are errors,
 * and so is a bare number that is a unit left out (isSizeMissingItsUnit).
 */
export function parseByteSize(text: string): ParsedSize {
  const bytes = bytesOfSizeText(text);
  if (bytes === undefined)
    return { ok: false, error: `cannot read "${text.trim()}": use e.g. 2 GiB, 512 MiB or 4000000000` };
  if (bytes <= 0) return { ok: false, error: 'must be more than 0 bytes' };
  if (isSizeMissingItsUnit(text, bytes))
    return {
      ok: false,
      error: `a number without a unit is bytes: give its unit, e.g. ${text.trim()} GiB or ${text.trim()} MiB`,
    };
  return { ok: true, bytes };
}
