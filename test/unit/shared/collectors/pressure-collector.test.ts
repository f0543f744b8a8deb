import { describe, expect, it } from 'vitest';
import { collectorSettingsProblem, planCollectors } from '../../../../shared/collectors/collector-plan';

/** The collectors these tests are about (the registry has others, each with its own tests). */
const OF_INTEREST = ['procfs', 'pressure'];
const ids = (start: Array<{ def: { id: string } }>) =>
  start.map((c) => c.def.id).filter((id) => OF_INTEREST.includes(id));

describe('pressure collector in the plan', () => {
  it("starts at 2 s by default (PSI_FREQ, the kernel's period), at the interval asked for, or not at all when turned off", () => {
    const plan = (collectors?: Record<string, { enabled?: boolean; intervalMs?: number }>) =>
      planCollectors({ intervalMs: 200, collectors }, { kernel: '6.1.0-rpi7-rpi-v8' })
        .start.filter((c) => OF_INTEREST.includes(c.def.id))
        .map((c) => [c.def.id, c.intervalMs]);
    expect(plan()).toEqual([
      ['procfs', 200],
      ['pressure', 2000],
    ]);
    expect(plan({ pressure: { intervalMs: 5000 } })).toEqual([
      ['procfs', 200],
      ['pressure', 5000],
    ]);
    expect(plan({ pressure: { enabled: false } })).toEqual([['procfs', 200]]);
  });

  it('is absent, with the reason, on a kernel before PSI (4.20); unknown facts leave it to the target', () => {
    const old = planCollectors({ intervalMs: 200 }, { kernel: '4.9.253-tegra' });
    expect(ids(old.start)).toEqual(['procfs']);
    expect(old.unavailable.filter((u) => OF_INTEREST.includes(u.id))).toEqual([
      {
        id: 'pressure',
        status: 'absent',
        reason:
          'kernel 4.9.253-tegra: no /proc/pressure/memory: the kernel has no pressure stall information (Linux 4.20+, not booted with psi=0)',
      },
    ]);
    expect(planCollectors({ intervalMs: 200 }, { kernel: '4.20.0' }).unavailable).toEqual([]);
    expect(ids(planCollectors({ intervalMs: 200 }, null).start)).toEqual(['procfs', 'pressure']);
  });

  it('an interval outside 500 ms..60 s is refused', () => {
    expect(collectorSettingsProblem({ pressure: { intervalMs: 100 } })).toBe(
      'pressure interval 100 ms is outside 500..60000 ms',
    );
    expect(collectorSettingsProblem({ pressure: { intervalMs: 500 } })).toBeNull();
  });
});
