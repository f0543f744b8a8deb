// POSIX quoting (shared/util/shell.ts); the round trip through a real shell is in
// test/integration/ssh/ssh-target.test.ts.
import { describe, expect, it } from 'vitest';
import { pathUnderHome, shellEnv, shellJoin, shellPath, shellQuote } from '../../../../shared/util/shell';

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

describe('a path under the home (~/)', () => {
  it.each([
    ['~/models/x.gguf', 'models/x.gguf', `"$HOME"/models/x.gguf`],
    ['~', '', '"$HOME"'],
    ['~//etc/x', 'etc/x', `"$HOME"/etc/x`],
    ["~/it's $(rm -rf /).gguf", "it's $(rm -rf /).gguf", `"$HOME"/'it'\\''s $(rm -rf /).gguf'`],
    // Not under the home: as typed, quoted.
    ['~user/x.gguf', null, "'~user/x.gguf'"],
    ['/models/~/x.gguf', null, "'/models/~/x.gguf'"],
    ['~x', null, "'~x'"],
  ])('%s', (path, rest, word) => {
    expect(pathUnderHome(path)).toBe(rest);
    expect(shellPath(path)).toBe(word);
  });
});
