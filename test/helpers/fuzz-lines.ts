// The inputs of the fuzz tests (test/unit/shared/parsers/fuzz.test.ts,
// test/unit/shared/collectors/collector-adapters.fuzz.test.ts): real lines damaged the ways real
// lines get damaged, and random text. One place, so every parser is fuzzed with the same damage.
import fc from 'fast-check';
import { PROTOTYPE_KEYS } from './prototype-keys';

/** Number-shaped text that is not a reading: what a damaged number turns into, or a tool's own NaN/inf. */
export const NUMBER_DAMAGE = [
  'NaN',
  'nan',
  '-nan',
  'inf',
  '-inf',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1',
  '0x1F',
  '1e3',
  '99999999999999999999999999',
  '123456789012345678901234567890.5',
  '.',
  '-',
  '',
];

/** Random text: any UTF-16 code units (lone surrogates, NUL, CR included), Unicode, and a tool-ish alphabet. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 120 }),
  fc.string({ unit: fc.constantFrom(...' \t[](){}",:;|#@%=/-.*>0123456789abcxyzCKMGB'), maxLength: 200 }),
);

/** Numbers damaged only: a digit turned into a letter or a sign (the line keeps its shape and labels). */
export function digitsDamaged(lines: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...lines), fc.nat(), fc.constantFrom('x', 'O', '-', '?', 'e')).map(([l, at, c]) => {
    const digits = [...l.matchAll(/\d/g)].map((m) => m.index);
    if (digits.length === 0) return l;
    const k = digits[at % digits.length] ?? 0;
    return l.slice(0, k) + c + l.slice(k + 1);
  });
}

/** A whole number of the line (a run of digits and dots) replaced by huge, NaN or inf text. */
function numberReplaced(lines: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...lines), fc.nat(), fc.constantFrom(...NUMBER_DAMAGE)).map(([l, at, text]) => {
    const numbers = [...l.matchAll(/\d[\d.]*/g)];
    if (numbers.length === 0) return l;
    const m = numbers[at % numbers.length];
    const k = m?.index ?? 0;
    return l.slice(0, k) + text + l.slice(k + (m?.[0].length ?? 0));
  });
}

/** One field (split at spaces, `|`, `,` or `=`) written twice. */
function fieldDoubled(lines: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...lines), fc.constantFrom(' ', '|', ',', '='), fc.nat()).map(([l, sep, at]) => {
    const fields = l.split(sep);
    const k = at % fields.length;
    return [...fields.slice(0, k + 1), ...fields.slice(k)].join(sep);
  });
}

/** One word of the line (a field name, a column, a label) renamed to a key like "constructor" or "__proto__". */
function wordAsPrototypeKey(lines: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...lines), fc.nat(), fc.constantFrom(...PROTOTYPE_KEYS)).map(([l, at, key]) => {
    const words = [...l.matchAll(/[a-z_]\w*/gi)];
    if (words.length === 0) return `${key}: ${l}`;
    const m = words[at % words.length];
    const k = m?.index ?? 0;
    return l.slice(0, k) + key + l.slice(k + (m?.[0].length ?? 0));
  });
}

/** A real line changed in one of the ways real damage changes lines, or a word of it renamed (above). */
export function mutated(lines: readonly string[]): fc.Arbitrary<string> {
  const line = fc.constantFrom(...lines);
  const at = (l: string, n: number) => n % (l.length + 1);
  return fc.oneof(
    // characters replaced or inserted
    fc.tuple(line, fc.nat(), fc.nat({ max: 8 }), fc.string({ maxLength: 8 })).map(([l, n, len, ins]) => {
      const k = at(l, n);
      return l.slice(0, k) + ins + l.slice(k + len);
    }),
    // cut short (a line the tool was killed in the middle of)
    fc.tuple(line, fc.nat()).map(([l, n]) => l.slice(0, at(l, n))),
    // one code unit flipped to any other (binary damage, lone surrogates)
    fc.tuple(line, fc.nat(), fc.integer({ min: 0, max: 0xffff })).map(([l, n, code]) => {
      const k = at(l, n);
      return l.slice(0, k) + String.fromCharCode(code) + l.slice(k + 1);
    }),
    // a NUL inside, a CR at the end (CRLF read by a reader that splits at LF only)
    fc.tuple(line, fc.nat()).map(([l, n]) => l.slice(0, at(l, n)) + '\0' + l.slice(at(l, n))),
    line.map((l) => `${l}\r`),
    fieldDoubled(lines),
    numberReplaced(lines),
    digitsDamaged(lines),
    wordAsPrototypeKey(lines),
    // spaces widened (columns re-aligned)
    fc.tuple(line, fc.integer({ min: 2, max: 40 })).map(([l, n]) => l.replace(/ /g, ' '.repeat(n))),
  );
}

/** The fuzz input of one case: half damaged real lines, half random text. */
export function fuzzLine(lines: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(mutated(lines), anyText);
}

/**
 * Every number in a record (its fields, arrays and nested objects) is finite: a NaN or an Infinity
 * would reach the session's JSON as null, a reading lost without a diagnostic.
 */
export function expectFiniteNumbers(value: unknown, path = 'record'): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${path} is ${value}`);
  } else if (Array.isArray(value)) value.forEach((v, i) => expectFiniteNumbers(v, `${path}[${i}]`));
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) expectFiniteNumbers(v, `${path}.${k}`);
}

/**
 * A record holds data only: no function and no function's source text (what a plain `{}` gives for
 * a key named "constructor" or "toString", alone or summed), and no object whose prototype was set
 * by a "__proto__" key (shared/util/dictionary.ts).
 */
export function expectPlainData(value: unknown, path = 'record'): void {
  if (typeof value === 'function') throw new Error(`${path} is a function`);
  if (typeof value === 'string' && value.includes('[native code]')) throw new Error(`${path} is a function's text`);
  if (typeof value !== 'object' || value === null) return;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== null && proto !== Object.prototype && proto !== Array.prototype)
    throw new Error(`${path} has a prototype set from input`);
  for (const [k, v] of Object.entries(value)) expectPlainData(v, `${path}.${k}`);
}
