// The limits every model description is checked against, and how text from a model file is shown.
import { describe, expect, it } from 'vitest';
import { KvComputeInputSchema } from '../../../../shared/api/schemas';
import { MODEL_LIMITS, quoteUntrusted } from '../../../../shared/kv/model-limits';

describe('MODEL_LIMITS', () => {
  it('are the limits the API states for computeKv (shared/api/schemas.ts)', () => {
    const input = { layers: 1024, kvHeads: 4096, headDimK: 65_536, ctx: 100_000_000 };
    expect(MODEL_LIMITS).toMatchObject({ layers: 1024, heads: 4096, headDim: 65_536, contextTokens: 100_000_000 });
    expect(KvComputeInputSchema.safeParse(input).success).toBe(true);
    for (const key of ['layers', 'kvHeads', 'headDimK', 'ctx'] as const)
      expect(KvComputeInputSchema.safeParse({ ...input, [key]: input[key] + 1 }).success).toBe(false);
  });
});

describe('quoteUntrusted', () => {
  it('quotes, escapes line breaks, terminal escapes and quotes, and cuts long text', () => {
    expect(quoteUntrusted('llama')).toBe('"llama"');
    expect(quoteUntrusted('a\nb\r\u001b[2J\u009b1m\u2028"\\')).toBe(
      '"a\\u000ab\\u000d\\u001b[2J\\u009b1m\\u2028\\"\\\\"',
    );
    expect(quoteUntrusted('x'.repeat(100), 5)).toBe('"xxxxx…"');
  });
});
