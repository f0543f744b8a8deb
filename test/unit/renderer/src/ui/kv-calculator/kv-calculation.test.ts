// The KV calculator's form → numbers, with expected values by hand arithmetic (docs/DESIGN.md's
// row_bytes: f16 = 2 B per value; q8_0 = 34 B per 32 values; q4_0 = 18 B per 32 values).
import { describe, expect, it } from 'vitest';
import {
  calculateKv,
  contextBeyondTrainingNote,
  KV_CHART_POINTS,
  maxContextBeyondTrainingNote,
  maxContextText,
} from '../../../../../../renderer/src/ui/kv-calculator/kv-calculation';
import { DEFAULT_KV_FORM } from '../../../../../../renderer/src/state/kv-slice';
import type { KvForm, KvHeaderState } from '../../../../../../renderer/src/state/kv-slice';
import type { GgufModelSummary } from '../../../../../../shared/kv/model-config';
import type { ModelShape } from '../../../../../../shared/kv/kv-theory';

const manual = (over: Partial<KvForm> = {}): KvForm => ({ ...DEFAULT_KV_FORM, source: 'manual', ...over });
const idle = { status: 'idle' } as const;

describe('calculateKv', () => {
  it('computes bytes per token, the cache at the context and the max context for the budget', () => {
    const result = calculateKv(manual({ budget: '1 GiB' }), idle);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    // 16 layers × 8 KV heads × (64 + 64) values × 2 B = 32,768 B; × 4,096 = 134,217,728 B.
    expect(result.calc.bytesPerToken).toBe(32768);
    expect(result.calc.totalBytes).toBe(134217728);
    // 1 GiB / 32 KiB = 32,768 tokens exactly.
    expect(result.calc.maxContext).toBe(32768);
    expect(result.calc.maxContextUnbounded).toBe(false);
  });

  it('draws one curve per possible KV type, from 0 to twice the context', () => {
    const result = calculateKv(manual(), idle);
    if (!result.ok) throw new Error('not ok');
    const byType = Object.fromEntries(result.calc.curves.map((c) => [c.kvType, c]));
    expect(Object.keys(byType).sort()).toEqual(['bf16', 'f16', 'f32', 'q4_0', 'q4_1', 'q5_0', 'q5_1', 'q8_0']);
    // q8_0: 64 values = 2 blocks × 34 B = 68 B per row; 16 × 8 × 136 = 17,408 B. q4_0: 2 × 18 = 36; 16 × 8 × 72 = 9,216 B.
    expect(byType.q8_0?.bytesPerToken).toBe(17408);
    expect(byType.q4_0?.bytesPerToken).toBe(9216);
    const f16 = byType.f16?.points ?? [];
    expect(f16).toHaveLength(KV_CHART_POINTS + 1);
    expect(f16[0]).toEqual({ ctx: 0, bytes: 0 });
    expect(f16.at(-1)).toEqual({ ctx: 8192, bytes: 8192 * 32768 });
    expect(result.calc.impossible).toEqual([]);
  });

  it('lists the KV types a head dim of 8 cannot use, and why', () => {
    const result = calculateKv(manual({ layers: '5', kvHeads: '4', headDimK: '8' }), idle);
    if (!result.ok) throw new Error('not ok');
    expect(result.calc.bytesPerToken).toBe(640);
    expect(result.calc.curves.map((c) => c.kvType)).toEqual(['f32', 'f16', 'bf16']);
    expect(result.calc.impossible.map((i) => i.kvType)).toEqual(['q8_0', 'q4_0', 'q4_1', 'q5_0', 'q5_1']);
  });

  it('caps the cache at the window and says the budget then never runs out', () => {
    const result = calculateKv(manual({ window: '1024', budget: '1 GiB' }), idle);
    if (!result.ok) throw new Error('not ok');
    expect(result.calc.totalBytes).toBe(1024 * 32768);
    expect(result.calc.maxContextUnbounded).toBe(true);
    expect(result.calc.maxContext).toBeNull();
  });

  it('uses a board preset’s RAM as the budget', () => {
    const result = calculateKv(manual({ presetId: 'jetson-orin-nano-4gb', budget: 'ignored' }), idle);
    if (!result.ok) throw new Error('not ok');
    expect(result.calc.budgetBytes).toBe(4 * 1024 ** 3);
    expect(result.calc.maxContext).toBe(131072);
  });

  it.each([
    ['layers', { layers: '5000' }, 'at most 1024'],
    ['kvHeads', { kvHeads: '99999999999999999999' }, 'at most 4096'],
    ['headDimK', { headDimK: '100000' }, 'at most 65536'],
    ['headDimV', { headDimV: '100000' }, 'at most 65536, or empty'],
    // Beyond these the calculator printed EiB of cache and 0 tokens of context.
    ['ctx', { ctx: '99999999999999999999' }, 'at most 100000000 tokens'],
    ['window', { window: '100000001' }, 'at most 100000000 tokens, or empty'],
    ['nSeq', { nSeq: '100000000' }, 'at most 256'],
  ] as const)(
    'puts a value beyond KVScope’s limits on its own field (%s), not on the KV type',
    (field, over, message) => {
      const result = calculateKv(manual(over), idle);
      expect(result).toEqual({ ok: false, errors: { [field]: message }, needsModel: false });
    },
  );

  // A model file is resident too: the budget it leaves is the cache's (a 4 GB model on a 4 GiB board has none).
  it.each([
    // (1 GiB − 512 MiB) / 32 KiB = 16,384 tokens.
    [512 * 1024 ** 2, 512 * 1024 ** 2, 16384],
    [1024 ** 3, 0, 0],
    [2 * 1024 ** 3, 0, 0],
    // A GGUF read on a board: its size is unknown and the whole budget is the cache's (1 GiB / 32 KiB).
    [null, 1024 ** 3, 32768],
  ])('counts a GGUF of %s bytes against a 1 GiB budget', (fileBytes, cacheBudgetBytes, maxContext) => {
    const shape: ModelShape = { layers: 16, kvHeads: 8, headDimK: 64, headDimV: 64, typeK: 'f16', typeV: 'f16' };
    // The calculation reads the shape and the size only; the summary is for the model facts shown.
    const summary = {} as GgufModelSummary;
    const header: KvHeaderState = {
      status: 'ready',
      header: { path: '/m.gguf', targetId: 'local', fileBytes, shape, summary },
    };
    const result = calculateKv({ ...DEFAULT_KV_FORM, source: 'gguf', budget: '1 GiB' }, header);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.calc).toMatchObject({ weightsBytes: fileBytes, cacheBudgetBytes, maxContext });
    expect(result.calc.maxContextUnbounded).toBe(false);
    // A typed shape has no file: the budget is all the cache's, as before.
    const typed = calculateKv(manual({ budget: '1 GiB' }), idle);
    expect(typed.ok && typed.calc.maxContext).toBe(32768);
  });

  it('reads a context and a window as the run form and the CLI do (4k = 4096)', () => {
    const result = calculateKv(manual({ ctx: '4k', window: ' 1K ' }), idle);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const plain = calculateKv(manual({ ctx: '4096', window: '1024' }), idle);
    expect(result).toEqual(plain);
    expect(calculateKv(manual({ ctx: '4 k' }), idle)).toMatchObject({ ok: false, errors: { ctx: expect.any(String) } });
  });

  it('names the fields it cannot read, and waits for a model in GGUF mode', () => {
    const bad = calculateKv(manual({ layers: '0', ctx: 'x', budget: 'lots' }), idle);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(Object.keys(bad.errors).sort()).toEqual(['budget', 'ctx', 'layers']);
    const waiting = calculateKv({ ...DEFAULT_KV_FORM, source: 'gguf' }, idle);
    expect(waiting).toEqual({ ok: false, errors: {}, needsModel: true });
  });

  describe('a context beyond the one the model was trained on (n_ctx_train)', () => {
    const shape: ModelShape = { layers: 16, kvHeads: 8, headDimK: 64, headDimV: 64, typeK: 'f16', typeV: 'f16' };
    /** A GGUF read on a board (size unknown) whose context_length is 2,048. */
    const trainedOn2048: KvHeaderState = {
      status: 'ready',
      header: {
        path: '/m.gguf',
        targetId: 'b-1',
        fileBytes: null,
        shape,
        summary: { nCtxTrain: 2048 } as GgufModelSummary,
      },
    };
    const gguf = (over: Partial<KvForm>) => calculateKv({ ...DEFAULT_KV_FORM, source: 'gguf', ...over }, trainedOn2048);
    const calcOf = (result: ReturnType<typeof calculateKv>) => {
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      return result.calc;
    };

    // It computed 4,096 tokens of a 2,048-token model without a word.
    it('still computes the cache, and says the context exceeds the trained one and what that means', () => {
      const calc = calcOf(gguf({ ctx: '4096', budget: '' }));
      expect(calc.trainedContext).toBe(2048);
      expect(calc.totalBytes).toBe(4096 * 32768);
      expect(contextBeyondTrainingNote(calc)).toBe(
        "The context of 4,096 tokens exceeds the model's trained context (n_ctx_train) of 2,048 tokens: the cache is computed as asked, but llama.cpp warns of a possible training context overflow, and answers degrade past it unless RoPE scaling (e.g. --rope-scaling yarn) stretches the model to that length.",
      );
      expect(contextBeyondTrainingNote(calcOf(gguf({ ctx: '2048', budget: '' })))).toBeNull();
    });

    // 1 GiB / 32 KiB = 32,768 tokens fit: memory's answer, 16 times what the model was made for.
    it('marks a max context for the budget past the trained context, and says why', () => {
      const calc = calcOf(gguf({ ctx: '1024', budget: '1 GiB' }));
      expect(calc.maxContext).toBe(32768);
      expect(maxContextText(calc)).toBe('32,768 tokens, beyond the trained 2,048');
      expect(maxContextBeyondTrainingNote(calc)).toBe(
        'The budget holds more context than the model was trained on (n_ctx_train, 2,048 tokens): that is what memory allows, not what the model is made for. Past 2,048 tokens, llama.cpp warns of a possible training context overflow, and answers degrade past it unless RoPE scaling (e.g. --rope-scaling yarn) stretches the model to that length.',
      );
      // A window that caps the cache: unlimited by memory, not by the model.
      const windowed = calcOf(gguf({ ctx: '1024', window: '512', budget: '1 GiB' }));
      expect(maxContextText(windowed)).toBe('unlimited (window), beyond the trained 2,048');
      expect(maxContextBeyondTrainingNote(windowed)).not.toBeNull();
    });

    it('says nothing when the budget stops within the trained context, or the model does not say', () => {
      // 32 MiB / 32 KiB = 1,024 tokens.
      const within = calcOf(gguf({ ctx: '1024', budget: '32 MiB' }));
      expect(maxContextText(within)).toBe('1,024 tokens');
      expect(maxContextBeyondTrainingNote(within)).toBeNull();
      const typed = calcOf(calculateKv(manual({ ctx: '1000000', budget: '1 GiB' }), idle));
      expect(typed.trainedContext).toBeNull();
      expect(contextBeyondTrainingNote(typed)).toBeNull();
      expect(maxContextText(typed)).toBe('32,768 tokens');
      expect(maxContextBeyondTrainingNote(typed)).toBeNull();
    });
  });
});
