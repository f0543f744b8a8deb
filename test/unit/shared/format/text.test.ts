// Fact values and timestamps for report tables (shared/format/text.ts).
import { describe, expect, it } from 'vitest';
import { formatFact, formatTimestamp } from '../../../../shared/format/text';

describe('facts and timestamps', () => {
  it('facts by type', () => {
    expect(formatFact(null)).toBe('–');
    expect(formatFact(8)).toBe('8');
    expect(formatFact(12345)).toBe('12,345');
    expect(formatFact(0.123)).toBe('0.12');
    expect(formatFact(true)).toBe('yes');
    expect(formatFact('aarch64')).toBe('aarch64');
    expect(formatFact({ a: 1 })).toBe('{"a":1}');
  });

  it('ISO timestamps in UTC, anything else as it is', () => {
    expect(formatTimestamp('2026-11-29T09:31:43.351Z')).toBe('2026-11-29 09:31:43 UTC');
    expect(formatTimestamp('2026-11-29T09:31:43Z')).toBe('2026-11-29 09:31:43 UTC');
    expect(formatTimestamp('yesterday')).toBe('yesterday');
    expect(formatTimestamp(null)).toBe('–');
  });
});
