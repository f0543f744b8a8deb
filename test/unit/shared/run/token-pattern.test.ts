// A token pattern must match in linear time: it runs over every line the engine prints, in the
// app's own process. Here without V8's linear engine (as in the renderer); with it, see
// test/unit/electron/node/run/stdout-token-counter.test.ts.
import { describe, expect, it } from 'vitest';
import { tokenPatternProblem } from '../../../../shared/run/token-pattern';
import {
  NewRunRequestSchema,
  RunRequestSchema,
  SERVER_MODE_DEFAULTS,
  StartRunInputSchema,
} from '../../../../shared/api/schemas';

describe('tokenPatternProblem', () => {
  it('refuses back-references and lookarounds, in words, and says why', () => {
    const why = 'a token pattern runs over every line the engine prints and must match in linear time';
    expect(tokenPatternProblem(String.raw`(a+)\1`)).toBe(String.raw`a back-reference (\1) cannot be used: ${why}`);
    expect(tokenPatternProblem(String.raw`(?<t>\w+) \k<t>`)).toBe(
      String.raw`a back-reference (\k<…>) cannot be used: ${why}`,
    );
    expect(tokenPatternProblem('tok(?=en)')).toBe(`a lookahead ((?=…) cannot be used: ${why}`);
    expect(tokenPatternProblem('tok(?!x)')).toBe(`a lookahead ((?!…) cannot be used: ${why}`);
    expect(tokenPatternProblem('(?<=x)tok')).toBe(`a lookbehind ((?<=…) cannot be used: ${why}`);
    expect(tokenPatternProblem('(?<!x)tok')).toBe(`a lookbehind ((?<!…) cannot be used: ${why}`);
    expect(tokenPatternProblem('(')).toMatch(/^not a valid pattern: /);
  });

  it('says what is wrong with an invalid pattern without repeating it as /pattern/g', () => {
    expect(tokenPatternProblem('[unclosed')).toBe('not a valid pattern: unterminated character class');
    expect(tokenPatternProblem('(')).toBe('not a valid pattern: unterminated group');
    expect(tokenPatternProblem('*')).toBe('not a valid pattern: nothing to repeat');
  });

  it('takes what only looks like one: an escaped backslash, a class, a named or non-capturing group', () => {
    for (const ok of [String.raw`\\1`, String.raw`[\1(?=]`, '(?<name>tok)en', '(?:ab)+', String.raw`^\S+$`, '(a+)+$'])
      expect(tokenPatternProblem(ok), ok).toBeNull();
  });

  it("a new run's request refuses the pattern with the same words, at engine.tokenRegex; a stored one reads as it was", () => {
    const engine = { kind: 'command', command: 'x', tokenRegex: 'a(?=b)' } as const;
    const got = StartRunInputSchema.safeParse({ target: { kind: 'local' }, engine });
    expect(got.success).toBe(false);
    expect(got.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['engine.tokenRegex', expect.stringMatching(/^a lookahead \(\(\?=…\) cannot be used: /)],
    ]);
    expect(NewRunRequestSchema.safeParse({ target: { kind: 'local' }, engine }).success).toBe(false);
    // Server-mode sessions recorded before this rule hold `(?!)`: they still open.
    expect(
      RunRequestSchema.safeParse({ target: { kind: 'local' }, engine: { ...engine, tokenRegex: '(?!)' } }).success,
    ).toBe(true);
    // Server mode's own never-matching pattern is one a new run may have.
    expect(tokenPatternProblem(SERVER_MODE_DEFAULTS.noTokensRegex)).toBeNull();
    expect('a line the server logs'.match(new RegExp(SERVER_MODE_DEFAULTS.noTokensRegex, 'g'))).toBeNull();
  });
});
