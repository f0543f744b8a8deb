// Reading numbers by index where the loop bounds already keep the index in range (fits, LTTB,
// rate windows). With noUncheckedIndexedAccess every such read is `number | undefined`; this
// says "in range by construction" once, and if it ever is not, the NaN poisons the result where
// a test sees it instead of throwing in the middle of a run or passing `undefined` along.

/** values[i], or NaN when i is outside the array. */
export function numAt(values: ArrayLike<number>, i: number): number {
  const v = values[i];
  return v === undefined ? NaN : v;
}
