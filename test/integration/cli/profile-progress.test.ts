// `kvscope profile` progress on stderr (electron/node/cli/cli-progress.ts), read from a real demo
// run: progress lines with elapsed time, tokens, RSS and the OOM horizon, every alert of the run
// as its own line, stdout left to the one JSON document, and --quiet silencing all of it.
// Needs `npm run build` (the demo engine bundle).
import { describe, expect, it } from 'vitest';
import type { ProfileSummary } from '../../../shared/api/schemas';
import { runCli } from '../../helpers/cli';

/** ~1,200 tokens at 300 tok/s: a run of several seconds, so progress lines (every 2 s in a pipe) appear. */
const DEMO = [
  'profile',
  'local',
  '--demo',
  '--tokens',
  '1200',
  '--tps',
  '300',
  '--weights-mb',
  '8',
  '--interval-ms',
  '100',
];
/** Below the demo's peak (≈ 50 MiB + 1,200 × 32 KiB): both budget alerts (90 %, 100 %) fire. */
const BUDGET = ['--budget', '64MiB'];

const PROGRESS = /^kvscope profile: [\d.]+ (?:ms|s|min \d+ s) · [\d,]+ tokens · RSS (?:[\d.]+ [KMG]iB|–) · (.*)$/;

describe('kvscope profile progress on stderr', () => {
  it('shows elapsed time, tokens, RSS and the OOM horizon, and every alert as it fires; stdout is the JSON', async () => {
    const r = await runCli([...DEMO, ...BUDGET, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as ProfileSummary; // the whole of stdout is one document
    const lines = r.stderr.split('\n').filter(Boolean);

    const progress = lines.map((l) => PROGRESS.exec(l)).filter((m): m is RegExpExecArray => m !== null);
    expect(progress.length).toBeGreaterThan(0);
    for (const m of progress) expect(m[1]).toMatch(/^OOM horizon (?:[\d,]+ tokens|not known yet) \(budget 64.0 MiB\)$/);
    expect(progress.some((m) => /^OOM horizon [\d,]+ tokens/.test(m[1] ?? ''))).toBe(true);
    // Tokens only go up from one line to the next.
    const tokens = progress.map((m) => Number(/· ([\d,]+) tokens/.exec(m[0])?.[1]?.replace(/,/g, '')));
    expect([...tokens].sort((a, b) => a - b)).toEqual(tokens);

    const alerts = summary.events.filter((e) => e.kind === 'alert');
    // shared/analysis/alerts.ts: RSS at 80 % of the budget, and the horizon within reach.
    expect(alerts.some((a) => /of the 64\.0 MiB memory budget \(alert at 80 %\)$/.test(a.message ?? ''))).toBe(true);
    expect(alerts.some((a) => /memory budget is [\d,]+ tokens away/.test(a.message ?? ''))).toBe(true);
    for (const a of alerts) {
      const shown = lines.filter((l) => l.startsWith('kvscope profile: alert at ') && l.endsWith(`: ${a.message}`));
      expect(shown, a.message).toHaveLength(1);
    }
    // Alerts are printed when they fire, between progress lines, not gathered at the end.
    const firstAlert = lines.findIndex((l) => l.startsWith('kvscope profile: alert at '));
    expect(lines.slice(firstAlert).some((l) => PROGRESS.test(l))).toBe(true);
  }, 60_000);

  it('without --budget the horizon is against the memory available at the start (budgetSource memavailable)', async () => {
    const r = await runCli([...DEMO]);
    expect(r.code, r.stderr).toBe(0);
    const progress = r.stderr
      .split('\n')
      .map((l) => PROGRESS.exec(l))
      .filter((m): m is RegExpExecArray => m !== null);
    expect(progress.length).toBeGreaterThan(0);
    // MemAvailable at the first tick plus what the engine held then: this VM has GiBs free.
    for (const m of progress) expect(m[1]).toMatch(/^OOM horizon (not known yet|[\d,]+ tokens) \(budget [\d.]+ GiB\)$/);
    expect(r.stdout).toMatch(/^engine {8}kvscope demo-engine/);
  }, 60_000);

  it('--quiet prints nothing on stderr and the same summary on stdout', async () => {
    const r = await runCli([...DEMO, ...BUDGET, '--json', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const summary = JSON.parse(r.stdout) as ProfileSummary;
    expect(summary.throughput.tokens).toBe(1200);
    // The budget alert at 80 % fires in every such run (the horizon alert too, when it comes in reach).
    const alerts = summary.events.filter((e) => e.kind === 'alert').map((e) => e.message ?? '');
    expect(alerts.some((m) => /memory budget \(alert at 80 %\)$/.test(m))).toBe(true);
  }, 60_000);
});
