// IPC and counts per generated token from perf samples and engine token samples, checked by hand.
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../../shared/api/schemas';
import { counterSummary, ipcOverTime } from '../../../../shared/analysis/counters';

const perf = (tMs: number, values: Sample['values']): Sample => ({ tMs, source: 'perf', values });
const tokens = (tMs: number, n: number): Sample => ({ tMs, source: 'engine', values: { tokens: n } });

describe('perf counters of a run', () => {
  it('IPC per interval and per PMU of a hybrid CPU, never mixed', () => {
    const samples = [
      perf(2000, { 'perf.cycles': 400, 'perf.instructions': 100 }),
      perf(1000, { 'perf.cpu_core.cycles': 1000, 'perf.cpu_core.instructions': 2500, 'perf.cpu_atom.cycles': 0 }),
      perf(3000, { 'perf.cycles': null, 'perf.instructions': 5 }),
    ];
    expect(ipcOverTime(samples)).toEqual([
      { tMs: 1000, pmu: 'cpu_core', ipc: 2.5 },
      { tMs: 2000, pmu: '', ipc: 0.25 },
    ]);
  });

  it('totals after the first sample, divided by the tokens generated in that window', () => {
    const samples = [
      tokens(500, 3),
      perf(1000, { 'perf.cycles': 999, 'perf.instructions': 999, 'perf.cache-misses': 999, 'perf.task-clockUs': 9 }),
      tokens(1500, 10),
      perf(2000, { 'perf.cycles': 1000, 'perf.instructions': 600, 'perf.cache-misses': 40, 'perf.task-clockUs': 300 }),
      tokens(2500, 20),
      perf(3000, {
        'perf.cycles': 3000,
        'perf.instructions': 1400,
        'perf.cache-misses': null,
        'perf.task-clockUs': 100,
      }),
      tokens(3500, 40),
    ];
    // Window (1000, 3000]: tokens 20 - 3 = 17; cycles 4000, instructions 2000 → IPC 0.5; misses 40.
    expect(counterSummary(samples)).toEqual({
      ipc: { '': 0.5 },
      tokens: 17,
      totals: { 'perf.cycles': 4000, 'perf.instructions': 2000, 'perf.cache-misses': 40, 'perf.task-clockUs': 400 },
      perToken: { 'perf.cycles': 4000 / 17, 'perf.instructions': 2000 / 17, 'perf.cache-misses': 40 / 17 },
    });
  });

  it('no tokens in the window: per-token counts are null; fewer than two perf samples: no summary', () => {
    const samples = [perf(1000, { 'perf.page-faults': 1 }), perf(2000, { 'perf.page-faults': 7 })];
    expect(counterSummary(samples)?.perToken).toEqual({ 'perf.page-faults': null });
    expect(counterSummary([perf(1000, { 'perf.page-faults': 1 }), tokens(1500, 4)])).toBeNull();
  });
});
