import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteLineReader } from '../../../../../electron/node/run/spool-follower';

describe('ByteLineReader (spool follower)', () => {
  it('delivers the same lines and offsets however the bytes are chunked', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => s.replace(/\n/g, ' ')),
          { maxLength: 20 },
        ),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 50 }),
        fc.nat(1000),
        (lines, cuts, startOffset) => {
          const bytes = Buffer.from(lines.map((l) => l + '\n').join(''), 'utf8');
          const got: string[] = [];
          const reader = new ByteLineReader(startOffset, (l) => got.push(l));
          let at = 0;
          for (let i = 0; at < bytes.length; i++) {
            const n = cuts[i % cuts.length] ?? 1;
            reader.push(bytes.subarray(at, at + n));
            at += n;
          }
          expect(got).toEqual(lines);
          expect(reader.offset).toBe(startOffset + bytes.length);
        },
      ),
    );
  });

  it('holds back a partial last line and does not count its bytes', () => {
    const got: string[] = [];
    const reader = new ByteLineReader(0, (l) => got.push(l));
    reader.push(Buffer.from('S t=1\nS t=2 par'));
    expect(got).toEqual(['S t=1']);
    expect(reader.offset).toBe(6);
    reader.push(Buffer.from('tial\n'));
    expect(got).toEqual(['S t=1', 'S t=2 partial']);
    expect(reader.offset).toBe(20);
  });
});
