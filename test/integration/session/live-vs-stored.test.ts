// The summary `profile --json` printed while the run ran equals, field by field, the summary
// recomputed from the session `--out` wrote: for a demo run, a two-size sweep and a run over SSH.
// Both are the run record's (shared/analysis/run-summary.ts, sweep-summary.ts), so they can only
// differ if the session does not hold exactly what the run saw.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSession } from '../../../electron/node/session/session-store';
import { buildReportModel } from '../../../shared/report/report-model';
import { sessionSweep, summarizeSession } from '../../../shared/report/session-data';
import { runCli } from '../../helpers/cli';
import { ensureKeyUser, sshCliTarget, startTrustedSshd, type Sshd } from '../../helpers/sshd';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-live-vs-stored-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FAST = ['--tps', '800', '--interval-ms', '50', '--weights-mb', '8', '--budget', '256MiB'];

/** Runs `kvscope profile … --out <file> --json`; returns what it printed and the file. */
async function profile(name: string, args: string[]) {
  const out = join(dir, `${name}.kvscope`);
  const r = await runCli(['profile', ...args, '--out', out, '--json']);
  if (r.code !== 0) throw new Error(`profile ${name} failed (${r.code}): ${r.stderr}`);
  return { printed: JSON.parse(r.stdout) as Record<string, unknown>, out };
}

/** Every field of the printed summary, one expectation each (the name says which one differs). */
function expectSameFields(stored: Record<string, unknown>, printed: Record<string, unknown>) {
  expect(Object.keys(stored).sort()).toEqual(Object.keys(printed).sort());
  for (const key of Object.keys(printed)) expect(stored[key], key).toEqual(printed[key]);
}

function recomputed(out: string): Record<string, unknown> {
  // As a script would see it: JSON, the way the CLI printed the live one.
  return JSON.parse(JSON.stringify(summarizeSession(readSession(out)))) as Record<string, unknown>;
}

describe('profile --json live equals the summary of the stored session', () => {
  it('a demo run', async () => {
    const { printed, out } = await profile('demo', ['local', '--demo', '--tokens', '400', ...FAST]);
    const collectors = printed.collectors as Record<string, unknown>;
    expect(collectors.procfs).toEqual({ status: 'ok', samples: printed.samples, diagnostics: 0 });
    expectSameFields(recomputed(out), printed);
  });

  it('a two-size sweep, sweep points included', async () => {
    const { printed, out } = await profile('sweep', [
      'local',
      '--demo',
      '--mode',
      'reserved',
      '--sweep',
      '512,1024',
      '--tokens',
      '100',
      ...FAST,
    ]);
    const sweep = printed.sweep as { points: Array<{ ctx: number; ok: boolean }>; stoppedEarly: string | null };
    expect(sweep.points.map((p) => [p.ctx, p.ok])).toEqual([
      [512, true],
      [1024, true],
    ]);
    expectSameFields(recomputed(out), printed);
    // The report of the session shows the same sweep.
    const data = readSession(out);
    expect(JSON.parse(JSON.stringify(sessionSweep(data)?.summary))).toEqual(printed.sweep);
    expect(JSON.parse(JSON.stringify(buildReportModel(data).sweep?.analysis.points))).toEqual(sweep.points);
  });

  describe('over SSH', () => {
    let sshd: Sshd;
    let knownHosts: string;
    let user: string;
    beforeAll(async () => {
      ({ sshd, knownHosts } = await startTrustedSshd());
      user = await ensureKeyUser();
    });
    afterAll(async () => {
      await sshd?.stop();
    });

    it('a demo run on the board', async () => {
      const { printed, out } = await profile('ssh', [
        ...sshCliTarget(sshd, knownHosts, user),
        '--demo',
        '--tokens',
        '300',
        ...FAST,
      ]);
      expect((printed.target as { kind: string }).kind).toBe('ssh');
      expectSameFields(recomputed(out), printed);
    });
  });
});
