// What a chart draws of a series over the visible time window: at most two points (the minimum
// and the maximum, in time order) per horizontal pixel, plus the neighbours just outside the
// window so lines run to the edges. Spikes survive (unlike averaging), and the cost is one pass
// over the visible points whatever the zoom.

/** First index with t[i] >= x (n when none). */
export function lowerBound(t: ArrayLike<number>, n: number, x: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((t[mid] ?? Infinity) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the last point at or before x, or -1. */
export function indexAtOrBefore(t: ArrayLike<number>, n: number, x: number): number {
  return lowerBound(t, n, x + 1e-9) - 1;
}

export interface PlotPoints {
  /** Times (ms) and values, in time order; `count` of them are used. */
  xs: Float64Array;
  ys: Float64Array;
  count: number;
}

/**
 * Min/max per pixel column of the points with t0 ≤ t ≤ t1, plus the last point before t0 and the
 * first after t1. At most 2 × widthPx + 2 points.
 */
export function minMaxPerPixel(
  t: ArrayLike<number>,
  v: ArrayLike<number>,
  n: number,
  t0: number,
  t1: number,
  widthPx: number,
): PlotPoints {
  const columns = Math.max(1, Math.floor(widthPx));
  const start = Math.max(0, lowerBound(t, n, t0) - 1);
  const end = Math.min(n, lowerBound(t, n, t1 + 1e-9) + 1);
  const visible = Math.max(0, end - start);
  if (visible <= 2 * columns + 2) {
    const xs = new Float64Array(visible);
    const ys = new Float64Array(visible);
    for (let i = 0; i < visible; i++) {
      xs[i] = t[start + i] ?? 0;
      ys[i] = v[start + i] ?? 0;
    }
    return { xs, ys, count: visible };
  }
  const xs = new Float64Array(2 * columns + 2);
  const ys = new Float64Array(2 * columns + 2);
  let count = 0;
  const put = (i: number) => {
    xs[count] = t[i] ?? 0;
    ys[count] = v[i] ?? 0;
    count += 1;
  };
  const span = t1 - t0 || 1;
  const columnOf = (x: number) => Math.min(columns - 1, Math.floor(((x - t0) / span) * columns));
  // Below a column's end less a margin far wider than the rounding of columnOf, a later point is
  // in the same column without computing it: one comparison per point instead of a division.
  const margin = (Math.abs(t0) + Math.abs(span)) * 1e-9;
  let i = start;
  // The point before the window (when there is one) stays as it is.
  if ((t[i] ?? 0) < t0) put(i++);
  const last = end - 1;
  const inner = (t[last] ?? 0) > t1 ? last : end;
  while (i < inner) {
    const column = columnOf(t[i] as number);
    const sameBelow = column >= columns - 1 ? Infinity : t0 + ((column + 1) / columns) * span - margin;
    let iMin = i;
    let iMax = i;
    let vMin = v[i] as number;
    let vMax = vMin;
    let j = i + 1;
    for (; j < inner; j++) {
      const tj = t[j] as number;
      if (tj >= sameBelow && columnOf(tj) !== column) break;
      const vj = v[j] as number;
      if (vj < vMin) {
        vMin = vj;
        iMin = j;
      }
      if (vj > vMax) {
        vMax = vj;
        iMax = j;
      }
    }
    if (iMin === iMax) put(iMin);
    else if (iMin < iMax) {
      put(iMin);
      put(iMax);
    } else {
      put(iMax);
      put(iMin);
    }
    i = j;
  }
  if (inner === last) put(last);
  return { xs, ys, count };
}
