// Finding where a JSON value ends in text that arrives line by line (llama-server's verbose
// timings object, llama-bench -o json/jsonl), without parsing it: braces and brackets are counted
// outside strings only. The caller hands the text it found to JSON.parse.

export interface JsonScan {
  depth: number;
  inString: boolean;
  escape: boolean;
}

/**
 * The string state of a JSON scan, one character at a time: true when `c` belongs to a string (or
 * opens one), so it is not structure (braces and brackets inside strings do not count).
 */
export function inJsonString(state: { inString: boolean; escape: boolean }, c: string | undefined): boolean {
  if (state.inString) {
    if (state.escape) state.escape = false;
    else if (c === '\\') state.escape = true;
    else if (c === '"') state.inString = false;
    return true;
  }
  if (c !== '"') return false;
  state.inString = true;
  return true;
}

/** Advance a brace scan over `text`; returns the index just after the closing brace, or -1. */
export function scanJson(state: JsonScan, text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inJsonString(state, c)) continue;
    if (c === '{') state.depth++;
    else if (c === '}') {
      state.depth--;
      if (state.depth === 0) return i + 1;
    }
  }
  return -1;
}
