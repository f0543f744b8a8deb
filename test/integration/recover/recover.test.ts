// Nothing lost when the app dies (issue 10, item 4): the CLI is SIGKILLed mid-run on a real
// OpenSSH target; `kvscope recover` then turns what the run left on the target into a session
// holding every sample of the run, and removes the run directory.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import NodeWebSocket from 'ws';
import { readSession } from '../../../electron/node/session/session-store';
import { runCli } from '../../helpers/cli';
import { killAppMidRun as killAppOnTarget, runEnded, spoolCounts } from '../../helpers/left-run';
import { defined } from '../../helpers/defined';
import { startWebMode } from '../../helpers/web-mode';
import { makeTempDir, type Sshd, sshCliTarget, startTrustedSshd, waitFor } from '../../helpers/sshd';

const INTERVAL_MS = 200;
let sshd: Sshd;
let knownHosts: string;
/** The login's TMPDIR (sshd SetEnv): run directories of this test only, whatever else runs on the machine. */
let remoteTmp: string;

beforeAll(async () => {
  remoteTmp = await makeTempDir('kvscope-recover-tmp-');
  ({ sshd, knownHosts } = await startTrustedSshd({ extraConfig: [`SetEnv TMPDIR=${remoteTmp}`] }));
});

afterAll(async () => {
  await sshd?.stop();
});

/** The run directory a SIGKILLed `kvscope profile` left, in this test's TMPDIR. */
const killAppMidRun = async (demo: string[], watchdogS: number) => {
  const dir = await killAppOnTarget({ sshd, knownHosts, intervalMs: INTERVAL_MS }, demo, watchdogS);
  expect(dir.startsWith(remoteTmp)).toBe(true);
  return dir;
};

async function recover(outDir: string) {
  const r = await runCli(['recover', ...sshCliTarget(sshd, knownHosts), '--out', outDir, '--json']);
  expect(r.stderr).not.toMatch(/^kvscope recover:/m);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as {
    runs: Array<{ state: string; dir: string; session: string; samples: number; ageS: number }>;
  };
}

