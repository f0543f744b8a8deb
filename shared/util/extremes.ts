// The largest and smallest of many numbers. Not `Math.max(...values)`: a spread passes every value
// as an argument, and past ~120,000 of them (the samples or events of a long run, the backtick runs
// of a 10 MB label) V8 throws "Maximum call stack size exceeded".

/** The largest of `values` and `floor` (`floor` when there are none; -Infinity by default). NaN is skipped. */
export function maxOf(values: Iterable<number>, floor = -Infinity): number {
  let out = floor;
  for (const v of values) if (v > out) out = v;
  return out;
}

/** The smallest of `values` and `ceiling` (`ceiling` when there are none; Infinity by default). NaN is skipped. */
export function minOf(values: Iterable<number>, ceiling = Infinity): number {
  let out = ceiling;
  for (const v of values) if (v < out) out = v;
  return out;
}
