// End to end through the CLI: a demo run that crosses 80 % of a small budget raises the
// rss-budget alert (shared/analysis/alerts.ts, hooked into the run controller), and it is in
// `kvscope profile --json`'s events. Needs `npm run build` (the demo-engine bundle).
import { describe, expect, it } from 'vitest';
import { ProfileSummarySchema } from '../../../shared/api/schemas';
import { runCli } from '../../helpers/cli';

const MiB = 1024 * 1024;

describe('profile --json alerts', () => {
  it('reports the 80 % budget alert once, with the RSS that crossed it', async () => {
    // The demo's RSS starts near 74 MiB (64 MiB of weights + the runtime) and grows 32 KiB per
    // token (16 layers × 8 KV heads × 128 × 2 bytes): 2000 tokens end near 170 MiB, so a 200 MiB
    // budget is crossed at 80 % (160 MiB) but never at 100 %.
    const result = await runCli(
      ['profile', 'local', '--demo', '--tokens', '2000', '--tps', '500', '--budget', '200MiB', '--json'],
      { timeoutMs: 120_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    const summary = ProfileSummarySchema.parse(JSON.parse(result.stdout));
    const budgetAlerts = summary.events.filter(
      (e) => e.kind === 'alert' && (e.data as { rule?: string } | undefined)?.rule === 'rss-budget',
    );
    expect(budgetAlerts).toHaveLength(1);
    const [alert] = budgetAlerts;
    const data = alert?.data as { rssBytes: number; budgetBytes: number; severity: string };
    expect(data.budgetBytes).toBe(200 * MiB);
    expect(data.rssBytes).toBeGreaterThanOrEqual(160 * MiB);
    expect(data.rssBytes).toBeLessThan(200 * MiB);
    expect(data.severity).toBe('warning');
    expect(alert?.message).toMatch(/^RSS \d+\.\d MiB is 8\d % of the 200\.0 MiB memory budget \(alert at 80 %\)$/);
    // The RSS that crossed is a sample of the run: never above its peak.
    expect(summary.peakRssBytes).toBeGreaterThanOrEqual(data.rssBytes);
  }, 150_000);
});
