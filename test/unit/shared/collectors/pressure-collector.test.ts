import { describe, expect, it } from 'vitest';
import { collectorSettingsProblem, planCollectors } from '../../../../shared/collectors/collector-plan';

describe('pressure collector in the plan', () => {
  it('starts at 1 s by default, at the interval asked for, or not at all when turned off', () => {
    const plan = (collectors?: Record<string, { enabled?: boolean; intervalMs?: number }>) =>
      planCollectors({ intervalMs: 200, collectors }, { kernel: '6.1.0-rpi7-rpi-v8' }).start.map((c) => [
        c.def.id,
        c.intervalMs,
      ]);
    expect(plan()).toEqual([
      ['procfs', 200],
      ['pressure', 1000],
      ['cgroup', 200],
    ]);
    expect(plan({ pressure: { intervalMs: 5000 } })).toEqual([
      ['procfs', 200],
      ['pressure', 5000],
      ['cgroup', 200],
    ]);
    expect(plan({ pressure: { enabled: false } })).toEqual([
      ['procfs', 200],
      ['cgroup', 200],
    ]);
  });

  it('is absent, with the reason, on a kernel before PSI (4.20); unknown facts leave it to the target', () => {
    const old = planCollectors({ intervalMs: 200 }, { kernel: '4.9.253-tegra' });
    expect(old.start.map((c) => c.def.id)).toEqual(['procfs', 'cgroup']);
    expect(old.unavailable).toEqual([
      {
        id: 'pressure',
        status: 'absent',
        reason:
          'kernel 4.9.253-tegra: no /proc/pressure/memory: the kernel has no pressure stall information (Linux 4.20+, not booted with psi=0)',
      },
    ]);
    expect(planCollectors({ intervalMs: 200 }, { kernel: '4.20.0' }).unavailable).toEqual([]);
    expect(planCollectors({ intervalMs: 200 }, null).start.map((c) => c.def.id)).toEqual([
      'procfs',
      'pressure',
      'cgroup',
    ]);
  });

  it('an interval outside 500 ms..60 s is refused', () => {
    expect(collectorSettingsProblem({ pressure: { intervalMs: 100 } })).toBe(
      'pressure interval 100 ms is outside 500..60000 ms',
    );
    expect(collectorSettingsProblem({ pressure: { intervalMs: 500 } })).toBeNull();
  });
});
