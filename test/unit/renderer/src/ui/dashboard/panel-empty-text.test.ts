// The Power and counters panel's empty state says what is true of the run (QA: on this VM it said
// "No power rails or performance counters collected" while All series listed perf's page-faults,
// context-switches and task-clock).
import { describe, expect, it } from 'vitest';
import { EMPTY_TEXT, powerEmptyText } from '../../../../../../renderer/src/ui/dashboard/panel-empty-text';

describe('powerEmptyText', () => {
  it("names perf's software events where perf counted only those, and where to find them", () => {
    const text = powerEmptyText(['rssBytes', 'perf.page-faults', 'perf.context-switches', 'perf.task-clockUs']);
    expect(text).not.toBe(EMPTY_TEXT.power);
    expect(text).toMatch(
      /^No power rails or hardware counters from this target: perf counted only its software events/,
    );
    expect(text).toContain('see All series');
  });

  it('says nothing was collected when nothing of perf is in the run', () => {
    expect(powerEmptyText(['rssBytes', 'cpuBusyPct'])).toBe(EMPTY_TEXT.power);
    expect(powerEmptyText([])).toBe(EMPTY_TEXT.power);
  });
});
