import { describe, expect, it } from 'vitest';
import { maxOf, minOf } from '../../../../shared/util/extremes';
import { markdownBlock, markdownCode } from '../../../../shared/report/escape';
import { buildReportModel } from '../../../../shared/report/report-model';
import { renderReportMarkdown } from '../../../../shared/report/render-markdown';
import { finishedRun, session } from '../../../helpers/session-fixtures';

/** More values than V8 takes as the arguments of one call (Math.max(...values) threw past ~120,000). */
const MANY = 500_000;

describe('extremes of many numbers', () => {
  it('max and min, with the bound when there are none', () => {
    expect(maxOf([3, -1, 7, 2])).toBe(7);
    expect(minOf([3, -1, 7, 2])).toBe(-1);
    expect(maxOf([], 0.001)).toBe(0.001);
    expect(minOf([])).toBe(Infinity);
    expect(maxOf([-5, -3], 0)).toBe(0);
    expect(maxOf(new Set([1, 9]))).toBe(9);
  });

  it(`${MANY} values: no stack overflow`, () => {
    const values = Array.from({ length: MANY }, (_, i) => i);
    expect(maxOf(values)).toBe(MANY - 1);
    expect(minOf(values)).toBe(0);
  });
});

describe('reports of runs with very many values', () => {
  it(`a run with ${MANY} events: the Markdown report is written`, () => {
    const events = Array.from({ length: MANY }, (_, i) => ({ tMs: i, kind: 'info' as const, message: 'm' }));
    const md = renderReportMarkdown(buildReportModel(session([finishedRun({ events })])));
    expect(md).toContain('# KVScope report');
  });

  it(`a label of ${MANY} backtick runs is one code span, fenced longer than any run`, () => {
    const text = '`` '.repeat(MANY);
    expect(markdownCode(text).startsWith('``` ``')).toBe(true);
    expect(markdownBlock(text).startsWith('```text\n')).toBe(true);
  });
});
