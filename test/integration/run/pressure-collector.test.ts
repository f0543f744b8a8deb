// The pressure collector end to end on this machine (kernel 6.x, /proc/pressure present): a real
// local run samples it, `profile --json` reports it, the session stores its series, the CSV export
// has a column per series and the UI's series panel lists them with their units.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSession } from '../../../electron/node/session/session-store';
import { seriesReadouts, updateLatest, type LatestValues } from '../../../renderer/src/live/series-readouts';
import { runCli } from '../../helpers/cli';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-pressure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => join(dir, name);
const DEMO = ['local', '--demo', '--tokens', '1200', '--tps', '600', '--interval-ms', '100', '--weights-mb', '8'];

interface Printed {
  collectors?: Record<string, { status: string; samples: number; diagnostics: number; reason?: string }>;
}

describe('the pressure collector in a real local run', () => {
  it('is sampled, reported, stored, exported and listed', async () => {
    const out = at('pressure.kvscope');
    const r = await runCli(['profile', ...DEMO, '--pressure-interval-ms', '500', '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const printed = JSON.parse(r.stdout) as Printed;
    const status = printed.collectors?.pressure;
    expect(status?.status).toBe('ok');
    expect(status?.diagnostics).toBe(0);
    expect(status?.samples).toBeGreaterThanOrEqual(2);

    const run = readSession(out).runs[0];
    const stored = run?.samples.filter((s) => s.source === 'pressure') ?? [];
    expect(stored).toHaveLength(status?.samples ?? -1);
    for (const s of stored) {
      expect(typeof s.values.load1).toBe('number');
      expect(typeof s.values['psi.memory.some.avg10Pct']).toBe('number');
      expect(typeof s.values['psi.memory.full.totalUs']).toBe('number');
    }

    await runCli(['report', out, '--format', 'csv', '-o', at('samples.csv')]);
    const header = readFileSync(at('samples.csv'), 'utf8').split('\r\n')[0]?.split(',') ?? [];
    expect(header).toEqual(expect.arrayContaining(['load1', 'psi.memory.some.avg10Pct', 'psi.cpu.some.totalUs']));

    const latest: LatestValues = {};
    updateLatest(latest, run?.samples ?? []);
    const listed = seriesReadouts(latest);
    const memory = listed.find((s) => s.key === 'psi.memory.some.avg10Pct');
    expect(memory).toMatchObject({ sourceId: 'pressure', unit: 'pct' });
    expect(memory?.value).toMatch(/^\d+\.\d %$/);
    expect(listed.find((s) => s.key === 'load1')).toMatchObject({ sourceId: 'pressure', unit: 'count' });
  });

  it('--no-pressure leaves it out; an interval out of its range is refused before anything runs', async () => {
    const off = await runCli(['profile', ...DEMO, '--no-pressure', '--json']);
    expect(off.code, off.stderr).toBe(0);
    const reported = Object.keys((JSON.parse(off.stdout) as Printed).collectors ?? {});
    expect(reported).toContain('procfs');
    expect(reported).not.toContain('pressure');
    const bad = await runCli(['profile', ...DEMO, '--pressure-interval-ms', '100']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('kvscope profile: pressure interval 100 ms is outside 500..60000 ms\n');
  });

  it('profile --help lists its switch and interval', async () => {
    const help = await runCli(['profile', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--no-pressure');
    expect(help.stdout).toMatch(/--pressure-interval-ms <N> +CPU load.* every N ms \(500\.\.60000, default 2000\)/);
  });
});
