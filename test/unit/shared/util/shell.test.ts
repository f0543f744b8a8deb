// POSIX quoting (shared/util/shell.ts); the round trip through a real shell is in
// test/integration/ssh/ssh-target.test.ts.
import { describe, expect, it } from 'vitest';
import { shellEnv, shellJoin, shellQuote } from '../../../../shared/util/shell';

describe('shellQuote', () => {
  it('leaves plain words alone and single-quotes everything else', () => {
    // [word, what the shell is given]
    const quoted: Array<[string, string]> = [
      ['/tmp/kvscope-1/run.sh', '/tmp/kvscope-1/run.sh'],
      ['a_b-c.d,e:f=g+h@i%j', 'a_b-c.d,e:f=g+h@i%j'],
      ['', "''"],
      ['two words', "'two words'"],
      ["it's", "'it'\\''s'"],
      ['$(rm -rf /)', "'$(rm -rf /)'"],
      ['Ünïcode', "'Ünïcode'"],
    ];
    for (const [word, expected] of quoted) expect(shellQuote(word), word).toBe(expected);
    expect(() => shellQuote('a\0b')).toThrow('NUL');
  });

  it('joins argv and validates env names', () => {
    expect(shellJoin(['echo', 'a b', 'c'])).toBe("echo 'a b' c");
    expect(shellEnv({ INTERVAL_S: '0.1', _X9: 'a b' })).toBe("INTERVAL_S=0.1 _X9='a b'");
    expect(() => shellEnv({ '9LIVES': 'x' })).toThrow('invalid environment variable name');
    expect(() => shellEnv({ 'A;B': 'x' })).toThrow('invalid environment variable name');
  });
});
