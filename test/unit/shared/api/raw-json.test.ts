// JSON text kept as text (shared/api/raw-json.ts): spliced into an answer as it is, parsed for a
// transport that sends values, and always the same value as the parsed text would give.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RawJson, resolveRawJson, stringifyWithRawJson } from '../../../../shared/api/raw-json';

const answer = () => ({
  id: 4,
  ok: true,
  output: { runs: [{ label: 'a "quoted" run', samples: new RawJson('{"cells":[1,null,2.5]}') }, { samples: [] }] },
});
const expected =
  '{"id":4,"ok":true,"output":{"runs":[{"label":"a \\"quoted\\" run","samples":{"cells":[1,null,2.5]}},{"samples":[]}]}}';

afterEach(() => vi.restoreAllMocks());

describe('stringifyWithRawJson', () => {
  it('writes each raw text where its RawJson is, the rest as JSON.stringify does', () => {
    expect(stringifyWithRawJson(answer())).toBe(expected);
    expect(stringifyWithRawJson([new RawJson('1'), 'x', new RawJson('[true]')])).toBe('[1,"x",[true]]');
    expect(stringifyWithRawJson({ a: 1 })).toBe('{"a":1}');
  });

  it('gives the same text when a string of the value holds the placeholder (the slow way)', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    // The marker for Math.random() = 0.5, and a label that is exactly the first placeholder.
    const placeholder = `kvscope-raw-json-${(0.5).toString(36).slice(2)}-0`;
    const value = { label: placeholder, samples: new RawJson('[1, 2]') };
    expect(stringifyWithRawJson(value)).toBe(`{"label":"${placeholder}","samples":[1,2]}`);
  });

  it('is what JSON.stringify gives for a RawJson outside it: the parsed value', () => {
    expect(JSON.stringify(answer())).toBe(expected);
  });
});

describe('resolveRawJson', () => {
  it('parses every RawJson, copying only what holds one', () => {
    const value = answer();
    const resolved = resolveRawJson(value);
    expect(resolved).toEqual({
      id: 4,
      ok: true,
      output: { runs: [{ label: 'a "quoted" run', samples: { cells: [1, null, 2.5] } }, { samples: [] }] },
    });
    expect(value.output.runs[0]?.samples).toBeInstanceOf(RawJson);
    expect(resolved.output.runs[1]).toBe(value.output.runs[1]);
    const plain = { a: [1, 2], b: new Date(0) };
    expect(resolveRawJson(plain)).toBe(plain);
  });
});
