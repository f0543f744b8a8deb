// Values the parsers take from JSON the tools print (llama-bench `-o json|jsonl`, llama-server's
// timings objects) and keep as they are in a record's `extra`. Pure.

/**
 * A parsed JSON value with every number JSON.parse made infinite (`1e309` in a damaged line) as its
 * text, `"Infinity"`: kept, and it survives the session's JSON instead of becoming null there.
 */
export function jsonSafe(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonSafe(x)]));
  return v;
}