describe('kvscope recover', () => {
  it('--out naming a file: one line and status 2 before connecting (it was "EEXIST: file already exists, mkdir")', async () => {
    const folder = await makeTempDir('kvscope-recover-out-');
    const file = join(folder, 'notes.md');
    writeFileSync(file, 'notes\n');
    const r = await runCli(['recover', ...sshCliTarget(sshd, knownHosts), '--out', file]);
    rmSync(folder, { recursive: true, force: true });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `kvscope recover: --out ${file}: is a file; recover writes one session per run into a folder\n`,
    ]);
  });

  it('a run that ended by itself after the app was killed: every sample and token in the session, the run directory removed', async () => {
    // 300 tokens at 100/s end within seconds, long before a 60 s watchdog would fire.
    const dir = await killAppMidRun(['--tokens', '300', '--tps', '100'], 60);
    const spool = await runEnded(dir);
    const expected = spoolCounts(spool);
    expect(expected.tokens).toBe(300);

    const outDir = await makeTempDir('kvscope-recovered-');
    const result = await recover(outDir);
    const mine = result.runs.filter((r) => r.dir === dir);
    expect(mine).toHaveLength(1);
    const recovered = defined(mine[0], 'the run in the listing');
    expect(recovered.state).toBe('recovered');
    expect(recovered.ageS).toBeGreaterThanOrEqual(0);
    expect(existsSync(dir)).toBe(false);

    const session = readSession(recovered.session);
    expect(session.runs).toHaveLength(1);
    const run = defined(session.runs[0], 'the recovered run');
    expect(run.outcome).not.toBeNull();
    const ticks = run.samples.filter((s) => s.source === 'procfs');
    expect(ticks).toHaveLength(expected.procfsTicks);
    // None missing: consecutive ticks one interval apart (two at most: the target's 10 ms clock).
    const t = ticks.map((s) => s.tMs);
    expect(Math.max(...t.slice(1).map((v, i) => v - defined(t[i])))).toBeLessThanOrEqual(2 * INTERVAL_MS);
    // Whole run: the last tick is the spool's last, the token count the engine's.
    const spanMs = (defined(expected.tickTimesS.at(-1)) - defined(expected.tickTimesS[0])) * 1000;
    const ends = { spool: [expected.tickTimesS[0], expected.tickTimesS.at(-1)], session: [t[0], t.at(-1)] };
    expect(defined(t.at(-1)) - defined(t[0]), JSON.stringify(ends)).toBeCloseTo(spanMs, 0);
    expect(Math.max(...run.samples.map((s) => s.values.tokens ?? 0))).toBe(300);
    expect(run.analysis.kv.mode).toBe('growth');
  });

  it('a run the watchdog ended: the kept spool becomes a session up to the kill; the run directory removed', async () => {
    const dir = await killAppMidRun(['--tokens', '100000', '--tps', '50'], 2);
    const spool = await runEnded(dir);
    // The launcher kept only what recover needs.
    expect(readdirSync(dir).sort()).toEqual(['run.json', 'spool']);
    const expected = spoolCounts(spool);

    const outDir = await makeTempDir('kvscope-recovered-');
    const mine = (await recover(outDir)).runs.filter((r) => r.dir === dir);
    expect(mine.map((r) => r.state)).toEqual(['recovered']);
    expect(existsSync(dir)).toBe(false);
    const run = defined(readSession(defined(mine[0]).session).runs[0], 'the recovered run');
    expect(run.samples.filter((s) => s.source === 'procfs')).toHaveLength(expected.procfsTicks);
    expect(Math.max(...run.samples.map((s) => s.values.tokens ?? 0))).toBe(expected.tokens);
    expect(run.events.map((e) => e.message)).toContainEqual(expect.stringMatching(/watchdog ended the engine/));
    // A second recover finds nothing of it.
    expect((await recover(outDir)).runs.filter((r) => r.dir === dir)).toEqual([]);
  });

  it('browser mode: the server SIGKILLed during a run started through its API; recover makes the session', async () => {
    // The server reads the watchdog from its environment, as the CLI does; its app data folder is
    // the test's, so that the session the app recorded up to its death stays.
    const saved = { watchdog: process.env.KVSCOPE_WATCHDOG_S, home: process.env.KVSCOPE_HOME };
    const home = await makeTempDir('kvscope-recover-home-');
    process.env.KVSCOPE_WATCHDOG_S = '60';
    process.env.KVSCOPE_HOME = home;
    const web = await startWebMode().finally(() => {
      for (const [name, value] of [
        ['KVSCOPE_WATCHDOG_S', saved.watchdog],
        ['KVSCOPE_HOME', saved.home],
      ] as const)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    });
    let dir: string;
    try {
      const { runId } = (await apiCall(web.port, web.token, 'startRun', {
        target: {
          kind: 'ssh',
          host: sshd.host,
          port: sshd.port,
          user: sshd.user,
          identityFile: sshd.clientKey.privatePath,
          knownHostsFile: knownHosts,
        },
        engine: { kind: 'demo', demo: { weightsMb: 4, tokens: 300, tps: 100 } },
        intervalMs: INTERVAL_MS,
      })) as { runId: string };
      dir = join(remoteTmp, `kvscope-${runId}`);
      await waitFor(
        () => existsSync(join(dir, 'spool')) && readFileSync(join(dir, 'spool'), 'utf8').split('\nO ').length > 20,
        'tokens',
        30_000,
      );
    } finally {
      web.child.kill('SIGKILL');
    }
    const expected = spoolCounts(await runEnded(dir));
    expect(expected.tokens).toBe(300);

    // Into the app's own library, where its recording of the run, cut at the kill, already is (QA:
    // recover refused with "exists already (recovered before?): left in place", so the rest of the
    // run could never be had). That recording is kept aside; the whole run takes its name.
    const outDir = join(home, 'sessions');
    const runId = dir.slice(dir.lastIndexOf('/kvscope-') + '/kvscope-'.length);
    const own = join(outDir, `${runId}.kvscope`);
    const ownTicks = readSession(own).runs[0]?.samples.filter((s) => s.source === 'procfs').length ?? 0;
    const mine = (await recover(outDir)).runs.filter((r) => r.dir === dir);
    expect(mine.map((r) => [r.state, r.session])).toEqual([['recovered', own]]);
    expect(existsSync(dir)).toBe(false);
    const run = defined(readSession(own).runs[0], 'the recovered run');
    const ticks = run.samples.filter((s) => s.source === 'procfs');
    expect(ticks).toHaveLength(expected.procfsTicks);
    expect(ownTicks).toBeLessThan(expected.procfsTicks);
    const t = ticks.map((s) => s.tMs);
    expect(Math.max(...t.slice(1).map((v, i) => v - defined(t[i])))).toBeLessThanOrEqual(2 * INTERVAL_MS);
    expect(Math.max(...run.samples.map((s) => s.values.tokens ?? 0))).toBe(300);
    const kept = join(outDir, `${runId}.1.kvscope`);
    expect(readSession(kept).runs[0]?.samples.filter((s) => s.source === 'procfs')).toHaveLength(ownTicks);
    rmSync(home, { recursive: true, force: true });
  });
});

/** One API call over the browser-mode WebSocket, as a non-browser client (`?token=`). */
function apiCall(port: number, token: string, method: string, input: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const ws = new NodeWebSocket(`ws://127.0.0.1:${port}/api?token=${encodeURIComponent(token)}`);
    ws.once('open', () => ws.send(JSON.stringify({ id: 1, method, input })));
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: number; ok?: boolean; output?: unknown; error?: unknown };
      if (message.id !== 1) return;
      ws.close();
      if (message.ok) resolve(message.output);
      else reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
    });
    ws.once('error', reject);
  });
}
