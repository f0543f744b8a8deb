// The token counter matches the user's pattern in the app's own process, on V8's linear-time
// engine: a pattern that backtracks exponentially cannot stall the app (QA: `(a+)+$` on a line of
// 46 a's and a b left the server at 100 % CPU, the run stuck in STOPPING, until it was killed).
import { describe, expect, it } from 'vitest';
import { StdoutTokenCounter } from '../../../../../electron/node/run/stdout-token-counter';

describe('StdoutTokenCounter with a token pattern', () => {
  it('matches a pattern that would backtrack exponentially in linear time, counting right', () => {
    const counter = new StdoutTokenCounter('(a+)+$');
    // 2^46 ways to split the a's before the b: a backtracking engine does not return.
    expect(counter.push('O', `${'a'.repeat(46)}b`)).toBe(0);
    expect(counter.push('O', 'aaa')).toBe(1);
    // A match across P records (a line that arrived in two writes) is counted once.
    const words = new StdoutTokenCounter(String.raw`\w+`);
    expect([words.push('P', 'one tw'), words.push('O', 'o three')]).toEqual([2, 1]);
  });

  it("counts nothing with server mode's pattern of before, '(?!)' (a run recovered from a board may hold it)", () => {
    const counter = new StdoutTokenCounter('(?!)');
    expect([counter.push('O', 'srv  log_server_r: request: POST /v1/chat/completions'), counter.unit]).toEqual([
      0,
      'matches',
    ]);
  });

  it('refuses what the linear engine cannot run, in words, before the run starts', () => {
    expect(() => new StdoutTokenCounter('x{17}')).toThrow(
      'token pattern: it repeats too much to match in linear time (a count such as {17}): a token pattern runs over every line the engine prints and must match in linear time',
    );
    expect(() => new StdoutTokenCounter(String.raw`(a)\1`)).toThrow(
      /^token pattern: a back-reference \(\\1\) cannot be used/,
    );
  });
});
