// A series' value as the reports' Board signals and the dashboard's readouts print it.
import { describe, expect, it } from 'vitest';
import { formatSeriesValue } from '../../../../shared/format/series-value';

describe('formatSeriesValue', () => {
  it('groups the digits of a count, a mean of counts included (it printed "152329.71" next to "10,108")', () => {
    expect(formatSeriesValue('count', 10_108)).toBe('10,108');
    // The mean of the twenty skb:kfree_skb readings of test/fixtures/perf/x86-tracepoint-interval-two-runs.
    expect(formatSeriesValue('count', 3_046_594.2 / 20)).toBe('152,329.71');
    expect(formatSeriesValue('count', 1.5)).toBe('1.50');
    expect(formatSeriesValue('count', -2_500.25)).toBe('-2,500.25');
    expect(formatSeriesValue('count', Number.NaN)).toBe('–');
  });
});
