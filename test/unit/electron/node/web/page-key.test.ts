// Browser mode's three secrets (electron/node/web/page-key.ts): token, page cookie, page keys.
import { describe, expect, it } from 'vitest';
import { createBrowserCredentials } from '../../../../../electron/node/web/page-key';

describe('browser credentials', () => {
  const c = createBrowserCredentials();

  it('has a cookie value that is not the token and matches only itself', () => {
    expect(c.cookieValue).not.toBe(c.token);
    expect(c.cookieMatches(c.cookieValue)).toBe(true);
    expect(c.cookieMatches(c.token)).toBe(false);
    expect(c.tokenMatches(c.token)).toBe(true);
    expect(c.tokenMatches(c.cookieValue)).toBe(false);
  });

  it('mints a different key per page; each verifies, and none made without the token does', () => {
    const a = c.newPageKey();
    const b = c.newPageKey();
    expect(a).not.toBe(b);
    expect(c.pageKeyMatches(a)).toBe(true);
    expect(c.pageKeyMatches(b)).toBe(true);
    const [nonce, mac = ''] = a.split('.');
    // The MAC's last character changed (to 'A', or to 'E' when it is 'A': a 32-byte MAC ends in
    // one of 16 characters, so a fixed 'A' left it unchanged once in 16 runs).
    const otherLast = mac.endsWith('A') ? 'E' : 'A';
    const other = createBrowserCredentials();
    for (const forged of [
      `${nonce}.${mac.slice(0, -1)}${otherLast}`,
      `${nonce}x.${mac}`,
      other.newPageKey(),
      c.cookieValue,
      c.token,
      `.${mac}`,
      `${a}.`,
      'x'.repeat(10_000),
    ])
      expect(c.pageKeyMatches(forged), forged.slice(0, 40)).toBe(false);
  });
});
