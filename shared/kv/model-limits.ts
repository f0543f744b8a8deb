// Every limit a model description (a GGUF header, an API request, a command line) is checked
// against before anything is allocated for it. Model files come from boards and downloads: they
// are untrusted, and a 200-byte header claiming 2^28 layers must be refused, not modelled.
//
// Each limit sits far above every real model (the reason says by how much) and far below what
// would cost noticeable memory or time. The API's KvComputeInputSchema (shared/api/schemas.ts)
// states the same shape limits; test/unit/shared/kv/model-limits.test.ts keeps the two equal.

/** Limits on the model's shape (shared/kv/model-config.ts, shared/kv/kv-theory.ts). */
export const MODEL_LIMITS = {
  /** Transformer blocks. Llama 3.1 405B has 126, DeepSeek-V3 61: 1,024 is 8× the deepest model. */
  layers: 1024,
  /** Attention or KV heads per layer. The widest models have 128 (Llama 3.1 405B, DeepSeek-V3). */
  heads: 4096,
  /** Values per head row (key_length, value_length, kv_lora_rank + rope dim). Real: 64–576. */
  headDim: 65_536,
  /** embedding_length. Real: ≤ 16,384 (Llama 3.1 405B); 2^20 leaves 64× room. */
  embeddingLength: 1 << 20,
  /** Tokens of context (context_length, sliding_window). Real: ≤ 10M (Llama 4 Scout); as the API's ctx. */
  contextTokens: 100_000_000,
  /** Vocabulary entries. Real: ≤ 262,144 (Gemma 3); 2^22 leaves 16× room. */
  vocabulary: 1 << 22,
} as const;

/** Limits on the GGUF container itself (electron/node/model/gguf-reader.ts). */
export const GGUF_LIMITS = {
  /** Largest metadata section read. Real headers (256k vocabularies with merges) stay below 20 MiB. */
  headerBytes: 256 << 20,
  /** Key/value pairs. Real files have 20–60; llama.cpp's largest converters write < 100. */
  kvCount: 1 << 16,
  /** Tensors (counted, their infos are not read). Real models have a few thousand at most. */
  tensorCount: 1 << 20,
  /** Elements of one array. Vocabularies and merges reach ~300k; 2^24 leaves 50× room. */
  arrayLength: 1 << 24,
  /** Bytes of a key: docs/gguf.md caps keys at 65,535 bytes. */
  keyBytes: 65_535,
  /** Bytes of one string value. Chat templates, the largest, are tens of kB. */
  stringBytes: 16 << 20,
  /**
   * Bytes of values kept in memory (strings, and arrays short enough to be materialised, 8 bytes
   * per element). Real headers keep well under 1 MiB: per-layer arrays, names, a chat template.
   * A header that keeps more is built to exhaust memory (thousands of 1,024-entry arrays).
   */
  keptValueBytes: 16 << 20,
  /** Nesting of arrays in arrays. ggml's gguf.cpp refuses any nesting; 4 is generous. */
  arrayDepth: 4,
} as const;

/**
 * Text from a model file as it may be printed: control and line-break characters, quotes and
 * backslashes escaped (a name holding "\n" or a terminal escape must not forge output lines or
 * drive the terminal), cut at `maxChars`.
 */
export function escapeUntrusted(text: string, maxChars = 80): string {
  const cut = text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
  // eslint-disable-next-line no-control-regex -- matching control characters is the point here
  return cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029"\\]/g, (ch) =>
    ch === '"' || ch === '\\' ? `\\${ch}` : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** escapeUntrusted in double quotes: for text from a model file inside a one-line message. */
export function quoteUntrusted(text: string, maxChars = 80): string {
  return `"${escapeUntrusted(text, maxChars)}"`;
}
