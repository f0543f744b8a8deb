// ShapedValues: the same objects keyed assignment would build, kept as fast objects (a V8 hidden
// class, not a hash table), whatever key lists come in turn.
import { setFlagsFromString } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShapedValues } from '../../../../shared/util/shaped-values';
import { tegrastatsValues } from '../../../../shared/collectors/tegrastats-collector-parser';
import { parseTegrastatsLine } from '../../../../shared/parsers/tegrastats-parser';
import { ORIN_CAPTURE, realLines } from '../../../helpers/tegrastats-log';

setFlagsFromString('--allow-natives-syntax');
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- V8's own test of an object's layout, compiled after the flag
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;

/**
 * What `v[key] = value` in order builds, each key an own property: `__proto__` too (fc.string()
 * makes it), which plain assignment would take for the prototype, not a reading.
 */
function keyed(keys: readonly string[], values: readonly (number | null)[]): Record<string, number | null> {
  const v: Record<string, number | null> = {};
  keys.forEach((k, i) =>
    Object.defineProperty(v, k, { value: values[i] ?? null, enumerable: true, writable: true, configurable: true }),
  );
  return v;
}

describe('ShapedValues', () => {
  it('builds what keyed assignment builds (order, duplicates, numeric-looking keys), across changing key lists', () => {
    const key = fc.oneof(fc.constantFrom('a', 'b', 'tegra.cpu.0.loadPct', '0', '10', '__proto__x'), fc.string());
    const reading = fc
      .array(fc.tuple(key, fc.oneof(fc.double({ noNaN: true }), fc.constant(null))), { maxLength: 30 })
      .map((pairs) => ({ keys: pairs.map((p) => p[0]), values: pairs.map((p) => p[1]) }));
    fc.assert(
      fc.property(fc.array(reading, { maxLength: 8 }), (readings) => {
        const shape = new ShapedValues();
        for (const r of readings) {
          const made = shape.make(r.keys, r.values);
          const want = keyed(r.keys, r.values);
          expect(made).toEqual(want);
          expect(Object.keys(made)).toEqual(Object.keys(want));
        }
      }),
      { numRuns: 300 },
    );
  });

  // (Built by `v[key] = x` from an empty object, the first such object would be a hash table: V8
  // turns an object into one past a dozen properties added by computed keys.)
  it("keeps a tegrastats reading's ~100 values a fast object, the first one and the next", () => {
    const line = realLines(ORIN_CAPTURE)[0] ?? '';
    const record = parseTegrastatsLine(line, 1);
    if (record.kind === 'diagnostic') throw new Error(record.reason);
    const shape = new ShapedValues();
    const first = tegrastatsValues(record, shape);
    const second = tegrastatsValues(record, shape);
    expect(Object.keys(first).length).toBeGreaterThan(60);
    expect([hasFastProperties(first), hasFastProperties(second)]).toEqual([true, true]);
  });
});
