// Sizes typed into the run form (shared/format/byte-size.ts).
import { describe, expect, it } from 'vitest';
import { parseByteSize } from '../../../../shared/format/byte-size';
import { formatBytes } from '../../../../shared/format/units';
import { PROTOTYPE_KEYS } from '../../../helpers/prototype-keys';

describe('parseByteSize', () => {
  it('reads binary and SI units, with or without a space', () => {
    expect(parseByteSize('2 GiB')).toEqual({ ok: true, bytes: 2 * 1024 ** 3 });
    expect(parseByteSize('512MiB')).toEqual({ ok: true, bytes: 512 * 1024 ** 2 });
    expect(parseByteSize('1.5 GB')).toEqual({ ok: true, bytes: 1_500_000_000 });
    expect(parseByteSize(' 4000000000 ')).toEqual({ ok: true, bytes: 4_000_000_000 });
    expect(parseByteSize('8g')).toEqual({ ok: true, bytes: 8e9 });
  });

  it('reads back what formatBytes prints', () => {
    expect(parseByteSize(formatBytes(32768))).toEqual({ ok: true, bytes: 32768 }); // "32.0 KiB"
    expect(parseByteSize(formatBytes(1.25 * 1024 ** 3))).toEqual({ ok: true, bytes: 1.25 * 1024 ** 3 });
  });

  it('explains what it cannot read', () => {
    const bad = parseByteSize('two gigs');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toBe('cannot read "two gigs": use e.g. 2 GiB, 512 MiB or 4000000000');
    expect(parseByteSize('0 MiB')).toEqual({ ok: false, error: 'must be more than 0 bytes' });
    expect(parseByteSize('-1 GiB').ok).toBe(false);
    expect(parseByteSize('2 GiBs').ok).toBe(false);
    expect(parseByteSize('2  GiB  x').ok).toBe(false);
  });

  it('asks for the unit of a bare number that cannot be bytes meant as a memory size (QA: a budget of "1.5")', () => {
    expect(parseByteSize('1.5')).toEqual({
      ok: false,
      error: 'a number without a unit is bytes: give its unit, e.g. 1.5 GiB or 1.5 MiB',
    });
    expect(parseByteSize(' 2 ').ok).toBe(false);
    expect(parseByteSize('1023').ok).toBe(false);
    // "2000" meant 2000 MiB: under a MiB, a bare number is a unit left out (the CLI's rule too).
    expect(parseByteSize('2000').ok).toBe(false);
    expect(parseByteSize('1048575').ok).toBe(false);
    expect(parseByteSize('1048576')).toEqual({ ok: true, bytes: 1048576 });
    expect(parseByteSize('2 b')).toEqual({ ok: true, bytes: 2 });
  });

  it.each(PROTOTYPE_KEYS)('"2 %s" is not a size (not a unit found on Object.prototype: NaN bytes)', (key) => {
    expect(parseByteSize(`2 ${key}`)).toEqual({
      ok: false,
      error: `cannot read "2 ${key}": use e.g. 2 GiB, 512 MiB or 4000000000`,
    });
  });
});
