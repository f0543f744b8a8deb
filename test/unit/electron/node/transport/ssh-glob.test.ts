import { describe, expect, it } from 'vitest';
import { sshGlobRegExp } from '../../../../../electron/node/transport/ssh-glob';

describe('sshGlobRegExp (OpenSSH match_pattern)', () => {
  it.each([
    ['*.example.com', 'board.example.com', true],
    ['*.example.com', 'example.com', false],
    ['orin-?', 'orin-1', true],
    ['orin-?', 'orin-12', false],
    ['10.0.0.*', '10.0.0.7', true],
    // Regex characters stand for themselves.
    ['10.0.0.*', '10a0b0c7', false],
    ['[fe80::1]:2222', '[fe80::1]:2222', true],
    ['conf.d/*.conf', 'conf.d/a.conf', true],
    ['a+b', 'aab', false],
  ])('%s matches %s: %s', (pattern, text, expected) => {
    expect(sshGlobRegExp(pattern).test(text)).toBe(expected);
  });

  it('is anchored at both ends', () => {
    expect(sshGlobRegExp('pi').test('raspberry-pi')).toBe(false);
    expect(sshGlobRegExp('pi').test('pi5')).toBe(false);
  });
});
