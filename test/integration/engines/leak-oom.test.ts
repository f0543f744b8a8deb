// Leaks and OOM kills, with real processes and the kernel's own OOM killer.
//
// Leak: the demo engine in growth mode appends exactly kv_bytes_per_token per token; with
// `--leak 8192` it also keeps 8,192 touched bytes per token that no cache explains.
// Default demo shape 16 layers × 8 KV heads × 64 head_dim × f16:
//   2 × 16 × 8 × 64 × 2 B = 32,768 B/token; with the leak, RSS grows 32,768 + 8,192 = 40,960 B/token.
//
// OOM: the same engine runs inside a cgroup v1 memory group with a limit (docs/DEVELOPING.md, "The test machine");
// the kernel kills it (SIGKILL, exit 137) and logs "Memory cgroup out of memory: Killed process
// <pid>", which the launcher turns into an `oom` event. A run of the same engine without the
// limit, given the limit as --budget, predicts the token at which that happens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { runCli } from '../../helpers/cli';
import { makeTempDir } from '../../helpers/sshd';
import { demoEngineBundle } from '../../../electron/node/demo-engine/demo-engine-bundle';
import { demoEngineConfig } from '../../../electron/node/demo-engine/demo-config';
import { DemoOptionsSchema, type DemoOptionsInput } from '../../../shared/api/schemas';
import { shellJoin } from '../../../shared/util/shell';

const FAST = ['--tps', '750', '--interval-ms', '50', '--weights-mb', '8'];

async function profile(args: string[]) {
  const r = await runCli(['profile', 'local', '--json', ...args]);
  if (r.code !== 0) throw new Error(`kvscope profile failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

describe('leak detection', () => {
  it('the demo engine with --leak 8192 in growth mode is flagged, with the excess it leaks', async () => {
    const s = await profile(['--demo', '--mode', 'growth', '--leak', '8192', '--tokens', '1500', ...FAST]);
    expect(s.kv.theoryBytesPerToken).toBe(32768);
    expect(s.kv.mode).toBe('growth');
    // RSS slope 32,768 + 8,192 = 40,960 B/token (the demo is accurate to 2 % on its slope).
    expect(Math.abs(s.kv.measuredBytesPerToken / 40960 - 1)).toBeLessThan(0.03);
    expect(s.leak.leaking).toBe(true);
    // The excess over the cache: 8,192 B/token (± the 2 % of 40,960 = 819 B the slope may be off).
    expect(Math.abs(s.leak.bytesPerToken - 8192)).toBeLessThan(819);
    expect(s.leak.confidence).toBeGreaterThan(0.5);
  });

  it('without --leak it is not', async () => {
    const s = await profile(['--demo', '--mode', 'growth', '--tokens', '1500', ...FAST]);
    expect(Math.abs(s.kv.measuredBytesPerToken / 32768 - 1)).toBeLessThan(0.02);
    expect(s.leak.leaking).toBe(false);
    expect(s.leak.tokensObserved).toBeGreaterThan(1000);
  });
});

describe('a real OOM kill in a cgroup v1 memory group', () => {
  const CGROUP_ROOT = '/sys/fs/cgroup/memory';
  const group = join(CGROUP_ROOT, `kvscope-test-oom-${randomBytes(4).toString('hex')}`);
  const LIMIT_BYTES = 1024 * 1024 * 1024;
  let engineFile: string;

  /** The demo engine exactly as `profile --demo` runs it, as an --engine command. */
  function demoCommand(options: DemoOptionsInput): string {
    const config = demoEngineConfig(DemoOptionsSchema.parse(options));
    return shellJoin([process.execPath, engineFile, JSON.stringify(config)]);
  }

  beforeAll(async () => {
    if (!existsSync(join(CGROUP_ROOT, 'memory.limit_in_bytes'))) {
      throw new Error(
        `this test needs the cgroup v1 memory controller at ${CGROUP_ROOT}, as root (docs/DEVELOPING.md, "The test machine")`,
      );
    }
    const dir = await makeTempDir('kvscope-oom-');
    engineFile = join(dir, 'demo-engine.cjs');
    writeFileSync(engineFile, await demoEngineBundle(), { mode: 0o700 });
    mkdirSync(group);
    writeFileSync(join(group, 'memory.limit_in_bytes'), String(LIMIT_BYTES));
  });

  afterAll(() => {
    if (!existsSync(group)) return;
    // Anything still in the group goes back to the root group, then the group goes.
    for (const pid of readFileSync(join(group, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
      try {
        writeFileSync(join(CGROUP_ROOT, 'cgroup.procs'), pid);
      } catch {
        // gone meanwhile
      }
    }
    rmdirSync(group);
  });

  it('the kill is recorded (oom event, SIGKILL, oomKilled) and the predicted OOM horizon is within 10 % of where it died', async () => {
    // 64 layers × 8 KV heads × 64 × f16: 2 × 64 × 8 × 64 × 2 = 131,072 B/token. Large per-token
    // growth keeps the 1 GiB limit a few thousand tokens away, and makes what the horizon cannot
    // see small: it extrapolates total RSS, while the cgroup charges the process's anonymous
    // memory — Node's ≈ 37 MiB of file-backed pages (shared binary and libraries) are ≈ 300 tokens
    // of 131,072 B, ≈ 4 % of the ≈ 7,800 tokens at which it dies.
    const shape = {
      mode: 'growth' as const,
      layers: 64,
      kvHeads: 8,
      headDim: 64,
      kvType: 'f16' as const,
      tps: 1500,
      weightsMb: 8,
    };

    // The limited run: the engine joins the group, then becomes the demo engine (same pid).
    const r = await runCli([
      'profile',
      'local',
      '--json',
      '--engine',
      `echo $$ > ${group}/cgroup.procs && exec ${demoCommand({ ...shape, tokens: 100_000 })}`,
      '--interval-ms',
      '50',
    ]);
    // A run whose engine the kernel killed failed: exit status 1, and still the full summary.
    expect(r.code).toBe(1);
    const limited = JSON.parse(r.stdout);
    expect(limited.engine.oomKilled).toBe(true);
    expect(limited.engine.error).toMatch(/OOM killer/);
    expect(limited.engine.signal).toBe('SIGKILL');
    expect(limited.engine.exitCode).toBeNull();
    const oom = limited.events.find((e: { kind: string }) => e.kind === 'oom');
    expect(oom.message).toMatch(/Memory cgroup out of memory: Killed process \d+/);
    const diedAtTokens = limited.throughput.tokens;
    // It died on the way: far from the 100,000 asked for, after the budget's worth of tokens began.
    expect(diedAtTokens).toBeGreaterThan(1000);
    expect(diedAtTokens).toBeLessThan(LIMIT_BYTES / 131072);
    expect(
      Number(readFileSync(join(group, 'memory.oom_control'), 'utf8').match(/oom_kill (\d+)/)?.[1]),
    ).toBeGreaterThanOrEqual(1);

    // The same engine without the limit, told the limit as its budget, stopping well before it.
    const free = await profile([
      '--engine',
      demoCommand({ ...shape, tokens: 3000 }),
      '--budget',
      String(LIMIT_BYTES),
      '--interval-ms',
      '50',
    ]);
    expect(free.engine.oomKilled).toBe(false);
    expect(free.kv.mode).toBe('growth');
    expect(free.oomHorizonTokens).toBeGreaterThan(3000);
    expect(Math.abs(free.oomHorizonTokens / diedAtTokens - 1)).toBeLessThan(0.1);
  });
});
