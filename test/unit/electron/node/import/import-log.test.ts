import { describe, expect, it } from 'vitest';
import { parseIntervalMs } from '../../../../../electron/node/import/import-log';

describe('import --interval', () => {
  it('reads seconds and milliseconds', () => {
    expect(parseIntervalMs('1s')).toBe(1000);
    expect(parseIntervalMs('2')).toBe(2000);
    expect(parseIntervalMs('500ms')).toBe(500);
    expect(parseIntervalMs('0.25s')).toBe(250);
  });

  it('refuses what is not a positive duration', () => {
    for (const text of ['', '0', '0s', '-1s', '1m', 'fast', '1 s s']) expect(parseIntervalMs(text), text).toBeNull();
  });
});
