// The order people number things in: `core 2` before `core 10`, `thermal_zone9` before
// `thermal_zone10`. Runs of digits compare as numbers, everything else by code point (the same on
// every machine, unlike a locale's collation). Pure.

const CHUNKS = /\d+|\D+/g;

/** A comparator for Array.prototype.sort: negative when `a` comes first. */
export function naturalOrder(a: string, b: string): number {
  const as = a.match(CHUNKS) ?? [];
  const bs = b.match(CHUNKS) ?? [];
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const x = as[i] as string;
    const y = bs[i] as string;
    if (x === y) continue;
    const xDigits = x.charCodeAt(0) >= 48 && x.charCodeAt(0) <= 57;
    const yDigits = y.charCodeAt(0) >= 48 && y.charCodeAt(0) <= 57;
    if (xDigits && yDigits) {
      // As numbers, without Number(): a run of 20 digits stays exact. Leading zeros first by value,
      // then the shorter run (`7` before `07`) so that different strings never compare equal.
      const xv = x.replace(/^0+(?=\d)/, '');
      const yv = y.replace(/^0+(?=\d)/, '');
      if (xv.length !== yv.length) return xv.length - yv.length;
      if (xv !== yv) return xv < yv ? -1 : 1;
      return x.length - y.length;
    }
    return x < y ? -1 : 1;
  }
  return as.length - bs.length;
}
