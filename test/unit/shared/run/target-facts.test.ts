// Target facts read back from a session file or another process (shared/run/target-facts.ts):
// the keys are data written by whoever made the file.
import { describe, expect, it } from 'vitest';
import { targetFactsOf } from '../../../../shared/run/target-facts';

describe('targetFactsOf', () => {
  it('keeps known fields of the probe shape and unknown keys, and drops known fields of another shape', () => {
    expect(targetFactsOf({ hostname: 'orin', memTotalBytes: 8e9, newerProbeField: [1], cores: 'eight' })).toEqual({
      hostname: 'orin',
      memTotalBytes: 8e9,
      newerProbeField: [1],
    });
  });

  it.each(['valueOf', 'toString', 'constructor', 'hasOwnProperty', 'isPrototypeOf'])(
    'reads a stored key named %s as a key like any other (not as Object.prototype.%s)',
    (key) => {
      const facts = targetFactsOf(JSON.parse(`{"${key}":{},"hostname":"rk3588"}`));
      expect(facts).not.toBeNull();
      expect(Object.keys(facts ?? {})).toEqual([key, 'hostname']);
    },
  );

  it('drops a stored "__proto__" key instead of letting it set the prototype', () => {
    const facts = targetFactsOf(JSON.parse('{"__proto__":{"polluted":true},"hostname":"pi5"}'));
    expect(Object.getPrototypeOf(facts)).toBe(Object.prototype);
    expect((facts as Record<string, unknown>).polluted).toBeUndefined();
    expect(facts).toEqual({ hostname: 'pi5' });
  });

  it('is null for what is not an object', () => {
    for (const v of [null, 'x', 5, [1, 2], true]) expect(targetFactsOf(v)).toBeNull();
  });
});
