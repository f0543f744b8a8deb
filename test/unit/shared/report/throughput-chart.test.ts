import { describe, expect, it } from 'vitest';
import { throughputChart } from '../../../../shared/report/report-charts';
import type { SessionRun } from '../../../../shared/report/session-data';

/** A run whose engine counted `tokens[i]` tokens at `tMs[i]` (the chart reads only the samples). */
const runOf = (tMs: number[], tokens: number[]) =>
  ({
    samples: tMs.map((t, i) => ({ tMs: t, source: 'engine', values: { tokens: tokens[i] } })),
  }) as unknown as SessionRun;

describe('tokens per second over time in a report', () => {
  it('a decode of a few milliseconds has no curve, and the report does not fail on it', () => {
    // A server turn: 8 tokens in 3 ms (CI's `--report` failed with "windowMs and stepMs must be positive").
    expect(throughputChart(runOf([100, 101, 102, 103], [0, 3, 6, 8]), null)).toBeNull();
  });

  it('a decode of seconds has one', () => {
    const t = Array.from({ length: 40 }, (_, i) => 1000 + i * 250);
    expect(
      throughputChart(
        runOf(
          t,
          t.map((_, i) => i * 4),
        ),
        null,
      )?.title,
    ).toBe('Tokens per second over time');
  });
});
