import { describe, expect, it } from 'vitest';
import { capNumberedLines, cutReason } from '../../../../shared/parsers/line-cap';

describe('capNumberedLines', () => {
  it('hands each line its 1-based number; a line over the cap reaches the parser empty and becomes a diagnostic', () => {
    const seen: Array<[string, number]> = [];
    const parser = capNumberedLines(
      (text, line) => {
        seen.push([text, line]);
        return text === '' ? [] : [{ kind: 'echo', line }];
      },
      () => [{ kind: 'end', line: 0 }],
      8,
    );
    expect(parser.push('first')).toEqual([{ kind: 'echo', line: 1 }]);
    expect(parser.push('0123456789')).toEqual([
      { kind: 'diagnostic', line: 2, reason: cutReason(2, 8), text: '01234567' },
    ]);
    // Cut upstream by the line splitter: the same, counting what it dropped.
    expect(parser.push('abc', 5)).toEqual([{ kind: 'diagnostic', line: 3, reason: cutReason(5, 8), text: 'abc' }]);
    expect(parser.push('last')).toEqual([{ kind: 'echo', line: 4 }]);
    expect(parser.end()).toEqual([{ kind: 'end', line: 0 }]);
    expect(seen).toEqual([
      ['first', 1],
      ['', 2],
      ['', 3],
      ['last', 4],
    ]);
  });
});
