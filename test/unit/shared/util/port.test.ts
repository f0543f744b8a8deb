import { describe, expect, it } from 'vitest';
import { isPortText } from '../../../../shared/util/port';

describe('isPortText', () => {
  it('takes 1–65535 in at most five digits, nothing else', () => {
    for (const ok of ['1', '22', '00022', '65535']) expect(isPortText(ok), ok).toBe(true);
    for (const bad of ['', '0', '65536', '99999', '000022', '-1', '22a', ' 22', '2.2'])
      expect(isPortText(bad), bad).toBe(false);
  });
});
