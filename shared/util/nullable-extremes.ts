// The larger or smaller of two readings where either may be missing (null): a running maximum or
// minimum over readings that come and go (the hottest zone, the lowest clock of an interval).

/** The larger of a and b; the one present when the other is null; null when both are. */
export function maxOfPresent(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.max(a, b);
}

/** The smaller of a and b; the one present when the other is null; null when both are. */
export function minOfPresent(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.min(a, b);
}
