import { describe, expect, it } from 'vitest';
import { inJsonString, scanJson, type JsonScan } from '../../../../shared/parsers/json-scan';

describe('scanJson', () => {
  it('ends at the closing brace of the object, across lines, ignoring braces and quotes inside strings', () => {
    const scan: JsonScan = { depth: 0, inString: false, escape: false };
    expect(scanJson(scan, '{"a": "}{", "b": {', 0)).toBe(-1);
    expect(scan.depth).toBe(2);
    expect(scanJson(scan, '"c": "say \\"}\\""}', 0)).toBe(-1);
    expect(scan.depth).toBe(1);
    expect(scanJson(scan, '} trailing text', 0)).toBe(1);
  });

  it('starts where it is told', () => {
    const scan: JsonScan = { depth: 0, inString: false, escape: false };
    const line = 'slot 0: timings = {"prompt_ms": 1.5}';
    expect(scanJson(scan, line, line.indexOf('{'))).toBe(line.length);
  });
});

describe('inJsonString', () => {
  it('keeps the string state one character at a time: quotes open and close, a backslash escapes one', () => {
    const state = { inString: false, escape: false };
    const seen = [...'a"b\\"c"d'].map((c) => inJsonString(state, c));
    expect(seen).toEqual([false, true, true, true, true, true, true, false]);
    expect(state).toEqual({ inString: false, escape: false });
  });
});
