// Sample values built so that V8 keeps them as fast objects. An object that gains more than a dozen
// properties through computed keys (`v[key] = x`) becomes a hash table ("dictionary mode"): for the
// ~80 values of a tegrastats reading that made JSON.stringify (each stored row) ~1.6× slower, `for…in`
// (shared/api/packed-samples.ts sameKeys) ~20× slower and each object larger, which an 8-hour import
// (28,800 of them, bench/import.bench.ts) paid in every pass and in garbage collection. A copy of a
// template built once for the key list (`{ ...template }`) shares its hidden class, and assigning
// the keys it already has keeps it so. Readings of one source mostly repeat the keys of the last.

/** Builds value objects for one stream of readings; remembers the last key list's template. */
export class ShapedValues {
  private keys: readonly string[] = [];
  private template: Record<string, number | null> = {};

  /** `{ [keys[i]]: values[i] }`, a later duplicate key winning, as keyed assignment in order would. */
  make(keys: readonly string[], values: readonly (number | null)[]): Record<string, number | null> {
    if (!sameKeys(keys, this.keys)) {
      this.keys = keys.slice();
      this.template = Object.fromEntries(keys.map((k) => [k, null]));
    }
    const out = { ...this.template };
    for (let i = 0; i < keys.length; i++) out[keys[i] as string] = values[i] ?? null;
    return out;
  }
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
