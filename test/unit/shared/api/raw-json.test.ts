// JSON text kept as text (shared/api/raw-json.ts): spliced into an answer as it is, parsed for a
// transport that sends values, and always the same value as the parsed text would give.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { asciiJson, RawJson, resolveRawJson, stringifyWithRawJson } from '../../../../shared/api/raw-json';

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

const isAscii = (text: string) => [...text].every((c) => c.charCodeAt(0) < 0x80);
/** JSON values whose strings and keys hold any UTF-16 code unit (surrogate pairs and lone halves included). */
const anyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'binary' }),
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: 'binary' }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('asciiJson', () => {
  it('writes only ASCII, and the text reads back as the same value', () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        const text = JSON.stringify(value);
        const ascii = asciiJson(text);
        expect(isAscii(ascii)).toBe(true);
        expect(JSON.parse(ascii)).toEqual(JSON.parse(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('escapes as JSON does, and leaves ASCII text as it is (the same string)', () => {
    expect(asciiJson('{"target":"–","model":"16L×8H","t":"20 °C 😀"}')).toBe(
      '{"target":"\\u2013","model":"16L\\u00d78H","t":"20 \\u00b0C \\ud83d\\ude00"}',
    );
    const plain = '{"cells":[1,null,2.5]}';
    expect(asciiJson(plain)).toBe(plain);
  });

  it('makes the answer of stringifyWithRawJson all ASCII, raw texts included, when asked', () => {
    const value = {
      listing: { target: '–', model: '16L×8H×64' },
      samples: new RawJson('{"shapes":[{"source":"tz","keys":["temp.ΣCPU.C"]}]}'),
    };
    const text = stringifyWithRawJson(value, { asciiOnly: true });
    expect(isAscii(text)).toBe(true);
    expect(JSON.parse(text)).toEqual(JSON.parse(stringifyWithRawJson(value)));
    expect(JSON.parse(text).listing.target).toBe('–');
    // Not asked: the text as JSON.stringify writes it.
    expect(stringifyWithRawJson(value)).toContain('16L×8H×64');
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
