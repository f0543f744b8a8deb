// `kvscope profile local --demo` end to end through the real CLI: launcher, sampler, spool,
// analysis. The demo engine's true bytes per token are known, so these runs measure the
// profiler's own accuracy (issue #2 acceptance: growth within 2 %, reserved jump within 5 %).
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSession } from '../../../electron/node/session/session-store';
import { describe, expect, it } from 'vitest';
import { processesMatching, profileArgs, runCli, startCli } from '../../helpers/cli';

const FAST = ['--tps', '750', '--interval-ms', '50', '--weights-mb', '8'];

async function profile(args: string[]) {
  const r = await runCli(['profile', 'local', '--demo', '--json', ...FAST, ...args]);
  if (r.code !== 0) throw new Error(`kvscope profile failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function runDir(stderr: string): string {
  const m = /run directory (\S+)/.exec(stderr);
  if (m?.[1] === undefined) throw new Error(`no run directory in: ${stderr}`);
  return m[1];
}

describe('profile local --demo', () => {
  // Shapes: Llama-3.2-1B-like (16 layers × 8 KV heads × 64, f16 → 32,768 B/token) and a
  // Llama-3-8B-like GQA cache at q8_0 (32 × 8 × 128 → 32 × 8 × 2 × 136 = 69,632 B/token).
  const cases: Array<{ name: string; args: string[]; bytesPerToken: number }> = [
    { name: '1B f16, block 1', args: ['--block', '1'], bytesPerToken: 32768 },
    { name: '1B f16, block 16', args: ['--block', '16'], bytesPerToken: 32768 },
    { name: '1B f16, block 64', args: ['--block', '64'], bytesPerToken: 32768 },
    {
      name: '8B q8_0, block 16',
      args: ['--layers', '32', '--kv-heads', '8', '--head-dim', '128', '--kv-type', 'q8_0', '--block', '16'],
      bytesPerToken: 69632,
    },
  ];
  for (const c of cases) {
    it(`growth mode, ${c.name}: measured bytes/token within 2 % of theory`, async () => {
      const s = await profile(['--tokens', '3000', '--mode', 'growth', ...c.args]);
      expect(s.kv.theoryBytesPerToken).toBe(c.bytesPerToken);
      expect(s.kv.mode).toBe('growth');
      expect(Math.abs(s.kv.measuredBytesPerToken / c.bytesPerToken - 1)).toBeLessThan(0.02);
      expect(s.engine.exitCode).toBe(0);
      expect(s.throughput.tokens).toBe(3000);
      expect(s.lostSamples).toBe(0);
      expect(s.diagnostics).toBe(0);
      expect(s.samples).toBeGreaterThan(50);
      expect(s.events.map((e: { kind: string }) => e.kind)).toEqual(['start', 'exit']);
    });
  }

  it('reserved mode: says so, and the jump at start is n_ctx × bytes/token within 5 %', async () => {
    const s = await profile(['--tokens', '1500', '--mode', 'reserved', '--ctx', '4096']);
    expect(s.kv.mode).toBe('reserved');
    // 4096 cells × 32,768 B = 134,217,728 B.
    expect(Math.abs(s.kv.reservedJumpBytes / 134217728 - 1)).toBeLessThan(0.05);
  });

  it('window mode: the cache stops growing at the window', async () => {
    const s = await profile(['--tokens', '3000', '--mode', 'window', '--window', '1000', '--block', '16']);
    expect(s.kv.mode).toBe('window');
    // Grows at theory until 1000 cells (32,768,000 B), flat after.
    expect(Math.abs(s.kv.measuredBytesPerToken / 32768 - 1)).toBeLessThan(0.05);
  });

  it('an OOM horizon and a max safe context follow from the budget', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kvscope-horizon-'));
    const out = join(dir, 'run.kvscope');
    const s = await profile(['--tokens', '2000', '--mode', 'growth', '--budget', '512MiB', '--out', out]);
    expect(s.budgetBytes).toBe(536870912);
    expect(s.budgetSource).toBe('flag');
    expect(s.throughput.tokens).toBe(2000);
    // Independent expectation: from the peak anonymous RSS the sampler recorded (what the kernel
    // charges; the file-backed pages it drops before it kills), the rest of the budget at the
    // demo's true 32,768 B/token, after the 2000 tokens already generated.
    const anon = readSession(out).runs[0]?.samples.map((x) => x.values.rssAnonBytes ?? 0) ?? [];
    rmSync(dir, { recursive: true, force: true });
    const expected = 2000 + (536870912 - Math.max(...anon)) / 32768;
    expect(Math.abs(s.oomHorizonTokens / expected - 1)).toBeLessThan(0.05);
    // Max safe context: the whole context fits in the budget above the baseline.
    expect(s.maxSafeContextTokens).toBeGreaterThan(2000);
    expect(s.maxSafeContextTokens).toBeLessThan(536870912 / 32768);
  });

  it('an engine that fails is reported with its status and a non-zero exit', async () => {
    const r = await runCli(profileArgs('local', 'echo starting >&2; exit 3', '--json', '--interval-ms', '50'));
    expect(r.code).toBe(1);
    const s = JSON.parse(r.stdout);
    expect(s.engine.exitCode).toBe(3);
    expect(s.events.some((e: { kind: string }) => e.kind === 'exit')).toBe(true);
  });

  it('the engine runs in the directory kvscope was started from: relative paths work', async () => {
    // package.json exists in the project root (the CLI's working directory), not in the run directory.
    const r = await runCli(profileArgs('local', 'test -f package.json && echo found', '--json', '--interval-ms', '50'));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).engine.exitCode).toBe(0);
  });

  it('a missing target option is one line on stderr and exit status 2', async () => {
    const r = await runCli(['profile', 'local', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('Ctrl-C stops the engine group and leaves nothing behind', async () => {
    const child = startCli([
      'profile',
      'local',
      '--demo',
      '--tokens',
      '1000000',
      '--tps',
      '50',
      '--weights-mb',
      '4',
      '--json',
    ]);
    let stderr = '';
    let stdout = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.stdout!.on('data', (d) => (stdout += d));
    await waitFor(() => /run directory/.test(stderr) && stderr.includes('tokens'), 20_000);
    const dir = runDir(stderr);
    expect((await processesMatching(dir)).length).toBeGreaterThan(0);
    child.kill('SIGINT');
    const code = await new Promise((r) => child.on('close', r));
    expect(code).toBe(0);
    const s = JSON.parse(stdout);
    expect(s.events.map((e: { kind: string }) => e.kind)).toContain('stop');
    expect(s.engine.signal).toBe('SIGTERM');
    expect(await processesMatching(dir)).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });

  it('when the app is killed, the target-side watchdog ends the engine and keeps only what recover imports', async () => {
    const child = startCli(['profile', 'local', '--demo', '--tokens', '1000000', '--tps', '50', '--weights-mb', '4'], {
      KVSCOPE_WATCHDOG_S: '2',
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    await waitFor(() => /run directory/.test(stderr), 20_000);
    const dir = runDir(stderr);
    await waitFor(async () => (await processesMatching(`${dir}/demo-engine.cjs`)).length > 0, 10_000);
    child.kill('SIGKILL');
    // electron/node/run/run-scripts.ts: the spool and run.json stay for `kvscope recover`.
    const kept = () => (existsSync(dir) ? readdirSync(dir).sort().join(',') : '');
    await waitFor(async () => (await processesMatching(dir)).length === 0 && kept() === 'run.json,spool', 20_000);
    expect(await processesMatching(dir)).toEqual([]);
    rmSync(dir, { recursive: true });
  });
});

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out waiting');
}
