import { describe, expect, it } from 'vitest';
import { setGgufField, setModelField } from '../../../../shared/parsers/llama-log-model';
import type { ModelRecord } from '../../../../shared/parsers/records';

const record = (): ModelRecord => ({ kind: 'model', line: 1, source: 'print_info' });

describe('model fields from print_info and GGUF keys', () => {
  it('keeps text fields as printed, under every spelling llama.cpp used', () => {
    const r = record();
    for (const [key, value] of [
      ['arch', 'llama'],
      ['general.name', 'TinyStories'],
      ['model type', '15M'],
      ['file type', 'Q8_0'],
      ['flash_attn', 'auto'],
    ] as const)
      expect(setModelField(r, key, value), key).toBe(true);
    expect(r).toEqual({
      ...record(),
      arch: 'llama',
      modelName: 'TinyStories',
      modelType: '15M',
      fileType: 'Q8_0',
      flashAttn: 'auto',
    });
  });

  it('reads per-layer head counts from either source the same way', () => {
    const a = record();
    const b = record();
    expect(setModelField(a, 'n_head_kv', '[8, 8, 0]')).toBe(true);
    expect(setGgufField(b, 'gemma3.attention.head_count_kv', 'arr[i32,3]', '[8, 8, 0]')).toBe(true);
    expect(a).toEqual({ ...record(), nHeadKv: null, nHeadKvPerLayer: [8, 8, 0] });
    expect(b).toEqual(a);
  });

  it('a key named like an Object.prototype member is not a field (it stays unmapped)', () => {
    const r = record();
    expect(setModelField(r, 'constructor', '12')).toBe(false);
    expect(setModelField(r, 'toString', 'abc')).toBe(false);
    expect(setGgufField(r, 'constructor', 'str', 'llama')).toBe(false);
    expect(setGgufField(r, 'x.hasOwnProperty', 'u32', '3')).toBe(false);
    expect(r).toEqual(record());
  });
});
